import ArgumentParser
import FZOperations

/// `--strip`, `--no-location` and `--no-names`: which of the input's EXIF and XMP an output carries
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
            "Leave the location out, as exiftool's -gps:all -location:all groups name it: the EXIF GPS IFD, GeoTIFF tags and MakerNote (a vendor's block that may hold it); in XMP, exif:GPS*, photoshop's City, State and Country, Iptc4xmpCore's Location and CountryCode, Iptc4xmpExt's LocationCreated, LocationShown and RatingRegion, DJI's drone-dji position, altitude, attitude and RTK properties, Nikon's ast:GPS*, the cell tower properties, mediapro's Location, Darwin Core's Location class and Google's Dynamic Depth poses; in IPTC, the content location code and name, City, Sublocation, State, Country and Destination. Everything else is kept as it was."
    )
    var noLocation = false

    @Flag(
        name: .long,
        help:
            "Leave people's names out, keeping the regions and the picture (names are personal data, as places are for --no-location): the names of MWG, Microsoft and IPTC regions, and XMP's Iptc4xmpExt:PersonInImage and PersonInImageWDetails. Keywords are kept as they are. See docs/regions.md."
    )
    var noNames = false

    @OptionGroup var gain: GainMapFlags

    /// The core's policy.
    var policy: MetadataPolicy {
        strip ? .strip : MetadataPolicy(keep: .all, location: !noLocation, names: !noNames)
    }
}
