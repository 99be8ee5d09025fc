import ArgumentParser
import FZOperations
import Geometry

#if canImport(Glibc)
import Glibc
#endif

extension GraphicsChoice: ChoiceArgument {}

/// `--graphics` (and `FORCEZOOM_GRAPHICS`), shared by `view`, `peek` and `--show`.
struct GraphicsFlags: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "How pictures are printed in the terminal: auto (default; the FORCEZOOM_GRAPHICS variable, else the terminal named by TERM, TERM_PROGRAM, LC_TERMINAL, KITTY_WINDOW_ID, WEZTERM_*, KONSOLE_VERSION, else a probe of at most 250 ms when standard input and output are terminals, else blocks), kitty, iterm, sixel or blocks (Unicode half blocks with 24-bit colour, 256 colours unless COLORTERM=truecolor). A protocol named here is written to standard output even when it is no terminal.",
            valueName: "protocol"))
    var graphics: GraphicsChoice?

    static let variable = "FORCEZOOM_GRAPHICS"

    /// --graphics, else FORCEZOOM_GRAPHICS, else auto.
    func choice() throws -> GraphicsChoice {
        if let graphics { return graphics }
        guard let raw = getenv(Self.variable).map({ String(cString: $0) }), !raw.isEmpty else { return .auto }
        guard let choice = GraphicsChoice(rawValue: raw) else {
            throw ValidationError(
                "\(Self.variable)=\(Echo.value(raw)) is not a graphics protocol; use one of \(GraphicsChoice.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return choice
    }

    /// auto needs a terminal on standard output to show anything on: a usage error otherwise.
    func checkTerminal(_ what: String) throws {
        if try choice() == .auto && !InlineDisplay.isTerminal(1) {
            throw ValidationError(
                "\(what) with --graphics auto needs standard output to be a terminal; name a protocol (--graphics kitty, iterm, sixel or blocks) to write its bytes anyway"
            )
        }
    }

    /// The display these flags choose, leaving `reserve` rows for captions and the prompt.
    func display(reserve: Int = 2) throws -> InlineDisplay {
        InlineDisplay(choice: try choice(), reserve: reserve, warn: { Terminal.warningOnce($0) })
    }
}

/// `--show` on the writing commands: print the output in the terminal after writing it.
struct ShowFlags: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "After writing, print the output in the terminal as --graphics says; with --show and no -o, no file is written at all."
    )
    var show = false

    @OptionGroup var graphics: GraphicsFlags

    func validate() throws {
        if show { try graphics.checkTerminal("--show") }
    }

    /// `-o -` writes the image to stdout, where --show's picture would go too; `without` names
    /// a flag under which the command has no picture to show (--geometry-only, --lossless).
    func check(output: String?, without flag: String? = nil) throws {
        guard show else { return }
        if StandardStream.isNamed(output) {
            throw ValidationError("--show prints to standard output; -o - cannot share it")
        }
        if let flag { throw ValidationError("--show cannot be combined with \(flag), which renders no picture") }
    }

    /// Whether the command writes its output: not with --show and no -o.
    func writes(output: String?) -> Bool { !show || output != nil }

    /// The display `--show` prints on, or nil without --show.
    func display() throws -> InlineDisplay? { show ? try graphics.display() : nil }
}
