import ArgumentParser
import FZOperations

/// Arguments the parser would take as bundled short flags that are not.
///
/// Why: swift-argument-parser reads `-dash.png` as `-d -a -s -h ...`, and the `-h` in it
/// shows the help and exits 0: a file whose name starts with `-` silently did nothing.
/// An argument with one dash whose letters are not all short flags of the command is a
/// usage error that says how to name such a file. Numbers (`-5`, `-0.5,3`) are left to the
/// parser, which reports them as it does.
enum ShortFlags {
    struct Misread {
        let message: String
        let subcommand: String
    }

    static func misread(_ arguments: [String], subcommands: [ParsableCommand.Type]) -> Misread? {
        guard let name = arguments.first, let command = subcommands.first(where: { $0._commandName == name }) else {
            return nil
        }
        var shorts: Set<Character>?
        for argument in arguments.dropFirst() {
            if argument == "--" { break }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            let rest = argument.dropFirst()
            if let first = rest.first, first.isNumber || first == "." { continue }
            let known = shorts ?? names(of: command)
            shorts = known
            if rest.allSatisfy({ known.contains($0) }) { continue }
            let shown = Echo.value(argument)
            let file = shown.hasPrefix("-") ? "./" + shown : shown
            return Misread(
                message:
                    "unknown option '\(shown)'; for a file whose name starts with '-', write \(file) or put it after --",
                subcommand: name)
        }
        return nil
    }

    /// The command's one-letter option names, from the parser's own description of it
    /// (`CommandOptions`, so new options count without a list here), and `h` for help.
    static func names(of command: ParsableCommand.Type) -> Set<Character> {
        var found: Set<Character> = ["h"]
        for name in CommandOptions(command).takesValue.keys where name.count == 2 && name.hasPrefix("-") {
            found.insert(name[name.index(after: name.startIndex)])
        }
        return found
    }
}
