import ArgumentParser
import FZCodecs
import FZCompare
import FZFixtures
import FZImage
import FZOperations
import FZRender
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--graphics`: how pictures are printed in the terminal, or `auto`.
enum GraphicsChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, kitty, iterm, sixel, blocks

    var fixed: GraphicsProtocol? { GraphicsProtocol(rawValue: rawValue) }
}

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
        if try choice() == .auto && !TerminalScreen.isTerminal(1) {
            throw ValidationError(
                "\(what) with --graphics auto needs standard output to be a terminal; name a protocol (--graphics kitty, iterm, sixel or blocks) to write its bytes anyway"
            )
        }
    }

    /// The protocol and the room it has: detected for auto (the probe runs once, here);
    /// no size limit when standard output is no terminal (an explicit protocol into a pipe:
    /// the picture at 1:1). `reserve` rows are left for captions and the prompt.
    func target(reserve: Int = 2) throws -> InlineImage.Target {
        let env = TerminalScreen.environment()
        var answers: ProbeAnswers?
        let graphics: GraphicsProtocol
        if let fixed = try choice().fixed {
            graphics = fixed
        } else if let decided = TerminalDetection.fromEnvironment(env) {
            graphics = decided
        } else {
            answers = TerminalProbe.ask()
            graphics = TerminalDetection.choose(environment: env, answers: answers)
        }
        let window = TerminalScreen.window()
        let limit = window.map { $0.limit(for: graphics, reserve: reserve, cell: $0.cell(probed: answers?.cell)) }
        var target = InlineImage.Target(
            limit: limit, graphics: graphics, depth: TerminalDetection.colorDepth(env),
            tmux: TerminalDetection.inTmux(env))
        target.cell = answers?.cell
        return target
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

    /// The protocol and room, once detected.
    private static let target = Mutex<InlineImage.Target?>(nil)

    func validate() throws {
        if show { try graphics.checkTerminal("--show") }
    }

    /// `-o -` writes the image to stdout, where --show's picture would go too; `without` names
    /// a flag under which the command has no picture to show (--geometry-only, --lossless).
    func check(output: String?, without flag: String? = nil) throws {
        guard show else { return }
        if output == "-" { throw ValidationError("--show prints to standard output; -o - cannot share it") }
        if let flag { throw ValidationError("--show cannot be combined with \(flag), which renders no picture") }
    }

    /// Whether the command writes its output: not with --show and no -o.
    func writes(output: String?) -> Bool { !show || output != nil }

    /// Prints `images` inline when --show was given. Detection (and its probe) runs once per
    /// process, on the first call, so a command can show its outputs as it writes them.
    func display(_ images: [Image]) throws {
        guard show, !images.isEmpty else { return }
        let target: InlineImage.Target
        if let known = Self.target.withLock({ $0 }) {
            target = known
        } else {
            target = try graphics.target()
            Self.target.withLock { $0 = target }
        }
        for image in images {
            if !TerminalScreen.write(try InlineImage.encode(image, for: target)) {
                throw ToolFailure("standard output: the picture could not be written")
            }
        }
    }
}
