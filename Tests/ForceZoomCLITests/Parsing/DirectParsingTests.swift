import ArgumentParser
import FZSystem
import Testing

@testable import ForceZoomCLI

/// `ForceZoom.parseDirect` (a subcommand's arguments parsed as its own root, skipping the
/// root's tree) gives the value the full parse gives, field for field, for every command
/// line of the README and the docs that the shell would not change, and for lines written to
/// reach the edges; what the root treats itself (help, --version, the dump and completion
/// requests, `help NAME`, `fixture kit`) and every error are left to the full parse.
@Suite("Direct subcommand parsing")
struct DirectParsingTests {
    /// The parsed command, every stored property and wrapper state written out.
    static func described(_ command: ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    /// The README's and docs' `forcezoom ...` lines with no quoting, globbing, variables or
    /// redirections, split at spaces.
    static var documentedLines: [[String]] {
        // Tests/ForceZoomCLITests/Parsing/this file: four folders up.
        let root = (0..<4).reduce("\(#filePath)") { path, _ in FileSystem.directory(of: path) }
        var texts = [(try? FileSystem.readBytes(FileSystem.join(root, "README.md"), limit: 1 << 22)) ?? []]
        for name in (try? FileSystem.list(FileSystem.join(root, "docs"))) ?? [] where name.hasSuffix(".md") {
            texts.append((try? FileSystem.readBytes(FileSystem.join(root, "docs/\(name)"), limit: 1 << 22)) ?? [])
        }
        var lines: [[String]] = []
        for text in texts {
            for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
                let t = line.drop { $0 == " " || $0 == "$" }
                guard t.hasPrefix("forcezoom "), !t.contains(where: { "'\"`$*?|<>;&\\()#{}".contains($0) }) else {
                    continue
                }
                lines.append(t.split(separator: " ").dropFirst().map(String.init))
            }
        }
        return lines
    }

    static let edges: [[String]] = [
        ["crop", "a.png", "--at", "50%,50%", "--size", "128"],
        ["crop", "a.png", "--at", "1,2", "--at", "3,4", "--zoom", "2", "--json", "-o", "x-%d.png"],
        ["crop", "a.heic", "--at", "1280,768", "--size", "16", "-o", "one.png"],
        ["thumb", "a.jpg", "b.png", "--size", "320,640", "--name", "%s-%w.png", "--out", "t"],
        ["fit", "a.png", "--screen", "iphone-15", "--mode", "fill", "-o", "f.png"],
        ["info", "a.png", "b.jpg", "--json"],
        ["transform", "a.png", "--rotate", "15", "--scale", "2", "-o", "t.png"],
        ["compare", "a.png", "b.png", "--threshold", "0.1"],
        ["crop", "--", "-odd name.png", "--at", "1,1"],
    ]

    /// Lines the direct parse must leave to the full one.
    static let leftToTheRoot: [[String]] = [
        ["crop", "a.png", "--at", "1,1", "--help"], ["crop", "-h"], ["crop", "a.png", "--version"],
        ["help", "crop"], ["fixture", "kit"], ["fixture", "kit", "--help"], ["crop", "--help-hidden"],
        ["crop", "--experimental-dump-help"], ["crop", "--generate-completion-script", "bash"],
        ["crop"], ["crop", "a.png", "--at", "nowhere"], ["crop", "a.png", "--no-such-option"], ["nothing", "a.png"], [],
    ]

    @Test func sameValueAsTheFullParse() throws {
        var direct = 0
        let lines = Self.documentedLines + Self.edges
        #expect(Self.documentedLines.count >= 10, "the README's examples were not found")
        for arguments in lines {
            guard let fast = ForceZoom.parseDirect(arguments) else {
                // Left to the full parse: nothing to compare.
                continue
            }
            direct += 1
            let full = try ForceZoom.parseAsRoot(arguments)
            #expect(type(of: fast) == type(of: full), "\(arguments)")
            #expect(Self.described(fast) == Self.described(full), "\(arguments)")
        }
        // The written-out values tell parses apart (one option's value differs).
        let a = try ForceZoom.parseAsRoot(["crop", "a.png", "--at", "1,1", "--size", "128"])
        let b = try ForceZoom.parseAsRoot(["crop", "a.png", "--at", "1,1", "--size", "64"])
        #expect(Self.described(a) != Self.described(b))
        // Most lines take the direct way (the rest are errors without the files, or help).
        #expect(direct * 2 >= lines.count, "\(direct) of \(lines.count)")
    }

    @Test func theRootKeepsWhatIsItsOwn() {
        for arguments in Self.leftToTheRoot {
            #expect(ForceZoom.parseDirect(arguments) == nil, "\(arguments)")
        }
    }
}
