import Testing

@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The bounce recipe in real time.
struct BounceTests {
    static let image = PixelSize(width: 1600, height: 900)
    static let screen = PixelSize(width: 390, height: 844)

    @Test func sixtyDegreesASecondWhateverTheFrameRate() {
        let a = Bounce(image: Self.image, screen: Self.screen, duration: 1.5, fps: 60)
        let b = Bounce(image: Self.image, screen: Self.screen, duration: 1.5, fps: 20)
        #expect(a.frameCount == 91 && b.frameCount == 31)
        for k in 0..<b.frameCount {
            let fb = b.frame(k)
            let fa = a.frame(3 * k)
            #expect(abs(fb.time - Double(k) / 20) < 1e-12)
            #expect(abs(fb.view.rotation - fa.view.rotation) < 1e-9 && abs(fb.scale - fa.scale) < 1e-12)
            // +pi/100 rad per 0.03 s = 60 degrees a second.
            #expect(abs(fb.view.rotation - 60 * fb.time) < 1e-9)
        }
        // The scale follows |cos(angle)| + 0.5: 1.5 at 0 s, 0.5 at 1.5 s (90 degrees).
        #expect(abs(a.frame(0).scale / a.frame(90).scale - 3) < 1e-9)
        #expect(abs(a.frame(45).scale / a.frame(0).scale - (cos(Double.pi / 4) + 0.5) / 1.5) < 1e-9)
    }

    @Test func defaultDurationIsOneFullTurn() {
        let b = Bounce(image: Self.image, screen: Self.screen)
        #expect(abs(Bounce.period - 6) < 1e-12)
        #expect(b.frameCount == 361 && b.frame(360).time == b.duration)
        #expect(abs(b.frame(360).view.rotation - 360) < 1e-9)
    }

    @Test func theTurnedCornersAlwaysFitTheScreen() {
        let b = Bounce(image: Self.image, screen: Self.screen, fps: 240)
        var tightest = Double.infinity
        for f in b.frames {
            let box = f.transform.boundingBox(of: Rect(x: 0, y: 0, width: 1600, height: 900))
            #expect(
                box.x >= -1e-6 && box.y >= -1e-6 && box.maxX <= 390 + 1e-6 && box.maxY <= 844 + 1e-6,
                "frame \(f.index): \(box)")
            tightest = min(tightest, 390 - box.width, 844 - box.height)
        }
        // ... and the factor is no smaller than it must be: some frame touches an edge.
        #expect(tightest < 0.5)
    }
}
