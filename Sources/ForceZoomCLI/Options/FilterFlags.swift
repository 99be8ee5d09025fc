import ArgumentParser
import FZOperations

/// `--filter`: the resampling kernel, declared once for fit and transform.
struct FilterFlags<Help: FilterHelp>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Help.help, valueName: "filter"))
    var filter: ResampleFilter = Help.defaultFilter
}

/// What `--filter` says in one command's help, and its default.
protocol FilterHelp {
    static var defaultFilter: ResampleFilter { get }
    static var help: String { get }
}

/// fit: reductions, Lanczos by default.
enum FitFilter: FilterHelp {
    static var defaultFilter: ResampleFilter { .lanczos }
    static var help: String { "Reduction kernel: lanczos (default), bicubic, bilinear, box, nearest." }
}

/// transform: warps, bilinear by default (box is no warp kernel: validate() refuses it).
enum TransformFilter: FilterHelp {
    static var defaultFilter: ResampleFilter { .bilinear }
    static var help: String { "nearest, bilinear (default), bicubic, lanczos." }
}
