import FZOperations
import FZSystem
import TestSupport
import Testing

@testable import ForceZoomCLI

/// The README and the guides name formats as the registry does, as the helps must
/// (`FormatListTests`): every list of three or more format names in README.md and docs/*.md
/// is one of the registry's sets (every input, every output, those that keep alpha...), so a
/// guide cannot go on listing five formats where ten are read (docs/thumbnails.md did).
@Suite("Format lists in the README and docs")
struct DocFormatListTests {
    /// Each document, whitespace made single spaces (a list may be wrapped over lines).
    static let documents: [(name: String, text: String)] = {
        let docs = (try? FileSystem.list(FileSystem.join(CLI.root, "docs"))) ?? []
        let names = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return names.map { name in
            let text = CLI.read(FileSystem.join(CLI.root, name))
            return (name, text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }
    }()

    /// Lists that are no registry set, each with why it is right as written.
    static let notRegistryLists: [String: String] = [
        // The fixture kit's orientation files: the formats it makes them in.
        "JPEG, PNG and WebP": "the fixture kit's orientation files (docs/fixtures-and-compare.md)",
        // The three names of libheif's container, not three formats of the registry.
        "HEIC, HEIF and AVIF": "what libheif reads (docs/formats.md)",
    ]

    /// The registry's sets (`FormatListTests.registrySets`) and those only the guides list.
    static let sets: [String: Set<String>] = FormatListTests.registrySets.merging([
        "carries no gain map": Set(OutputFormat.all.filter { $0.gainMaps.isEmpty }.map(\.name))
    ]) { a, _ in a }

    @Test func everyListOfFormatsInTheDocsIsOneOfTheRegistrys() {
        var seen = 0
        for (document, text) in Self.documents {
            for (written, names, _) in FormatListTests.lists(in: text) where names.count >= 3 {
                seen += 1
                if Self.notRegistryLists[written] != nil { continue }
                let set = Set(names)
                let matching = Self.sets.filter { $0.value == set }.map(\.key)
                #expect(
                    !matching.isEmpty,
                    "\(document) lists \(written), which is no set the registry has: \(Self.sets)")
            }
        }
        #expect(seen >= 8, "the detector found almost no lists of formats in the docs")
    }

    /// docs/thumbnails.md says which formats a folder is searched for: all the registry reads.
    @Test func thumbnailsGuideNamesEveryFormatRead() {
        let guide = Self.documents.first { $0.name == "docs/thumbnails.md" }?.text ?? ""
        #expect(guide.contains("Folders are searched for \(FormatNames.allInputs) files"), "\(guide.prefix(600))")
    }
}
