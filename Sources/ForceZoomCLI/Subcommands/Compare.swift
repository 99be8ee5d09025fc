import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom compare`: how far apart two images are, with exit codes a test harness
/// branches on.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        _superCommandName: ForceZoom.superCommandName,
        abstract:
            "Measure how far apart two images are (PSNR, PAE, MAE, SSIM, differing pixels), with the exit codes test harnesses branch on.",
        discussion: """
            Both images are decoded upright (EXIF orientation applied unless --no-auto-orient) and, with --icc srgb, converted to sRGB through their profiles; otherwise the decoded samples are compared as stored. Sizes must match (or --crop-to-smaller compares the top-left rectangle both have). The two decoded images, and --diff's with them, are held at once: together they meet --max-pixels and --max-memory before either is decoded.

            Measures, on 8-bit samples of R, G, B (gray counts as R = G = B) and alpha as a fourth channel when either image has one:
              pae   the largest absolute difference of any sample, in levels
              mae   the mean absolute difference, in levels
              psnr  10 log10(255^2 / mean squared difference), in dB; "inf" when identical
              ssim  mean SSIM of the Rec. 601 luma, Gaussian 11x11 window (sigma 1.5), as
                    scikit-image's structural_similarity(gaussian_weights=True, sigma=1.5,
                    use_sample_covariance=False, data_range=255); alpha ignored; needs 11x11
            Pixel counts:
              ae          pixels where R, G or B, each weighed by its alpha, differ by at
                          least --fuzz (N levels of 255, or P% as ImageMagick's -fuzz P%;
                          default: any difference), as ImageMagick's compare -metric AE
              pixelmatch  pixels whose YIQ colour distance is over --fuzz (pixelmatch's
                          threshold, 0-1, default 0.1), less those that look like
                          anti-aliasing (counted too with --include-aa), as pixelmatch

            Prints the --metric's value (default psnr); --json prints one record with every measure. --threshold T passes psnr and ssim at least T, pae and mae at most T, ae and pixelmatch at most T pixels or, written as a percentage, at most that ratio of the compared pixels (--threshold 0.5% is Playwright's maxDiffPixelRatio 0.005 and jest-image-snapshot's failureThreshold 0.005 of type percent; --threshold 120 their maxDiffPixels and pixel type). The counts fail on any differing pixel without --threshold; the measures have no verdict without one.

            --mask X,Y,W,H (or --ignore, repeatable) leaves a rectangle of the compared image out of every measure: the second image takes the first's pixels there, so they count as equal (and in the total of a ratio).

            Exit codes: 0 within the threshold (or none given), 1 over it (one line on standard error), 2 bad usage or an input that cannot be read (missing, not an image, corrupt, over a limit), 3 the sizes differ. With --json one record says the same on every outcome, errors included: "match" true or false and "reason" null, "threshold", "size", "unreadable", "usage" or "output" (a --diff that could not be written), with "message" (and "file" for an unreadable input).

            --diff draws pixelmatch's picture for --metric pixelmatch (the first image's brightness faded to white, differences red, anti-aliasing yellow), and otherwise ImageMagick's (the first image under 80% white, differing pixels under 80% red).

            Folders: compare EXPECTED_DIR ACTUAL_DIR pairs the images below both by relative path (any format a decoder reads; home.png with home.webp when that stem names one image on each side), compares the pairs --jobs at a time (each with its share of --max-memory) by the same --metric, --threshold, --fuzz and --mask as two images (without --threshold any differing pixel fails: --metric ae with 0, or pixelmatch's 0 pixels), and prints a line for each changed, size-mismatched, unreadable, new or missing image, a summary on standard error. Exit 0 when every pair is within and nothing is new or missing, 1 otherwise (an unreadable image fails its pair; the rest are still compared), 2 when a folder cannot be read. --update copies changed and new actual images over their baselines after comparing (never deleting one without --prune); --report DIR writes report.json, junit.xml and an index.html that opens offline.

            Examples:
              forcezoom compare decoded.png reference.png --metric pae --threshold 2
              forcezoom compare a.jpg b.jpg --json --diff diff.png
              forcezoom compare shot.png base.png --metric ae --fuzz 2% --threshold 0.5%
              forcezoom compare shot.png base.png --metric pixelmatch --mask 0,0,390,44
              forcezoom compare baselines/ shots/ --metric psnr --threshold 40 --report out/report
            A pytest test (exit 3 and "reason": "size" tell a changed layout apart):
              r = subprocess.run(["forcezoom", "compare", "shot.png", "base.png",
                  "--metric", "pixelmatch", "--json"], capture_output=True, text=True)
              assert json.loads(r.stdout)["match"], r.stderr
            A CI step (GitHub Actions), failing the job with the reason:
              - run: forcezoom compare shot.png base.png --metric ae --threshold 0.1%
            """)

    @Argument(
        help: ArgumentHelp(
            "The first image (\(FormatNames.inputs)), or - to read standard input; or the folder of expected images.",
            valueName: "a"))
    var first: String

    @Argument(help: ArgumentHelp("The second image; or the folder of actual images.", valueName: "b"))
    var second: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The measure printed and tested: pae, psnr (default), mae, ssim, or the pixel counts ae and pixelmatch.",
            valueName: "metric"))
    var metric: CompareMetric = .psnr

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Pass (exit 0) when psnr/ssim are at least T, pae/mae at most T, ae/pixelmatch at most T pixels (or T% of them); else exit 1.",
            valueName: "t"))
    var threshold: CompareThreshold?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "What still counts as the same pixel: for ae N levels or P% (ImageMagick's -fuzz); for pixelmatch its threshold (default 0.1).",
            valueName: "d"))
    var fuzz: PixelFuzz?

    @Flag(name: .customLong("include-aa"), help: "pixelmatch: count the pixels that look like anti-aliasing too.")
    var includeAA = false

    @Option(
        name: [.customLong("mask"), .customLong("ignore")],
        help: ArgumentHelp(
            "Leave the rectangle X,Y,W,H (pixels of the compared image) out of every measure; repeatable.",
            valueName: "rect"))
    var masks: [RegionArgument] = []

    @Flag(name: .long, help: "Compare the top-left rectangle both images have when their sizes differ.")
    var cropToSmaller = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "keep (default: compare the decoded samples as stored) or srgb (convert both to sRGB through their ICC profiles first).",
            valueName: "mode"))
    var icc: ColorPolicy.Mode = .keep

    @Flag(name: .long, help: "Print one JSON record: every measure and the verdict, or the reason there is none.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write a picture of where they differ (pixelmatch's for --metric pixelmatch, else ImageMagick's); the extension chooses \(FormatNames.rendered) (lossy ones at quality \(EncodeSettings.defaultQuality)).",
            valueName: "file"))
    var diff: String?

    @OptionGroup var decode: DecodeFlags

    // Folders (issue 36): Compare+Folders.swift validates and runs them.
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Folders: pairs compared at once (default: the number of processors).", valueName: "n"))
    var jobs: Int?

    @Flag(
        name: .long,
        help: "Folders: after comparing, copy each changed or new actual image over its baseline (the expected one).")
    var update = false

    @Flag(name: .long, help: "Folders, with --update: also delete baselines that have no actual image.")
    var prune = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folders: write report.json, junit.xml and index.html (expected, actual and difference side by side, offline) into this folder.",
            valueName: "dir"))
    var report: String?

    func validate() throws {
        if try validateFolders() { return }
        if StandardStream.isNamed(first) && StandardStream.isNamed(second) {
            throw ValidationError("standard input (-) can be read once")
        }
        try validateComparison()
        try Outputs.checkNotEmpty(diff, "--diff")
        if StandardStream.isNamed(diff) {
            throw ValidationError("--diff needs a file name (standard output carries the measures)")
        }
        if let diff, case .failure(let problem) = OutputFormat.chosen(forPath: diff) {
            throw ValidationError("--diff \(problem)")
        }
    }

    /// The checks of what is asked of a pair, made for two images and for folders alike.
    func validateComparison() throws {
        if icc == .strip { throw ValidationError("--icc takes keep or srgb here (strip writes nothing to compare)") }
        if let threshold, let problem = metric.problem(threshold) {
            throw ValidationError("\(problem), got \(Echo.value(PairComparison.text(threshold)))")
        }
        if let fuzz, let problem = metric.problem(fuzz) { throw ValidationError("\(problem), got \(fuzz.text)") }
        if includeAA && metric != .pixelmatch { throw ValidationError("--include-aa is for --metric pixelmatch") }
    }

    /// What the options ask of one pair (the folder comparison asks the same of each).
    var comparison: PairComparison {
        var c = PairComparison()
        c.metric = metric
        c.threshold = threshold
        c.fuzz = fuzz
        c.includeAA = includeAA
        c.icc = icc
        c.cropToSmaller = cropToSmaller
        c.masks = masks.map(\.rect)
        c.decoding = decode.options
        return c
    }

    func run() throws {
        if isFolders { return try runFolders() }
        let operation = CompareOperation(first: first, second: second, comparison: comparison, json: json, diff: diff)
        if try operation.run(Report.terminal).failed { throw ExitCode(1) }
    }

    /// The `--json` record of a usage error, for a `compare ... --json` whose arguments were
    /// refused: the harness reads a record on every outcome.
    static func usageRecord(_ message: String) -> String { PairResult.usage(message).record.description }
}
