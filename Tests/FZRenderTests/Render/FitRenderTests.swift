import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFixtures
@testable import FZFormat
@testable import FZImage
@testable import FZRender
@testable import FZSystem
@testable import Geometry

/// Fit, frame and transform checked against pixels.
struct FitRenderTests {
    static let dir = TestSupport.scratch()

    static func write(_ pattern: Pattern, _ name: String, exif: Orientation? = nil) throws -> String {
        let path = FileSystem.join(dir, name)
        var e = FixtureEncoding()
        e.exifOrientation = exif
        try FixtureWriter.write(pattern, encoding: e, to: path)
        return path
    }

    /// The orientation fixture's corner colours.
    static let red = Color(r: 230, g: 0, b: 0), green = Color(r: 0, g: 200, b: 0)
    static let blue = Color(r: 0, g: 0, b: 230), yellow = Color(r: 240, g: 200, b: 0)

    static func near(_ a: Color, _ b: Color, _ tolerance: Int = 24) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// (top-left, top-right, bottom-left, bottom-right) colours of the canvas's image area.
    static let cornersByOrientation: [(DeviceOrientation, [Color])] = [
        (.portrait, [red, green, blue, yellow]),
        (.landscapeLeft, [blue, red, yellow, green]),  // turned clockwise
        (.landscapeRight, [green, yellow, red, blue]),  // turned counter-clockwise
        (.upsideDown, [yellow, blue, green, red]),
    ]

