import Testing
@testable import ForceZoomCore

/// The zoom transition's geometry: endpoints, easing, turns.
struct ZoomAnimationTests {
    static let image = PixelSize(width: 4000, height: 3000)
    static let screen = PixelSize(width: 390, height: 844)
    static let from = Rect(x: 20, y: 100, width: 120, height: 90)

    @Test(arguments: [(Easing.linear, 0.25, 0.25), (.easeInOut, 0.5, 0.5), (.easeIn, 0.5, 0.3153), (.easeOut, 0.5, 0.6847),
                      (.easeIn, 0, 0), (.easeOut, 1, 1)])
    func easingCurvesAtKnownPoints(_ e: Easing, _ t: Double, _ want: Double) {
        // CSS's cubic-bezier values; ease-in(0.5) = 0.3153 and ease-out mirrors it.
        #expect(abs(e.progress(t) - want) < 0.0005, "\(e.rawValue)(\(t)) = \(e.progress(t))")
    }

    @Test(arguments: Easing.allCases)
    func easingIsMonotonic(_ e: Easing) {
        var last = -1.0
        for i in 0...100 {
            let p = e.progress(Double(i) / 100)
            #expect(p >= last)
            last = p
        }
    }

    @Test func firstFrameIsFromAndLastIsTo() {
        let to = Rect(x: 0, y: 200, width: 390, height: 292.5)
        let a = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: to, frameCount: 18, duration: 0.3)
        #expect(a.frame(0).view.rect == Self.from)
        #expect(a.frame(17).view.rect == to)
        #expect(a.frame(0).time == 0 && abs(a.frame(17).time - 0.3) < 1e-12)
        // Aspect-fill: the 4:3 image fills the 120x90 rect exactly at scale 0.03.
        #expect(abs(a.frame(0).scale - 0.03) < 1e-12)
        let tl = a.frame(0).transform.apply(x: 0, y: 0)
        #expect(abs(tl.x - 20) < 1e-9 && abs(tl.y - 100) < 1e-9)
        // Reverse plays the same frames backwards.
        let r = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: to, frameCount: 18, duration: 0.3, reverse: true)
        #expect(r.frame(0).view.rect == to && r.frame(17).view.rect == Self.from)
    }

    @Test func fullscreenLandscapeEndsTurnedLikeFit() {
        let a = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: nil, orientation: .landscapeLeft,
                              mode: .fit, frameCount: 19, duration: 0.3)
        let last = a.frame(18)
        #expect(last.view.rotation == 90)
        #expect(last.view.width == 844 && last.view.height == 390)
        // Without --rotate-with-zoom the first half zooms unturned, the second half turns.
        #expect(a.frame(9).view.rotation == 0)
        #expect(a.frame(9).view.rect == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(a.frame(10).view.rotation > 0)
        // The last frame's matrix is fit's: image corners land where fit puts them.
        let fit = FitGeometry(image: Self.image, screen: Self.screen, orientation: .landscapeLeft)
        for (x, y) in [(0.0, 0.0), (4000.0, 3000.0)] {
            let p = last.transform.apply(x: x, y: y), q = fit.transform.apply(x: x, y: y)
            #expect(abs(p.x - q.x) < 1.0 && abs(p.y - q.y) < 1.0, "\(p) vs fit \(q)")
        }
        let together = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: nil, orientation: .landscapeLeft,
                                     frameCount: 19, duration: 0.3, rotateWithZoom: true)
        #expect(together.frame(9).view.rotation == 45)
    }
}
