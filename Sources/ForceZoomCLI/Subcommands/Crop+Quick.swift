import ArgumentParser

/// `crop` read without swift-argument-parser when its line is plain (`QuickArguments`).
/// Why crop: a peek of one tile of a phone photo is over in 20 ms, and the parser's
/// reflection of crop's thirty options took 6-8 ms of it; the commands that decode whole
/// images spend their time elsewhere. The value is the parser's, field for field
/// (`QuickParsingTests`); whatever this reading refuses, and every line that fails a check,
/// goes to the parser, so each message and rule stays the parser's own.
extension Crop: QuickOptions {
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

    /// Every option at its declared default, and the input (the one positional value, set
    /// by `quickValue`) empty.
    static var quickDefault: Crop {
        var crop = tableDefault
        crop.input = ""
        return crop
    }

    /// Crop's own options, then its groups', in the order its declaration gives them: made
    /// once (each option read looks its row up), immutable after.
    static var quickTable: [QuickOption<Crop>] { quickRows }

    nonisolated(unsafe) private static let quickRows: [QuickOption<Crop>] = {
        let own: [QuickOption<Crop>] = [
            .repeating("--at", as: Point.init(argument:), at: \.at) { $0.at = $1 },
            .optional("--at-from", as: String.init(argument:)) { $0.atFrom = $1 },
            .optional("--explain", as: String.init(argument:)) { $0.explain = $1 },
            .optional("--size", as: Int.init(argument:)) { $0.size = $1 },
            .optional("--screen", "--screen-points", as: Size.init(argument:)) { $0.screen = $1 },
            .optional("--view", as: Size.init(argument:)) { $0.view = $1 },
            .value("--zoom", default: defaultZoom, as: Double.init(argument:)) { $0.zoom = $1 },
            .optional("--output", "-o", as: String.init(argument:)) { $0.output = $1 },
            .flag("--json") { $0.json = $1 },
            .flag("--geometry-only") { $0.geometryOnly = $1 },
            .flag("--animated") { $0.animated = $1 },
        ]
        var rows = own + QuickOption.group(\Crop.fill) { $0.fill = $1 }
        rows += QuickOption.group(\Crop.encoder) { $0.encoder = $1 }
        rows += QuickOption.group(\Crop.formats) { $0.formats = $1 }
        rows += QuickOption.group(\Crop.pins) { $0.pins = $1 }
        rows += QuickOption.group(\Crop.decode) { $0.decode = $1 }
        rows += QuickOption.group(\Crop.encode) { $0.encode = $1 }
        rows += QuickOption.group(\Crop.meta) { $0.meta = $1 }
        rows += QuickOption.group(\Crop.sample) { $0.sample = $1 }
        return rows + QuickOption.group(\Crop.show) { $0.show = $1 }
    }()
}
