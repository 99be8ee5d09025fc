import FZSystem

/// The kitty graphics protocol's "transmit and display" of a PNG: `ESC _G a=T,f=100 ... ESC \`,
/// the base64 payload cut into chunks of 4096 bytes (the protocol's limit), each but the last
/// marked `m=1`. `q=2` asks the terminal not to answer: an answer would arrive as typed input.
public enum KittyEncoder {
    public static let chunk = 4096

    /// The escape sequences that show `png` (a PNG file's bytes) at the cursor.
    public static func encode(png: [UInt8]) -> [UInt8] {
        let text = Base64.encode(png)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + text.count / chunk * 16 + 32)
        var start = 0
        repeat {
            let end = min(start + chunk, text.count)
            let more = end < text.count
            out += Array("\u{1B}_G".utf8)
            if start == 0 { out += Array("a=T,f=100,q=2,".utf8) }
            out += Array((more ? "m=1;" : "m=0;").utf8)
            out += text[start..<end]
            out += Array("\u{1B}\\".utf8)
            start = end
        } while start < text.count
        return out
    }
}
