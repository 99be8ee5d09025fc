import Testing

@testable import FZThumbnails
@testable import Geometry

/// `--size` specs and the sizes they give: every number below is worked out by hand.
struct ThumbnailSizeTests {
    struct Spec: CustomTestStringConvertible, Sendable {
        let text: String
        let width: Int?
        let height: Int?
        let mode: ThumbnailSize.Mode
        var testDescription: String { text }
    }

    static let valid: [Spec] = [
        Spec(text: "256", width: 256, height: 256, mode: .shrinkOnly),
        Spec(text: "256x192", width: 256, height: 192, mode: .shrinkOnly),
        Spec(text: "256X192", width: 256, height: 192, mode: .shrinkOnly),
        Spec(text: "x192", width: nil, height: 192, mode: .shrinkOnly),
        Spec(text: "256x", width: 256, height: nil, mode: .shrinkOnly),
        Spec(text: "256>", width: 256, height: 256, mode: .shrinkOnly),
        Spec(text: "256x192<", width: 256, height: 192, mode: .enlargeOnly),
        Spec(text: "256x192!", width: 256, height: 192, mode: .exact),
        Spec(text: "x100!", width: nil, height: 100, mode: .exact),
        Spec(text: "65500", width: 65500, height: 65500, mode: .shrinkOnly),
    ]

    @Test(arguments: valid)
    func parses(_ spec: Spec) throws {
        let s = try ThumbnailSize(parsing: spec.text)
        #expect(s.width == spec.width)
        #expect(s.height == spec.height)
        #expect(s.mode == spec.mode)
    }

