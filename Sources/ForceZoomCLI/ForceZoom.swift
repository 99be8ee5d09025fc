import ArgumentParser
import FZOperations
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The `forcezoom` command: peek and zoom into images from the shell.
public struct ForceZoom: ParsableCommand {
    static let version = "0.1.0"

    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "forcezoom",
        abstract:
            "Peek and zoom into \(FormatNames.allInputs) images: 1:1 detail crops, fits to a device's screen, thumbnails by the thousand.",
        discussion: """
            Coordinates always refer to the upright image: the EXIF orientation is applied unless --no-auto-orient. Outputs are \(FormatNames.rendered), as the extension of each output's name says (or --format), written to a temporary file and renamed, so a failure never leaves a partial file; forcezoom never overwrites an input.

            Exit codes: 0 success, 1 an input or output failed, 2 bad usage; compare has its own for test harnesses (1 over its threshold, 2 an unreadable input, 3 a size mismatch: forcezoom help compare).

            Devices (--screen NAME, e.g. iphone-15): \(Device.all.count) phones and tablets, whose points, scale and pixels `forcezoom help fit` lists. `crop` and `frame` use the points (the peek's side is min of the bounds in points, as ForceZoom sizes it); `fit` and `animate` render at the pixels (--scale 1 for a point-sized preview).

            Examples:
              forcezoom crop photo.jpg --at 1200,800 -o detail.png
              forcezoom crop photo.jpg --at 50%,50% --size 256 --zoom 2
              forcezoom crop photo.jpg --view 390x844 --at 195,300 --json
              forcezoom info *.jpg --json
            """,
        version: version,
        subcommands: subcommandTable.map { $0.command }
    )

    /// The subcommands, in help order, each with the name it is typed as (its configuration
    /// says the same: `everySubcommandNamesItself`). Why a table: the names are needed before
    /// any parse, to catch a mistyped subcommand, and asking each configuration for its name
    /// would build all eleven help texts (about 0.6 ms of a 20 ms one-tile crop) for the one
    /// that runs.
    static let subcommandTable: [(name: String, command: ParsableCommand.Type)] = [
        ("crop", Crop.self), ("fit", Fit.self), ("frame", Frame.self), ("transform", Transform.self),
        ("animate", Animate.self), ("thumb", Thumb.self), ("info", Info.self), ("fixture", Fixture.self),
        ("compare", Compare.self), ("view", View.self), ("peek", Peek.self),
    ]

    /// Runs the command with forcezoom's exit codes: usage errors exit 2 (as scripts
    /// expect of command-line tools), tool failures 1. Every error is one line on stderr,
    /// echoed values cut and escaped (`Echo`). Output written to stdout that could not be
    /// delivered (a full disk, a closed descriptor) is a failure too: exit 1. A closed pipe
    /// (`| head -c10`) ends the process quietly, as other Unix filters do (SIGPIPE).
    public static func main() {
        guard ProcessSetup.start() else { Glibc.exit(1) }
        URLInputs.register()  // http(s):// inputs, read by range (issue 52)
        // Decoder libraries' set-up (libde265's tables) runs beside the parsing below.
        FormatRegistry.warmUp(forArguments: ProcessSetup.arguments)
        // The command line as people type it, repaired where the parser reads it otherwise.
        let arguments: [String]
        switch ArgumentRepair.beforeParsing(ProcessSetup.arguments, subcommands: subcommandTable) {
        case .success(let repaired): arguments = repaired
        case .failure(let refusal): usageError(refusal.message, subcommand: refusal.subcommand)
        }
        do throws(ReadFilesError) { try ReadFiles.checkNotStandardOutput(arguments) } catch {
            if case .namedIsStandardOutput(let path) = error {
                Terminal.error("\(Echo.path(path)): \(ReadFilesError.reason)")
            }
            Glibc.exit(1)
        }
        run(arguments)
    }

    /// Parses and runs, turning every error into its message and exit code.
    static func run(_ arguments: [String]) {
        do {
            var command = try parseLinear(arguments)
            if let ordered = command as? any OrderedCommand {
                try ordered.run(arguments: arguments)
            } else {
                try command.run()
            }
            finishStdout()
        } catch let failure as any ForceZoomError {
            finishStdout()
            Terminal.error(failure.description)
            Glibc.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                finishStdout()
                Glibc.exit(0)
            }
            // ExitCode(1) or (75: retry later) thrown after reporting per-file errors.
            if code.rawValue == 1 || code.rawValue == 75 {
                finishStdout()
                Glibc.exit(code.rawValue)
            }
            finishStdout()
            let names = subcommandNames
            let subcommand =
                arguments.starts(with: ["fixture", "kit"]) ? "fixture kit" : arguments.first { names.contains($0) }
            // A mistyped option explains whatever else the parser or validate() found missing.
            let unknown = ArgumentRepair.unknownOption(arguments, subcommands: configuration.subcommands)
            usageError(unknown ?? ArgumentRepair.withValidValues(message(for: error)), subcommand: subcommand)
        }
    }

    /// Parses as `parseAsRoot` does, in time linear in the number of file arguments after
    /// `--` for `info` and `thumb`: swift-argument-parser's own splitting is quadratic in the
    /// number of arguments (10,000 files: 4 s), so files after `--` past the first are
    /// handed to the parsed command directly (they are plain names by definition).
    static func parseLinear(_ arguments: [String]) throws -> ParsableCommand {
        // `forcezoom --version` alone can be no completion request: the parser's check for
        // one (two more commands parsed against the line) was 39% of its 11 M instructions.
        // The version is what the parser prints, and exits 0 the same way (CleanExit).
        if arguments == ["--version"] { throw CleanExit.message(version) }
        if arguments.count >= 2, arguments[0] == "fixture", arguments[1] == "kit" {
            // fixture's optional <pattern> argument would take "kit" before the parser looks
            // for a subcommand, so `fixture kit` is parsed here (its help with its full name).
            let rest = Array(arguments.dropFirst(2))
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) {
                throw CleanExit.message(helpMessage(for: FixtureKit.self))
            }
            return try FixtureKit.parseAsRoot(rest)
        }
        guard arguments.count > 64, let subcommand = arguments.first, subcommand == "info" || subcommand == "thumb",
            let separator = arguments.firstIndex(of: "--"), separator + 2 < arguments.count
        else { return try parseDirect(arguments) ?? parseAsRoot(arguments) }
        let rest = Array(arguments[(separator + 2)...])
        var command = try parseAsRoot(Array(arguments[...(separator + 1)]))
        if var info = command as? Info {
            info.files += rest
            command = info
        } else if var thumb = command as? Thumb {
            thumb.inputs += rest
            command = thumb
        }
        return command
    }

    /// A command line that names a subcommand without subcommands of its own, parsed as that
    /// subcommand's own arguments (`Crop.parseAsRoot(rest)`), or nil: the full parse then
    /// runs. Why: swift-argument-parser's full parse reflects the subcommand's options once
    /// more than its own parse does (to see whether it takes everything after its name) and
    /// builds the root's tree of every subcommand; that is about 1 ms of a 20 ms one-tile
    /// crop. The value is the one the full parse gives: the root has no options of its own,
    /// and whatever the root would treat otherwise (help, --version, the completion and
    /// dump-help requests) is left to the full parse, as is every error, so each message
    /// is the parser's own, word for word.
    static func parseDirect(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first, name != "help", !withSubcommands.contains(name),
            let command = subcommandTable.first(where: { $0.name == name })?.command
        else { return nil }
        let rest = arguments.dropFirst()
        let special = ["help", "-h", "-help", "--help", "--help-hidden", "--version", "-?"]
        guard
            !rest.contains(where: {
                special.contains($0) || $0.hasPrefix("--experimental") || $0.hasPrefix("--generate-completion")
            })
        else { return nil }
        if command == Crop.self, let crop = Crop.quick(Array(rest)) { return crop }
        if command == Thumb.self, let thumb = Thumb.quick(Array(rest)) { return thumb }
        return try? command.parseAsRoot(Array(rest))
    }

    /// What each subcommand that `parseDirect` parses names as its "super command". Only a
    /// command parsed as the root reads it: swift-argument-parser then skips its check for
    /// `--generate-completion-script` (a parse of every argument against two more commands,
    /// about a millisecond, which `parseDirect` leaves to the full parse anyway), and its
    /// usage lines would say `forcezoom crop`. The full parse's root is `ForceZoom`, so its
    /// help, errors, completion scripts and the man page do not change.
    static let superCommandName = "forcezoom"

    /// The subcommands with subcommands of their own (`fixture kit`), by name, which
    /// `parseDirect` leaves to the full parse. A list, because asking a command's
    /// configuration builds its help texts: thumb's were 0.4 M of a 90 M-instruction DNG
    /// thumbnail (issue 51). `everySubcommandNamesItself` checks it against the configurations.
    static let withSubcommands = ["fixture"]

    /// The subcommands' names, as typed (`subcommandTable`).
    static var subcommandNames: [String] { subcommandTable.map { $0.name } }

    /// One line on stderr, exit 2.
    static func usageError(_ message: String, subcommand: String?) -> Never {
        // The parser's lists of choices come one per line ("- fit"): joined into the one line.
        var text = message.split(separator: "\n").map { line in
            let t = line.trimmingCharacters
            return t.hasPrefix("- ") ? String(t.dropFirst(2)) + "," : t
        }.filter { !$0.isEmpty }.joined(separator: " ")
        if text.hasSuffix(",") { text.removeLast() }
        if text.isEmpty { text = "bad usage" }
        if text.hasPrefix("Error: ") { text.removeFirst(7) }
        let help = subcommand.map { "forcezoom \($0) --help" } ?? "forcezoom --help"
        // compare --json prints a record on every outcome, a refused argument included.
        if subcommand == "compare", ProcessSetup.arguments.contains("--json") {
            print(Compare.usageRecord(Echo.value(text, limit: 400)))
            finishStdout()
        }
        Terminal.error("\(Echo.value(text, limit: 400)) (see '\(help)')")
        Glibc.exit(2)
    }

    /// Flushes stdout; a write that failed is reported with the errno it failed with
    /// (ENOSPC on /dev/full) and exits 1, so a script never takes lost output for success.
    /// A stdout closed at start is said as such: /dev/full stood in for it.
    static func finishStdout() {
        if let status = StandardOutput.finish() {
            let reason = String(cString: strerror(status))
            let closed = StandardOutput.wasClosedAtStart ? " (standard output was closed; /dev/full stood in)" : ""
            Terminal.error("standard output: \(reason)\(closed); the output was not written")
            Glibc.exit(1)
        }
    }
}
