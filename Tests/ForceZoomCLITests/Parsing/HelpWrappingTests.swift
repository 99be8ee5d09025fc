import ArgumentParser
import Testing

@testable import ForceZoomCLI

/// Help paragraphs are written one source line per paragraph, so the parser's own wrapping
/// is the only wrapping: a paragraph hard-wrapped in the source (at ~85 columns) leaves a
/// one-word line behind every break when the terminal is 80 or 100 columns wide.
@Suite("Help wrapping")
struct HelpWrappingTests {
    /// The root and every subcommand (`fixture kit` the one of the second level).
    static let commands: [ParsableCommand.Type] =
        [ForceZoom.self] + ForceZoom.configuration.subcommands + [FixtureKit.self]

    /// The one-word lines that wrapping left: in the overview and discussion (before
    /// USAGE, which the sources write as paragraphs), a line of a single word after a line
    /// of text at the same indent (a continuation, not an example or a table row of its
    /// own); in the argument, option and subcommand lists, a one-word continuation of an
    /// abstract. Abstracts are worded so that they end on more than one word at both widths.
    static func orphans(_ help: String) -> [String] {
        var found: [String] = []
        var previous = ""
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("USAGE:") { inOptions = true }
            let indent = line.prefix { $0 == " " }.count
            let previousIndent = previous.prefix { $0 == " " }.count
            let words = line.split(separator: " ")
            let previousHasText = previous.contains { $0 != " " }
            // Before USAGE: paragraphs. After it: an option's or subcommand's abstract, whose
            // continuation lines stand at the abstract's column (deeper than the name).
            let continuation =
                inOptions
                ? indent >= 20 && previousHasText && !previous.hasSuffix(":")
                : previousHasText && (indent == previousIndent || previous.hasPrefix("OVERVIEW: "))
            if words.count == 1, continuation {
                found.append("\(previous)\n\(line)")
            }
            previous = line
        }
        return found
    }

    @Test(arguments: [80, 100])
    func noOrphanedWords(columns: Int) {
        for command in Self.commands {
            let help = ForceZoom.helpMessage(for: command, columns: columns)
            #expect(Self.orphans(help).isEmpty, "\(command._commandName) at \(columns) columns: \(Self.orphans(help))")
        }
    }
}
