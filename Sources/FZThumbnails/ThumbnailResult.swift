import FZGainMap
import FZSystem
import Geometry

/// What became of one input of a thumbnail batch.
public struct ThumbnailResult: Sendable {
    /// How it ended.
    public enum Outcome: Sendable, Equatable {
        /// The thumbnail was written.
        case made
        /// `--skip-existing`: the output is newer than the input, left as it was.
        case skipped
        /// Nothing was written (and nothing was left behind).
        case failed(ThumbnailError)
    }

    /// The input path.
    public let input: String
    /// The planned output path.
    public var output: String
    public var outcome: Outcome
    /// The upright source size (nil when the header could not be read, or skipped).
    public var sourceSize: PixelSize?
    /// The thumbnail size (nil unless made).
    public var outputSize: PixelSize?
    /// Bytes written (nil unless made).
    public var bytes: Int64?
    /// The JPEG DCT scaling denominator used (1 for PNG, nil unless decoded).
    public var denominator: Int?
    /// Wall time spent on this input, in milliseconds.
    public var milliseconds: Double = 0
    /// The file's embedded thumbnail (HEIF) was resampled instead of the image.
    public var embeddedThumbnail = false
    /// Problems skipped past (only with lenient decoding).
    public var warnings: [String] = []
    /// A ladder (`--size 320,640`): this output's size as typed; nil for one size.
    public var size: String?
    /// A ladder: what this output was resampled from: "decode", "embedded thumbnail" or
    /// the larger size (as typed) made first (nil unless made).
    public var madeFrom: String?
    /// A ladder: how many times the input was decoded for all its sizes (1; nil unless made).
    public var decodes: Int?
    /// What the output did with the input's HDR gain map (nil: the input has none).
    public var gainMap: GainMapOutcome?
    /// The input is a motion photo: why its clip is not in the output (every output drops it).
    public var motionClipDropped: String?
    /// `--crop-at` with a word: how the place was found (`"where"`), and the upright source
    /// window kept (`"window"`).
    public var place: JSON?
    public var window: Rect?
    /// `--animated` and an animated input: what the animated output holds (nil: a still).
    public var animation: Thumbnailer.AnimationSummary?
    /// What reading the input's regions warned about (said with `warnings`).
    public var regionWarnings: [String] = []
    /// How many of the input's regions the output kept and dropped (nil: it has none).
    public var regions: (kept: Int, dropped: Int)?

    public init(input: String, output: String, outcome: Outcome) {
        self.input = input
        self.output = output
        self.outcome = outcome
    }

    /// The error, when it failed.
    public var error: ThumbnailError? {
        if case .failed(let e) = outcome { return e }
        return nil
    }

    /// The JSON Lines record: input, output (null unless written or kept), status, sizes,
    /// bytes, milliseconds, DCT denominator, skipped, whether an embedded thumbnail was used,
    /// and the error reason (null on success).
    ///
    /// `status` is "made", "kept" (the output was already there: `--skip-existing`,
    /// `--resume`; the older `skipped` boolean says the same) or "failed". A file never
    /// attempted because it is no image forcezoom reads has its own record
    /// (`SkippedFile.json`, status "skipped").
    public var json: JSON {
        let made = outcome == .made
        let skipped = outcome == .skipped
        var members: [(String, JSON)] = [
            ("input", .string(input)),
            ("output", made || skipped ? .string(output) : .null),
            ("status", .string(made ? "made" : skipped ? "kept" : "failed")),
            ("sourceSize", sourceSize?.json ?? .null),
            ("outputSize", outputSize?.json ?? .null),
            ("bytes", bytes.map { .int($0) } ?? .null),
            ("milliseconds", .number((milliseconds * 1000).rounded() / 1000)),
            ("dctScale", denominator.map { .int($0) } ?? .null),
            ("skipped", .bool(skipped)),
            ("error", error.map { .string($0.reason) } ?? .null),
            ("embeddedThumbnail", .bool(embeddedThumbnail)),
        ]
        // Ladder records only: one size's records stay as they were.
        if let size {
            members.append(("size", .string(size)))
            members.append(("madeFrom", madeFrom.map { .string($0) } ?? .null))
            members.append(("decodes", decodes.map { .int(Int64($0)) } ?? .null))
        }
        if let place { members.append(("where", place)) }
        if let window { members.append(("window", window.json)) }
        if let a = animation {
            members.append(("animation", a.json))
        }
        if let gainMap {
            members.append(("gainMap", .string(gainMap.word)))
            if let note = gainMap.note { members.append(("gainMapNote", .string(note))) }
        }
        if let note = motionClipDropped, made {
            members += [("motionPhoto", .string("dropped")), ("motionPhotoNote", .string(note))]
        }
        if let regions {
            members.append(("regions", .object([("kept", .int(regions.kept)), ("dropped", .int(regions.dropped))])))
        }
        return .object(members)
    }
}
