import FZSystem
import Synchronization

/// The profile that CMYK and YCCK JPEGs without a usable profile of their own are read
/// through (`--cmyk-profile`, or the system's default): a printing condition has to be
/// assumed to turn ink amounts into colours, and a real profile's assumption is far closer
/// to what the file's author saw than the plain `(255 - ink)` formula.
public struct CMYKProfile: Hashable, Sendable {
    /// The profile's bytes.
    public let bytes: [UInt8]
    /// Where it was read from (shown by `info`).
    public let path: String

    /// The largest profile file read (real CMYK profiles are 0.2-2 MB).
    public static let sizeLimit = 16 << 20

    /// Where the default is looked for, in order: Ghostscript's default CMYK profile
    /// (Debian's libgs-common, installed by `make deps`; AGPL like Ghostscript), then the
    /// other usual places.
    public static let systemPaths = [
        "/usr/share/color/icc/ghostscript/default_cmyk.icc",
        "/usr/local/share/color/icc/ghostscript/default_cmyk.icc",
        "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    ]

    /// Reads and checks a CMYK profile.
    /// - Throws: `ColorError.cmykProfile` when it cannot be read, is not an ICC profile, is
    ///   not CMYK, or lcms2 cannot use it.
    public init(path: String) throws(ColorError) {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readBytes(path, limit: Self.sizeLimit) } catch {
            throw .cmykProfile(path: path, reason: FileSystem.readFailure(error, limit: Self.sizeLimit))
        }
        guard let profile = ICCProfile(bytes) else { throw .cmykProfile(path: path, reason: "not an ICC profile") }
        guard profile.colorSpace == "CMYK" else {
            throw .cmykProfile(path: path, reason: "a \(profile.colorSpace) profile, not a CMYK one")
        }
        if let reason = ColorTransform.readProblem(with: bytes) { throw .cmykProfile(path: path, reason: reason) }
        self.bytes = bytes
        self.path = path
    }

    /// `init(path:)` once per path in a run (the file is read and checked once, however
    /// many inputs need it).
    public static func load(path: String) throws(ColorError) -> CMYKProfile {
        if let known = loaded.withLock({ $0[path] }) { return known }
        let profile = try CMYKProfile(path: path)
        loaded.withLock { $0[path] = profile }
        return profile
    }

    private static let loaded = Mutex<[String: CMYKProfile]>([:])

    /// The first of `systemPaths` that is a usable CMYK profile, read once; nil when there
    /// is none (CMYK JPEGs then go through the plain formula, and `info` says so).
    public static let system: CMYKProfile? = {
        for path in systemPaths {
            if let p = try? CMYKProfile(path: path) { return p }
        }
        return nil
    }()
}
