import FZCodecs
import FZFormat
import FZSystem
import TestSupport
import Testing

/// The Debian package's Depends for the libraries opened on first use come from the format
/// registry (Tools/deb/dlopen-depends.sh reads `info --formats --json`), and make-deb.sh names
/// none of them by hand: a library added to, or changed in, the registry changes the package.
@Suite("Debian Depends of the dlopen'ed libraries")
struct LibraryDependsCLITests {
    static let registry: [String] = {
        var seen: [String] = []
        let libraries = FormatRegistry.inputs.compactMap(\.library) + OutputFormat.all.compactMap(\.library)
        // A library of several packages (FFmpeg's four) is several entries.
        let entries = libraries.flatMap { $0.dependency.split(separator: ", ").map(String.init) }
        for entry in entries where !seen.contains(entry) { seen.append(entry) }
        return seen
    }()

    @Test func dlopenDependsIsTheRegistrys() {
        let out = FileSystem.join(CLI.scratch(), "depends")
        let script = FileSystem.join(CLI.root, "Tools/deb/dlopen-depends.sh")
        #expect(CLI.shell("\(CLI.quote(script)) \(CLI.quote(CLI.binary)) > \(CLI.quote(out))") == 0)
        let listed = String(CLI.read(out).split(separator: "\n").first ?? "").split(separator: ",").map {
            String($0.trimmingPrefix(while: { $0 == " " }))
        }
        #expect(Set(listed) == Set(Self.registry), "dlopen-depends.sh: \(listed), registry: \(Self.registry)")
        #expect(listed.count == Self.registry.count)
    }

    @Test func makeDebTakesThemFromTheBinary() throws {
        let script = CLI.read(FileSystem.join(CLI.root, "Tools/deb/make-deb.sh"))
        try #require(!script.isEmpty)
        let code = script.split(separator: "\n").filter { !$0.trimmingPrefix(while: { $0 == " " }).hasPrefix("#") }
        #expect(code.contains { $0.contains("dlopen-depends.sh") && $0.contains("depends=") })
        let libraries = FormatRegistry.inputs.compactMap(\.library)
        for library in libraries {
            #expect(!code.contains { $0.contains(library.package) }, "make-deb.sh names \(library.package) by hand")
        }
        // Nothing else declares them either.
        let control = CLI.read(FileSystem.join(CLI.root, "Tools/deb/control"))
        #expect(libraries.allSatisfy { !control.contains($0.package) })
    }
}
