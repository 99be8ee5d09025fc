import Testing

@testable import FZGainMap

/// `--hdr-headroom`'s values: stops or a ratio, the map's maximum by default, and one usage
/// line (exit 2) saying why for everything else.
@Suite("HDR headroom")
struct HDRHeadroomTests {
    @Test(arguments: [("2.5", 2.5), ("0", 0), ("4x", 2), ("4X", 2), (" 1x ", 0), ("32", 32), (".5", 0.5)])
    func parses(text: String, stops: Double) throws {
        #expect(try HDRHeadroom(parsing: text) == .stops(stops))
    }

    @Test(arguments: ["x4", "-1", "0.5x", "abc", "", "33", "nan", "inf", "1e2", "2.5 stops", "x"])
    func refuses(text: String) {
        do {
            _ = try HDRHeadroom(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.exitCode == 2)
            // ArgumentParser names the option and the value before it (`ParsingTests`).
            #expect(!error.description.contains("--hdr-headroom"))
            #expect(error.description.hasSuffix("give stops above SDR white (2.5) or a ratio to it (4x)"))
        }
    }

    @Test func theDefaultIsTheMapsCapacity() {
        var p = GainMapParameters(scheme: .apple, version: "1.0")
        p.setAppleHeadroom(8)
        #expect(HDRHeadroom.mapMaximum.stops(for: p) == 3)
        #expect(p.weight(displayStops: HDRHeadroom.mapMaximum.stops(for: p)) == 1)
        #expect(HDRHeadroom.stops(1.5).stops(for: p) == 1.5)
    }

    /// The help paragraph does not end on a single word at 80 or 100 columns (the rule
    /// HelpWrappingTests applies to every option's help), wrapped after its option name.
    @Test func helpWrapsWithoutAWidow() {
        for width in [80, 100] {
            var lines: [String] = [""]
            for word in HDRHeadroom.help.split(separator: " ") {
                // ArgumentParser indents help 2 columns for the name and starts text at column 26.
                if lines[lines.count - 1].count + word.count + 1 > width - 26 { lines.append("") }
                lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
            }
            #expect(lines.count == 1 || lines.last!.split(separator: " ").count > 1, "\(width): \(lines)")
        }
    }
}
