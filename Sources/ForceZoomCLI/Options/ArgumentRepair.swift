import ArgumentParser
import FZOperations
import FoundationEssentials

/// Arguments as people type them, where swift-argument-parser reads them otherwise: every
/// pass over the command line besides the parser's own is here (`beforeParsing`, then
/// `unknownOption` and `withValidValues` when a parse failed).
///
/// Why: the parser takes `--rotate -30` as `--rotate` without a value followed by an option
/// `-30` ("Missing value"), reports a mistyped `--atx 5,5` as whatever `validate()` misses
/// first, `forcezoom crp x.jpg` as "2 unexpected arguments", and `-dash.png` as bundled short
/// flags whose `-h` shows the help and exits 0. What each subcommand accepts is read from the
/// parser's own description of it (`_dumpHelp`), so new options count without a list here;
/// and only when needed (a negative number or a one-dash word on the line, or a parse that
/// failed), so the common path pays nothing.
enum ArgumentRepair {
    /// A usage error found before the parse: what to say, and whose help to point to.
    struct Refusal: Error {
        let message: String
        let subcommand: String?
    }

    /// The command line the parser is to see, or the usage error found first: `help NAME`
    /// for a NAME that is no subcommand (the parser would show the root help and exit 0), a
    /// first word that names none, negative numbers joined to their options, then one-dash
    /// words that are no bundle of the command's short flags.
    static func beforeParsing(
        _ arguments: [String], subcommands table: [(name: String, command: ParsableCommand.Type)]
    ) -> Result<[String], Refusal> {
        let names = table.map(\.name)
        if arguments.first == "help", arguments.count > 1, !names.contains(arguments[1]) {
            let message = unknownSubcommand(Array(arguments.dropFirst()), names: names) ?? ""
            return .failure(Refusal(message: message, subcommand: nil))
        }
        if let message = unknownSubcommand(arguments, names: names) {
            return .failure(Refusal(message: message, subcommand: nil))
        }
        let commands = table.map(\.command)
        let joined = joiningNegativeValues(arguments, subcommands: commands)
        if let refusal = misreadShortFlags(joined, subcommands: table) { return .failure(refusal) }
        return .success(joined)
    }

    /// `--name -5` becomes `--name=-5` when `--name` takes a value: a negative number (or a
    /// list that starts with one, `-1,1`, `-5%,10`) is a value, never an option.
    static func joiningNegativeValues(_ arguments: [String], subcommands: [ParsableCommand.Type]) -> [String] {
        guard arguments.contains(where: isNegativeNumber), let (command, depth) = command(for: arguments, subcommands)
        else { return arguments }
        let takesValue = CommandOptions(command).takesValue
        var out = Array(arguments[..<depth])
        var i = depth
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                out += arguments[i...]
                break
            }
            if a.hasPrefix("--"), !a.contains("="), takesValue[a] == true, i + 1 < arguments.count,
                isNegativeNumber(arguments[i + 1])
            {
                out.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        return out
    }

    /// `-30`, `-0.5`, `-1,1`, `-5%,10%`: a dash, then a digit or a point, then only what
    /// numbers and lists of them are made of.
    static func isNegativeNumber(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count >= 2, u[0] == UInt8(ascii: "-"), u[1] == UInt8(ascii: ".") || (48...57).contains(u[1]) else {
            return false
        }
        return u.dropFirst().allSatisfy { (48...57).contains($0) || Array(".,%-+eE".utf8).contains($0) }
    }

