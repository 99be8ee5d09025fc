/// tmux's passthrough (`set -g allow-passthrough on`): `ESC Ptmux;` + the sequence with every
/// ESC doubled + `ESC \`, which tmux hands to the terminal outside it unchanged.
public enum TmuxPassthrough {
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(bytes.count + 16)
        for b in bytes {
            if b == 0x1B { out.append(0x1B) }
            out.append(b)
        }
        out += Array("\u{1B}\\".utf8)
        return out
    }
}
