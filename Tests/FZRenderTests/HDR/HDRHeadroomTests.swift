import Testing

@testable import FZCodecs
@testable import FZRender

/// `--hdr-headroom`'s values: stops or a ratio, the map's maximum by default, and one usage
/// line (exit 2) naming the option for everything else.
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
            #expect(error.description.hasPrefix("--hdr-headroom \(text): "))
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

/// The PQ table against `GainMapRendition.pq` itself on values spread over its whole range
/// (segment ends, midpoints, every octave, below and above it): within 0.1 of a 16-bit level.
@Suite("PQ table")
struct PQTableTests {
    @Test func followsTheCurve() {
        var worst = 0.0
        var x = 1e-9
        while x < 100 {
            for y in [x, x * 1.001_953_125, x * 1.37] {
                let f = Float(y)
                worst = max(worst, abs(PQTable.shared(f) - GainMapRendition.pq(Double(f))))
            }
            x *= 1.013
        }
        #expect(worst * 65535 < 0.1, "worst \(worst * 65535) levels")
        #expect(PQTable.shared(0) == GainMapRendition.pq(0))
        #expect(PQTable.shared(64) == 1 && PQTable.shared(1000) == 1)
        #expect(abs(GainMapRendition.pq(10000 / 203) - 1) < 1e-12)  // 10,000 cd/m² is PQ's top
    }
}
