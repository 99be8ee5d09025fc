import ArgumentParser
import FZOperations

/// `thumb` read without swift-argument-parser when its line is plain (`QuickArguments`), as
/// crop's is (Crop+Quick.swift says how). Why thumb: the parser's reflection of its options
/// took about 7 ms of a 20 ms RAW thumbnail from the embedded preview (issue 51, the DNG
/// row). The value is the parser's, field for field (`QuickThumbParsingTests`); what this
/// reading refuses (short flags but -o, `--`), and every line that fails a check, goes to the
/// parser.
extension Thumb: QuickOptions {
    /// The parsed and validated command, or nil to leave the line to the parser.
    static func quick(_ arguments: [String]) -> Thumb? {
        guard var thumb = quickValue(arguments) else { return nil }
        do {
            try thumb.encoder.validate()
            try thumb.decode.validate()
            try thumb.encode.validate()
            try thumb.show.graphics.validate()
            try thumb.show.validate()
            try thumb.validate()
        } catch {
            return nil
        }
        return thumb
    }

    /// The value the line gives before any check, or nil if `QuickArguments` refused it.
    static func quickValue(_ arguments: [String]) -> Thumb? {
        var reader = QuickArguments(arguments)
        var thumb = quickDefault
        var inputs: [String] = []
        while let item = reader.next() {
            switch item {
            case .value(let value): inputs.append(value)
            case .option(let name): guard thumb.take(name, from: &reader) else { return nil }
            }
        }
        guard !reader.refused else { return nil }
        thumb.inputs = inputs
        return thumb
    }

    /// Every option at its declared default, and no inputs (set by `quickValue`).
    static var quickDefault: Thumb {
        var thumb = tableDefault
        thumb.inputs = []
        return thumb
    }

    /// Thumb's own options, then its groups', in the order its declaration gives them.
    static var quickTable: [QuickOption<Thumb>] { quickRows }

    nonisolated(unsafe) private static let quickRows: [QuickOption<Thumb>] = {
        let own: [QuickOption<Thumb>] = [
            .optional("--from", as: String.init(argument:)) { $0.from = $1 },
            .flag("--null") { $0.nulSeparated = $1 },
            .flag("--recursive") { $0.recursive = $1 },
            .value("--size", default: ThumbnailLadder(ThumbnailSize(width: 256, height: 256)), as: ladder) {
                $0.sizes = $1
            },
            .flag("--crop") { $0.crop = $1 },
            .optional("--crop-at", as: Point.init(argument:)) { $0.cropAt = $1 },
            .optional("--explain", as: String.init(argument:)) { $0.explain = $1 },
            .value("--out", "-o", default: "thumbs", as: String.init(argument:)) { $0.out = $1 },
            .optional("--name", as: { try? ThumbnailName($0) }) { $0.name = $1 },
            .optional("--format", as: OutputFormat.init(argument:)) { $0.format = $1 },
            .optional("--jobs", as: Int.init(argument:)) { $0.jobs = $1 },
            .flag("--no-embedded-thumbnail") { $0.noEmbeddedThumbnail = $1 },
            .flag("--animated") { $0.animated = $1 },
            .optional("--max-frames", as: Int.init(argument:)) { $0.maxFrames = $1 },
            .optional("--max-duration", as: Double.init(argument:)) { $0.maxDuration = $1 },
            .flag("--skip-existing") { $0.skipExisting = $1 },
            .optional("--shard", as: { try? ShardRequest(parsing: $0) }) { $0.shard = $1 },
            .flag("--dry-run") { $0.dryRun = $1 },
            .optional("--journal", as: String.init(argument:)) { $0.journal = $1 },
            .flag("--resume") { $0.resume = $1 },
            .flag("--json") { $0.json = $1 },
            .flag("--quiet") { $0.quiet = $1 },
            .flag("--verbose") { $0.verbose = $1 },
            .flag("--progress") { $0.progress = $1 },
            .optional("--max-failures", as: Int.init(argument:)) { $0.maxFailures = $1 },
        ]
        var rows = own + QuickOption.group(\Thumb.fill) { $0.fill = $1 }
        rows += QuickOption.group(\Thumb.encoder) { $0.encoder = $1 }
        rows += QuickOption.group(\Thumb.decode) { $0.decode = $1 }
        rows += QuickOption.group(\Thumb.encode) { $0.encode = $1 }
        rows += QuickOption.group(\Thumb.meta) { $0.meta = $1 }
        return rows + QuickOption.group(\Thumb.show) { $0.show = $1 }
    }()

    /// The --size transform: a failure is the parser's message.
    static func ladder(_ text: String) -> ThumbnailLadder? { try? ThumbnailLadder(parsing: text) }
}
