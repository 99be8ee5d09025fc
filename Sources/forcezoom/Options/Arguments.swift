import ArgumentParser
import ForceZoomCore

/// `X,Y`: pixels (`1200,800`), percentages (`50%,25%`) or a mix.
struct Point: ExpressibleByArgument, CustomStringConvertible {
    let touch: TouchPoint

    init?(argument: String) {
        guard let t = TouchPoint(parsing: argument) else { return nil }
        touch = t
    }

    var description: String { touch.description }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// `WxH`, or a device name from `Device.all`. A device gives its pixels (`fit`,
/// `animate`) or its points (`crop`, `frame`: the peek's side is min of the bounds in
/// points); `WxH` is taken as the command says (pixels or points).
struct Size: ExpressibleByArgument, CustomStringConvertible {
    /// `WxH`, or the device's pixels.
    let pixels: PixelSize
    /// The device named, if one was.
    let device: Device?

    init(_ pixels: PixelSize) {
        self.pixels = pixels
        device = nil
    }

    init?(argument: String) {
        let t = argument.lowercased()
        if let d = Device.named(t) {
            pixels = d.pixels
            device = d
            return
        }
        let parts = t.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        pixels = PixelSize(width: w, height: h)
        device = nil
    }

    /// `WxH`, or the device's bounds in points.
    var points: PixelSize { device?.points ?? pixels }

    var description: String { device?.name ?? pixels.description }

    static var deviceTable: String { Device.table }
}

/// `black`, `white`, `transparent`, `#RRGGBB` or `#RRGGBBAA`.
struct ColorArgument: ExpressibleByArgument, CustomStringConvertible {
    let color: Color

    init(_ color: Color) { self.color = color }

    init?(argument: String) {
        guard let c = Color(parsing: argument) else { return nil }
        color = c
    }

    var description: String {
        Color.names.first(where: { $0.1 == color })?.0 ?? color.description
    }
}
