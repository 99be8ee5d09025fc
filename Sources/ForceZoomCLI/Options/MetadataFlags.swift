import ArgumentParser
import FZOperations

/// `--strip` and `--no-location`: which of the input's EXIF and XMP an output carries
/// (`MetadataPolicy`), shared by every command that writes an image made from an input.
struct MetadataFlags: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Write no EXIF, XMP or IPTC (by default outputs carry the input's, with the orientation 1, the output's pixel dimensions and no EXIF thumbnail). The colour description stays as --icc says."
    )
    var strip = false

    @Flag(
        name: .long,
        help:
            "Leave the location out: the EXIF GPS IFD, XMP's exif:GPS*, City, State, Country and Location properties, IPTC's City, State and Country; everything else is kept."
    )
    var noLocation = false

    /// The core's policy.
    var policy: MetadataPolicy { strip ? .strip : MetadataPolicy(keep: .all, location: !noLocation) }
}
