import FZSystem

/// A library a format's codec opens with dlopen on first use instead of linking it (libheif,
/// libtiff, libraw and the rest: `fz_loader.h` says why). Without it, or with one that lacks a
/// function the codec calls, only that format's files and outputs fail, each with one message
/// naming the soname, the loader's reason and the Debian package to install (issue 48);
/// every other file of a batch is still made. The decoder's and encoder's registrations
/// (`InputFormatInfo.library`, `OutputFormat.library`) name it, so `info --formats` and the
/// Debian package's Depends (Tools/deb/make-deb.sh) come from the same place.
public struct FormatLibrary: Hashable, Sendable, CustomStringConvertible {
    /// What users call it ("libtiff").
    public let name: String
    /// The files opened, as the shim names them from the headers compiled against
    /// ("libtiff.so.6"; a codec and its thread runner are two).
    public let sonames: [String]
    /// Debian bookworm's runtime package holding them ("libtiff6"), or packages separated by
    /// spaces ("libavformat59 libavcodec59 libswscale6 libavutil57").
    public let package: String
    /// The oldest version of `package` the codec works with, when it matters ("1.15").
    public let minimumVersion: String?
    /// The shim's fz_*_available: opens the libraries, resolves every symbol once, keeps the answer.
    private let probe: @convention(c) (UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// Each format target declares its own (`FormatLibrary.heif` in FZHEIF...), from its shim.
    package init(
        name: String, sonames: [String], package: String, minimumVersion: String?,
        probe: @escaping @convention(c) (UnsafeMutablePointer<CChar>?, Int) -> Int32
    ) {
        self.name = name
        self.sonames = sonames
        self.package = package
        self.minimumVersion = minimumVersion
        self.probe = probe
    }

    /// "libheif1 (>= 1.15)": the package as a Depends entry; several packages (FFmpeg's
    /// "libavformat59 libavcodec59 ...", as apt-get takes them) become several entries.
    public var dependency: String {
        package.split(separator: " ").map { name in minimumVersion.map { "\(name) (>= \($0))" } ?? String(name) }
            .joined(separator: ", ")
    }

    /// Why it cannot be used (the loader's dlopen or dlsym message), or nil when it loaded.
    /// The first call opens the libraries; later ones return the kept answer.
    public var loadProblem: String? {
        var why = [CChar](repeating: 0, count: 512)
        let ok = why.withUnsafeMutableBufferPointer { probe($0.baseAddress, $0.count) }
        if ok != 0 { return nil }
        let text = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? "it could not be loaded" : text
    }

    /// "TIFF needs libtiff.so.6: WHY; apt-get install libtiff6",
    /// or nil when the library loaded.
    public func problem(for format: String) -> String? {
        loadProblem.map {
            "\(format) needs \(sentence(sonames, "and")): \($0); apt-get install \(package)"
        }
    }

    /// Throws, for the input `path` of `format`, when the library cannot be had.
    package func require(_ format: String, input path: String) throws(DecodeError) {
        if let problem = problem(for: format) { throw .missingLibrary(path: path, reason: problem) }
    }

    /// Throws, for the output `path` of `format`, when the library cannot be had.
    package func require(_ format: String, output path: String) throws(OutputError) {
        if let problem = problem(for: format) { throw .missingLibrary(path: path, reason: problem) }
    }

    // One library per name.
    public static func == (a: FormatLibrary, b: FormatLibrary) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public var description: String { "\(sonames.joined(separator: ", ")) (\(package))" }
}

extension InputFormatInfo {
    /// Throws, for the input `path`, when this format's library cannot be had: each decoder
    /// asks before its first call into the library (HEIF only where libheif is used at all).
    package func requireLibrary(path: String) throws(DecodeError) {
        try library?.require(names.joined(separator: "/"), input: path)
    }
}

extension FormatLibrary {
    /// The sonames a shim's loader opens, in slot order.
    package static func sonames(_ soname: (Int32) -> UnsafePointer<CChar>?) -> [String] {
        var names: [String] = []
        while let name = soname(Int32(names.count)) { names.append(String(cString: name)) }
        return names
    }

    /// "6" of "libtiff.so.6": the ABI version Debian's package name ends in.
    package static func version(_ soname: (Int32) -> UnsafePointer<CChar>?) -> String {
        guard let first = sonames(soname).first, let range = first.firstRange(of: ".so.") else { return "" }
        return String(first[range.upperBound...])
    }
}
