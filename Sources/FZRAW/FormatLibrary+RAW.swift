import CFZRaw
import FZFormat

/// The library this target opens on first use (`FormatLibrary`), from its shim's loader.
extension FormatLibrary {
    /// libraw's thread-safe build (camera RAW and DNG), in Debian's libraw<SHLIB> package.
    package static let raw = FormatLibrary(
        name: "libraw", sonames: sonames(fz_raw_soname), package: "libraw" + version(fz_raw_soname),
        minimumVersion: nil, probe: fz_raw_available)
}
