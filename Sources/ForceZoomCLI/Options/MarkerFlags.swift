import ArgumentParser
import FZOperations

#if canImport(Glibc)
import Glibc
#endif

/// Map pins at image points, shared by crop, fit, frame and transform.
struct MarkerFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A pin at image pixel X,Y (repeatable); it keeps its size in output pixels and its tip on the point.",
            valueName: "x,y"))
    var marker: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Pins from a file: CSV lines x,y[,label] or a JSON array of {\"x\":..,\"y\":..,\"label\":..} objects.",
            valueName: "file"))
    var markers: String?

    func validate() throws {
        // `--markers ""` would be read as a file named nothing ("'': cannot read marker file").
        if markers == "" { throw ValidationError("--markers is empty; give a marker file (CSV or JSON)") }
        for m in marker where (try? Marker.parseList(m, file: "--marker")) == nil || m.contains("\n") {
            throw ValidationError(
                "--marker takes X,Y[,label] in image pixels (label up to \(Marker.maxLabel) characters), got '\(Echo.value(m))'"
            )
        }
    }

    /// The pins these flags name, read by the operation.
    var source: MarkerSource { MarkerSource(inline: marker, file: markers) }
}
