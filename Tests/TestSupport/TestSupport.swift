import FZCodecs
import FZFormat
import FZImage
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Paths and scratch folders shared by the tests.
package enum TestSupport {
    /// The repository root, from this file's location.
    package static let root: String = {
        var p = #filePath
        for _ in 0..<3 { p = FileSystem.directory(of: p) }  // TestSupport -> Tests -> root
        return p
    }()

    package static func path(_ relative: String) -> String { FileSystem.join(root, relative) }

    /// A committed fixture's path (Fixtures/generated, made by `make fixtures`).
    package static func fixturePath(_ name: String) -> String { path("Fixtures/generated/\(name)") }

    /// A committed fixture decoded, upright unless `autoOrient` is false.
    package static func decodeFixture(_ name: String, autoOrient: Bool = true) throws -> Image {
        var o = DecodeOptions()
        o.autoOrient = autoOrient
        return try ImageReader(path: fixturePath(name), options: o).readImage()
    }

    /// A fresh scratch folder under /tmp.
    package static func scratch() -> String {
        var template = Array("/tmp/fz-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Runs a shell command, returning its exit status.
    @discardableResult
    package static func shell(_ command: String) -> Int32 {
        let status = system(command)
        return (status >> 8) & 0xFF
    }

    /// Reads a binary P6/P5 PNM (maxval 255) as an image.
    package static func readPNM(_ path: String) -> Image? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        var i = 0
        func token() -> String {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "#") {
                    while i < bytes.count && bytes[i] != 10 { i += 1 }
                } else if [9, 10, 13, 32].contains(bytes[i]) {
                    i += 1
                } else {
                    break
                }
            }
            var s = ""
            while i < bytes.count && ![9, 10, 13, 32].contains(bytes[i]) {
                s.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            return s
        }
        let magic = token()
        guard let w = Int(token()), let h = Int(token()), token() == "255" else { return nil }
        i += 1
        let format: PixelFormat = magic == "P6" ? .rgb : .gray
        let count = w * h * format.channels
        guard bytes.count >= i + count else { return nil }
        return Image(width: w, height: h, format: format, pixels: Array(bytes[i..<(i + count)]))
    }

    /// The largest per-channel difference between two images of one size and format.
    package static func maxDifference(_ a: Image, _ b: Image) -> Int {
        precondition(a.size == b.size && a.format == b.format)
        var m = 0
        for i in 0..<a.pixels.count { m = max(m, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
        return m
    }
}
