import ArgumentParser

/// `crop` read without swift-argument-parser when its line is plain (`QuickArguments`).
/// Why crop: a peek of one tile of a phone photo is over in 20 ms, and the parser's
/// reflection of crop's thirty options took 6-8 ms of it; the commands that decode whole
/// images spend their time elsewhere. The value is the parser's, field for field
/// (`QuickParsingTests`); whatever this reading refuses, and every line that fails a check,
/// goes to the parser, so each message and rule stays the parser's own.
extension Crop {
    /// The parsed and validated command, or nil to leave the line to the parser.
    static func quick(_ arguments: [String]) -> Crop? {
        guard var crop = quickValue(arguments) else { return nil }
        do {
            // As the parser does: each option group's checks as it is decoded, then crop's.
            try crop.encoder.validate()
            try crop.pins.validate()
            try crop.decode.validate()
            try crop.encode.validate()
            try crop.show.graphics.validate()
            try crop.show.validate()
            try crop.validate()
        } catch {
            return nil
        }
        return crop
    }

    /// The value the line gives before any check, or nil if `QuickArguments` refused it.
    static func quickValue(_ arguments: [String]) -> Crop? {
        var reader = QuickArguments(arguments)
        var crop = quickDefault
        var input: String?
        while let item = reader.next() {
            switch item {
            case .value(let value):
                guard input == nil else { return nil }
                input = value
            case .option(let name):
                guard crop.take(name, from: &reader) else { return nil }
            }
        }
        guard !reader.refused, let input else { return nil }
        crop.input = input
        return crop
    }

    /// Every option at its declared default (the input set by `quickValue`).
    static var quickDefault: Crop {
        var crop = Crop()
        (crop.input, crop.at, crop.atFrom, crop.size, crop.screen, crop.view) = ("", [], nil, nil, nil, nil)
        (crop.zoom, crop.fill, crop.output, crop.json, crop.geometryOnly) =
            (defaultZoom, .quickDefault, nil, false, false)
        (crop.encoder, crop.formats, crop.pins, crop.decode) = (
            .quickDefault, .quickDefault, .quickDefault, .quickDefault
        )
        (crop.encode, crop.meta, crop.sample, crop.show) = (.quickDefault, .quickDefault, .quickDefault, .quickDefault)
        return crop
    }

    /// Reads option `name`, crop's own or one of its groups'; false if crop has none of that name.
    private mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--at": arguments.value(name, repeats: true, as: Point.init(argument:)).map { at.append($0) }
        case "--at-from": atFrom = arguments.value(name)
        case "--size": size = arguments.value(name, as: Int.init(argument:))
        case "--screen", "--screen-points": screen = arguments.value("--screen", as: Size.init(argument:))
        case "--view": view = arguments.value(name, as: Size.init(argument:))
        case "--zoom": zoom = arguments.value(name, as: Double.init(argument:)) ?? zoom
        case "-o", "--output": output = arguments.value("--output")
        case "--json": json = arguments.flag(name)
        case "--geometry-only": geometryOnly = arguments.flag(name)
        default:
            return fill.take(name, from: &arguments) || encoder.take(name, from: &arguments)
                || formats.take(name, from: &arguments)
                || pins.take(name, from: &arguments) || decode.take(name, from: &arguments)
                || encode.take(name, from: &arguments) || meta.take(name, from: &arguments)
                || sample.take(name, from: &arguments) || show.take(name, from: &arguments)
        }
        return true
    }
}