    @Test(arguments: cornersByOrientation)
    func cornersLandWhereTheOrientationSays(_ o: DeviceOrientation, _ corners: [Color]) throws {
        // Stored with EXIF 6: the upright picture is the pattern, and the fit must use it.
        let path = try Self.write(
            Pattern(.orientation, size: PixelSize(width: 600, height: 400)), "orient.png", exif: .rotate90)
        let reader = try ImageReader(path: path)
        let g = FitGeometry(
            image: reader.header.uprightSize, screen: PixelSize(width: 300, height: 500), orientation: o)
        let canvas = try fitted(reader, g, background: .black)
        #expect(canvas.size == PixelSize(width: 300, height: 500))
        let r = g.canvasImageRect
        let inset = 6.0
        let points = [
            (r.x + inset, r.y + inset), (r.maxX - inset, r.y + inset), (r.x + inset, r.maxY - inset),
            (r.maxX - inset, r.maxY - inset),
        ]
        for (i, p) in points.enumerated() {
            let c = canvas.rgba(x: Int(p.0), y: Int(p.1))
            #expect(Self.near(c, corners[i]), "\(o.rawValue) corner \(i): got \(c), want \(corners[i])")
        }
        // Outside the image: the blanking colour.
        if r.y >= 1 { #expect(canvas.rgba(x: 150, y: 0) == Color.black) }
    }

    @Test(arguments: DeviceOrientation.allCases)
    func quarterTurnsAtScaleOneAreExactPixelMoves(_ o: DeviceOrientation) throws {
        // A coords image exactly the content bounds' size: scale 1, so the canvas must be the
        // source turned, pixel for pixel.
        let bounds = o.isLandscape ? PixelSize(width: 90, height: 60) : PixelSize(width: 60, height: 90)
        let path = try Self.write(Pattern(.coords, size: bounds), "coords-\(o.rawValue).png")
        let reader = try ImageReader(path: path)
        let g = FitGeometry(image: bounds, screen: PixelSize(width: 60, height: 90), orientation: o)
        #expect(g.scale == 1)
        let canvas = try fitted(reader, g, background: .black)
        let trace = try #require(CoordinateCode.trace(canvas))
        #expect(trace.sourceRect == PixelRect(size: bounds))
        #expect(trace.orientation == o.contentTurn)
    }

    /// Aliasing: a zone plate reduced 4x. Its outer rings are finer than the output can hold,
    /// so an alias-free reduction turns them flat gray; aliasing shows as false rings.
    @Test func zonePlateReductionIsAliasFree() throws {
        let path = try Self.write(Pattern(.zoneplate, size: PixelSize(width: 800, height: 800)), "zone.png")
        let fit = try fitted(
            try ImageReader(path: path),
            FitGeometry(
                image: PixelSize(width: 800, height: 800), screen: PixelSize(width: 200, height: 200),
                orientation: .portrait),
            background: .black)
        // A naive point-sampled reduction, for contrast.
        let full = try ImageReader(path: path).readImage()
        var naive = Image(width: 200, height: 200, format: full.format)
        for y in 0..<200 {
            for x in 0..<200 { naive.pixels[(y * 200 + x) * full.format.channels] = full[x * 4 + 1, y * 4 + 1].first! }
        }
        func outerRingDeviation(_ image: Image) -> Double {
            // Pixels whose source frequency r/R (R = 800) exceeds 2x the output Nyquist.
            var sum = 0.0
            var n = 0.0
            for y in 0..<200 {
                for x in 0..<200 {
                    let dx = Double(x) * 4 + 2 - 400
                    let dy = Double(y) * 4 + 2 - 400
                    let r = (dx * dx + dy * dy).squareRoot()
                    guard r > 320 && r < 400 else { continue }
                    let v = Double(image.rgba(x: x, y: y).r) - 127.5
                    sum += v * v
                    n += 1
                }
            }
            return (sum / n).squareRoot()
        }
        let good = outerRingDeviation(fit)
        let bad = outerRingDeviation(naive)
        print(
            "zone plate 4x reduction, RMS deviation from gray in the over-Nyquist ring: forcezoom \(good), point sampling \(bad)"
        )
        #expect(bad > 40)  // the point-sampled one is full of false rings
        #expect(good < 8)
    }

    /// Quality: a photo reduced 2x against an exact 2x2 box average of its full decode.
    @Test func reductionMatchesAReferenceAverage() throws {
        let photo = TestSupport.path("Fixtures/photos/peek.jpg")
        let full = try ImageReader(path: photo).readImage()  // 1600x900 upright
        var reference = Image(width: 800, height: 450, format: .rgb)
        for y in 0..<450 {
            for x in 0..<800 {
                for k in 0..<3 {
                    var s = 0
                    for dy in 0..<2 {
                        for dx in 0..<2 { s += Int(full.pixels[((2 * y + dy) * 1600 + 2 * x + dx) * 3 + k]) }
                    }
                    reference.pixels[(y * 800 + x) * 3 + k] = UInt8((s + 2) / 4)
                }
            }
        }
        let (reduced, _) = try ImageReader(path: photo).readResampled(
            to: PixelSize(width: 800, height: 450), filter: .lanczos)
        var mse = 0.0
        for i in 0..<reduced.pixels.count {
            let d = Double(reduced.pixels[i]) - Double(reference.pixels[i])
            mse += d * d
        }
        mse /= Double(reduced.pixels.count)
        let psnr = 10 * log10(255 * 255 / mse)
        print("peek.jpg 2x reduction vs 2x2 box average of the full decode: PSNR \(psnr) dB")
        #expect(psnr > 35)
    }

    @Test func frameBoxCoversTheCropWindow() throws {
        // A black image; the box in magenta without shadow: its outer edge in the view,
        // mapped back to image pixels, must be the crop's rectangle.
        let path = try Self.write(
            Pattern(.solid, size: PixelSize(width: 2000, height: 1200), color: .black), "black.png")
        let view = PixelSize(width: 400, height: 800)
        let fit = AspectFit(image: PixelSize(width: 2000, height: 1200), view: view)
        for point in [PixelPoint(x: 1000, y: 600), PixelPoint(x: 1990, y: 5), PixelPoint(x: 0, y: 1199)] {
            let peek = PeekGeometry(image: fit.image, point: point, side: 300)
            var style = BoxStyle()
            style.color = Color(r: 255, g: 0, b: 255)
            style.shadowColor = .transparent
            let frame = FrameRenderer.render(
                try FrameRenderer.pipeline(for: fit).run(try ImageReader(path: path)).0, fit: fit, peek: peek,
                background: .black, style: style)
            var minX = Int.max
            var minY = Int.max
            var maxX = Int.min
            var maxY = Int.min
            for y in 0..<frame.height {
                for x in 0..<frame.width where frame.rgba(x: x, y: y).r > 128 {
                    minX = min(minX, x)
                    minY = min(minY, y)
                    maxX = max(maxX, x)
                    maxY = max(maxY, y)
                }
            }
            // Back to image pixels: (view - offset) / scale. One view pixel is 1/s image pixels.
            let tolerance = 1 / fit.scale
            let x0 = (Double(minX) - fit.offsetX) / fit.scale
            let x1 = (Double(maxX + 1) - fit.offsetX) / fit.scale
            let y0 = (Double(minY) - fit.offsetY) / fit.scale
            let y1 = (Double(maxY + 1) - fit.offsetY) / fit.scale
            let crop = peek.coveredRect
            #expect(
                abs(x0 - Double(crop.x)) <= tolerance && abs(x1 - Double(crop.maxX)) <= tolerance,
                "\(point): x \(x0)...\(x1) vs \(crop)")
            #expect(
                abs(y0 - Double(crop.y)) <= tolerance && abs(y1 - Double(crop.maxY)) <= tolerance,
                "\(point): y \(y0)...\(y1) vs \(crop)")
        }
    }

    @Test func pinTipsLandOnTheirPointAndKeepTheirSize() throws {
        // The same marker on fits at two scales: the tip is on the mapped point and the pin's
        // size in output pixels is the same.
        let path = try Self.write(
            Pattern(.solid, size: PixelSize(width: 1000, height: 800), color: .white), "white.png")
        var sizes: [PixelSize] = []
        var inks: [Double] = []
        for screen in [PixelSize(width: 200, height: 400), PixelSize(width: 600, height: 1200)] {
            let g = FitGeometry(image: PixelSize(width: 1000, height: 800), screen: screen, orientation: .portrait)
            let canvas = try fitted(
                try ImageReader(path: path), g, background: .white, markers: [Marker(x: 499, y: 399)])
            let tip = g.transform.apply(x: 499.5, y: 399.5)
            var minX = Int.max
            var minY = Int.max
            var maxX = Int.min
            var maxY = Int.min
            var ink = 0.0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    let c = canvas.rgba(x: x, y: y)
                    ink += Double(255 - Int(c.g)) / 255
                    guard c.g < 200 else { continue }
                    minX = min(minX, x)
                    minY = min(minY, y)
                    maxX = max(maxX, x)
                    maxY = max(maxY, y)
                }
            }
            inks.append(ink)
            // The tip is the pin's lowest point, centred.
            #expect(abs(Double(maxY) + 1 - tip.y) <= 1.5, "tip y \(tip.y), pin bottom \(maxY)")
            #expect(abs(Double(minX + maxX + 1) / 2 - tip.x) <= 0.5, "tip x \(tip.x), pin \(minX)...\(maxX)")
            sizes.append(PixelSize(width: maxX - minX, height: maxY - minY))
        }
        // Same size on both outputs: thresholded extents can differ by one pixel with the
        // sub-pixel phase; the ink area does not.
        #expect(abs(sizes[0].width - sizes[1].width) <= 1 && abs(sizes[0].height - sizes[1].height) <= 1)
        #expect(abs(inks[0] - inks[1]) / inks[0] < 0.03, "ink \(inks)")
    }

    @Test func transparentPixelsDoNotBleedTheirColour() {
        // Left half: fully transparent but *red* underneath; right half: opaque blue.
        // Filtering straight alpha would pull red into the edge; premultiplied must not.
        var image = Image(width: 64, height: 8, format: .rgba)
        for y in 0..<8 {
            for x in 0..<64 {
                let i = (y * 64 + x) * 4
                if x < 32 {
                    image.pixels.replaceSubrange(i..<(i + 4), with: [255, 0, 0, 0])
                } else {
                    image.pixels.replaceSubrange(i..<(i + 4), with: [0, 0, 255, 255])
                }
            }
        }
        for filter in [ResampleFilter.lanczos, .bicubic, .bilinear, .box] {
            let small = Resampler(
                source: image.size, output: PixelSize(width: 13, height: 2), format: .rgba, filter: filter
            ).resample(image)
            for x in 0..<13 {
                let c = small.rgba(x: x, y: 0)
                if c.a > 8 { #expect(c.r <= 2 && c.b >= 250, "\(filter) x \(x): \(c)") }
            }
        }
        let turned = AffineRenderer.render(
            image, transform: .rotation(degrees: 33).then(.translation(20, 0)),
            canvas: PixelSize(width: 80, height: 60), background: .transparent, filter: .bicubic)
        for y in 0..<60 {
            for x in 0..<80 {
                let c = turned.rgba(x: x, y: y)
                if c.a > 8 { #expect(c.r <= 2, "affine at \(x),\(y): \(c)") }
            }
        }
    }

    @Test func transformQuarterTurnIsExact() throws {
        let path = try Self.write(Pattern(.coords, size: PixelSize(width: 40, height: 30)), "small-coords.png")
        let image = try ImageReader(path: path).readImage()
        let t = AffineTransform.translation(-20, -15).then(.rotation(degrees: 90)).then(.translation(15, 20))
        let out = AffineRenderer.render(
            image, transform: t, canvas: PixelSize(width: 30, height: 40), background: .black, filter: .bilinear)
        let trace = try #require(CoordinateCode.trace(out))
        #expect(trace.orientation == .rotate90)
        #expect(trace.sourceRect == PixelRect(x: 0, y: 0, width: 40, height: 30))
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A fit as the `fit` command makes it: the renderer's pipeline decodes, the renderer draws.
func fitted(_ reader: ImageReader, _ g: FitGeometry, background: Color, markers: [Marker] = []) throws -> Image {
    let (scaled, _) = try FitRenderer.pipeline(for: g).run(reader)
    return FitRenderer.render(scaled, geometry: g, background: background, pins: PinLayer(markers))
}
