import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import FZThumbnails
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// Thumbnail quality on real photos: PSNR against a high-quality reduction of the full
/// decode. forcezoom takes shortcuts (DCT-scaled decode, streamed rows, orientation applied
/// to the small result); these tests measure what they cost. Target: at least 35 dB.
struct ThumbnailQualityTests {
    static let photos = TestSupport.path(".cache/photos")
    static let minimumPSNR = 35.0

    /// PSNR over all samples of two same-sized images, in dB.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        precondition(a.size == b.size && a.format == b.format)
        var se = 0.0
        for i in 0..<a.pixels.count {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            se += d * d
        }
        let mse = se / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// A Lanczos-3 reduction in Double written apart from `Resampler`, as Pillow does it:
    /// output pixel i's centre maps to (i + 0.5) * scale, the kernel is stretched by the
    /// scale, its window is cut at the image edges, and the weights are normalised.
    static func lanczos(_ image: Image, to size: PixelSize) -> Image {
        func kernel(_ x: Double) -> Double {
            if x == 0 { return 1 }
            if abs(x) >= 3 { return 0 }
            let p = Double.pi * x
            return 3 * sin(p) * sin(p / 3) / (p * p)
        }
        func taps(_ n: Int, _ m: Int) -> [(Int, [Double])] {
            let scale = Double(n) / Double(m)
            let support = 3 * max(scale, 1)
            return (0..<m).map { i in
                let centre = (Double(i) + 0.5) * scale
                let lo = max(0, Int((centre - support + 0.5).rounded(.down)))
                let hi = min(n, Int((centre + support + 0.5).rounded(.down)))
                var w = (lo..<hi).map { kernel((Double($0) + 0.5 - centre) / max(scale, 1)) }
                let sum = w.reduce(0, +)
                w = w.map { $0 / sum }
                return (lo, w)
            }
        }
        let c = image.format.channels
        let hx = taps(image.width, size.width)
        let vy = taps(image.height, size.height)
        var rows = [Double](repeating: 0, count: image.height * size.width * c)
        for y in 0..<image.height {
            for (ox, (lo, w)) in hx.enumerated() {
                for k in 0..<c {
                    var s = 0.0
                    for j in 0..<w.count { s += w[j] * Double(image.pixels[((y * image.width) + lo + j) * c + k]) }
                    rows[(y * size.width + ox) * c + k] = s
                }
            }
        }
        var out = [UInt8](repeating: 0, count: size.width * size.height * c)
        for (oy, (lo, w)) in vy.enumerated() {
            for i in 0..<(size.width * c) {
                var s = 0.0
                for j in 0..<w.count { s += w[j] * rows[(lo + j) * size.width * c + i] }
                out[oy * size.width * c + i] = UInt8(min(255, max(0, s.rounded())))
            }
        }
        return Image(width: size.width, height: size.height, format: image.format, pixels: out)
    }