    @Test(arguments: [
        ("", "no size given"), ("x", "around the x"), ("0", "positive"), ("256x0", "positive"),
        ("-5", "not a whole number"), ("2.5x3", "not a whole number"), ("abc", "not a whole number"),
        ("256x192x3", "more than one x"), ("256>!", "at most one modifier"), (">256", "at most one modifier"),
        ("256^", "not a whole number"), ("65501", "over the limit"), (" 256", "not a whole number"),
    ])
    func rejects(_ text: String, _ reason: String) {
        #expect {
            try ThumbnailSize(parsing: text)
        } throws: { error in
            guard let e = error as? ThumbnailError, case .invalidSize(let spec, let r) = e else { return false }
            return spec == text && r.contains(reason) && e.description.contains("write N for the longest side")
        }
    }

    @Test func canonicalDescription() throws {
        #expect(try ThumbnailSize(parsing: "256").description == "256x256>")
        #expect(try ThumbnailSize(parsing: "x192<").description == "x192<")
        #expect(try ThumbnailSize(parsing: "10x20!").description == "10x20!")
    }

    // MARK: Geometry

    struct Fit: CustomTestStringConvertible, Sendable {
        let spec: String
        let source: PixelSize
        let output: PixelSize
        var testDescription: String { "\(spec) of \(source)" }
    }

    static let large = PixelSize(width: 6016, height: 3391)
    static let portrait = PixelSize(width: 3000, height: 4000)
    static let small = PixelSize(width: 200, height: 100)

    static let fits: [Fit] = [
        // s = 256/6016; 3391 s = 144.30 -> 144.
        Fit(spec: "256", source: large, output: PixelSize(width: 256, height: 144)),
        Fit(spec: "256", source: large.transposed, output: PixelSize(width: 144, height: 256)),
        // Box 256x192: min(256/6016, 192/3391) = 256/6016, so width limits.
        Fit(spec: "256x192", source: large, output: PixelSize(width: 256, height: 144)),
        // Portrait in a landscape box: 192/4000 = 0.048 limits; 3000 * 0.048 = 144.
        Fit(spec: "256x192", source: portrait, output: PixelSize(width: 144, height: 192)),
        // One side: 192/3391 * 6016 = 340.63 -> 341.
        Fit(spec: "x192", source: large, output: PixelSize(width: 341, height: 192)),
        // 256/3000 * 4000 = 341.33 -> 341.
        Fit(spec: "256x", source: portrait, output: PixelSize(width: 256, height: 341)),
        // > (default): a small image is kept as it is.
        Fit(spec: "256", source: small, output: small),
        Fit(spec: "256x50", source: small, output: PixelSize(width: 100, height: 50)),
        // <: only enlarge. 256/200 = 1.28 -> 256x128; a large image stays.
        Fit(spec: "256<", source: small, output: PixelSize(width: 256, height: 128)),
        Fit(spec: "256<", source: large, output: large),
        // !: exactly, aspect ignored; a missing side keeps the source's.
        Fit(spec: "256x256!", source: large, output: PixelSize(width: 256, height: 256)),
        Fit(spec: "256!", source: small, output: PixelSize(width: 256, height: 256)),
        Fit(spec: "256x!", source: large, output: PixelSize(width: 256, height: 3391)),
        // Never below one pixel: 1/6016 * 3391 = 0.56 -> 1.
        Fit(spec: "1", source: large, output: PixelSize(width: 1, height: 1)),
        Fit(spec: "2", source: PixelSize(width: 6000, height: 10), output: PixelSize(width: 2, height: 1)),
    ]

    @Test(arguments: fits)
    func fitSizes(_ fit: Fit) throws {
        let g = try ThumbnailGeometry(source: fit.source, size: try ThumbnailSize(parsing: fit.spec))
        #expect(g.output == fit.output)
        #expect(g.window == Rect(x: 0, y: 0, width: Double(fit.source.width), height: Double(fit.source.height)))
    }

    @Test func identityOnlyWhenNothingChanges() throws {
        #expect(try ThumbnailGeometry(source: Self.small, size: ThumbnailSize(parsing: "256")).isIdentity)
        #expect(try !ThumbnailGeometry(source: Self.large, size: ThumbnailSize(parsing: "256")).isIdentity)
    }

    @Test func centreCropFillsTheBox() throws {
        // Fill 256x256 from 6016x3391: s = max(256/6016, 256/3391) = 256/3391. The kept
        // window is 3391x3391 source pixels, centred: x0 = (6016 - 3391) / 2 = 1312.5.
        let g = try ThumbnailGeometry(source: Self.large, size: ThumbnailSize(parsing: "256"), crop: .centre)
        #expect(g.output == PixelSize(width: 256, height: 256))
        #expect(abs(g.window.x - 1312.5) < 1e-9)
        #expect(g.window.y == 0)
        #expect(abs(g.window.width - 3391) < 1e-9)
        #expect(abs(g.window.height - 3391) < 1e-9)
    }

    @Test func centreCropOfAPortraitInALandscapeBox() throws {
        // 3000x4000 into 300x100: s = max(0.1, 0.025) = 0.1; 4000 * 0.1 = 400 rows, 100 kept:
        // the window is 3000x1000, starting at (4000 - 1000) / 2 = 1500.
        let g = try ThumbnailGeometry(source: Self.portrait, size: ThumbnailSize(parsing: "300x100"), crop: .centre)
        #expect(g.output == PixelSize(width: 300, height: 100))
        #expect(g.window == Rect(x: 0, y: 1500, width: 3000, height: 1000))
    }

    @Test func cropNeverEnlargesByDefault() throws {
        // 200x100 into a 256x256 box: filling would need 2.56x; > keeps it 1:1, and as
        // 200x100 fits inside the box, nothing is cut either.
        let g = try ThumbnailGeometry(source: Self.small, size: ThumbnailSize(parsing: "256"), crop: .centre)
        #expect(g.output == Self.small)
        #expect(g.isIdentity)
        // 300x100 into 256x256: kept at 1:1, 300 -> 256 wide, centred at (300 - 256) / 2 = 22.
        let h = try ThumbnailGeometry(
            source: PixelSize(width: 300, height: 100), size: ThumbnailSize(parsing: "256"), crop: .centre)
        #expect(h.output == PixelSize(width: 256, height: 100))
        #expect(h.window == Rect(x: 22, y: 0, width: 256, height: 100))
    }

    @Test func cropAtAPointUsesThePeekRule() throws {
        let size = try ThumbnailSize(parsing: "256x256")
        // s = 256/3391; the point's centre lands on output pixel 128's centre:
        // x0 = p + 0.5 - 128.5 / s = p + 0.5 - 1702.123046875.
        let mid = try ThumbnailGeometry(source: Self.large, size: size, crop: .point(TouchPoint(parsing: "50%,50%")!))
        #expect(abs(mid.window.x - (3008.5 - 1702.123046875)) < 1e-9)
        #expect(mid.window.y == 0)  // the window is as tall as the image
        // Near the left edge the window shifts to x0 = 0; near the right it stops at 6016 - 3391.
        let left = try ThumbnailGeometry(source: Self.large, size: size, crop: .point(TouchPoint(parsing: "100,1000")!))
        #expect(left.window.x == 0)
        let right = try ThumbnailGeometry(
            source: Self.large, size: size, crop: .point(TouchPoint(parsing: "6000,1000")!))
        #expect(abs(right.window.x - 2625) < 1e-9)
        // At 1:1 the rule is crop's: x0 = p - floor(N/2).
        let one = try ThumbnailGeometry(
            source: PixelSize(width: 1000, height: 100), size: ThumbnailSize(parsing: "100"),
            crop: .point(TouchPoint(parsing: "700,50")!))
        #expect(one.window == Rect(x: 650, y: 0, width: 100, height: 100))
    }

    @Test func cropPointOutsideTheImageIsAGeometryError() throws {
        #expect(throws: GeometryError.pointOutsideImage(point: "7000,10", image: Self.large)) {
            try ThumbnailGeometry(
                source: Self.large, size: ThumbnailSize(parsing: "256"), crop: .point(TouchPoint(parsing: "7000,10")!))
        }
    }

    @Test func exactModeIgnoresCrop() throws {
        let g = try ThumbnailGeometry(source: Self.large, size: ThumbnailSize(parsing: "100x100!"), crop: .centre)
        #expect(g.output == PixelSize(width: 100, height: 100))
        #expect(g.window.width == 6016)
    }
}
