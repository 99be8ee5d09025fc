/// A device screen: its bounds in points (what UIKit's `UIScreen.bounds` and ForceZoom's
/// min(bounds) use) and in pixels (what the panel shows), held in portrait.
public struct Device: Hashable, Sendable {
    public let name: String
    /// The screen's bounds in points (Android: density-independent pixels).
    public let points: PixelSize
    /// Pixels per point (`UIScreen.scale`).
    public let scale: Double
    /// The panel's pixels. Apple's are points x scale; Android's dp are rounded down, so
    /// its pixels are given as the panel has them.
    public let pixels: PixelSize

    public init(name: String, points: PixelSize, scale: Double, pixels: PixelSize? = nil) {
        self.name = name
        self.points = points
        self.scale = scale
        self.pixels =
            pixels
            ?? PixelSize(
                width: Int((Double(points.width) * scale).rounded()),
                height: Int((Double(points.height) * scale).rounded()))
    }

    /// The screen rendered at `s` pixels per point: the device's own pixels at its own
    /// scale, the points at 1 (a point-sized preview).
    public func pixels(atScale s: Double) -> PixelSize {
        if s == scale { return pixels }
        return PixelSize(
            width: max(1, Int((Double(points.width) * s).rounded())),
            height: max(1, Int((Double(points.height) * s).rounded())))
    }

    /// The known devices: Apple's phone and tablet lines from the SE to the 17 and the M4
    /// iPad Pro (the screen sizes Apple's Human Interface Guidelines list), and a few Android
    /// phones at their default resolution (dp = pixels / density).
    public static let all: [Device] = [
        Device(name: "iphone-se", points: PixelSize(width: 375, height: 667), scale: 2),
        Device(name: "iphone-14", points: PixelSize(width: 390, height: 844), scale: 3),
        Device(name: "iphone-15", points: PixelSize(width: 393, height: 852), scale: 3),
        Device(name: "iphone-15-pro-max", points: PixelSize(width: 430, height: 932), scale: 3),
        Device(name: "iphone-16", points: PixelSize(width: 393, height: 852), scale: 3),
        Device(name: "iphone-16e", points: PixelSize(width: 390, height: 844), scale: 3),
        Device(name: "iphone-16-plus", points: PixelSize(width: 430, height: 932), scale: 3),
        Device(name: "iphone-16-pro", points: PixelSize(width: 402, height: 874), scale: 3),
        Device(name: "iphone-16-pro-max", points: PixelSize(width: 440, height: 956), scale: 3),
        Device(name: "iphone-17", points: PixelSize(width: 402, height: 874), scale: 3),
        Device(name: "iphone-air", points: PixelSize(width: 420, height: 912), scale: 3),
        Device(name: "iphone-17-pro", points: PixelSize(width: 402, height: 874), scale: 3),
        Device(name: "iphone-17-pro-max", points: PixelSize(width: 440, height: 956), scale: 3),
        Device(name: "ipad-mini", points: PixelSize(width: 744, height: 1133), scale: 2),
        Device(name: "ipad", points: PixelSize(width: 820, height: 1180), scale: 2),
        Device(name: "ipad-air-13", points: PixelSize(width: 1024, height: 1366), scale: 2),
        Device(name: "ipad-11", points: PixelSize(width: 834, height: 1194), scale: 2),
        Device(name: "ipad-pro-11", points: PixelSize(width: 834, height: 1210), scale: 2),
        Device(name: "ipad-13", points: PixelSize(width: 1032, height: 1376), scale: 2),
        Device(
            name: "pixel-8", points: PixelSize(width: 411, height: 914), scale: 2.625,
            pixels: PixelSize(width: 1080, height: 2400)),
        Device(
            name: "pixel-9", points: PixelSize(width: 411, height: 923), scale: 2.625,
            pixels: PixelSize(width: 1080, height: 2424)),
        Device(
            name: "galaxy-s24", points: PixelSize(width: 384, height: 832), scale: 2.8125,
            pixels: PixelSize(width: 1080, height: 2340)),
        Device(
            name: "galaxy-s24-ultra", points: PixelSize(width: 384, height: 832), scale: 3.75,
            pixels: PixelSize(width: 1440, height: 3120)),
    ]

    /// The device called `name` (case-insensitive).
    public static func named(_ name: String) -> Device? {
        let n = name.lowercased()
        return all.first { $0.name == n }
    }

    /// The table `forcezoom help` prints: name, points, scale, pixels.
    public static var table: String {
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(1, n - s.count)) }
        let head = "  " + pad("name", 19) + pad("points", 11) + pad("scale", 9) + "pixels"
        return
            ([head]
            + all.map { d in
                let scale = d.scale == d.scale.rounded() ? "@\(Int(d.scale))x" : "@\(d.scale)x"
                return "  " + pad(d.name, 19) + pad(d.points.description, 11) + pad(scale, 9) + d.pixels.description
            }).joined(separator: "\n")
    }
}
