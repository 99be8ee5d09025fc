import Testing

@testable import Geometry

/// The device table: points, scale and pixels agree.
struct DeviceTests {
    @Test func applePixelsArePointsTimesScale() {
        for d in Device.all where d.name.hasPrefix("i") {
            #expect(
                d.pixels.width == Int(Double(d.points.width) * d.scale)
                    && d.pixels.height == Int(Double(d.points.height) * d.scale), "\(d.name)")
            #expect(d.pixels(atScale: 1) == d.points && d.pixels(atScale: d.scale) == d.pixels)
        }
        #expect(Device.named("iPhone-15")?.points == PixelSize(width: 393, height: 852))
        #expect(Device.named("iphone-15")?.pixels == PixelSize(width: 1179, height: 2556))
        // Android: dp rounded down, the panel's pixels kept as they are.
        let pixel = Device.named("pixel-8")!
        #expect(pixel.pixels == PixelSize(width: 1080, height: 2400) && Int(1080 / pixel.scale) == pixel.points.width)
        for d in Device.all where !d.name.hasPrefix("i") {
            let dp = PixelSize(
                width: Int(Double(d.pixels.width) / d.scale), height: Int(Double(d.pixels.height) / d.scale))
            #expect(dp == d.points, "\(d.name): \(d.pixels) at \(d.scale) is \(dp) dp")
        }
        #expect(Set(Device.all.map(\.name)).count == Device.all.count, "a device name twice")
    }
}
