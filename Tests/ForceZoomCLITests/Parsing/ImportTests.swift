import FZSystem
import TestSupport
import Testing

/// The command line imports only what Package.swift declares for it: FZOperations (whose
/// `Support/Vocabulary.swift` re-exports by name the types the options parse into), Geometry
/// and ArgumentParser, beside the system's modules. SwiftPM lets a target import its
/// dependencies' dependencies too (FZCodecs, FZSystem), which would let the command line
/// reach the readers and writers behind the operations without anyone deciding it.
@Suite("Command-line imports")
struct ImportTests {
    static let allowed: Set<String> = [
        "ArgumentParser", "FZOperations", "Geometry", "Glibc", "FoundationEssentials", "Synchronization",
    ]

    @Test func theCommandLineImportsOnlyItsDeclaredDependencies() throws {
        let list = FileSystem.join(TestSupport.scratch(), "imports.txt")
        let sources = TestSupport.path("Sources/ForceZoomCLI")
        #expect(
            TestSupport.shell(
                "grep -rhoE '^(@_exported |@testable )?import( (struct|enum|class|protocol|func))? [A-Za-z0-9_]+' '\(sources)' | sort -u > '\(list)'"
            ) == 0)
        let lines = try FileSystem.readText(list, limit: 1 << 20).split(separator: "\n").map(String.init)
        #expect(lines.count >= 4, "no imports found under \(sources)")
        for line in lines {
            let module = String(line.split(separator: " ").last ?? "")
            #expect(Self.allowed.contains(module), "Sources/ForceZoomCLI: \(line)")
        }
    }
}
