import ArgumentParser
import FZOperations
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom transform`: a general affine warp about the image centre.
struct Transform: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transform",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Apply an affine transform about the image centre: rotate, flip, scale, translate, skew or a matrix.",
        discussion: """
            Steps compose in the order given on the command line, about the image centre, as a view's transform acts about its centre. Angles are degrees, clockwise on screen (y down). --canvas defaults to the bounding box of the transformed image. Reductions are prefiltered (alias-free), and quarter turns are exact.

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

    @Flag(
        name: .long, help: "Mirror top to bottom (upside down), as ImageMagick's -flip and jpegtran's -flip vertical.")
    var flip: Int

    @Flag(name: .long, help: "Mirror left to right (ImageMagick's -flop, jpegtran's -flip horizontal).")
    var flop: Int

    @Flag(
        name: .long,
        help: "Mirror across the top-left to bottom-right diagonal (rows become columns), as jpegtran and vips name it."
    )
    var transpose: Int

    @Flag(
        name: .long, help: "Mirror across the top-right to bottom-left diagonal, as jpegtran and ImageMagick name it.")
    var transverse: Int

    @Option(
        name: .long,
        help: ArgumentHelp("A raw matrix a,b,c,d,tx,ty (x' = a x + c y + tx, y' = b x + d y + ty).", valueName: "m"))
    var matrix: [NumberList] = []

    @Option(
        name: .long, help: ArgumentHelp("Output size; default: the transformed image's bounding box.", valueName: "wxh")
    )
    var canvas: Size?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --canvas: the image point the steps act about, placed at the same point of the canvas (unit AX,AY or a name; default center).",
            valueName: "ax,ay|name"))
    var anchor: String?

    @OptionGroup var fill: BackgroundFlags<TransformBackground>

    @OptionGroup var kernel: FilterFlags<TransformFilter>

    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var pins: MarkerFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var sample: DepthFlags
    @OptionGroup var show: ShowFlags

    static func numbers(_ list: NumberList, count: Set<Int>) -> [Double]? {
        count.contains(list.values.count) ? list.values : nil
    }

    /// The largest factor a step may have (scale, shear, matrix entries) and the largest
    /// shift: past them no output fits `Budget.maxSide`, and the arithmetic stays exact.
    static let factorLimit = 1e6, shiftLimit = 1e9

    func validate() throws {
        try show.check(output: outputOptions.output)
        for d in rotate { try Check.number(d, "--rotate", in: -1e6...1e6, unit: " degrees") }
        for s in scale {
            guard let v = Self.numbers(s, count: [1, 2]) else {
                throw ValidationError("--scale takes S or SX,SY, got '\(Echo.value(s.text))'")
            }
            for f in v where !(abs(f) >= 1 / Self.factorLimit && abs(f) <= Self.factorLimit) {
                throw ValidationError(
                    "--scale factors must be 0.000001 to 1000000 in size (negative flips), got \(Echo.number(f))")
            }
        }
        for t in translate {
            guard let v = Self.numbers(t, count: [2]) else {
                throw ValidationError("--translate takes X,Y, got '\(Echo.value(t.text))'")
            }
            for f in v { try Check.number(f, "--translate", in: -Self.shiftLimit...Self.shiftLimit, unit: " pixels") }
        }
        for k in skew {
            guard let v = Self.numbers(k, count: [2]) else {
                throw ValidationError("--skew takes DX,DY, got '\(Echo.value(k.text))'")
            }
            for f in v { try Check.number(f, "--skew", in: -Self.factorLimit...Self.factorLimit) }
        }
        for m in matrix {
            guard let v = Self.numbers(m, count: [6]) else {
                throw ValidationError("--matrix takes a,b,c,d,tx,ty, got '\(Echo.value(m.text))'")
            }
            for f in v[0..<4] { try Check.number(f, "--matrix a,b,c,d", in: -Self.factorLimit...Self.factorLimit) }
            for f in v[4...] { try Check.number(f, "--matrix tx,ty", in: -Self.shiftLimit...Self.shiftLimit) }
        }
        if kernel.filter == .box {
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
                    "--anchor places the image in --canvas; without --canvas the output is the bounding box, whatever the pivot. Give --canvas WxH"
                )
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
            "top-left": (0, 0), "top": (0.5, 0), "top-right": (1, 0), "left": (0, 0.5), "center": (0.5, 0.5),
            "centre": (0.5, 0.5),
            "right": (1, 0.5), "bottom-left": (0, 1), "bottom": (0.5, 1), "bottom-right": (1, 1),
        ]
        if let p = names[s.lowercased()] { return p }
        guard let list = NumberList(argument: s), let v = numbers(list, count: [2]) else { return nil }
        return (v[0], v[1])
    }

    /// The steps in the order `arguments` (the raw command line, as `ForceZoom.run` hands
    /// it over) gives them: the parser keeps each option's values apart, so the order
    /// across options is read back from the arguments themselves.
    func steps(in arguments: [String]) -> AffineTransform {
        var r = rotate.makeIterator()
        var s = scale.makeIterator()
        var t = translate.makeIterator()
        var k = skew.makeIterator()
        var m = matrix.makeIterator()
        var result = AffineTransform.identity
        for arg in arguments {
            let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
            let step: AffineTransform?
            switch name {
            case "--rotate": step = r.next().map { AffineTransform.rotation(degrees: $0) }
            case "--scale":
                step = s.next().flatMap { Self.numbers($0, count: [1, 2]) }.map {
                    $0.count == 1 ? .scale($0[0], $0[0]) : .scale($0[0], $0[1])
                }
            case "--translate":
                step = t.next().flatMap { Self.numbers($0, count: [2]) }.map { .translation($0[0], $0[1]) }
            case "--skew": step = k.next().flatMap { Self.numbers($0, count: [2]) }.map { .skew($0[0], $0[1]) }
            case "--matrix":
                step = m.next().flatMap { Self.numbers($0, count: [6]) }.map {
                    AffineTransform(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: $0[4], ty: $0[5])
                }
            case "--flip": step = .scale(1, -1)
            case "--flop": step = .scale(-1, 1)
            case "--transpose": step = AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
            case "--transverse": step = AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: 0, ty: 0)
            default: step = nil
            }
            if let step { result = result.then(step) }
        }
        return result
    }

    /// Quarter turns alone move samples: a 16-bit PNG keeps its 16 bits.
    var quarterTurns: Double? {
        let only =
            !rotate.isEmpty && rotate.allSatisfy { $0.truncatingRemainder(dividingBy: 90) == 0 }
            && scale.isEmpty && translate.isEmpty && skew.isEmpty && matrix.isEmpty && canvas == nil
            && flip + flop + transpose + transverse == 0
        return only ? rotate.reduce(0) { $0 + $1 / 90 } : nil
    }

    /// The parser's entry point, for callers other than `ForceZoom.run` (which calls
    /// `run(arguments:)` with the arguments it parsed): the steps' order comes from argv.
    func run() throws { try run(arguments: ProcessSetup.arguments) }

    func run(arguments: [String]) throws {
        let target = outputOptions.target(
            input: input, suffix: "transform", png: encode.png, background: fill.background.color, show: show)
        var job = TransformJob(
            input: input, target: target, settings: encode.settings(decode, metadata: meta),
            steps: steps(in: arguments), background: fill.background.color, filter: kernel.filter)
        job.settings.output = target.choice
        job.quarterTurns = quarterTurns
        job.canvas = canvas?.pixels
        if let a = anchor.flatMap(Self.anchorPoint) { job.anchor = a }
        job.markers = pins.source
        job.depth = sample.depth
        job.display = try show.display()
        let result = try job.run()
        guard outputOptions.json else { return }
        var members: [(String, JSON)] = [
            ("input", .string(result.input)), ("uprightSize", result.uprightSize.json),
            ("transform", result.transform.json),
            ("canvas", result.canvas.json), ("output", result.output.map(JSON.string) ?? .null),
        ]
        if let depth = result.bitDepth { members.append(("bitDepth", .int(depth))) }
        if let gain = result.gainMap {
            members.append(("gainMap", .string(gain.word)))
            if let note = gain.note { members.append(("gainMapNote", .string(note))) }
        }
        if let regions = result.regions {
            members.append(("regions", .object([("kept", .int(regions.kept)), ("dropped", .int(regions.dropped))])))
        }
        print(JSON.record(members))
    }
}

/// A command whose meaning depends on the order of options of different names (transform's
/// steps), which the parser does not keep: `ForceZoom.run` hands it the arguments it parsed.
protocol OrderedCommand {
    func run(arguments: [String]) throws
}

extension Transform: OrderedCommand {}

extension Substring {
    var trimmingCharacters: String { String(trimmingSpaces) }
}
