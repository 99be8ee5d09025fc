import CFZHeif
import FZFormat

/// The library this target opens on first use (`FormatLibrary`), from its shim's loader.
extension FormatLibrary {
    /// libheif (HEIF/HEIC and AVIF, read and written); 1.15 has every call HEIFCodec makes.
    package static let heif = FormatLibrary(
        name: "libheif", sonames: sonames(fz_heif_soname), package: "libheif1", minimumVersion: "1.15",
        probe: fz_heif_available)
}
