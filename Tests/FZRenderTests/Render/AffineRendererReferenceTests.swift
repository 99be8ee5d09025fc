import Testing

@testable import FZFixtures
@testable import FZImage
@testable import FZRender
@testable import Geometry

/// The fixed-point, banded, tiled warp (every kernel through `WarpKernel`) against the plain
/// per-pixel Float warp, over all filters, formats, backgrounds and a set of transforms.
struct AffineRendererReferenceTests {
    /// A pattern as an image: coords or noise, in gray, RGB, or RGBA with alpha fading
    /// from opaque at the top to clear at the bottom.
    static func image(_ kind: Pattern.Kind, _ format: PixelFormat, width: Int = 90, height: Int = 70) -> Image {
        var pattern = Pattern(kind, size: PixelSize(width: width, height: height), seed: 7)
        pattern.fade = format.hasAlpha
        var image = Image(width: width, height: height, format: format)
        let c = format.channels
        for y in 0..<height {
            for x in 0..<width {
                let s = pattern.sample(x: x, y: y)
                let rgba = [s.r, s.g, s.b, s.a].map { UInt8($0 >> 8) }
                let i = (y * width + x) * c
                switch format {
                case .gray: image.pixels[i] = Color(r: rgba[0], g: rgba[1], b: rgba[2]).bytes(in: .gray)[0]
                case .grayAlpha:
                    image.pixels[i] = rgba[0]
                    image.pixels[i + 1] = rgba[3]
                case .rgb: for k in 0..<3 { image.pixels[i + k] = rgba[k] }
                case .rgba: for k in 0..<4 { image.pixels[i + k] = rgba[k] }
                }
            }
        }
        return image
    }

    /// `steps` about the image centre onto its bounding box (as `transform` does).
    static func placed(_ steps: AffineTransform, _ image: Image) -> (AffineTransform, PixelSize) {
        let w = Double(image.width)
        let h = Double(image.height)
        let about = AffineTransform.translation(-w / 2, -h / 2).then(steps)
        let box = about.boundingBox(of: Rect(x: 0, y: 0, width: w, height: h))
        func snap(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
        let x0 = snap(box.x).rounded(.down)
        let y0 = snap(box.y).rounded(.down)
        let size = PixelSize(
            width: max(1, Int(snap(box.maxX).rounded(.up) - x0)), height: max(1, Int(snap(box.maxY).rounded(.up) - y0)))
        let full = about.then(
            .translation(
                Double(size.width) / 2 - (box.x + box.width / 2),
                Double(size.height) / 2 - (box.y + box.height / 2)))
        return (full, size)
    }

    static let steps: [(String, AffineTransform)] = [
        ("rotate 15", .rotation(degrees: 15)), ("rotate 33", .rotation(degrees: 33)),
        ("rotate 90", .rotation(degrees: 90)), ("rotate 180", .rotation(degrees: 180)),
        ("scale 0.7", .scale(0.7, 0.7)), ("scale 1.9", .scale(1.9, 1.9)), ("skew", .skew(0.3, -0.15)),
        ("scale 1.3,0.8 rotate -20", AffineTransform.scale(1.3, 0.8).then(.rotation(degrees: -20))),
    ]

    static let cases: [(PixelFormat, Color)] = [
        (.gray, .black), (.rgb, .black), (.rgb, Color(r: 200, g: 30, b: 90)), (.rgb, .transparent),
        (.rgba, .transparent), (.rgba, Color(r: 20, g: 220, b: 90, a: 128)), (.grayAlpha, .transparent),
    ]

    @Test(arguments: ResampleFilter.allCases.filter { $0 != .box })
    func matchesThePerPixelReference(filter: ResampleFilter) {
        for kind in [Pattern.Kind.coords, .noise] {
            for (format, background) in Self.cases {
                let image = Self.image(kind, format)
                for (name, step) in Self.steps {
                    let (t, canvas) = Self.placed(step, image)
                    let fast = AffineRenderer.render(
                        image, transform: t, canvas: canvas, background: background, filter: filter, threads: 2)
                    let slow = Self.reference(
                        image, transform: t, canvas: canvas, background: background, filter: filter)
                    #expect(fast.format == slow.format && fast.size == slow.size)
                    let d = Self.differences(fast, slow)
                    #expect(
                        d.max <= (filter == .nearest ? 0 : 1),
                        "\(filter) \(kind) \(format) on \(background) \(name): off by \(d.max) at \(d.at): \(Array(d.a)) vs \(Array(d.b))"
                    )
                }
            }
        }
    }

    /// The largest difference of any channel, colour counted in proportion to alpha: a
    /// nearly clear pixel's colour is the ratio of two vanishing sums and shows as little
    /// as its alpha (a clear pixel's not at all); an opaque pixel's counts in full.
    static func difference(_ a: Image, _ b: Image) -> Int { differences(a, b).max }

