/// `--graphics auto`: which protocol a terminal speaks, from its environment and, when that
/// does not say, the probe's answers. A pure function of both, so every rule is tested in
/// process. The environment decides only where it names a terminal for certain; a terminal
/// that says nothing and does not answer gets blocks, which every colour terminal shows.
public enum TerminalDetection {
    /// The protocol the environment alone settles, or nil (then probe).
    public static func fromEnvironment(_ env: [String: String]) -> GraphicsProtocol? {
        let term = env["TERM"] ?? ""
        let program = env["TERM_PROGRAM"] ?? ""
        if term == "dumb" { return .blocks }
        if env["TMUX"] != nil {
            // tmux answers the probe itself; only iTerm2's sequence passes through it reliably.
            if env["LC_TERMINAL"] == "iTerm2" { return .iterm }
            return nil
        }
        if env["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty" {
            return .kitty
        }
        if program == "iTerm.app" || env["LC_TERMINAL"] == "iTerm2" || program == "WezTerm" || program == "mintty"
            || program == "rio"
        {
            return .iterm
        }
        if env.keys.contains(where: { $0.hasPrefix("WEZTERM_") }) { return .iterm }
        if env["KONSOLE_VERSION"] != nil { return .kitty }
        return nil
    }

    /// The protocol for this environment and probe (nil: no probe could be made).
    public static func choose(environment env: [String: String], answers: ProbeAnswers?) -> GraphicsProtocol {
        if let decided = fromEnvironment(env) { return decided }
        guard let answers else { return .blocks }
        // Inside tmux the answers are tmux's: its DA1 has 4 when it was built with sixel.
        if env["TMUX"] == nil {
            if answers.kitty { return .kitty }
            let name = (answers.version ?? "").lowercased()
            if name.hasPrefix("wezterm") || name.hasPrefix("iterm2") { return .iterm }
            if name.hasPrefix("kitty") || name.hasPrefix("ghostty") { return .kitty }
        }
        if answers.attributes?.contains(4) == true { return .sixel }
        return .blocks
    }

    /// 24-bit SGR when COLORTERM says so, else xterm's 256 colours.
    public static func colorDepth(_ env: [String: String]) -> ColorDepth {
        let c = env["COLORTERM"]?.lowercased() ?? ""
        return c == "truecolor" || c == "24bit" ? .trueColor : .palette256
    }

    /// Inside tmux (kitty and iTerm2 need its passthrough).
    public static func inTmux(_ env: [String: String]) -> Bool { env["TMUX"] != nil }

    /// The variables detection reads (what `TerminalProbe.environment()` collects).
    public static let variables = [
        "TERM", "TERM_PROGRAM", "LC_TERMINAL", "KITTY_WINDOW_ID", "KONSOLE_VERSION", "TMUX", "COLORTERM",
    ]
}
