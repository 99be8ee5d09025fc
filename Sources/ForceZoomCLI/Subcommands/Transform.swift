import ArgumentParser
import ForceZoomCore
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom transform`: a general affine warp about the image centre.
struct Transform: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a 2D affine transform about the image centre (rotate, scale, translate, skew, matrix).",
        discussion: """
            Steps compose in the order given on the command line, about the image centre, as
            a view's transform acts about its centre. Angles are degrees, clockwise on screen
            (y down). --canvas defaults to the bounding box of the transformed image.
            Reductions are prefiltered (alias-free); quarter turns are exact.

            With --canvas WxH the image's centre sits at the canvas's centre and the steps act about it, as a view's transform does in a superview of that size: a --translate moves it off centre, and a canvas the size of the default bounding box gives the default result. --anchor AX,AY (unit coordinates, as CALayer's anchorPoint: 0,0 the top-left, 1,1 the bottom-right; or a name: top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right) makes that point of the image the pivot, placed at the same point of the canvas.

            Examples:
              forcezoom transform photo.jpg --rotate 30 -o r.png
              forcezoom transform photo.jpg --scale 0.5 --rotate 90 -o q.png
              forcezoom transform photo.jpg --skew 0.2,0 --background transparent -o s.png
              forcezoom transform photo.jpg --matrix 1,0,0,1,40,0 --canvas 800x600 -o m.png
            """)

    @Argument(help: ArgumentHelp("The image: a \(FormatNames.inputs) path, or -.", valueName: "input"))
    var input: String

    @Option(name: .long, help: ArgumentHelp("Rotate by degrees, clockwise on screen.", valueName: "deg"))
    var rotate: [Double] = []

    @Option(name: .long, help: ArgumentHelp("Scale by S or SX,SY.", valueName: "s"))
    var scale: [NumberList] = []

    @Option(name: .long, help: ArgumentHelp("Translate by X,Y pixels.", valueName: "x,y"))
    var translate: [NumberList] = []

    @Option(name: .long, help: ArgumentHelp("Shear: x += DX*y, y += DY*x.", valueName: "dx,dy"))
    var skew: [NumberList] = []

    @Option(name: .long, help: ArgumentHelp("A raw matrix a,b,c,d,tx,ty (x' = a x + c y + tx, y' = b x + d y + ty).", valueName: "m"))
    var matrix: [NumberList] = []

    @Option(name: .long, help: ArgumentHelp("Output size; default: the transformed image's bounding box.", valueName: "wxh"))
    var canvas: Size?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --canvas: the image point the steps act about, placed at the same point of the canvas (unit AX,AY or a name; default center).",
            valueName: "ax,ay|name"))
    var anchor: String?

    @Option(name: .long, help: ArgumentHelp("What shows outside the image (default transparent).", valueName: "color"))
    var background: ColorArgument = ColorArgument(.transparent)

    @Option(name: .long, help: ArgumentHelp("nearest, bilinear (default), bicubic, lanczos.", valueName: "filter"))
    var filter: ResampleFilter = .bilinear

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var sample: DepthFlags

    static func numbers(_ list: NumberList, count: Set<Int>) -> [Double]? {
        count.contains(list.values.count) ? list.values : nil
    }

    /// The largest factor a step may have (scale, shear, matrix entries) and the largest
    /// shift: past them no output fits `Budget.maxSide`, and the arithmetic stays exact.
    static let factorLimit = 1e6, shiftLimit = 1e9

    func validate() throws {
        for d in rotate { try Check.number(d, "--rotate", in: -1e6...1e6, unit: " degrees") }
        for s in scale {
            guard let v = Self.numbers(s, count: [1, 2]) else { throw ValidationError("--scale takes S or SX,SY, got '\(Echo.value(s.text))'") }
            for f in v where !(abs(f) >= 1 / Self.factorLimit && abs(f) <= Self.factorLimit) {
                throw ValidationError("--scale factors must be 0.000001 to 1000000 in size (negative flips), got \(Echo.number(f))")
            }
        }
        for t in translate {
            guard let v = Self.numbers(t, count: [2]) else { throw ValidationError("--translate takes X,Y, got '\(Echo.value(t.text))'") }
            for f in v { try Check.number(f, "--translate", in: -Self.shiftLimit...Self.shiftLimit, unit: " pixels") }
        }
        for k in skew {
            guard let v = Self.numbers(k, count: [2]) else { throw ValidationError("--skew takes DX,DY, got '\(Echo.value(k.text))'") }
            for f in v { try Check.number(f, "--skew", in: -Self.factorLimit...Self.factorLimit) }
        }
        for m in matrix {
            guard let v = Self.numbers(m, count: [6]) else { throw ValidationError("--matrix takes a,b,c,d,tx,ty, got '\(Echo.value(m.text))'") }
            for f in v[0..<4] { try Check.number(f, "--matrix a,b,c,d", in: -Self.factorLimit...Self.factorLimit) }
            for f in v[4...] { try Check.number(f, "--matrix tx,ty", in: -Self.shiftLimit...Self.shiftLimit) }
        }
        if filter == .box {
            throw ValidationError("--filter must be nearest, bilinear, bicubic or lanczos")
        }
        if let canvas {
            try canvas.check("--canvas")
            let budget = decode.budget
            try Check.budget { () throws(BudgetError) in try budget.check("--canvas \(canvas)", size: canvas.pixels) }
        }
        if let anchor {
            if canvas == nil {
                throw ValidationError(
                    "--anchor places the image in --canvas; without --canvas the output is the bounding box, whatever the pivot. Give --canvas WxH")
            }
            if Self.anchorPoint(anchor) == nil {
                throw ValidationError(
                    "--anchor takes AX,AY in unit coordinates (0.5,0.5 is the centre) or top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right; got '\(anchor)'"
                )
            }
        }
    }

    /// An anchor in unit coordinates.
    static func anchorPoint(_ s: String) -> (x: Double, y: Double)? {
        let names: [String: (Double, Double)] = [
            "top-left": (0, 0), "top": (0.5, 0), "top-right": (1, 0), "left": (0, 0.5), "center": (0.5, 0.5), "centre": (0.5, 0.5),
            "right": (1, 0.5), "bottom-left": (0, 1), "bottom": (0.5, 1), "bottom-right": (1, 1),
        ]
        if let p = names[s.lowercased()] { return p }
        guard let list = NumberList(argument: s), let v = numbers(list, count: [2]) else { return nil }
        return (v[0], v[1])
    }

    /// The steps in command-line order (the parser keeps each option's values apart, so
    /// the order is read back from the raw arguments).
    func steps() -> AffineTransform {
        var r = rotate.makeIterator(), s = scale.makeIterator(), t = translate.makeIterator()
        var k = skew.makeIterator(), m = matrix.makeIterator()
        var result = AffineTransform.identity
        for arg in CommandLine.arguments.dropFirst() {
            let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
            let step: AffineTransform?
            switch name {
            case "--rotate": step = r.next().map { AffineTransform.rotation(degrees: $0) }
            case "--scale":
                step = s.next().flatMap { Self.numbers($0, count: [1, 2]) }.map { $0.count == 1 ? .scale($0[0], $0[0]) : .scale($0[0], $0[1]) }
            case "--translate": step = t.next().flatMap { Self.numbers($0, count: [2]) }.map { .translation($0[0], $0[1]) }
            case "--skew": step = k.next().flatMap { Self.numbers($0, count: [2]) }.map { .skew($0[0], $0[1]) }
            case "--matrix":
                step = m.next().flatMap { Self.numbers($0, count: [6]) }.map {
                    AffineTransform(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: $0[4], ty: $0[5])
                }
            default: step = nil
            }
            if let step { result = result.then(step) }
        }
        return result
    }

    func run() throws {
        let reader: ImageReader
        reader = try ImageReader(path: input, options: encode.reading(decode))
        let markers = try pins.load()
        let size = reader.header.uprightSize
        let w = Double(size.width), h = Double(size.height)
        let steps = self.steps()
        guard steps.inverted != nil else { throw ToolFailure("\(reader.path): the transform collapses the image (determinant 0)") }
        // Quarter turns alone move samples: a 16-bit PNG keeps its 16 bits.
        let quarterTurns = rotate.reduce(0) { $0 + $1 / 90 }
        let onlyQuarterTurns =
            !rotate.isEmpty && rotate.allSatisfy { $0.truncatingRemainder(dividingBy: 90) == 0 }
            && scale.isEmpty && translate.isEmpty && skew.isEmpty && matrix.isEmpty && canvas == nil
        let why =
            onlyQuarterTurns
            ? sample.sixteenBitProblem(reader.header, input: input, oneToOne: true, pins: !markers.isEmpty, encode: encode)
            : "copies samples only for quarter turns (--rotate 90, 180, 270 alone)"
        if let why, sample.depth == .sixteen {
            throw ToolFailure("\(reader.path): --depth 16 \(why)", exitCode: 2)
        }
        if why == nil {
            var image: Image16
            image = try PNG16.read(path: input, rect: PixelRect(size: size), options: encode.reading(decode), header: reader.header)
            try encode.convert(&image, from: reader.header.color, path: input, lenient: decode.lenient)
            let turned = image.rotated(quarterTurns: Int(quarterTurns.truncatingRemainder(dividingBy: 4)))
            let path = outputOptions.path(input: input, suffix: "transform")
            try ImageWriter.write(
                turned, to: path, settings: encode.png, protecting: [input], color: encode.carry(reader.header.color, path: reader.path))
            if outputOptions.json {
                let t = AffineTransform.rotation(degrees: quarterTurns * 90)
                print(
                    JSON.object([
                        ("input", .string(reader.path)), ("uprightSize", size.json), ("transform", t.json),
                        ("canvas", turned.size.json), ("output", .string(path)), ("bitDepth", .int(16)),
                    ]))
            }
            return
        }
        let canvasSize: PixelSize
        let full: AffineTransform
        if let canvas {
            // As a view in a superview of the canvas's size: the pivot (the centre unless
            // --anchor) at the same point of the canvas, the steps about it.
            canvasSize = canvas.pixels
            let a = anchor.flatMap(Self.anchorPoint) ?? (0.5, 0.5)
            full = AffineTransform.translation(-w * a.x, -h * a.y).then(steps)
                .then(.translation(Double(canvasSize.width) * a.x, Double(canvasSize.height) * a.y))
        } else {
            // The bounding box, rounded outwards (near-whole edges snapped so quarter turns
            // stay exact), with the box centred in it: the same as --canvas of that size.
            let about = AffineTransform.translation(-w / 2, -h / 2).then(steps)
            let box = about.boundingBox(of: Rect(x: 0, y: 0, width: w, height: h))
            func snap(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
            // The box's own size, rounded up (an odd-sized image turned a quarter is centred on
            // a half pixel: its box is whole, and flooring its corner would add a blurred column).
            let bw = snap(box.width).rounded(.up), bh = snap(box.height).rounded(.up)
            // Checked before any conversion to Int: the steps can make any size.
            guard bw <= Double(Budget.maxSide), bh <= Double(Budget.maxSide) else {
                throw ToolFailure(
                    "\(reader.path): the transformed image would be \(Echo.number(bw.rounded()))x\(Echo.number(bh.rounded())) pixels, and sides are limited to \(Budget.maxSide); give smaller steps or a --canvas to cut it"
                )
            }
            canvasSize = PixelSize(width: max(1, Int(bw)), height: max(1, Int(bh)))
            full = about.then(
                .translation(
                    Double(canvasSize.width) / 2 - (box.x + box.width / 2),
                    Double(canvasSize.height) / 2 - (box.y + box.height / 2)))
        }
        if canvas == nil {
            do { try decode.budget.check("the transformed image's bounding box", size: canvasSize) } catch {
                throw ToolFailure("\(reader.path): \(error) (or give a --canvas to cut it)")
            }
        }
        // Prefilter reductions: decode smaller, then warp by what remains.
        let pre = AffineRenderer.prefilterScale(for: full)
        var source: Image
        if pre < 1 {
            let reduced = PixelSize(width: max(1, Int((w * pre).rounded())), height: max(1, Int((h * pre).rounded())))
            source = try reader.readResampled(to: reduced, filter: .lanczos).0
        } else {
            source = try reader.readImage()
        }
        try encode.convert(&source, from: reader.header.color, path: reader.path, lenient: decode.lenient)
        let carried = encode.carry(reader.header.color, path: reader.path)
        let inks = DrawingColors(output: carried)
        let warp = AffineTransform.scale(w / Double(source.width), h / Double(source.height)).then(full)
        var out = AffineRenderer.render(
            source, transform: warp, canvas: canvasSize, background: inks.map(background.color),
            filter: filter)
        PinLayer(markers, color: inks.map(PinRenderer.color)).draw(on: &out, transform: full)
        let path = outputOptions.path(input: input, suffix: "transform")
        try ImageWriter.write(
            out, to: path, encoding: encode.encoding(forRendered: path), protecting: [input],
            color: carried)
        if outputOptions.json {
            print(
                JSON.object([
                    ("input", .string(reader.path)), ("uprightSize", size.json), ("transform", full.json),
                    ("canvas", canvasSize.json), ("output", .string(path)),
                ]))
        }
    }
}

extension Substring {
    var trimmingCharacters: String { String(trimmingSpaces) }
}
