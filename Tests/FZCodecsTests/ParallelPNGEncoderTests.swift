import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZPNG
@testable import FZSystem

/// The parallel PNG encoder against the serial one (libpng's own row writer): the same
/// pixels back through libpng and through Pillow, sizes within 2%.
@Suite struct ParallelPNGEncoderTests {
    /// Smooth gradients, flat areas and noise, so filters, runs and matches all matter.
    static func picture(_ format: PixelFormat, width: Int = 1100, height: Int = 1000) -> Image {
        var image = Image(width: width, height: height, format: format)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 59)
                let base = x < width / 3 ? (x + y) & 255 : (x < 2 * width / 3 ? 128 : (x * 7 + noise * 9) & 255)
                for c in 0..<format.channels {
                    let alpha = format.hasAlpha && c == format.channels - 1
                    image.pixels[(y * width + x) * format.channels + c] = UInt8(
                        alpha ? (y * 255 / height) : (base + c * 40) & 255)
                }
            }
        }
        return image
    }

    @Test("parallel output decodes to the serial output's pixels", arguments: PixelFormat.allCases, [0, 2, 5, 9])
    func samePixels(format: PixelFormat, compression: Int) throws {
        let dir = TestSupport.scratch()
        let image = Self.picture(format)
        #expect(ParallelPNGEncoder.worthIt(image, threads: 2))
        let serial = FileSystem.join(dir, "serial.png")
        let parallel = FileSystem.join(dir, "parallel.png")
        let s = try #require(
            try ImageWriter.write(image, to: serial, encoding: .png(.compression(compression)), threads: 1))
        let p = try #require(
            try ImageWriter.write(image, to: parallel, encoding: .png(.compression(compression)), threads: 2))
        #expect(try ImageReader(path: parallel).readImage() == image)
        #expect(try ImageReader(path: serial).readImage() == image)
        #expect(abs(Double(p) / Double(s) - 1) < 0.02, "parallel \(p) bytes, serial \(s)")
    }

    /// The Z_RLE levels go through fz_rle_deflate: flat images (runs far longer than 258,
    /// across band cuts), short runs of every length, and a single symbol per block all
    /// decode to the same pixels.
    @Test("runs and flat areas round-trip", arguments: [1, 2, 5])
    func runsRoundTrip(compression: Int) throws {
        let dir = TestSupport.scratch()
        let width = 1024
        let height = 1100
        var flat = Image(width: width, height: height, format: .rgb)
        for i in flat.pixels.indices { flat.pixels[i] = 77 }
        var runs = Image(width: width, height: height, format: .gray)
        var state: UInt64 = 12345
        var i = 0
        while i < runs.pixels.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 55) % 300 + 1
            let value = UInt8(truncatingIfNeeded: state >> 40)
            for k in i..<min(runs.pixels.count, i + length) {
                runs.pixels[k] = value &+ UInt8(truncatingIfNeeded: (k - i) * (length & 1))
            }
            i += length
        }
        let zero = Image(width: width, height: height, format: .grayAlpha)
        for (n, image) in [flat, runs, zero].enumerated() {
            #expect(ParallelPNGEncoder.worthIt(image, threads: 2))
            let path = FileSystem.join(dir, "r\(n).png")
            try ImageWriter.write(image, to: path, encoding: .png(.compression(compression)), threads: 2)
            #expect(try ImageReader(path: path).readImage() == image, "image \(n)")
        }
    }

    /// fz_rle_deflate on seeded random pictures of every shape it meets: sizes from 1x1 up
    /// (empty and tiny bands, one-symbol blocks), every colour type, runs of random lengths
    /// mixed with noise in random proportions, levels 1-6, one thread and two. zlib's inflate
    /// (through libpng) must give every byte back.
    @Test("random pictures round-trip through the RLE coder", arguments: 0..<6)
    func randomPicturesRoundTrip(seed: Int) throws {
        let dir = TestSupport.scratch()
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % max(1, n)
        }
        for k in 0..<12 {
            let format = PixelFormat.allCases[next(PixelFormat.allCases.count)]
            let width = [1, 2, 7, 64, 300, 1500][next(6)]
            let height = [1, 3, 50, 400][next(4)]
            var image = Image(width: width, height: height, format: format)
            let noise = next(101)  // percent of noisy bytes
            var i = 0
            while i < image.pixels.count {
                let run = next(600) + 1
                let value = UInt8(truncatingIfNeeded: next(256))
                for j in i..<min(image.pixels.count, i + run) {
                    image.pixels[j] = next(100) < noise ? UInt8(truncatingIfNeeded: next(256)) : value
                }
                i += run
            }
            let level = next(6) + 1
            let threads = next(2) + 1
            let path = FileSystem.join(dir, "random-\(k).png")
            try ImageWriter.write(image, to: path, encoding: .png(.compression(level)), threads: threads)
            #expect(
                try ImageReader(path: path).readImage() == image,
                "seed \(seed) picture \(k): \(format) \(width)x\(height), \(noise)% noise, level \(level), \(threads) threads"
            )
        }
    }

    /// Pillow (its own zlib inflate and PNG parser) reads the parallel file to the same bytes.
    @Test func pillowReadsIt() throws {
        let dir = TestSupport.scratch()
        for format in PixelFormat.allCases {
            let image = Self.picture(format)
            let path = FileSystem.join(dir, "p\(format.channels).png")
            try ImageWriter.write(image, to: path, threads: 2)
            let raw = FileSystem.join(dir, "p\(format.channels).raw")
            let script =
                "from PIL import Image; im = Image.open('\(path)'); im.load(); open('\(raw)', 'wb').write(im.tobytes())"
            #expect(TestSupport.shell("/usr/bin/python3 -c \"\(script)\"") == 0)
            let bytes = try CFile.open(readingFrom: raw).get().readAll(limit: 1 << 24)
            #expect(bytes == image.pixels, "format \(format)")
        }
    }

    @Test func zlibHeadersAreValid() {
        for level in 0...9 {
            for strategy in [0, 1, 3] {
                let h = ParallelPNGEncoder.zlibHeader(PNGSettings(level: level, filter: .sub, strategy: strategy))
                #expect(h[0] == 0x78 && (Int(h[0]) * 256 + Int(h[1])) % 31 == 0 && h[1] & 0x20 == 0)
            }
        }
    }
}
