import ArgumentParser
import Testing

@testable import FZThumbnails
@testable import ForceZoomCLI
@testable import Geometry

/// The command line parsed in process, as swift-argument-parser's own tests do: options
/// arrive typed, validate() refuses what no image can make, and the messages say why. No
/// process is started and no file is read (validation runs before any input is opened).
@Suite("Parsing in process")
struct ParsingTests {
    /// The parse error's message, or nil when the arguments parse.
    static func failure<C: ParsableCommand>(_ type: C.Type, _ arguments: [String]) -> String? {
        do {
            _ = try type.parse(arguments)
            return nil
        } catch {
            return type.message(for: error)
        }
    }

    @Test func optionsArriveTyped() throws {
        let fit = try Fit.parse([
            "a.png", "--screen", "iphone-15", "--orientation", "landscape-left", "--mode", "fill", "--filter",
            "bicubic", "-o", "x.png", "--json",
        ])
        #expect(fit.orientation == .fixed(.landscapeLeft))
        #expect(fit.mode == .fill)
        #expect(fit.kernel.filter == .bicubic)
        #expect(fit.outputOptions.output == "x.png" && fit.outputOptions.json)
        #expect(fit.screenPixels == PixelSize(width: 1179, height: 2556))

        let animate = try Animate.parse([
            "a.png", "--screen", "390x844", "--from", "20,100,120,90", "--to", "fullscreen", "--easing", "ease-out",
            "--orientation", "auto", "-o", "f%03d.png",
        ])
        #expect(animate.from?.rect == Rect(x: 20, y: 100, width: 120, height: 90))
        #expect(animate.to == .fullscreen && animate.to?.rect == nil)
        #expect(animate.easing == .easeOut && animate.orientation == .auto)

        let thumb = try Thumb.parse(["a.png", "--size", "256x192!", "--name", "%s.jpg"])
        #expect(thumb.size == ThumbnailSize(width: 256, height: 192, mode: .exact))
        #expect(thumb.outputName.description == "%s.jpg")

        let transform = try Transform.parse([
            "a.png", "--scale", "2,3", "--matrix", "1,0,0,1,5,6", "--filter", "nearest",
        ])
        #expect(transform.scale.map(\.values) == [[2, 3]] && transform.matrix.first?.values == [1, 0, 0, 1, 5, 6])
        #expect(transform.kernel.filter == .nearest)

        let fixture = try Fixture.parse([
            "gradient", "--size", "64x16", "--direction", "radial", "--format", "webp", "-o", "g",
        ])
        #expect(fixture.pattern == .gradient && fixture.direction == .radial && fixture.format == .webp)
    }

    @Test func theRootFindsTheSubcommand() throws {
        let command = try ForceZoom.parseAsRoot(["crop", "a.png", "--at", "50%,50%", "--size", "128"])
        let crop = try #require(command as? Crop)
        #expect(crop.side == 128 && crop.at.first?.description == "50%,50%")
    }

    /// Names outside a closed set are refused by the parser, which lists the choices.
    @Test func closedSetsListTheirChoices() {
        #expect(
            Self.failure(Fit.self, ["a.png", "--screen", "9x9", "--mode", "stretch"])?.contains("'fit' and 'fill'")
                == true)
        #expect(
            Self.failure(Fit.self, ["a.png", "--screen", "9x9", "--orientation", "sideways"])?.contains(
                "landscape-left") == true)
        #expect(
            Self.failure(Animate.self, ["a.png", "--screen", "9x9", "--from", "1,1,2,2", "--easing", "bounce"])?
                .contains("ease-in-out") == true)
        #expect(Self.failure(Fixture.self, ["spiral", "--size", "9x9", "-o", "x.png"])?.contains("zoneplate") == true)
        #expect(
            Self.failure(Transform.self, ["a.png", "--filter", "box"])?.contains(
                "nearest, bilinear, bicubic or lanczos") == true)
    }

    /// Values that parse but can never make sense are refused by validate(), with the option
    /// and the reason; values at the edge of the ranges are accepted.
    @Test(arguments: [
        (["crop", "a.png", "--at", "1,1", "--zoom", "1e-7"], "--zoom must be 0.015625 to 1024"),
        (["crop", "a.png", "--at", "1,1", "--size", "46341"], "over --max-pixels 268435456"),
        (["crop", "a.png", "--at", "101%,5%"], "outside 0%...100%"),
        (["crop", "a.png", "--at", "1,1", "--at", "2,2", "-o", "p.png"], "needs %d"),
        (["crop", "a.png", "--at", "1,1", "-o", "p%5s.png"], "%5s is not a code"),
        (["fit", "a.png", "--screen", "2147483648x1"], "each side must be 1 to 1048576"),
        (["fit", "a.png", "--screen", "100x100", "-o", "-", "--json"], "--json cannot share it"),
        (["fit", "a.png", "--screen", "100x100", "-o", ""], "-o is empty"),
        (["transform", "a.png", "--rotate", "nan"], "--rotate must be a finite number"),
        (["transform", "a.png", "--scale", "1e20"], "--scale factors"),
        (["transform", "a.png", "--canvas", "20000x20000"], "--canvas 20000x20000 would be"),
        (["animate", "a.png", "--screen", "390x844", "--from", "1,2,3"], "four numbers"),
        (
            [
                "animate", "a.png", "--screen", "390x844", "--from", "1,2,3,4", "--apng", "x.png", "--contact-sheet",
                "x.png",
            ], "both write 'x.png'"
        ),
        (
            ["animate", "a.png", "--screen", "390x844", "--from", "1,2,3,4", "--frames", "10000", "--apng", "x.png"],
            "all 10001 frames"
        ),
        (["thumb", "a.png", "--size", "12q"], "not a whole number"),
        (["thumb", "a.png", "--size", "20000x20000!"], "the thumbnail (--size 20000x20000!)"),
        (
            ["fixture", "coords", "--size", "10x10", "--depth", "3", "--color", "gray", "-o", "x.png"],
            "--depth 3 is not a PNG bit depth"
        ),
        (["fixture", "checker", "--size", "10x10", "--step=-1", "-o", "x.png"], "--step must be 1 to 1048576"),
    ])
    func validationNamesTheOption(_ arguments: [String], _ says: String) {
        let message: String?
        do {
            _ = try ForceZoom.parseAsRoot(arguments)
            message = nil
        } catch {
            message = ForceZoom.message(for: error)
        }
        #expect(message?.contains(says) == true, "\(arguments): \(message ?? "parsed")")
    }

    @Test func edgesOfTheRangesParse() throws {
        _ = try Crop.parse(["a.png", "--at", "100%,0%", "--zoom", "1024", "--size", "16384"])
        _ = try Crop.parse(["a.png", "--at", "0,0", "--zoom", "0.015625", "--size", "64"])
        _ = try Transform.parse(["a.png", "--rotate=-1000000", "--scale", "0.000001", "--translate=1e9,-1e9"])
        _ = try Fit.parse(["a.png", "--screen", "16384x16384"])
        _ = try Animate.parse(["a.png", "--screen", "39x84", "--from=-1048576,0,1048576,1", "-o", "f%9d.png"])
        _ = try Crop.parse(["a.png", "--at", "1,1", "--size", "46341", "--max-pixels", "0", "--max-memory", "0"])
    }
}
