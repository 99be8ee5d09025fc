import Testing

@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// UIKit's curves, computed here independently of `Easing` (Newton's method on x(s), not
/// bisection): cubic Béziers from (0,0) to (1,1).
enum ReferenceCurve {
    static func value(_ t: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * p1 * s * (1 - s) * (1 - s) + 3 * p2 * s * s * (1 - s) + s * s * s
        }
        func db(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * p1 * (1 - s) * (1 - s) + 6 * (p2 - p1) * s * (1 - s) + 3 * (1 - p2) * s * s
        }
        var s = t
        for _ in 0..<50 {
            let d = db(s, x1, x2)
            if abs(d) < 1e-12 { break }
            s = min(1, max(0, s - (b(s, x1, x2) - t) / d))
        }
        return b(s, y1, y2)
    }
    static func easeInOut(_ t: Double) -> Double { value(t, 0.42, 0, 0.58, 1) }
    static func easeOut(_ t: Double) -> Double { value(t, 0, 0, 0.58, 1) }
    static func easeIn(_ t: Double) -> Double { value(t, 0.42, 0, 1, 1) }
}

/// The zoom transition's geometry: timing, phases, the dismiss, endpoints, turns.
struct ZoomAnimationTests {
    static let image = PixelSize(width: 4000, height: 3000)
    static let screen = PixelSize(width: 390, height: 844)
    static let from = Rect(x: 20, y: 100, width: 120, height: 90)

    @Test(arguments: [
        (Easing.linear, 0.25, 0.25), (.easeInOut, 0.5, 0.5), (.easeIn, 0.5, 0.3153), (.easeOut, 0.5, 0.6847),
        (.easeIn, 0, 0), (.easeOut, 1, 1),
    ])
    func easingCurvesAtKnownPoints(_ e: Easing, _ t: Double, _ want: Double) {
        // CSS's cubic-bezier values; ease-in(0.5) = 0.3153 and ease-out mirrors it.
        #expect(abs(e.progress(t) - want) < 0.0005, "\(e.rawValue)(\(t)) = \(e.progress(t))")
    }

    @Test func easingMatchesTheIndependentBezierEverywhere() {
        for i in 0...40 {
            let t = Double(i) / 40
            #expect(abs(Easing.easeInOut.progress(t) - ReferenceCurve.easeInOut(t)) < 1e-9)
            #expect(abs(Easing.easeOut.progress(t) - ReferenceCurve.easeOut(t)) < 1e-9)
            #expect(abs(Easing.easeIn.progress(t) - ReferenceCurve.easeIn(t)) < 1e-9)
        }
        #expect(Easing.easeInOut.progress(1) == 1 && Easing.easeInOut.progress(0) == 0)
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

    /// Defect 2: a 0.2 s ease-in-out zoom at 60 fps is at progress 0 at 0 s, 0.5 at 0.1 s
    /// and 1 at exactly 0.2 s; frame k is at k/60.
    @Test func frameKIsAtKOverFPSAndTheLastAtTheDuration() {
        let a = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: nil, zoomDuration: 0.2, fps: 60)
        #expect(a.frameCount == 13)
        for k in 0..<13 {
            let f = a.frame(k)
            #expect(abs(f.time - Double(k) / 60) < 1e-12, "frame \(k) at \(f.time)")
            #expect(abs(f.progress - ReferenceCurve.easeInOut(f.time / 0.2)) < 1e-9)
        }
        #expect(a.frame(0).progress == 0 && a.frame(0).view.rect == Self.from)
        #expect(abs(a.frame(6).progress - 0.5) < 1e-9 && abs(a.frame(6).time - 0.1) < 1e-12)
        #expect(a.frame(12).time == 0.2 && a.frame(12).progress == 1)
        #expect(a.frame(12).view.rect == Rect(x: 0, y: 0, width: 390, height: 844))
        // Frames halfway are halfway: the view's width at 0.1 s is the mean of the ends.
        #expect(abs(a.frame(6).view.width - (120 + 390) / 2) < 1e-9)
    }

