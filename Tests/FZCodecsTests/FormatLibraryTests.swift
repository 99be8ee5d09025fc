import FZCodecs
import FZFormat
import FZSystem
import TestSupport
import Testing

/// The libraries opened on first use (`FormatLibrary`, fz_loader.h): each shim's symbol table,
/// which the availability check resolves before the first forwarder, names every function a
/// forwarder looks up (a name missing from it would pass the check and abort later), the
/// registry ties each format to its library, and the packages it names hold the sonames.
@Suite("Format libraries")
struct FormatLibraryTests {
    /// Each shim's loader source and the macro its forwarders look names up with.
    static let loaders = [
        ("Sources/CFZHeif/fz_heif_loader.c", "FZ_HEIF("), ("Sources/CFZJXL/fz_jxl_loader.c", "FZ_SYMBOL("),
        ("Sources/CFZTIFF/fz_tiff_loader.c", "FZ_SYMBOL("), ("Sources/CFZRaw/fz_raw_loader.c", "FZ_SYMBOL("),
        ("Sources/CFZCurl/fz_curl_loader.c", "FZ_SYMBOL("),  // URL inputs (issue 52)
    ]

    /// The `name`s of `FZ_SYMBOL(slot, name)` / `FZ_HEIF(name)` calls, and of the table's
    /// `{slot, "name"}` entries, in `source`.
    static func names(_ source: String, macro: String) -> (forwarded: Set<String>, table: Set<String>) {
        var forwarded = Set<String>()
        var table = Set<String>()
        for line in source.split(separator: "\n") {
            let text = line.trimmingPrefix(while: { $0 == " " })
            if text.hasPrefix("{"), text.hasSuffix("\"},"), let quote = text.firstIndex(of: "\"") {
                table.insert(String(text[text.index(after: quote)...].dropLast(3)))
            }
            guard !text.hasPrefix("#define"), let start = text.firstRange(of: macro) else { continue }
            let inside = text[start.upperBound...].prefix { $0 != ")" }
            let name = inside.split(separator: ",").last.map { $0.trimmingPrefix(while: { $0 == " " }) } ?? ""
            forwarded.insert(String(name))
        }
        return (forwarded, table)
    }

    @Test(arguments: loaders.map(\.0))
    func tableNamesEveryForwardedSymbol(_ file: String) throws {
        let macro = Self.loaders.first { $0.0 == file }!.1
        let source = CLI.read(FileSystem.join(CLI.root, file))
        try #require(!source.isEmpty, "\(file) not found")
        let (forwarded, table) = Self.names(source, macro: macro)
        #expect(forwarded.count > 5, "no forwarders found in \(file)")
        #expect(forwarded.subtracting(table).isEmpty, "forwarded but not checked: \(forwarded.subtracting(table))")
        #expect(table.subtracting(forwarded).isEmpty, "checked but never forwarded: \(table.subtracting(forwarded))")
    }

    @Test func theLoaderNeverExits() {
        let source = CLI.read(FileSystem.join(CLI.root, "Sources/CFZCommon/fz_loader.c"))
        #expect(source.contains("fz_loader_available"))
        #expect(!source.contains("exit("), "fz_loader.c ends the process: a missing library must fail its files only")
    }

    /// The formats with a library are the four opened on first use; both HEIF encoders share
    /// the decoder's, and JPEG XL's encoder the decoder's.
    @Test func registryNamesEachFormatsLibrary() {
        let inputs = Dictionary(uniqueKeysWithValues: FormatRegistry.inputs.map { ($0.format, $0.library?.name) })
        #expect(inputs[.heif] == "libheif")
        #expect(inputs[.jxl] == "libjxl")
        #expect(inputs[.tiff] == "libtiff")
        #expect(inputs[.raw] == "libraw")
        #expect(inputs[.png] == .some(nil) && inputs[.jpeg] == .some(nil) && inputs[.webp] == .some(nil))
        for output in OutputFormat.all {
            let decoder = FormatRegistry.inputs.first { $0.format == output.format }
            #expect(output.library == decoder?.library, "\(output.name)")
        }
    }

    /// On this machine (make deps installs them) every library loads, and Debian's package
    /// that holds each soname, as dpkg says, is one the registry names (FFmpeg's four sonames
    /// are four packages: libavformat59 libavcodec59 libswscale6 libavutil57).
    @Test func librariesLoadAndTheirPackagesHoldThem() {
        let libraries = FormatRegistry.inputs.compactMap(\.library)
        #expect(libraries.count == 5)
        for library in libraries {
            #expect(library.loadProblem == nil, "\(library)")
            for soname in library.sonames {
                let out = FileSystem.join(CLI.scratch(), "package")
                _ = CLI.shell(
                    "dpkg -S \(CLI.quote("*/" + soname)) 2>/dev/null | head -1 | cut -d: -f1 > \(CLI.quote(out))")
                let holder = String(CLI.read(out).split(separator: "\n").first ?? "")
                #expect(library.package.split(separator: " ").contains { $0 == holder }, "\(soname): \(holder)")
            }
        }
    }
}
