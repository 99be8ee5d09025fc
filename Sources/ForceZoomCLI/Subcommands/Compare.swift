import ArgumentParser
import FZOperations
import Geometry

/// `forcezoom compare`: how far apart two images are, with a pass/fail exit code.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure how far apart two images are (PSNR, PAE, MAE, SSIM), with a pass/fail exit code.",
        discussion: """
            Both images are decoded upright (EXIF orientation applied unless --no-auto-orient) and, with --icc srgb, converted to sRGB through their profiles; otherwise the decoded samples are compared as stored. Sizes must match (or --crop-to-smaller compares the top-left rectangle both have). The two decoded images, and --diff's with them, are held at once: together they meet --max-pixels and --max-memory before either is decoded.

            Measures, on 8-bit samples of R, G, B (gray counts as R = G = B) and alpha as a fourth channel when either image has one:
              pae   the largest absolute difference of any sample, in levels
              mae   the mean absolute difference, in levels
              psnr  10 log10(255^2 / mean squared difference), in dB; "inf" when identical
              ssim  mean SSIM of the Rec. 601 luma, Gaussian 11x11 window (sigma 1.5), as
                    scikit-image's structural_similarity(gaussian_weights=True, sigma=1.5,
                    use_sample_covariance=False, data_range=255); alpha ignored; needs 11x11

            Prints the --metric's value (default psnr); --json prints every measure. With --threshold T the exit code is 0 within (psnr/ssim at least T, pae/mae at most T) and 1 outside; 2 is bad usage.

            Folders: compare EXPECTED_DIR ACTUAL_DIR pairs the images below both by relative path (any format a decoder reads; home.png with home.webp when that stem names one image on each side), compares the pairs --jobs at a time (each with its share of --max-memory) by --metric and --threshold (none: they must be identical), and prints a line for each changed, size-mismatched, unreadable, new or missing image, a summary on standard error. Exit 0 when every pair is within and nothing is new or missing, 1 otherwise (an unreadable image fails its pair; the rest are still compared), 2 when a folder cannot be read. --update copies changed and new actual images over their baselines after comparing (never deleting one without --prune); --report DIR writes report.json, junit.xml and an index.html that opens offline.

            Examples:
              forcezoom compare decoded.png reference.png --metric pae --threshold 2
              forcezoom compare a.jpg b.jpg --json --diff diff.png
              forcezoom compare baselines/ shots/ --metric psnr --threshold 40 --report out/report
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
        help: ArgumentHelp("The measure printed and tested: pae, psnr (default), mae or ssim.", valueName: "metric"))
    var metric: ImageComparison.Metric = .psnr

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Pass (exit 0) when psnr/ssim are at least T or pae/mae at most T; else exit 1.", valueName: "t"))
    var threshold: Double?

    @Flag(name: .long, help: "Compare the top-left rectangle both images have when their sizes differ.")
    var cropToSmaller = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "keep (default: compare the decoded samples as stored) or srgb (convert both to sRGB through their ICC profiles first).",
            valueName: "mode"))
    var icc: ColorPolicy.Mode = .keep

    @Flag(name: .long, help: "Print every measure as one JSON object.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write a picture of where they differ: the first image faded, differing pixels red (as ImageMagick's compare draws it); the extension chooses \(FormatNames.rendered) (lossy ones at quality \(EncodeSettings.defaultQuality)).",
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
        if icc == .strip { throw ValidationError("--icc takes keep or srgb here (strip writes nothing to compare)") }
        if let threshold {
            let range: ClosedRange<Double> =
                switch metric {
                case .pae, .mae: 0...255
                case .psnr: 0...1000
                case .ssim: -1...1
                }
            try Check.number(threshold, "--threshold", in: range, unit: " for --metric \(metric.rawValue)")
        }
        try Outputs.checkNotEmpty(diff, "--diff")
        if StandardStream.isNamed(diff) {
            throw ValidationError("--diff needs a file name (standard output carries the measures)")
        }
        if let diff, case .failure(let problem) = OutputFormat.chosen(forPath: diff) {
            throw ValidationError("--diff \(problem)")
        }
    }

    func run() throws {
        if isFolders { return try runFolders() }
        let operation = CompareOperation(
            first: first, second: second, metric: metric, threshold: threshold, cropToSmaller: cropToSmaller,
            icc: icc, json: json, diff: diff, decoding: decode.options)
        if try operation.run(Report.terminal).failed { throw ExitCode(1) }
    }
}

extension ImageComparison.Metric: ExpressibleByArgument {}
