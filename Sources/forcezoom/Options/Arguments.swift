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

/// `WxH` in pixels, or a device name from `Size.devices`.
struct Size: ExpressibleByArgument, CustomStringConvertible {
    let pixels: PixelSize

    init(_ pixels: PixelSize) { self.pixels = pixels }

    init?(argument: String) {
        let t = argument.lowercased()
        if let device = Self.devices.first(where: { $0.name == t }) {
            pixels = device.size
            return
        }
        let parts = t.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        pixels = PixelSize(width: w, height: h)
    }

    var description: String { pixels.description }

    /// Device screens in pixels, held in portrait.
    static let devices: [(name: String, size: PixelSize)] = [
        ("iphone-se", PixelSize(width: 750, height: 1334)),
        ("iphone-14", PixelSize(width: 1170, height: 2532)),
        ("iphone-15", PixelSize(width: 1179, height: 2556)),
        ("iphone-15-pro-max", PixelSize(width: 1290, height: 2796)),
        ("iphone-16-pro", PixelSize(width: 1206, height: 2622)),
        ("ipad-11", PixelSize(width: 1668, height: 2388)),
        ("ipad-13", PixelSize(width: 2064, height: 2752)),
        ("pixel-8", PixelSize(width: 1080, height: 2400)),
    ]

    static var deviceTable: String {
        devices.map { "  \($0.name)\(String(repeating: " ", count: max(1, 19 - $0.name.count)))\($0.size)" }
            .joined(separator: "\n")
    }
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
