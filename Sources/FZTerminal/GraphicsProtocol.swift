/// How a terminal is asked to show pixels.
public enum GraphicsProtocol: String, CaseIterable, Sendable, Hashable {
    /// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole): PNG, base64 in chunks.
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, Konsole, mintty, rio): one OSC 1337 with the PNG.
    case iterm
    /// DEC sixel (xterm -ti vt340, foot, mlterm, Windows Terminal, tmux 3.4): a palette of at
    /// most 256 colours and six-pixel bands.
    case sixel
    /// Unicode upper half blocks with 24-bit (or 256-colour) SGR colours: any colour terminal.
    case blocks
}

/// How many colours SGR may name: 24-bit (`COLORTERM=truecolor`) or the xterm 256.
public enum ColorDepth: Sendable, Hashable {
    case trueColor
    case palette256
}