    /// The largest difference and where it is (pixel index, both pixels).
    static func differences(_ a: Image, _ b: Image) -> (max: Int, at: Int, a: ArraySlice<UInt8>, b: ArraySlice<UInt8>) {
        let c = a.format.channels
        var d = 0
        var at = 0
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: c) {
            let alpha = a.format.hasAlpha ? max(Int(a.pixels[i + c - 1]), Int(b.pixels[i + c - 1])) : 255
            for k in 0..<c {
                var e = abs(Int(a.pixels[i + k]) - Int(b.pixels[i + k]))
                if a.format.hasAlpha && k < c - 1 { e = (e * alpha + 254) / 255 }
                if e > d { (d, at) = (e, i) }
            }
        }
        return (d, at / c, a.pixels[at..<(at + c)], b.pixels[at..<(at + c)])
    }

    @Test func threadCountDoesNotChangeTheOutput() {
        let image = Self.image(.noise, .rgba, width: 300, height: 220)
        for filter in [ResampleFilter.nearest, .bilinear, .lanczos] {
            let (t, canvas) = Self.placed(.rotation(degrees: 33).then(.scale(1.2, 1.2)), image)
            let one = AffineRenderer.render(
                image, transform: t, canvas: canvas, background: .transparent, filter: filter, threads: 1)
            let two = AffineRenderer.render(
                image, transform: t, canvas: canvas, background: .transparent, filter: filter, threads: 2)
            let three = AffineRenderer.render(
                image, transform: t, canvas: canvas, background: .transparent, filter: filter, threads: 3)
            let same = one == two && one == three
            #expect(same, "\(filter)")
        }
    }

    /// Exact but for the colour of clear pixels (a premultiplied warp has none to keep).
    @Test(arguments: ResampleFilter.allCases.filter { $0 != .box })
    func quarterTurnsAndWholeShiftsAreExact(filter: ResampleFilter) {
        for format in [PixelFormat.gray, .rgb, .rgba] {
            let image = Self.image(.noise, format, width: 132, height: 68)
            for (degrees, orientation) in [(90.0, Orientation.rotate90), (180, .rotate180), (270, .rotate270)] {
                let (t, canvas) = Self.placed(.rotation(degrees: degrees), image)
                let out = AffineRenderer.render(
                    image, transform: t, canvas: canvas, background: .transparent, filter: filter, threads: 2)
                let expected = image.oriented(orientation).converted(to: out.format)
                let exact = out.size == expected.size && Self.difference(out, expected) == 0
                #expect(exact, "\(filter) \(format) \(degrees)")
            }
            // A whole-pixel shift: the image moved, the background where it left.
            let out = AffineRenderer.render(
                image, transform: .translation(5, -3), canvas: image.size, background: .black,
                filter: filter, threads: 2)
            var expected = Image(width: image.width, height: image.height, format: out.format, fill: .black)
            let moved = image.converted(to: out.format)
            let c = out.format.channels
            for y in 0..<image.height - 3 {
                for x in 5..<image.width {
                    let s = ((y + 3) * image.width + x - 5) * c
                    let d = (y * image.width + x) * c
                    for k in 0..<c { expected.pixels[d + k] = moved.pixels[s + k] }
                }
            }
            #expect(Self.difference(out, expected) == 0, "\(filter) \(format) shift")
        }
    }

    @Test func wildTransformsFillWithTheBackground() {
        let image = Self.image(.noise, .rgb, width: 20, height: 10)
        let far = AffineRenderer.render(
            image, transform: .translation(1e12, -3e11), canvas: PixelSize(width: 70, height: 40),
            background: .white, filter: .bicubic, threads: 2)
        let white = far == Image(width: 70, height: 40, format: .rgb, fill: .white)
        #expect(white)
        // A huge reduction: every output pixel's taps are far apart (each maps on its own).
        let tiny = AffineRenderer.render(
            image, transform: .scale(1e-7, 1e-7), canvas: PixelSize(width: 70, height: 40),
            background: .white, filter: .bilinear)
        let ref = Self.reference(
            image, transform: .scale(1e-7, 1e-7), canvas: PixelSize(width: 70, height: 40),
            background: .white, filter: .bilinear)
        let same = tiny == ref
        #expect(same)
    }

    /// The renderer as it was before issue 16 (`ReferenceWarp`, in AffineRendererTests):
    /// every pixel mapped through the inverse, weights from the filter in Float.
    static func reference(
        _ image: Image, transform: AffineTransform, canvas: PixelSize, background: Color,
        filter: ResampleFilter
    ) -> Image {
        ReferenceWarp.render(image, transform: transform, canvas: canvas, background: background, filter: filter)
    }
}