    /// "unknown subcommand 'crp'; did you mean 'crop'?" for a first word that names none.
    static func unknownSubcommand(_ arguments: [String], names: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help", !names.contains(first) else {
            return nil
        }
        let guess = nearest(first, in: names).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown subcommand '\(Echo.value(first))'\(guess) The subcommands are \(names.joined(separator: ", "))"
    }

    /// The first `--name` on the line that the subcommand does not have, as a message with
    /// the nearest name it does have; nil when every option is known.
    static func unknownOption(_ arguments: [String], subcommands: [ParsableCommand.Type]) -> String? {
        guard let (command, depth) = command(for: arguments, subcommands) else { return nil }
        let takesValue = CommandOptions(command).takesValue
        let name = arguments[..<depth].joined(separator: " ")
        var i = depth
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { break }
            i += 1
            if takesValue[a] == true && !a.hasPrefix("--") {  // `-o NAME`: the name is its value
                i += 1
                continue
            }
            guard a.hasPrefix("--") else { continue }
            let option = String(a.split(separator: "=", maxSplits: 1)[0])
            if let value = takesValue[option] {
                if value && !a.contains("=") { i += 1 }  // its value may look like anything
                continue
            }
            let guess =
                nearest(option, in: takesValue.keys.filter { $0.hasPrefix("--") }).map { "; did you mean '\($0)'?" }
                ?? ""
            return "unknown option '\(Echo.value(option))' for '\(name)'\(guess)"
        }
        return nil
    }

    /// The parser's "The value 'pink' is invalid for '--background <color>'" (it lists the
    /// choices of enumerations only) as "--background 'pink' is not valid; give ..." with
    /// what is valid, for the value kinds whose choices are open-ended lists.
    static func withValidValues(_ message: String) -> String {
        let head = "The value '"
        let middle = "' is invalid for '"
        guard message.hasPrefix(head), message.hasSuffix(">'"), let m = message.firstRange(of: middle),
            let open = message[m.upperBound...].firstRange(of: " <")
        else { return message }
        let value = message[message.index(message.startIndex, offsetBy: head.count)..<m.lowerBound]
        let option = message[m.upperBound..<open.lowerBound]
        let kind = message[open.upperBound..<message.index(message.endIndex, offsetBy: -2)]
        guard let valid = validValues[String(kind)] else { return message }
        let names = kind == "color" ? ColorArgument.names : kind == "wxh|name" ? Size.deviceNames : []
        let guess = nearest(value.lowercased(), in: names).map { "did you mean '\($0)'? Or " } ?? ""
        return "\(option) '\(value)' is not valid; \(guess)give \(valid)"
    }

    /// What is valid, by the value name options show (`<color>`).
    static let validValues: [String: String] = [
        "color": FormatRegistry.sentence(ColorArgument.names, "or") + " (or #RRGGBB, #RRGGBBAA)",
        "wxh|name": "WxH (390x844) or a device: " + FormatRegistry.sentence(Size.deviceNames, "or"),
        "wxh": "WxH, as 390x844",
        "x,y": "X,Y in pixels or percent, as 1200,800 or 50%,25%",
    ]

    /// The (sub)subcommand the first words name, and how many words name it.
    static func command(for arguments: [String], _ subcommands: [ParsableCommand.Type]) -> (ParsableCommand.Type, Int)?
    {
        var found: (ParsableCommand.Type, Int)?
        var choices = subcommands
        for (i, word) in arguments.enumerated() {
            guard let next = choices.first(where: { $0._commandName == word }) else { break }
            found = (next, i + 1)
            choices = next.configuration.subcommands
        }
        return found
    }

    /// The candidate closest to `word` by edit distance, when it is close enough to be a
    /// typo (at most a third of the word's letters, and at least 1) and the only one that close.
    static func nearest(_ word: String, in candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.0
    }

    /// Levenshtein distance (insertions, deletions, substitutions), on characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}

/// A subcommand's options (`--at`, `-o`) and whether each takes a value, from the parser's
/// JSON description of the command; `--help` is always there.
struct CommandOptions {
    let takesValue: [String: Bool]

    init(_ command: ParsableCommand.Type) {
        var found: [String: Bool] = ["--help": false]
        let dump = Data(command._dumpHelp().utf8)
        if let info = try? JSONDecoder().decode(Dump.self, from: dump) {
            for argument in info.command.arguments ?? [] where argument.kind != "positional" {
                for n in argument.names ?? [] {
                    found[(n.kind == "long" ? "--" : "-") + n.name] = argument.kind == "option"
                }
            }
        }
        takesValue = found
    }

    private struct Dump: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }
        struct Argument: Decodable {
            let kind: String
            let names: [Name]?
        }
        struct Command: Decodable { let arguments: [Argument]? }
        let command: Command
    }
}

extension ArgumentRepair {
    /// An argument the parser would take as bundled short flags that are not: swift-argument-
    /// parser reads `-dash.png` as `-d -a -s -h ...`, and the `-h` in it shows the help and
    /// exits 0, so a file whose name starts with `-` silently did nothing. An argument with
    /// one dash whose letters are not all short flags of the command is a usage error that
    /// says how to name such a file. Numbers (`-5`, `-0.5,3`) are left to the parser.
    /// The command is found by its name in the table (`ForceZoom.subcommandTable`), not by
    /// asking each one's `_commandName`: that builds every configuration up to the one named
    /// (their help texts), 9.5% of a `--version` run before this check found nothing to do.
    static func misreadShortFlags(
        _ arguments: [String], subcommands table: [(name: String, command: ParsableCommand.Type)]
    ) -> Refusal? {
        guard let name = arguments.first, let command = table.first(where: { $0.name == name })?.command else {
            return nil
        }
        var shorts: Set<Character>?
        for argument in arguments.dropFirst() {
            if argument == "--" { break }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            let rest = argument.dropFirst()
            if let first = rest.first, first.isNumber || first == "." { continue }
            let known = shorts ?? shortNames(of: command)
            shorts = known
            if rest.allSatisfy({ known.contains($0) }) { continue }
            let shown = Echo.value(argument)
            let file = shown.hasPrefix("-") ? "./" + shown : shown
            return Refusal(
                message:
                    "unknown option '\(shown)'; for a file whose name starts with '-', write \(file) or put it after --",
                subcommand: name)
        }
        return nil
    }

    /// The command's one-letter option names, from the parser's own description of it
    /// (`CommandOptions`, so new options count without a list here), and `h` for help.
    static func shortNames(of command: ParsableCommand.Type) -> Set<Character> {
        var found: Set<Character> = ["h"]
        for name in CommandOptions(command).takesValue.keys where name.count == 2 && name.hasPrefix("-") {
            found.insert(name[name.index(after: name.startIndex)])
        }
        return found
    }
}