    /// Defect 5: zoom 0.2 s then turn 0.25 s; the zoom's last frame is exactly the
    /// upright fullscreen, which is `fit --orientation portrait`, and the last is `fit`.
    @Test func zoomThenTurnEachWithItsOwnDurationAndEasing() {
        let a = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: nil, orientation: .landscapeLeft,
            mode: .fit, easing: .easeInOut, turnEasing: .linear, fps: 60)
        #expect(a.frameCount == 12 + 15 + 1)
        let upright = a.frame(12)
        #expect(upright.phase == "zoom" && upright.time == 0.2 && upright.progress == 1)
        #expect(upright.view.rotation == 0 && upright.view.rect == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(
            upright.transform
                == FitGeometry(image: Self.image, screen: Self.screen, orientation: .portrait, mode: .fit).transform)
        #expect(a.frame(11).view.rotation == 0 && a.frame(13).view.rotation > 0)
        // The turn is linear here: halfway through it (0.325 s) it is at 45 degrees.
        let mid = a.frame(12 + 7)
        #expect(mid.phase == "turn")
        #expect(abs(mid.time - (0.2 + 0.25 * 7 / 15)) < 1e-12 && abs(mid.view.rotation - 90 * 7 / 15) < 1e-9)
        for k in 0..<a.frameCount { #expect(abs(a.frame(k).time - Double(k) / 60) < 1e-12) }
        let last = a.frame(27)
        #expect(last.time == 0.45 && last.view.rotation == 90 && last.view.width == 844 && last.view.height == 390)
        let fit = FitGeometry(image: Self.image, screen: Self.screen, orientation: .landscapeLeft, mode: .fit)
        #expect(last.transform == fit.transform && last.fit == fit)
        // --rotate-with-zoom: one phase, halfway in time and eased progress 0.5 at 45 degrees.
        let together = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: nil, orientation: .landscapeLeft,
            fps: 60, rotateWithZoom: true)
        #expect(together.frameCount == 13 && abs(together.frame(6).view.rotation - 45) < 1e-9)
    }

    /// Defect 3: the dismiss runs forward in time, from fullscreen back to the rect, the
    /// easing as given (ease-out stays ease-out), turning back before zooming out.
    @Test func reverseIsItsOwnForwardTimeAnimation() {
        let r = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: nil, easing: .easeOut, fps: 60, reverse: true)
        #expect(r.frameCount == 13)
        #expect(r.frame(0).time == 0 && r.frame(12).time == 0.2)
        for k in 1..<13 { #expect(r.frame(k).time > r.frame(k - 1).time) }
        #expect(r.frame(0).view.rect == Rect(x: 0, y: 0, width: 390, height: 844) && r.frame(0).presented == 1)
        #expect(r.frame(12).view.rect == Self.from && r.frame(12).presented == 0)
        // At 0.1 s an ease-out has done 68% of the way (an ease-in would be at 32%).
        let half = r.frame(6)
        #expect(abs(half.progress - ReferenceCurve.easeOut(0.5)) < 1e-9 && abs(half.progress - 0.6847) < 0.0005)
        #expect(abs(half.view.width - (390 + (120 - 390) * ReferenceCurve.easeOut(0.5))) < 1e-9)
        // In landscape it turns back first, then zooms out.
        let l = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: nil, orientation: .landscapeLeft, fps: 60,
            reverse: true)
        #expect(l.frameCount == 28)
        #expect(l.frame(0).view.rotation == 90 && l.frame(0).phase == "turn")
        #expect(l.frame(15).view.rotation == 0 && l.frame(15).view.rect == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(l.frame(16).phase == "zoom" && l.frame(27).view.rect == Self.from)
    }

    @Test func firstFrameIsFromAndLastIsTo() {
        let to = Rect(x: 0, y: 200, width: 390, height: 292.5)
        let a = ZoomAnimation(
            image: Self.image, screen: Self.screen, from: Self.from, to: to, zoomDuration: 0.3, fps: 60)
        #expect(a.frameCount == 19)
        #expect(a.frame(0).view.rect == Self.from)
        #expect(a.frame(18).view.rect == to)
        #expect(a.frame(0).time == 0 && a.frame(18).time == 0.3)
        // Aspect-fill: the 4:3 image fills the 120x90 rect exactly at scale 0.03.
        #expect(abs(a.frame(0).scale - 0.03) < 1e-12)
        let tl = a.frame(0).transform.apply(x: 0, y: 0)
        #expect(abs(tl.x - 20) < 1e-9 && abs(tl.y - 100) < 1e-9)
    }

    @Test func frameCountIsSplitBetweenThePhases() {
        let t = TransitionTimeline(
            phases: [
                .init(name: "zoom", duration: 0.2, easing: .linear),
                .init(name: "turn", duration: 0.25, easing: .linear),
            ], frameCount: 10)
        #expect(t.frameCount == 10 && t.intervals == [4, 5])
        #expect(t.sample(4).time == 0.2 && t.sample(4).fraction == 1 && t.sample(4).phase == 0)
        #expect(t.sample(9).time == 0.45 && t.sample(5).phase == 1)
        #expect(abs(t.sample(5).time - 0.25) < 1e-12)
    }

    /// Defect 7: pins in the seed's units. A map loaded at zoom scale 0.25 and clamped to
    /// 0.25...1 keeps its pins' size up to 4x, then they grow with the content.
    @Test func pinScaleRangeInTheSeedsUnits() {
        let seed = PinScaleRange(minimum: 0.25, maximum: 1, initialZoom: 0.25)
        #expect(seed.pinSize(atZoom: seed.zoom(scale: 1, firstScale: 1)) == 1)
        #expect(seed.pinSize(atZoom: seed.zoom(scale: 4, firstScale: 1)) == 1)
        #expect(seed.pinSize(atZoom: seed.zoom(scale: 8, firstScale: 1)) == 2)
        #expect(seed.pinSize(atZoom: seed.zoom(scale: 0.5, firstScale: 1)) == 0.5)  // below MIN they shrink
        // Copying the numbers without the initial zoom: pins grow from the start.
        let naive = PinScaleRange(minimum: 0.25, maximum: 1)
        #expect(naive.pinSize(atZoom: naive.zoom(scale: 4, firstScale: 1)) == 4)
        // Forward and dismiss size pins alike: the reference is the frame at the rect.
        let f = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: nil, fps: 60)
        let r = ZoomAnimation(image: Self.image, screen: Self.screen, from: Self.from, to: nil, fps: 60, reverse: true)
        let range = PinScaleRange(minimum: 1, maximum: 4)
        let fs = range.pinSizes(f.frames)
        let rs = range.pinSizes(r.frames)
        #expect(fs.first == 1 && rs.last == 1)
        #expect(abs(fs.last! - rs.first!) < 1e-12 && fs.last! > 1)
    }
}
