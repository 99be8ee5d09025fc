import FZSystem

/// iTerm2's inline image: `ESC ]1337;File=inline=1;size=N;width=Wpx;height=Hpx:BASE64 BEL`. The
/// size in pixels keeps the terminal from rescaling: one image pixel per screen pixel.
public enum ITermEncoder {
    public static func encode(png: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = Array(
            "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(width)px;height=\(height)px;preserveAspectRatio=1:"
                .utf8)
        out += Base64.encode(png)
        out.append(7)
        return out
    }
}
