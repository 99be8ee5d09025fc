import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZMetadata

/// What every rendering job (`TransformJob`, `AnimationJob`) shares: how its inputs are
/// read, what colour its outputs carry, and how they are encoded. The command line fills
/// it from its flags; warnings go to `warnings` as they happen, so they come out between
/// errors in the order the work meets them.
public struct RenderSettings {
    public var decode: DecodeOptions
    public var color: ColorPolicy
    /// With --lenient an unusable profile for --icc srgb is a warning, not a failure.
    public var lenient: Bool
    public var png: PNGSettings
    public var warnings: Warnings
    /// The outputs' format, quality and flattening colour (its `png` is set from `png`).
    public var output = OutputChoice()
    /// Which of the input's EXIF and XMP outputs carry (`--strip`, `--no-location`).
    public var metadata: MetadataPolicy = .keepAll
    /// What outputs do with the input's HDR gain map (`--gain-map`).
    public var gainMap: GainMapPolicy = .keep
    /// `--hdr-headroom`: the display `--gain-map apply` renders for.
    public var hdrHeadroom: HDRHeadroom = .mapMaximum

    public init(decode: DecodeOptions, color: ColorPolicy, lenient: Bool, png: PNGSettings, warnings: Warnings) {
        self.decode = decode
        self.color = color
        self.lenient = lenient
        self.png = png
        self.warnings = warnings
    }

    /// How `path` is encoded: the registry chooses the format, these settings its options.
    public func encoding(forRendered path: String) -> OutputEncoding { choice.encoding(for: path) }

    /// `output` with these PNG settings, for workers (which take it, not the warnings' closures).
    public var choice: OutputChoice {
        var choice = output
        choice.png = png
        return choice
    }

    /// What JPEG outputs flatten transparent pixels onto.
    public var background: Color { output.background }

    /// What an output made from an input described by `color` (read from `path`) carries;
    /// a profile `keep` must leave out is said once.
    public func carry(_ color: ColorDescription, path: String) -> ColorDescription? {
        let carried = self.color.carried(color)
        sayDropped(carried.warning, path: path)
        return carried.color
    }

    /// `carry`'s warning, for a caller that works the colour out (`color.carried`) before
    /// it says anything: `CropOperation`, ahead of its decode.
    func sayDropped(_ warning: String?, path: String) {
        if let warning { warnings.once("\(path): \(warning)") }
    }

    /// The metadata an output of `reader`'s pixels written to `output` carries; what is
    /// left out is said once.
    public func carriedMetadata(_ reader: ImageReader, output: String) -> CarriedMetadata? {
        carriedMetadata(reader, format: self.output.format(for: output))
    }

    /// The metadata an output of `reader`'s pixels written in `format` carries; what is
    /// left out is said once.
    package func carriedMetadata(_ reader: ImageReader, format: OutputFormat) -> CarriedMetadata? {
        let (carried, why) = reader.carriedMetadata(metadata, for: format.format)
        for w in why { warnings.once("\(reader.path): \(w)") }
        return carried
    }

    /// The gain map of `reader` (read after its pixels) as outputs in `format` carry it (left
    /// out where the XMP they carry leaves no room for it, `GainMapCarry.fitting`); a
    /// malformed one is said once.
    package func carriedGainMap(_ reader: ImageReader, format: OutputFormat) -> GainMapCarry {
        let carry = GainMapCarry.read(reader, policy: gainMap, format: format, headroom: hdrHeadroom)
            .fitting(carriedMetadata(reader, format: format))
        if let w = carry.warning { warnings.once("\(reader.path): \(w)") }
        return carry
    }

    /// What the outputs of `carry`'s input did with its map once written; an output the writer
    /// wrote without it (`GainMapCarry.drops`) is said once.
    package func written(_ carry: GainMapCarry, path: String) -> GainMapOutcome? {
        if let w = carry.droppedWarning { warnings.once("\(path): \(w)") }
        return carry.written
    }

    /// With --icc srgb, converts `image` to sRGB in place, before anything is drawn on it.
    public func convert(_ image: inout Image, from color: ColorDescription, path: String) throws(ColorError) {
        let warning = try self.color.convert(&image, from: color, path: path, lenient: lenient)
        if let warning { warnings.once("\(path): \(warning)") }
    }

    /// The 16-bit counterpart of `convert(_:from:path:)`.
    public func convert(_ image: inout Image16, from color: ColorDescription, path: String) throws(ColorError) {
        let warning = try self.color.convert(&image, from: color, path: path, lenient: lenient)
        if let warning { warnings.once("\(path): \(warning)") }
    }
}

/// Where a job's warnings go: the core prints nothing, the command line writes them to
/// stderr (`once`: the same warning said once per run, as a profile left out of every frame).
public struct Warnings {
    public var say: (String) -> Void
    public var once: (String) -> Void

    public init(say: @escaping (String) -> Void, once: @escaping (String) -> Void) {
        self.say = say
        self.once = once
    }
}

/// 8 or 16 bits a sample in an output (`--depth`).
public enum SampleDepth: String, CaseIterable, Sendable {
    case eight = "8"
    case sixteen = "16"

    /// Why a 16-bit output of what `reader` reads cannot be made when `wanted`, or nil when
    /// it can: only samples copied one to one keep their 16 bits.
    /// An `output` that does not write 16 bits (JPEG, WebP, HEIC, AVIF) keeps 8.
    public static func sixteenBitProblem(
        wanted: SampleDepth?, _ reader: ImageReader, oneToOne: Bool, pins: Bool, output: OutputFormat = .png
    ) -> String? {
        let header = reader.header
        if wanted == .eight { return "is not wanted" }
        if !output.writes16Bit {
            let deep = OutputFormat.all.filter(\.writes16Bit).map(\.name)
            return "needs a \(FormatRegistry.sentence(deep, "or")) output; this one is \(output.name)"
        }
        if !reader.hasDeepSamples {
            let deep = FormatRegistry.inputs.filter { $0.capabilities.contains(.deepSamples) }.flatMap(\.names)
            return
                "needs samples deeper than 8 bits (\(FormatRegistry.sentence(deep, "or"))); this input has \(header.bitDepth)-bit samples"
        }
        if !oneToOne { return "copies samples; a --zoom other than 1 resamples them (8-bit)" }
        if pins { return "copies samples; pins are drawn at 8 bits" }
        if header.orientation != .up { return "copies samples; an EXIF orientation is applied at 8 bits" }
        return nil
    }
}
