import FZImage
import FZRender
import FZSystem
import Geometry
import Testing

@testable import FZTerminal

/// `peek`'s region keys in process: r / Tab and R / Shift-Tab parsed, the point put on each
/// stop's centre in turn (wrapping both ways), the status line naming it, the view outlining
/// it, and a hostile name shown without its escapes. Adds well under a second.
struct PeekRegionTests {
    static func screen() -> PeekScreen {
        var image = Image(width: 300, height: 200, format: .rgb)
        for i in 0..<image.pixels.count { image.pixels[i] = UInt8(i % 7 * 10) }
        var screen = PeekScreen(image: image, columns: 80, rows: 24, cell: PixelSize(width: 1, height: 2))
        screen.stops = [
            PeekStop(label: "Marie Curie", rect: Rect(x: 30, y: 40, width: 60, height: 50)),
            PeekStop(label: "face 2", rect: Rect(x: 200, y: 100, width: 40, height: 80)),
        ]
        return screen
    }

    @Test func regionKeys() {
        #expect(
            PeekKeys.parse(Array("rR\t\u{1B}[Z".utf8)) == [.nextRegion, .previousRegion, .nextRegion, .previousRegion])
        // Shift-Tab is no arrow and no quit; the arrows still parse after it.
        #expect(PeekKeys.parse(Array("\u{1B}[Z\u{1B}[Cq".utf8)) == [.previousRegion, .move(dx: 1, dy: 0), .quit])
    }

    @Test func jumpsCycleThroughTheStops() {
        var screen = Self.screen()
        #expect(screen.currentStop == nil && screen.stopStatus == nil)
        let jumped = screen.apply(.nextRegion)
        #expect(jumped)
        // The centre as crop --at region: takes it: (30 + 60/2, 40 + 50/2).
        #expect(screen.point == PixelPoint(x: 60, y: 65))
        #expect(screen.stopStatus == "region 1/2 Marie Curie")
        #expect(PeekSession.status(screen, note: "").contains("region 1/2 Marie Curie"))
        #expect(PeekSession.status(screen, note: "").contains("r/R regions"))
        let again = screen.apply(.nextRegion)
        #expect(again)
        #expect(screen.point == PixelPoint(x: 220, y: 140) && screen.stopStatus == "region 2/2 face 2")
        _ = screen.apply(.nextRegion)
        #expect(screen.currentStop == 0)
        _ = screen.apply(.previousRegion)
        #expect(screen.currentStop == 1)
        // A move leaves the region: the status line no longer names it; r goes on from it.
        _ = screen.apply(.move(dx: 1, dy: 0))
        #expect(screen.currentStop == nil && !PeekSession.status(screen, note: "").contains("region 2/2"))
        _ = screen.apply(.nextRegion)
        #expect(screen.currentStop == 0)
        // The peek is crop's at that point.
        #expect(screen.peek() == screen.image.cropped(to: screen.geometry.coveredRect))
    }

    @Test func backwardsFirstGoesToTheLast() {
        var screen = Self.screen()
        _ = screen.apply(.previousRegion)
        #expect(screen.currentStop == 1)
        var none = PeekScreen(image: screen.image, columns: 80, rows: 24, cell: PixelSize(width: 1, height: 2))
        let moved = none.apply(.nextRegion)
        #expect(!moved && none.point == PixelPoint(x: 150, y: 100))
    }

    /// The view outlines the stop it is on: the stroke's colour on the rectangle's edges in
    /// the fitted view, and not before the jump.
    @Test func theViewOutlinesTheCurrentStop() {
        var screen = Self.screen()
        func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
            let i = (y * image.width + x) * image.format.channels
            return Array(image.pixels[i..<(i + 3)])
        }
        let yellow = [RegionOutline.color.r, RegionOutline.color.g, RegionOutline.color.b]
        let box = RegionOutline.box(
            screen.stops[0].rect,
            transform: .scale(screen.fit.scale, screen.fit.scale).then(
                .translation(screen.fit.offsetX, screen.fit.offsetY)))
        let bottomMiddle = (box.x + box.width / 2, box.maxY - 1)
        #expect(pixel(screen.view(), bottomMiddle.0, bottomMiddle.1) != yellow)
        _ = screen.apply(.nextRegion)
        let view = screen.view()
        #expect(pixel(view, bottomMiddle.0, bottomMiddle.1) == yellow)
        #expect(pixel(view, box.x, box.y + box.height / 2) == yellow)
        #expect(pixel(view, box.maxX - 1, box.y + box.height / 2) == yellow)
        #expect(pixel(view, box.x + box.width / 2, box.maxY) != yellow)
    }

    /// Names from Tools/hostile/hostile_regions.py: escapes go whole, controls and bidi
    /// overrides go, tabs and line breaks become spaces.
    @Test func hostileNamesArePrintable() {
        let stop = PeekStop(label: "esc\u{1B}]0;owned\u{07}title", rect: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(stop.label == "esctitle")
        #expect(Echo.printable("\u{1B}[2J\u{1B}[31mred") == "red")
        #expect(Echo.printable("bidi\u{202E}evil") == "bidievil")
        #expect(Echo.printable("tab\tand\nnewline") == "tab and newline")
        #expect(Echo.printable("x\u{9B}31my\u{1B}Pdcs\u{1B}\\z\u{1B}") == "xyz")
        #expect(PeekStop(label: String(repeating: "a", count: 500), rect: stop.rect).label.count == PeekStop.maxLabel)
        var screen = Self.screen()
        screen.stops = [stop]
        _ = screen.apply(.nextRegion)
        let status = PeekSession.status(screen, note: "")
        #expect(!status.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
