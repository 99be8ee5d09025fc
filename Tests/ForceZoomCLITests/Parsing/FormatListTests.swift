import ArgumentParser
import FZOperations
import Testing

@testable import ForceZoomCLI

/// Help texts and messages name formats as the registries say (`FormatRegistry`,
/// `OutputFormat.all` and their capabilities), never from a list of their own: every list of
/// format names in every command's help is one of the registry's sets (all outputs, the ones
/// that keep alpha, the ones an option applies to...), every format or extension a help
/// names is one the registry has, and what the formats that keep alpha keep names them all.
/// A hand-written list goes stale when an encoder is added (JPEG XL was left out of seven).
@Suite("Format lists in help and messages")
struct FormatListTests {
    /// Every command's help, on one line (the parser wraps at any width otherwise).
    static let helps: [(command: String, text: String)] = HelpWrappingTests.commands.map { command in
        let text = ForceZoom.helpMessage(for: command, columns: 100_000)
        return (command._commandName, text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    static let outputs = OutputFormat.all
    static let inputNames = FormatRegistry.inputs.flatMap(\.names)

    /// The registry's sets of formats that a help may list, by what makes them one.
    static let registrySets: [String: Set<String>] = [
        "every input": Set(inputNames),
        "every output": Set(outputs.map(\.name)),
        "keeps alpha": Set(outputs.filter(\.keepsAlpha).map(\.name)),
        "flattens alpha": Set(outputs.filter { !$0.keepsAlpha }.map(\.name)),
        "takes --quality": Set(outputs.filter { $0.encoderOptions.contains(.quality) }.map(\.name)),
        "takes --lossless": Set(outputs.filter { $0.encoderOptions.contains(.lossless) }.map(\.name)),
        "takes --compression": Set(outputs.filter { $0.encoderOptions.contains(.compression) }.map(\.name)),
        "writes ICC": Set(outputs.filter { $0.metadata.icc }.map(\.name)),
        "writes 16-bit": Set(outputs.filter(\.writes16Bit).map(\.name)),
        "renders HDR": Set(outputs.filter { $0.hdrRendition != .none }.map(\.name)),
    ]

    /// Lists that are no registry property, and why (none now: --gain-map apply's formats are
    /// the encoders' declared HDR renditions).
    static let notRegistryLists: Set<String> = []

    /// Format names that are not the registry's, for the detector to catch: formats other
    /// tools handle that a help might name by mistake.
    static let strangers = ["TGA", "JPEG 2000", "ICO", "PSD", "EXR", "QOI", "SVG", "PPM", "HEIF", "DNG"]

    /// The lists of two or more format names in `text` ("PNG, WebP and AVIF"), as written.
    static func lists(in text: String) -> [(text: String, names: [String], after: Substring)] {
        // Longest first, so "JPEG XL" is one name and not "JPEG" then " XL".
        let words = Set(inputNames + outputs.map(\.name) + strangers).sorted { $0.count > $1.count }
        let name = "(?:" + words.map { NSRegularEscape.escape($0) }.joined(separator: "|") + ")"
        let pattern = "\\b\(name)(?:, \(name))*,? (?:and|or) \(name)\\b"
        guard let regex = try? Regex(pattern) else { return [] }
        return text.matches(of: regex).map { match in
            let written = String(text[match.range])
            let names = written.replacing(", and ", with: ", ").replacing(", or ", with: ", ")
                .replacing(" and ", with: ", ").replacing(" or ", with: ", ")
                .split(separator: ", ").map(String.init)
            return (written, names, text[match.range.upperBound...])
        }
    }

    @Test func everyListOfFormatsInHelpIsOneOfTheRegistrys() {
        var seen = 0
        for (command, text) in Self.helps {
            for (written, names, _) in Self.lists(in: text) where names.count >= 3 {
                seen += 1
                if Self.notRegistryLists.contains(written) { continue }
                let set = Set(names)
                let matching = Self.registrySets.filter { $0.value == set }.map(\.key)
                #expect(
                    !matching.isEmpty,
                    "\(command)'s help lists \(written), which is no set the registry has: \(Self.registrySets)")
            }
        }
        #expect(seen >= 10, "the detector found almost no lists of formats")
    }

    @Test func everyFormatAHelpNamesIsTheRegistrys() {
        let known = Set(Self.inputNames + Self.outputs.map(\.name))
        for (command, text) in Self.helps {
            for (_, names, _) in Self.lists(in: text) {
                for name in names { #expect(known.contains(name), "\(command)'s help names \(name)") }
            }
        }
    }

    /// The image extensions a help shows (".jxl") are ones a decoder or encoder claims.
    @Test func everyImageExtensionAHelpNamesIsTheRegistrys() throws {
        let known = FormatRegistry.inputExtensions.union(OutputFormat.writableExtensions)
        // An animated PNG (`--apng`) is animate's own writer's, not an encoder's.
        let others: Set<String> = ["apng"]
        let stranger = ["tga", "jp2", "ico", "psd", "exr", "qoi", "svg", "ppm"]
        let candidates = known.union(stranger).sorted { $0.count > $1.count }
        // Any ".ext", in a name (x.tga) or alone (.jxl).
        let regex = try Regex("\\.(" + candidates.joined(separator: "|") + ")\\b")
        for (command, text) in Self.helps {
            for match in text.matches(of: regex) {
                let ext = String(text[match.range].dropFirst()).lowercased()
                #expect(known.contains(ext) || others.contains(ext), "\(command)'s help names .\(ext)")
            }
        }
    }

    /// Wherever a help says which formats keep alpha, it names every one the registry says does.
    @Test func theFormatsThatKeepAlphaAreAllNamed() {
        let keeping = Set(Self.outputs.filter(\.keepsAlpha).map(\.name))
        var seen = 0
        for (command, text) in Self.helps {
            for (written, names, after) in Self.lists(in: text) {
                guard after.hasPrefix(" keep them") else { continue }
                seen += 1
                #expect(Set(names) == keeping, "\(command): \(written) keep them; the registry says \(keeping)")
            }
        }
        #expect(seen >= 5, "crop, fit, frame, transform and animate say which formats keep alpha")
    }

    /// crop --lossless refuses an output it can neither copy blocks into nor encode lossless,
    /// naming every format whose encoder has a lossless mode (`.jxl` was missing).
    @Test func cropLosslessNamesEveryLosslessFormat() throws {
        var message = ""
        do { _ = try ForceZoom.parseAsRoot(["crop", "a.jpg", "--at", "1,1", "--lossless", "-o", "x.png"]) } catch {
            message = ForceZoom.message(for: error)
        }
        let lossless = Self.outputs.filter { $0.encoderOptions.contains(.lossless) }
        #expect(lossless.count >= 4)
        for format in lossless {
            #expect(message.contains(".\(format.extensions[0])"), "\(message) does not name \(format.name)")
        }
        // What it offers is written lossless, as the parser sees it.
        for format in lossless {
            #expect(
                (try? ForceZoom.parseAsRoot([
                    "crop", "a.jpg", "--at", "1,1", "--lossless", "-o", "x.\(format.extensions[0])",
                ]))
                    != nil, "crop --lossless -o x.\(format.extensions[0])")
        }
    }
}

/// Regular-expression escaping of a literal name ("HEIF/HEIC", "camera RAW/DNG").
enum NSRegularEscape {
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\^$.|?*+()[]{}/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
