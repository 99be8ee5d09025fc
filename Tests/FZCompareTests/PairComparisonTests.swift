import FZImage
import FZSystem
import Geometry
import Testing

@testable import FZCompare

/// The pair comparison's parts that need no file: the option values, the masks, the
/// verdicts and exit codes, and properties of the two counts that hold for any pair (the
/// counts themselves are checked against ImageMagick and pixelmatch in
/// ComparePixelCountCLITests).
struct PairComparisonTests {
    /// A deterministic generator (SplitMix64), so a failure repeats.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func noise(_ w: Int, _ h: Int, _ format: PixelFormat, _ g: inout Generator) -> Image {
        Image(
            width: w, height: h, format: format,
            pixels: (0..<(w * h * format.channels)).map { _ in UInt8(g.below(256)) })
    }

    @Test func thresholdsAndFuzzParse() {
        #expect(CompareThreshold(text: "120") == .value(120))
        #expect(CompareThreshold(text: "0.5%") == .ratio(0.005))
        #expect(CompareThreshold(text: "5 %") == nil && CompareThreshold(text: "%") == nil)
        #expect(CompareThreshold(text: "nan") == nil && CompareThreshold(text: "inf%") == nil)
        #expect(PixelFuzz(text: "5%") == PixelFuzz(value: 5, percent: true))
        // ImageMagick scales a percentage by QuantumRange + 1; levels are x 257.
        #expect(PixelFuzz(text: "5%")?.quantum16 == 5 * (65536.0 / 100))
        #expect(PixelFuzz(text: "12")?.quantum16 == 3084)
        #expect(PixelFuzz(text: "10%")?.yiqThreshold == 0.1 && PixelFuzz(text: "0.2")?.yiqThreshold == 0.2)
    }

    @Test func eachMetricTakesItsOwnThresholdsAndFuzz() {
        #expect(CompareMetric.ae.problem(.value(120)) == nil && CompareMetric.ae.problem(.ratio(0.005)) == nil)
        #expect(CompareMetric.ae.problem(.value(1.5)) != nil && CompareMetric.pixelmatch.problem(.ratio(1.5)) != nil)
        #expect(CompareMetric.psnr.problem(.ratio(0.1)) != nil && CompareMetric.psnr.problem(.value(40)) == nil)
        #expect(CompareMetric.pae.problem(.value(256)) != nil && CompareMetric.ssim.problem(.value(0.9)) == nil)
        #expect(CompareMetric.ae.problem(PixelFuzz(value: 256, percent: false)) != nil)
        #expect(CompareMetric.pixelmatch.problem(PixelFuzz(value: 1.5, percent: false)) != nil)
        #expect(CompareMetric.pixelmatch.problem(PixelFuzz(value: 15, percent: true)) == nil)
        #expect(CompareMetric.psnr.problem(PixelFuzz(value: 1, percent: false)) != nil)
        #expect(CompareMetric.ae.defaultThreshold == .value(0) && CompareMetric.psnr.defaultThreshold == nil)
    }

    /// Masks copy the first image into the second and count their union once: checked
    /// against a pixel-by-pixel count of the same rectangles, on random ones.
    @Test func masksCountTheirUnionOnce() {
        var g = Generator(state: 36)
        for _ in 0..<50 {
            let (w, h) = (1 + g.below(40), 1 + g.below(30))
            let a = Self.noise(w, h, .rgb, &g)
            var b = Self.noise(w, h, .rgb, &g)
            let rects = (0..<g.below(5)).map { _ in
                PixelRect(x: g.below(w + 5), y: g.below(h + 5), width: 1 + g.below(w), height: 1 + g.below(h))
            }
            var expected = 0
            for y in 0..<h {
                for x in 0..<w where rects.contains(where: { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }) {
                    expected += 1
                }
            }
            let before = b
            let covered = PairComparison.mask(&b, from: a, rects)
            #expect(covered == expected, "\(rects) in \(w)x\(h)")
            for y in 0..<h {
                for x in 0..<w {
                    let inside = rects.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }
                    #expect(b[x, y] == (inside ? a[x, y] : before[x, y]))
                }
            }
        }
    }

    /// A k-level difference in one channel of an opaque pixel counts when k x 257 is at
    /// least the fuzz (ImageMagick's `distance >= fuzz`), and any difference counts with
    /// none; a pixel transparent in both never counts.
    @Test func absoluteErrorMeetsTheFuzzAtItsBoundary() {
        for k in 0...255 {
            let a = Image(width: 2, height: 1, format: .rgba, pixels: [10, 0, 0, 255, 10, 0, 0, 0])
            let b = Image(
                width: 2, height: 1, format: .rgba, pixels: [10, UInt8(k), 0, 255, 10 + UInt8(k / 2), 9, 7, 0])
            var marks: [Bool]? = []
            for fuzz: Double in [0, 3084, 12 * 257 + 1, 5 * 655.36] {
                let n = AbsoluteErrorCount.count(a, b, fuzz: fuzz, marks: &marks)
                let want = k > 0 && Double(k * 257) >= fuzz
                #expect(n == (want ? 1 : 0) && marks == [want, false], "k \(k) fuzz \(fuzz)")
            }
        }
    }

    /// pixelmatch on random pairs: identical images have no differences; includeAA counts
    /// what the default leaves out as anti-aliasing, so its count is the sum; a larger
    /// threshold never counts more; the picture is red where counted, yellow where left out.
    @Test func pixelmatchCountsAreConsistent() {
        var g = Generator(state: 7)
        for format in [PixelFormat.rgb, .rgba] {
            for _ in 0..<20 {
                let (w, h) = (1 + g.below(24), 1 + g.below(24))
                let a = Self.noise(w, h, format, &g)
                var b = a
                for _ in 0..<g.below(w * h) { b.pixels[g.below(b.pixels.count)] = UInt8(g.below(256)) }
                #expect(Pixelmatch.compare(a, a).0 == .init(different: 0, antialiased: 0))
                let (plain, picture) = Pixelmatch.compare(a, b, draw: true)
                let (all, _) = Pixelmatch.compare(a, b, includeAA: true)
                #expect(all.different == plain.different + plain.antialiased && all.antialiased == 0)
                #expect(Pixelmatch.compare(a, b, threshold: 0.5).0.different <= plain.different)
                let colours = (0..<(w * h)).map { i in picture.map { Array($0.pixels[(i * 3)..<(i * 3 + 3)]) } ?? [] }
                #expect(colours.filter { $0 == [255, 0, 0] }.count == plain.different)
                #expect(colours.filter { $0 == [255, 255, 0] }.count == plain.antialiased)
            }
        }
    }

    @Test func resultsCarryTheirExitCodes() {
        #expect(PairResult.Reason.threshold.exitCode == 1 && PairResult.Reason.size.exitCode == 3)
        #expect([PairResult.Reason.unreadable, .usage, .output].allSatisfy { $0.exitCode == 2 })
        let usage = PairResult.usage("bad")
        #expect(!usage.match && usage.exitCode == 2)
        #expect(
            usage.record.description
                == #"{"schemaVersion":\#(JSON.schemaVersion),"match":false,"reason":"usage","message":"bad"}"#)
        let fine = PairResult(reason: nil, message: nil, members: [("a", .string("x"))])
        #expect(fine.match && fine.exitCode == 0)
        #expect(
            fine.record.description == #"{"schemaVersion":\#(JSON.schemaVersion),"match":true,"reason":null,"a":"x"}"#)
        let lost = fine.failedOutput(file: "d.png", "disk full")
        #expect(lost.reason == .output && lost.record.description.contains(#""file":"d.png","message":"disk full""#))
    }
}
