import CFZTIFF
import FZFormat

/// The library this target opens on first use (`FormatLibrary`), from its shim's loader.
extension FormatLibrary {
    /// libtiff (TIFF); 4.5 brought TIFFOpenOptions, which fz_tiff.c needs.
    package static let tiff = FormatLibrary(
        name: "libtiff", sonames: sonames(fz_tiff_soname), package: "libtiff" + version(fz_tiff_soname),
        minimumVersion: "4.5", probe: fz_tiff_available)
}
