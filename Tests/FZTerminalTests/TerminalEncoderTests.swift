import Foundation
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZPNG
@testable import FZSystem
@testable import FZTerminal
@testable import Geometry

/// Each protocol's bytes decoded independently: kitty's and iTerm2's base64 by Foundation and
/// the PNG by Pillow, sixel by libsixel's sixel2png, blocks by parsing the SGR of each cell.
struct TerminalEncoderTests {
    static let checker = TestSupport.path("Tools/term/check_pixels.py")
    static var sixel2png: Bool { TestSupport.shell("command -v sixel2png >/dev/null") == 0 }

    /// A picture with `colors` distinct colours (at most 256 take the percent levels sixel
    /// stores exactly), or a smooth gradient of thousands.
    static func picture(width: Int = 37, height: Int = 23, colors: Int?) -> Image {
        var image = Image(width: width, height: height, format: .rgb)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                if let colors {
                    let k = (x * 7 + y * 13) % colors
                    // Percent levels p -> round(p * 255 / 100): the values sixel carries exactly.
                    let level = { (p: Int) in UInt8((p * 255 + 50) / 100) }
                    image.pixels[i] = level(k % 101)
                    image.pixels[i + 1] = level((k * 37) % 101)
                    image.pixels[i + 2] = level((k / 3) % 101)
                } else {
                    image.pixels[i] = UInt8(x * 255 / (width - 1))
                    image.pixels[i + 1] = UInt8(y * 255 / (height - 1))
                    image.pixels[i + 2] = UInt8((x + y) * 255 / (width + height - 2))
                }
            }
        }
        return image
    }

    static func base64Decode(_ text: [UInt8]) -> [UInt8]? {
        Data(base64Encoded: Data(text)).map { [UInt8]($0) }
    }

    /// The payload of kitty's chunks, and whether every rule held (size, m= flags, a=T,f=100).
    static func kittyPayload(_ bytes: [UInt8]) -> (payload: [UInt8], chunks: Int, wellFormed: Bool) {
        let text = String(decoding: bytes, as: UTF8.self)
        var payload: [UInt8] = []
        var ok = true
        let parts = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        for (i, part) in parts.enumerated() {
            guard part.hasPrefix("\u{1B}_G"), let semi = part.firstIndex(of: ";") else { return ([], 0, false) }
            let control = part[part.index(part.startIndex, offsetBy: 3)..<semi]
            let data = Array(part[part.index(after: semi)...].utf8)
            ok = ok && data.count <= KittyEncoder.chunk
            ok = ok && control.contains(i == parts.count - 1 ? "m=0" : "m=1")
            if i == 0 { ok = ok && control.contains("a=T") && control.contains("f=100") }
            payload += data
        }
        return (payload, parts.count, ok)
    }

    @Test func base64MatchesFoundation() {
        for n in 0..<10 {
            let bytes = (0..<n).map { UInt8(($0 * 97 + 13) % 256) }
            #expect(Base64.encode(bytes) == Array(Data(bytes).base64EncodedString().utf8))
        }
    }

    @Test func kittyPayloadIsThePNGInChunks() throws {
        let image = Self.picture(width: 120, height: 90, colors: nil)
        let png = try PNGWriter.encode(image, settings: .compression(1))
        let bytes = KittyEncoder.encode(png: png)
        let (payload, chunks, wellFormed) = Self.kittyPayload(bytes)
        #expect(wellFormed)
        #expect(chunks > 1, "a picture this size spans several 4096-byte chunks")
        #expect(Self.base64Decode(payload) == png)
    }

    @Test func itermSequenceCarriesThePNGAndItsSize() throws {
        let image = Self.picture(width: 31, height: 17, colors: 40)
        let png = try PNGWriter.encode(image, settings: .compression(1))
        let text = String(decoding: ITermEncoder.encode(png: png, width: 31, height: 17), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;size=\(png.count);width=31px;height=17px"))
        #expect(text.hasSuffix("\u{07}"))
        let data = text.split(separator: ":").last!.dropLast()
        #expect(Self.base64Decode(Array(data.utf8)) == png)
    }

    @Test func quantizerIsExactUpTo256Colors() {
        let image = Self.picture(colors: 256)
        let q = PaletteQuantizer(rgb: image)
        #expect(q.exact && q.palette.count <= 256)
        for i in 0..<(image.width * image.height) {
            let c = q.palette[Int(q.indices[i])]
            #expect([c.x, c.y, c.z] == Array(image.pixels[(3 * i)..<(3 * i + 3)]))
        }
        let photo = PaletteQuantizer(rgb: Self.picture(width: 200, height: 150, colors: nil))
        #expect(!photo.exact && photo.palette.count == 256)
    }

    @Test func sixelPercentRegisters() {
        #expect(SixelEncoder.percent(255) == 100)
        #expect(SixelEncoder.percent(0) == 0)
        #expect(SixelEncoder.percent(128) == 50)
    }

    func decodeSixel(_ image: Image) throws -> [String: Any] {
        let dir = TestSupport.scratch()
        let ref = FileSystem.join(dir, "ref.png")
        let stream = FileSystem.join(dir, "image.six")
        let report = FileSystem.join(dir, "r.json")
        try ImageWriter.write(image, to: ref)
        let bytes = SixelEncoder.encode(rgb: image)
        FileManager.default.createFile(atPath: stream, contents: Data(bytes))
        #expect(TestSupport.shell("/usr/bin/python3 '\(Self.checker)' sixel '\(stream)' '\(ref)' > '\(report)'") == 0)
        let data = try #require(FileManager.default.contents(atPath: report))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(.enabled(if: sixel2png)) func sixelIsExactAtMost256Colors() throws {
        for colors in [1, 2, 17, 256] {
            let r = try decodeSixel(Self.picture(width: 41, height: 19, colors: colors))
            #expect(r["exact"] as? Bool == true, "\(colors) colours: \(r)")
            #expect(r["maxError"] as? Int == 0, "percent-level colours come back exactly: \(r)")
        }
        // White is written as 100%, so it comes back as 255 (img2sixel 1.10 gives 247).
        let white = Image(width: 8, height: 7, format: .rgb, fill: .white)
        #expect(try decodeSixel(white)["maxError"] as? Int == 0)
    }

    @Test(.enabled(if: sixel2png)) func sixelOfAPhotoIsClose() throws {
        let r = try decodeSixel(Self.picture(width: 160, height: 120, colors: nil))
        // Median cut to 256 colours, no dithering: measured 34.3 dB on this gradient (PSNR through sixel2png).
        let psnr = try #require(r["psnr"] as? Double)
        #expect(psnr > 30, "\(r)")
    }

    /// The cells' colours, parsed from the SGR sequences as a terminal would.
    static func parseBlocks(_ bytes: [UInt8], palette: Bool = false) -> [[(SIMD3<Int>, SIMD3<Int>?)]] {
        let text = String(decoding: bytes, as: UTF8.self)
        var rows: [[(SIMD3<Int>, SIMD3<Int>?)]] = []
        var row: [(SIMD3<Int>, SIMD3<Int>?)] = []
        var fg = SIMD3<Int>(-1, -1, -1)
        var bg: SIMD3<Int>? = nil
        var scalars = Array(text.unicodeScalars)[...]
        while let s = scalars.first {
            scalars = scalars.dropFirst()
            if s == "\u{1B}" {
                var body = ""
                scalars = scalars.dropFirst()  // [
                while let c = scalars.first, c != "m" {
                    body.unicodeScalars.append(c)
                    scalars = scalars.dropFirst()
                }
                scalars = scalars.dropFirst()
                let n = body.split(separator: ";").map { Int($0)! }
                if n == [0] || n == [49] {
                    if n == [49] { bg = nil }
                    continue
                }
                let color = n[1] == 2 ? SIMD3(n[2], n[3], n[4]) : SIMD3(n[2], -1, -1)
                if n[0] == 38 { fg = color } else { bg = color }
            } else if s == "\u{2580}" {
                row.append((fg, bg))
            } else if s == "\n" {
                rows.append(row)
                row = []
            }
        }
        return rows
    }

    @Test func blocksCarryEachPixelPair() {
        let image = Self.picture(width: 13, height: 9, colors: nil)
        let cells = Self.parseBlocks(BlockEncoder.encode(rgb: image, depth: .trueColor))
        #expect(cells.count == 5 && cells.allSatisfy { $0.count == 13 })
        func pixel(_ x: Int, _ y: Int) -> SIMD3<Int> {
            let i = (y * 13 + x) * 3
            return SIMD3(Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
        }
        for (r, row) in cells.enumerated() {
            for (x, cell) in row.enumerated() {
                #expect(cell.0 == pixel(x, 2 * r))
                #expect(cell.1 == (2 * r + 1 < 9 ? pixel(x, 2 * r + 1) : nil))
            }
        }
        let palette = Self.parseBlocks(BlockEncoder.encode(rgb: image, depth: .palette256))
        #expect(
            palette[1][3].0.x
                == BlockEncoder.xterm256(SIMD3(UInt8(pixel(3, 2).x), UInt8(pixel(3, 2).y), UInt8(pixel(3, 2).z))))
    }

    @Test func xterm256Nearest() {
        #expect(BlockEncoder.xterm256(SIMD3(0, 0, 0)) == 16)
        #expect(BlockEncoder.xterm256(SIMD3(255, 255, 255)) == 231)
        #expect(BlockEncoder.xterm256(SIMD3(255, 0, 0)) == 196)
        #expect(BlockEncoder.xterm256(SIMD3(128, 128, 128)) == 244)
    }

    @Test func blockCanvasRedrawsOnlyChangedCells() {
        let a = Self.picture(width: 20, height: 10, colors: 5)
        var b = a
        for k in 0..<3 { b.pixels[(4 * 20 + 7) * 3 + k] = 255 }  // one pixel: row 2 (cells), column 8
        let first = BlockCanvas.update(from: nil, to: a, depth: .trueColor)
        let change = String(decoding: BlockCanvas.update(from: a, to: b, depth: .trueColor), as: UTF8.self)
        #expect(first.count > 20 * 5 * 3)
        #expect(change.hasPrefix("\u{1B}[3;8H"))
        #expect(change.unicodeScalars.filter { $0 == "\u{2580}" }.count == 1)
        #expect(BlockCanvas.update(from: a, to: a, depth: .trueColor).isEmpty)
    }

    @Test func tmuxPassthroughDoublesEscapes() {
        #expect(
            TmuxPassthrough.wrap(Array("\u{1B}]x\u{07}".utf8)) == Array("\u{1B}Ptmux;\u{1B}\u{1B}]x\u{07}\u{1B}\\".utf8)
        )
    }

    @Test func shownSizeNeverEnlarges() {
        #expect(
            InlineImage.shownSize(PixelSize(width: 100, height: 50), limit: PixelSize(width: 800, height: 600))
                == PixelSize(width: 100, height: 50))
        #expect(
            InlineImage.shownSize(PixelSize(width: 1000, height: 500), limit: PixelSize(width: 200, height: 600))
                == PixelSize(width: 200, height: 100))
        #expect(
            InlineImage.shownSize(PixelSize(width: 1000, height: 500), limit: nil)
                == PixelSize(width: 1000, height: 500))
    }
}
