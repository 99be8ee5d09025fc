import FZImage
import FZSystem
import FZTerminal
import Synchronization

/// `--graphics`: how pictures are printed in the terminal, or `auto`.
public enum GraphicsChoice: String, CaseIterable, Sendable {
    case auto, kitty, iterm, sixel, blocks

    /// The protocol named, or nil for auto.
    public var fixed: GraphicsProtocol? { GraphicsProtocol(rawValue: rawValue) }
}

/// Pictures printed in the terminal (`view`, `peek`, `--show`): the protocol and the room
/// it has, detected once, and the pictures written to standard output.
public struct InlineDisplay: Sendable {
    public var choice: GraphicsChoice
    /// Rows left below a picture for captions and the prompt.
    public var reserve: Int
    /// Where detection's one warning goes (an implausible answer from the terminal).
    public var warn: @Sendable (String) -> Void

    public init(choice: GraphicsChoice, reserve: Int = 2, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.choice = choice
        self.reserve = reserve
        self.warn = warn
    }

    /// Whether descriptor `fd` (0, 1) is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { TerminalScreen.isTerminal(fd) }

    /// The protocol and the room it has: detected for auto (the probe runs once, here); no
    /// size limit when standard output is no terminal (an explicit protocol into a pipe:
    /// the picture at 1:1).
    package func target() -> InlineImage.Target {
        let env = TerminalScreen.environment()
        var answers: ProbeAnswers?
        let graphics: GraphicsProtocol
        if let fixed = choice.fixed {
            graphics = fixed
        } else if let decided = TerminalDetection.fromEnvironment(env) {
            graphics = decided
        } else {
            answers = TerminalProbe.ask()
            if let rejected = answers?.rejectedCell {
                // A terminal that reports an impossible cell cannot be trusted with pixel
                // sizes: blocks need none.
                warn(
                    "the terminal's cell-size reply (\(Echo.value(rejected))) is no plausible cell (\(TerminalScreen.Window.cellRange.lowerBound) to \(TerminalScreen.Window.cellRange.upperBound) pixels a side); showing blocks"
                )
                graphics = .blocks
            } else {
                graphics = TerminalDetection.choose(environment: env, answers: answers)
            }
        }
        let window = TerminalScreen.window()
        let limit = window.map { $0.limit(for: graphics, reserve: reserve, cell: $0.cell(probed: answers?.cell)) }
        var target = InlineImage.Target(
            limit: limit, graphics: graphics, depth: TerminalDetection.colorDepth(env),
            tmux: TerminalDetection.inTmux(env))
        target.cell = answers?.cell
        return target
    }

    /// The target of the first `show` in this process: detection (and its probe) runs once,
    /// so a command can show its outputs as it writes them.
    private static let detected = Mutex<InlineImage.Target?>(nil)

    /// Prints `images` inline, one after the other.
    public func show(_ images: [Image]) throws {
        guard !images.isEmpty else { return }
        let target: InlineImage.Target
        if let known = Self.detected.withLock({ $0 }) {
            target = known
        } else {
            target = self.target()
            Self.detected.withLock { $0 = target }
        }
        for image in images {
            if !TerminalScreen.write(try InlineImage.encode(image, for: target)) {
                throw ToolFailure("standard output: the picture could not be written")
            }
        }
    }
}