    /// The most detailed photo of the set (1365x1074, 4:4:4 progressive): where a DCT-scaled
    /// decode differs most from a full one. Reference: djpeg's full decode, reduced by the
    /// Double Lanczos above.
    @Test func thumbnailMatchesALanczosReductionOfTheFullDecode() throws {
        let photo = FileSystem.join(Self.photos, "batch/Picture_1A_by_freespace.jpg")
        #expect(FileSystem.kind(of: photo) == .regular, "run `make photos` to fetch the real photos")
        let dir = TestSupport.scratch()
        let ppm = FileSystem.join(dir, "full.ppm")
        #expect(
            TestSupport.shell("djpeg -dct int -ppm -outfile '\(ppm)' '\(photo)'") == 0,
            "djpeg (libjpeg-turbo-progs) is needed: make deps")
        let full = try #require(TestSupport.readPNM(ppm))
        let g = try ThumbnailGeometry(source: full.size, size: ThumbnailSize(parsing: "256"))
        #expect(g.output == PixelSize(width: 256, height: 201))  // 1074 * 256 / 1365 = 201.4
        let (thumb, d) = try ImageReader(path: photo).readResampled(
            to: g.output, filter: .lanczos, headroom: Thumbnailer.headroom, boxShrink: true)
        #expect(d == 2)  // 1365/4 = 342 would be under twice 256; 1365/2 = 683 is not
        let p = Self.psnr(thumb, Self.lanczos(full, to: g.output))
        #expect(p >= Self.minimumPSNR, "PSNR \(p) dB")
    }

    struct PillowCase: CustomTestStringConvertible, Sendable {
        let photo: String
        let size: String
        let crop: ThumbnailGeometry.Crop
        var testDescription: String { "\(photo) \(size) \(crop)" }
    }

    static let pillowCases: [PillowCase] = [
        PillowCase(photo: "large-orient6.jpg", size: "256", crop: .none),  // 20 MP, EXIF 6, DCT 1/8
        PillowCase(photo: "large-orient6.jpg", size: "200x200", crop: .point(TouchPoint(parsing: "30%,60%")!)),
        PillowCase(photo: "batch/Picture_1A_by_freespace.jpg", size: "256", crop: .none),
        PillowCase(photo: "batch/Wine_by_Jakkub_Mede.jpg", size: "320x240", crop: .centre),
        PillowCase(photo: "batch/life_by_Aitzol_Berasategi.jpg", size: "x100", crop: .none),
        PillowCase(photo: "large.png", size: "256", crop: .none),  // streamed PNG rows
        PillowCase(photo: "png/coffee.png", size: "128x128", crop: .centre),
    ]

    /// Against Pillow (Debian python3-pil, run by /usr/bin/python3): full decode, upright,
    /// Image.resize(LANCZOS) over the same source window (Tools/thumb/psnr.py).
    @Test func thumbnailsMatchPillowsLanczos() throws {
        #expect(
            TestSupport.shell("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0,
            "Pillow is needed: apt-get install python3-pil (make deps)")
        let dir = TestSupport.scratch()
        var manifest = ""
        for (i, c) in Self.pillowCases.enumerated() {
            let photo = FileSystem.join(Self.photos, c.photo)
            let reader = try ImageReader(path: photo)
            let g = try ThumbnailGeometry(
                source: reader.header.uprightSize, size: ThumbnailSize(parsing: c.size), crop: c.crop)
            let out = FileSystem.join(dir, "\(i).png")
            let job = ThumbnailPlan.Job(input: .init(path: photo), output: out, name: out, index: i + 1, format: .png)
            let result = Thumbnailer(size: try ThumbnailSize(parsing: c.size), crop: c.crop).make(job)
            #expect(result.outcome == .made)
            #expect(result.outputSize == g.output)
            let w = g.window
            manifest += "\(out)\t\(photo)\t\(w.x),\(w.y),\(w.width),\(w.height)\n"
        }
        let list = FileSystem.join(dir, "manifest")
        let report = FileSystem.join(dir, "report")
        let f = fopen(list, "w")!
        fputs(manifest, f)
        fclose(f)
        let tool = TestSupport.path("Tools/thumb/psnr.py")
        #expect(TestSupport.shell("/usr/bin/python3 '\(tool)' --manifest '\(list)' > '\(report)'") == 0)
        let lines = readFile(report).split(separator: "\n").filter { !$0.hasPrefix("worst") }
        #expect(lines.count == Self.pillowCases.count)
        for (line, c) in zip(lines, Self.pillowCases) {
            let p = Double(line.split(separator: " ")[0]) ?? 0
            #expect(p >= Self.minimumPSNR, "\(c.testDescription): \(line)")
        }
    }

    func readFile(_ path: String) -> String {
        guard let f = fopen(path, "r") else { return "" }
        defer { fclose(f) }
        var s = ""
        var buf = [CChar](repeating: 0, count: 4096)
        while fgets(&buf, 4096, f) != nil { s += String(cString: buf) }
        return s
    }
}
