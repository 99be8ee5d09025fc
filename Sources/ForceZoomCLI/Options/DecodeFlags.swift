import ArgumentParser
import FZOperations

/// How inputs are read: shared by every subcommand that decodes.
struct DecodeFlags: ParsableArguments {
    @Flag(
        name: .long, help: "Do not apply the EXIF orientation: coordinates then refer to the stored pixels as they are."
    )
    var noAutoOrient = false

    @Flag(name: .long, help: "Keep what decoded from a truncated or corrupt file, with a warning, instead of failing.")
    var lenient = false

    @Option(
        name: .long,
        help: ArgumentHelp("Refuse images with more pixels than this, before decoding (0 = no limit).", valueName: "n"))
    var maxPixels: Int64 = Self.defaultMaxPixels

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Refuse images whose decoding needs more memory than this many MiB, worked out from the header (0 = no limit).",
            valueName: "mib"))
    var maxMemory: Int64 = Self.defaultMaxMemory

    // --page is the same option under the name TIFF users know (vips' [page=N]).
    @Option(
        name: [.long, .customLong("page")],
        help: ArgumentHelp(
            "The frame of an animated WebP or GIF to read, from 1 (default: the first, with a note); --page N: the page of a multi-page TIFF.",
            valueName: "n"))
    var frame: Int = Self.defaultFrame

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For a video: the frame at this many seconds from its start (default: the poster, a keyframe near 10-20% of the duration that is not black or uniform; docs/thumbnails.md says how it is chosen).",
            valueName: "seconds"))
    var time: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The CMYK profile for CMYK and YCCK JPEGs that carry no usable one (default: Ghostscript's default_cmyk.icc from libgs-common, as make deps installs; without any, a plain formula).",
            valueName: "file"))
    var cmykProfile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The CA certificates (PEM) https:// inputs are verified against, for a private CA (default: $SSL_CERT_FILE, else the system's).",
            valueName: "file"))
    var caFile: String?

    /// The defaults of --max-pixels (256 Mpx) and --max-memory (1 GiB), named for `quickDefault`.
    static let defaultMaxPixels: Int64 = 268_435_456
    static let defaultMaxMemory: Int64 = 1024
    static let defaultFrame = 1

    func validate() throws {
        if frame < 1 || frame > 1_000_000 {
            throw ValidationError("\(Self.frameOption) counts from 1 to 1000000, got \(frame)")
        }
        if let time, !(time >= 0 && time <= 1e7) {
            throw ValidationError("--time is seconds from a video's start, 0 to 10000000, got \(time)")
        }
        if maxPixels < 0 { throw ValidationError("--max-pixels must be 0 (no limit) or positive, got \(maxPixels)") }
        if maxMemory < 0 || maxMemory > Int64.max >> 20 {
            throw ValidationError("--max-memory must be 0 (no limit) to \(Int64.max >> 20) MiB, got \(maxMemory)")
        }
        if let cmykProfile {
            do { _ = try CMYKProfile.load(path: cmykProfile) } catch { throw ValidationError(error.description) }
        }
    }

    var options: DecodeOptions {
        var o = DecodeOptions()
        o.autoOrient = !noAutoOrient
        o.lenient = lenient
        o.maxPixels = maxPixels
        o.maxMemory = MemoryLimit.cap(maxMemory << 20)
        o.frame = frame
        o.frameOption = Self.frameOption
        o.videoTime = time
        o.cmykProfile = cmykProfile.flatMap { try? CMYKProfile.load(path: $0) }
        o.caFile = caFile
        return o
    }

    /// The name --frame was typed under, for messages (the parser does not keep it): the last
    /// of `--frame`/`--page` before any `--`, as the last one given is the value used.
    static var frameOption: String {
        var name = "--frame"
        for argument in CommandLine.arguments.dropFirst() {
            if argument == "--" { break }
            if argument == "--page" || argument.hasPrefix("--page=") { name = "--page" }
            if argument == "--frame" || argument.hasPrefix("--frame=") { name = "--frame" }
        }
        return name
    }

    /// What a command may allocate for the images it makes: the same two limits.
    var budget: Budget { options.budget }
}

/// PNG output settings (`--compression`, its default and range `EncoderOption.compression`'s)
/// and the colour an output carries.
struct EncodeFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "PNG compression 0-9: 0 stores; 1-3 sub filter + zlib RLE (default \(PNGSettings.defaultCompression): fast, about 40% smaller than libvips' default on photos); 4-6 paeth + RLE (smaller on photos, slower); 7-9 adaptive filters + full deflate (best on graphics, slow).",
            valueName: "level"))
    var compression: Int = PNGSettings.defaultCompression

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Colour in the output: keep (default: the input's ICC profile, or PNG's sRGB/gAMA/cHRM chunks, copied unchanged with the stored samples; one that cannot be used is left out with a warning; a CMYK JPEG, converted through its CMYK profile, is tagged sRGB), srgb (pixels converted from the input's profile to sRGB with lcms2 and tagged sRGB: the mode for web thumbnails; inputs without a profile are taken as sRGB) or strip (no colour information written, samples unchanged).",
            valueName: "mode"))
    var icc: ColorPolicy.Mode = Self.defaultICC

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The rendering intent of --icc srgb and of CMYK JPEGs' conversion to sRGB: relative (default, with black-point compensation, as vips), perceptual, saturation or absolute.",
            valueName: "intent"))
    var intent: RenderingIntent = Self.defaultIntent

    func validate() throws {
        if let problem = EncoderOption.compression.problem(compression) { throw ValidationError(problem) }
    }

    /// --icc's and --intent's defaults, named for `quickTable`.
    static let defaultICC = ColorPolicy.Mode.keep
    static let defaultIntent = RenderingIntent.relative

    /// The core's colour policy these flags choose (shared with `Thumbnailer`).
    var colorPolicy: ColorPolicy { ColorPolicy(mode: icc, intent: intent) }

    /// How inputs are read for these outputs: `decode`'s options with the rendering intent
    /// for CMYK inputs, and strict profiles for --icc srgb without --lenient.
    func reading(_ decode: DecodeFlags) -> DecodeOptions {
        var o = decode.options
        o.intent = intent
        o.strictProfiles = icc == .srgb && !decode.lenient
        return o
    }

    var png: PNGSettings { .compression(compression) }

    /// The core's settings for a rendering job (`TransformJob`, `AnimationJob`), its
    /// warnings written to stderr.
    func settings(_ decode: DecodeFlags, metadata: MetadataFlags? = nil) -> RenderSettings {
        var settings = RenderSettings(
            decode: reading(decode), color: colorPolicy, lenient: decode.lenient, png: png,
            warnings: Terminal.warnings)
        if let metadata {
            settings.metadata = metadata.policy
            settings.gainMap = metadata.gain.gainMap
            settings.hdrHeadroom = metadata.gain.hdrHeadroom
        }
        return settings
    }
}

/// `--icc`: carry the input's colour description into the output, or not (`ColorPolicy`).
extension ColorPolicy.Mode: ChoiceArgument {}

extension RenderingIntent: ChoiceArgument {}
