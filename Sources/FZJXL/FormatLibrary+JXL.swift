import CFZJXL
import FZFormat

/// The library this target opens on first use (`FormatLibrary`), from its shim's loader.
extension FormatLibrary {
    /// libjxl and libjxl_threads (JPEG XL): one package per 0.x ABI ("libjxl0.7").
    package static let jxl = FormatLibrary(
        name: "libjxl", sonames: sonames(fz_jxl_soname), package: "libjxl" + version(fz_jxl_soname),
        minimumVersion: nil, probe: fz_jxl_available)
}
