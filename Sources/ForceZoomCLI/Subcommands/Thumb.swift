// Over 300 lines: thumb has some thirty options (size, names, batch, shards, journal, progress,
// formats) and their cross-checks in validate(); the work itself is in ThumbnailBatch.

import ArgumentParser
import FZOperations
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// `forcezoom thumb`: a folder of photos into a folder of upright thumbnails, in parallel.
struct Thumb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumb",
        _superCommandName: ForceZoom.superCommandName,
        abstract: "Make upright thumbnails of many image files, two or more at once.",
        discussion: """
            Inputs are files and folders; folders are searched for \(FormatNames.allInputs) files by their content (not their names), --recursive to descend. --from FILE (or - for standard input) reads a list of paths, one per line, or NUL-separated with -0:
              find photos -name '*.jpg' -print0 | forcezoom thumb --from - -0

            --size: N (longest side N), WxH (fit inside the box), Wx or xH (one side), with one modifier: > only shrink (the default: never enlarge), < only enlarge, ! exactly that size ignoring aspect (a missing side keeps the image's own). Quote it in the shell: --size '256x256!'. Several sizes, comma-separated (--size 320,640x480,1280, up to 16), make a ladder of each input from one decode at the scale the largest needs, each smaller size resampled from it or from a size at least twice as large; name them with %z (default %s-%z.thumb.png). --crop fills the box instead and cuts the overflow evenly; --crop-at X,Y (pixels or percent) keeps the part around that point of the upright image, placed as `crop` places its square; --crop-at also takes region:NAME, face, attention (the faces of the file's metadata, else the most salient part of its pixels), entropy or center, found per input (--json says where, as "where").

            Outputs go to --out (default ./thumbs, created if missing) named by --name: %s input stem, %e input extension, %d input folder relative to the folder argument it was found in (for a file named directly or listed: its folder as written), %i running index from 1, %z the size as typed, %w and %h its box width and height, %% a percent sign; default %s.thumb.png, and %d/%s.thumb.png with --recursive (the tree mirrored, so equal names in two folders never collide). One input file and an --out ending in an image extension (not an existing folder) write that file: thumb one.jpg -o small.jpg. The name's extension picks the format: \(FormatNames.outputsWithExtensions); --format for a name without one (and the default name's extension). \(FormatNames.taking(.quality)) are lossy at --quality (default \(EncodeSettings.defaultQuality); 100 stays lossy), \(FormatNames.taking(.lossless)) lossless with --lossless. \(FormatNames.withoutAlpha("and")) has no alpha: transparent pixels are composited over --background (default white) in premultiplied arithmetic, as ImageMagick's -flatten and browsers do; the formats that keep alpha ignore --background. Two inputs with one output name, or an output that is an input, stop the batch before anything is done (exit 2). --skip-existing leaves outputs that are newer than their input.

            Each input is decoded straight into the reducer: JPEGs at the smallest DCT scale (1/2, 1/4, 1/8) still at least the thumbnail, PNG rows streamed, then a Lanczos-3 reduction (area-correct at any factor), EXIF orientation applied.

            A bad input is reported (forcezoom: error: <file>: <reason>) and the batch goes on, until --max-failures N inputs have failed; an --out where no file can be made is one error before any decoding, and a full disk or spent quota (ENOSPC, EDQUOT) stops the batch at once (no point decoding the rest), the summary saying what was made, what failed, how many were not done and the first of them. Progress (done/total, rate, ETA, failures) redraws on stderr when it is a terminal (with --progress into a log: one plain line a second); a summary ends the batch. Exit 0 if all succeeded, 1 if any input failed, 2 for usage. Ctrl-C stops cleanly: running jobs leave nothing behind, finished thumbnails stay, the summary says what was done (a second Ctrl-C ends it at once).

            Across machines: --shard K/N does shard K of N (K from 1), chosen by a hash of each input's path below its folder argument, so adding files moves none to another shard; --shard auto takes K and N from a Slurm, AWS Batch or Google Batch array task (--shard auto/N on Kubernetes Indexed Jobs, or to make a Slurm task ID the shard number). --journal FILE appends one JSON line per finished input (%k: the shard index); --resume skips inputs it says are done whose output still has the size and SHA-256 recorded. --dry-run prints this shard's inputs and outputs and writes nothing.

            Examples:
              forcezoom thumb photos/ --recursive --size 256 --out thumbs --name '%d/%s.jpg'
              forcezoom thumb *.jpg --size 320x240 --crop --json > thumbs.jsonl
              find . -newer stamp -name '*.png' -print0 | forcezoom thumb --from - -0 -j 4
            """)

    @Argument(help: ArgumentHelp("\(FormatNames.inputs) files, and folders.", valueName: "input"))
    var inputs: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read more input paths from this file (- for standard input), one per line.", valueName: "file"))
    var from: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "The --from list is NUL-separated (find -print0).")
    var nulSeparated = false

    @Flag(name: .shortAndLong, help: "Descend into subfolders of folder inputs.")
    var recursive = false

    @Option(
        name: .customLong("size"),
        help: ArgumentHelp(
            "N, WxH, Wx or xH, with > (only shrink, the default), < (only enlarge) or ! (exact size). Default 256 (the longest side at most 256 pixels). Several, comma-separated (320,640,1280: up to 16), are made from one decode; name them with %z.",
            valueName: "spec"),
        transform: { try ThumbnailLadder(parsing: $0) })
    var sizes = ThumbnailLadder(ThumbnailSize(width: 256, height: 256))

    /// The first size: the one size of a batch without a ladder.
    var size: ThumbnailSize { sizes.sizes[0] }

    @Flag(name: .long, help: "Fill the box and cut the overflow evenly (needs a box: N or WxH).")
    var crop = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fill the box and keep the part around this point (pixels or percent of the upright image), or region:NAME, face, attention, entropy, center.",
            valueName: "x,y|word"))
    var cropAt: Point?

    @Option(name: .long, help: ExplainArgument.help)
    var explain: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Output folder, created if missing; with one input file, a name with an image extension is the thumbnail itself (-o small.jpg).",
            valueName: "dir"))
    var out: String = "thumbs"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Output name: %s stem, %e extension, %d folder, %i index, %z size (%w, %h its sides); its extension chooses the format. Default: %s.thumb.png (with --recursive: %d/%s.thumb.png).",
            valueName: "pattern"),
        transform: { try ThumbnailName($0) })
    var name: ThumbnailName?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The format of names whose extension says none, and of the default name: \(FormatNames.optionValues).",
            valueName: "format"))
    var format: OutputFormat?

    @OptionGroup var fill: BackgroundFlags<ThumbBackground>

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Parallel jobs (default: the number of processors).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var encoder: EncoderFlags<ThumbEncoderHelp>

    @Flag(
        name: .long,
        help:
            "Always decode the image, never an HEIF file's embedded thumbnail (used by default when it has at least the output's pixels)."
    )
    var noEmbeddedThumbnail = false

    @Flag(
        name: .long,
        help:
            "An animated GIF, WebP, APNG or JPEG XL makes an animated thumbnail: WebP or APNG (.png), as the output name's extension says (default name: %s.thumb.webp); each frame composited and reduced, with its delay, and the loop count kept."
    )
    var animated = false

    @Option(
        name: .long,
        help: ArgumentHelp("With --animated: keep at most the first N frames (default 1000).", valueName: "n"))
    var maxFrames: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --animated: drop frames starting at or after this many seconds (default 120).", valueName: "seconds"))
    var maxDuration: Double?

    @Flag(name: .long, help: "Skip inputs whose output exists and is newer than the input file.")
    var skipExisting = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Do only shard K of N (K from 1), or auto or auto/N to take it from the job array (Slurm, AWS Batch, Google Batch, Kubernetes).",
            valueName: "K/N|auto"),
        transform: { try ShardRequest(parsing: $0) })
    var shard: ShardRequest?

    @Flag(name: .long, help: "Print each input this shard would do and its output; write and create nothing at all.")
    var dryRun = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Append one JSON line per finished input to this file (%k in its name: the shard index).", valueName: "file"
        ))
    var journal: String?

    @Flag(
        name: .long,
        help: "Skip inputs the --journal says are done whose output still has the size and SHA-256 it recorded.")
    var resume = false

    @Flag(name: .long, help: "One JSON record per input on stdout (JSON Lines).")
    var json = false

    @Flag(name: .shortAndLong, help: "No progress line and no summary (errors still print).")
    var quiet = false

    @Flag(
        name: .shortAndLong,
        help: "Name on stderr each file of the folders or --from list passed over (a video, a sidecar...), and why.")
    var verbose = false

    @Flag(
        name: .long,
        help:
            "Show progress even when standard error is not a terminal (a log): there one plain line a second, never redrawn."
    )
    var progress = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Stop handing out work once this many inputs have failed (cron jobs that should give up early).",
            valueName: "n"))
    var maxFailures: Int?

    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var meta: MetadataFlags
    @OptionGroup var show: ShowFlags

    func validate() throws {
        if inputs.isEmpty && from == nil { throw ValidationError("name files or folders, or give --from FILE") }
        if inputs.contains("-") {
            throw ValidationError("thumb reads files; for a list of paths on standard input use --from -")
        }
        if nulSeparated && from == nil { throw ValidationError("-0 applies to --from; give --from FILE or --from -") }
        _ = try outputTarget()
        try validateLadder()
        for spec in sizes.sizes { try validate(spec) }
        try ExplainArgument.check(explain, place: cropAt?.place, flag: "--crop-at")
        if let explain, !explain.contains("%s"), inputs.count != 1 || from != nil || recursive {
            throw ValidationError(
                "--explain \(Echo.value(explain)) with several inputs needs %s (the input's stem) in it, e.g. %s.explain.png"
            )
        }
        if let jobs { try Check.integer(jobs, "--jobs", in: 1...1024) }
        try validateAnimated()
        if let maxFailures { try Check.integer(maxFailures, "--max-failures", in: 1...Int(Int32.max)) }
        if quiet && progress { throw ValidationError("--quiet and --progress contradict each other; give one") }
        if resume && journal == nil { throw ValidationError("--resume reads the journal; give --journal FILE as well") }
        if journal?.isEmpty == true { throw ValidationError("--journal needs a file name") }
        // '-' is refused, not taken as standard output: the journal is a file --resume reads
        // back and appends to, which a stream is not, and standard output carries --json and
        // --dry-run's lines (a file named '-' is still ./-).
        if let journal, StandardStream.isNamed(journal) {
            throw ValidationError(
                "--journal -: the journal is a file --resume reads back, not a stream; name a file (./- for one called '-')"
            )
        }
    }

    /// The checks of one size of `--size`.
    private func validate(_ spec: ThumbnailSize) throws {
        let size = spec
        // Sides past the longest forcezoom makes, and a box that is over the budget whatever
        // the image (an enlargement or exact size fills it), are refused before any work.
        for side in [spec.width, spec.height].compactMap({ $0 }) where side > Budget.maxSide {
            throw ValidationError("--size \(Echo.value(size.asTyped)): sides are limited to \(Budget.maxSide)")
        }
        // Only an exact box (`!`, or --crop) is the output's size whatever the image; a fit
        // inside a box is checked per image (that input fails, the batch goes on).
        if let w = spec.width, let h = spec.height, spec.mode == .exact || crop {
            let budget = decode.budget
            try Check.budget { () throws(BudgetError) in
                try budget.check(
                    "the thumbnail (--size \(Echo.value(size.asTyped)))", size: PixelSize(width: w, height: h))
            }
        }
        if crop || cropAt != nil {
            let typed = Echo.value(size.asTyped)
            if spec.mode == .exact {
                throw ValidationError(
                    "--size \(typed) is an exact size (!), which has nothing to crop; drop --crop or the !")
            }
            if !spec.isBox { throw ValidationError("--crop needs a box to fill: --size N or WxH, not \(typed)") }
        }
    }

    func run() throws {
        var settings = ThumbnailSettings(
            size: size, decode: encode.reading(decode),
            encode: encoder.settings(png: encode.png, background: fill.background.color.overWhite),
            skipExisting: skipExisting)
        settings.crop(centre: crop, at: cropAt?.place)
        settings.explain = explain
        settings.colorPolicy = encode.colorPolicy
        settings.metadata = meta.policy
        settings.gainMap = meta.gain.gainMap
        settings.hdrHeadroom = meta.gain.hdrHeadroom
        settings.useEmbeddedThumbnail = !noEmbeddedThumbnail
        settings.animated = animated
        if let maxFrames { settings.maxFrames = maxFrames }
        if let maxDuration { settings.maxDuration = maxDuration }
        let (folder, names) = try outputTarget()
        var operation = ThumbOperation(
            inputs: inputs,
            target: OutputTarget(
                .folder(folder, names: names), choice: OutputChoice(requested: format, settings: settings.encode)),
            thumbnailer: settings, workers: jobs ?? ThumbOperation.processorCount)
        operation.ladder = sizes
        (operation.from, operation.nulSeparated, operation.recursive) = (from, nulSeparated, recursive)
        (operation.maxFailures, operation.shard) = (maxFailures, shard)
        (operation.dryRun, operation.journal, operation.resume) = (dryRun, journal, resume)
        (operation.json, operation.quiet, operation.verbose) = (json, quiet, verbose)
        operation.progress = progress || Terminal.stderrIsTerminal
        operation.display = try show.display()
        let outcome = try operation.run(Report.terminal)
        // 75 (EX_TEMPFAIL) when every failure was a busy or unreachable store: a scheduler retries.
        if outcome.failed { throw ExitCode(outcome.exitCode) }
    }

    /// --name, or the default: `%s.thumb.png` (the extension --format's), under `%d/` when
    /// recursing so that a tree with one name in two folders works on the first run.
    var outputName: ThumbnailName {
        if let name { return name }
        // A ladder's sizes side by side: photo-320.thumb.png, photo-640.thumb.png (srcset style).
        let sized = sizes.isLadder ? "-%z" : ""
        // --animated: WebP by default (smaller than APNG, shown by every browser).
        let ext = format?.extensions[0] ?? (animated ? "webp" : "png")
        let pattern = (recursive ? "%d/" : "") + "%s" + sized + ".thumb." + ext
        return (try? ThumbnailName(pattern)) ?? .standard
    }
}
