import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZGainMap
@testable import FZRender

/// `GainMapRendition` against a NumPy transcription of the published formulas
/// (`GainMapReference`), within one 16-bit level, on small images whose map is smaller than the
/// base by a ratio that is not whole (centre alignment shows): sRGB and Display P3 bases, gray
/// and 3-channel maps, hdrgm with offsets and gamma, Apple's scheme, weights 0, partial and 1,
/// gray bases, alpha kept.
@Suite("Gain map HDR rendition")
struct GainMapRenditionTests {
    static let ready = CLI.shell("\(CLI.python) -c 'import numpy' 2>/dev/null") == 0

    /// One rendition to check: the base's format and profile, the map's, the values, the stops.
    struct Case {
        var name: String
        var base: PixelFormat
        var profile = "srgb"
        var mapChannels = 1
        var mapSize = PixelSize(width: 5, height: 4)
        var parameters: GainMapParameters
        var stops: Double
        var sdr = false
    }

    static let size = PixelSize(width: 13, height: 9)

    /// Deterministic samples covering 0 and 255 (a small LCG; no randomness between runs).
    static func pixels(_ count: Int, seed: UInt32) -> [UInt8] {
        var s = seed
        return (0..<count).map { i in
            s = s &* 1_664_525 &+ 1_013_904_223
            return i % 17 == 0 ? 255 : i % 19 == 0 ? 0 : UInt8(truncatingIfNeeded: s >> 24)
        }
    }

    static func hdrgm(
        min: [Double], max: [Double], gamma: [Double] = [1], offsets: ([Double], [Double]) = ([1.0 / 64], [1.0 / 64]),
        capacity: (Double, Double)
    ) -> GainMapParameters {
        var p = GainMapParameters(scheme: .hdrgm, version: "1.0")
        (p.gainMapMin, p.gainMapMax, p.gamma) = (min, max, gamma)
        (p.offsetSDR, p.offsetHDR) = offsets
        (p.hdrCapacityMin, p.hdrCapacityMax) = capacity
        return p
    }

    static func apple(_ headroom: Double) -> GainMapParameters {
        var p = GainMapParameters(scheme: .apple, version: "1.0")
        p.setAppleHeadroom(headroom)
        return p
    }

    static var cases: [Case] {
        let plain = hdrgm(min: [-0.5], max: [2.5], gamma: [2.2], capacity: (0.5, 3))
        let coloured = hdrgm(
            min: [0.25, -0.5, 0], max: [2.5, 1.75, 3], gamma: [1, 2, 0.5],
            offsets: ([0.01, 0.02, 0], [0.03, 0, 0.015]),
            capacity: (0, 3))
        return [
            Case(name: "srgb-gray-partial", base: .rgb, parameters: plain, stops: 2),
            Case(name: "srgb-rgb-full-alpha", base: .rgba, mapChannels: 3, parameters: coloured, stops: 3.5),
            Case(name: "srgb-weight0", base: .rgb, parameters: plain, stops: 0.25, sdr: true),
            Case(name: "srgb-same-size", base: .rgb, mapSize: size, parameters: plain, stops: 3),
            Case(name: "p3-gray-partial", base: .rgb, profile: "p3", parameters: plain, stops: 1.5),
            Case(name: "p3-rgb-full", base: .rgb, profile: "p3", mapChannels: 3, parameters: coloured, stops: 4),
            Case(name: "p3-weight0", base: .rgba, profile: "p3", parameters: plain, stops: 0, sdr: true),
            Case(name: "apple-partial", base: .rgb, profile: "p3", parameters: apple(3.48), stops: 1),
            Case(
                name: "iphone-p3-rgb", base: .rgb, profile: "apple-p3", mapChannels: 3, parameters: coloured, stops: 2),
            Case(name: "apple-full", base: .rgb, parameters: apple(4.53), stops: 5),
            Case(name: "gray-gray", base: .gray, profile: "gray", parameters: plain, stops: 2),
            Case(name: "gray-alpha-weight0", base: .grayAlpha, profile: "gray", parameters: plain, stops: 0, sdr: true),
            Case(name: "gray-rgb-map", base: .gray, profile: "gray", mapChannels: 3, parameters: coloured, stops: 2),
        ]
    }

    /// A Display P3 profile: lcms2's matrix/TRC profile of P3's primaries, D65 and sRGB's
    /// curve, stored as an ICC file (colorants rounded to s15.16 as in Apple's own).
    static let displayP3: [UInt8] = {
        let chrm = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]
        guard case .success(let icc) = ColorTransform.profile(gamma: nil, chromaticities: chrm, gray: false) else {
            return []
        }
        return icc
    }()

    /// Apple's own Display P3 profile, from the Apple gain-map JPEG in ../shared (if there);
    /// else the generated one.
    static let appleDisplayP3: [UInt8] = {
        let sample = FileSystem.join(CLI.root, "../shared/formats/hdr/libavif_apple_gainmap_new.jpg")
        return (try? ImageReader(path: sample).header.color.icc).flatMap { $0 } ?? displayP3
    }()

    static func json(_ c: Case, out: Image16) -> String {
        let p = c.parameters
        func list(_ v: [Double]) -> String { "[" + v.map { "\($0)" }.joined(separator: ",") + "]" }
        return """
            {"name":"\(c.name)","width":\(size.width),"height":\(size.height),"baseChannels":\(c.base.channels),\
            "mapWidth":\(c.mapSize.width),"mapHeight":\(c.mapSize.height),"mapChannels":\(c.mapChannels),\
            "outChannels":\(out.format.channels),"profile":"\(c.profile)","scheme":"\(p.scheme.rawValue)",\
            "min":\(list(p.gainMapMin)),"max":\(list(p.gainMapMax)),"gamma":\(list(p.gamma)),\
            "offsetSDR":\(list(p.offsetSDR)),"offsetHDR":\(list(p.offsetHDR)),"capMin":\(p.hdrCapacityMin),\
            "capMax":\(p.hdrCapacityMax),"baseIsHDR":\(p.baseRenditionIsHDR),"appleHeadroom":\(p.appleHeadroom ?? 1),\
            "stops":\(c.stops),"sdr":\(c.sdr)}
            """
    }

    @Test(.enabled(if: ready)) func matchesTheNumPyTranscription() throws {
        let dir = CLI.scratch()
        for (k, c) in Self.cases.enumerated() {
            let base = Image(
                width: Self.size.width, height: Self.size.height, format: c.base,
                pixels: Self.pixels(Self.size.width * Self.size.height * c.base.channels, seed: UInt32(k + 1)))
            let map = Image(
                width: c.mapSize.width, height: c.mapSize.height, format: c.mapChannels == 1 ? .gray : .rgb,
                pixels: Self.pixels(c.mapSize.width * c.mapSize.height * c.mapChannels, seed: UInt32(100 + k)))
            var color = ColorDescription()
            if let icc = c.profile == "p3" ? Self.displayP3 : c.profile == "apple-p3" ? Self.appleDisplayP3 : nil {
                color.icc = icc
                color.hasICC = true
                CLI.write(FileSystem.join(dir, "\(c.name).icc"), icc)
            }
            let out = try GainMapRendition.render(
                base, color: color, map: map, parameters: c.parameters, headroom: .stops(c.stops), budget: Budget(),
                path: c.name, threads: k % 2 == 0 ? 1 : 3)
            #expect(out.size == base.size)
            #expect(out.format.hasAlpha == base.format.hasAlpha)
            #expect(out.format.isGray == (base.format.isGray && c.mapChannels == 1))
            CLI.write(FileSystem.join(dir, "\(c.name).base"), base.pixels)
            CLI.write(FileSystem.join(dir, "\(c.name).map"), map.pixels)
            CLI.write(FileSystem.join(dir, "\(c.name).out"), out.bytes)
            CLI.write(FileSystem.join(dir, "\(c.name).json"), Array(Self.json(c, out: out).utf8))
        }
        let printed = RenditionPython.run(GainMapReference.script, in: dir)
        var seen: [String: Int] = [:]
        for line in printed.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let d = Int(parts[1]) { seen[String(parts[0])] = d }
        }
        for c in Self.cases {
            #expect(seen[c.name] != nil, "no result for \(c.name): \(printed)")
            #expect((seen[c.name] ?? 99) <= 1, "\(c.name) differs by \(seen[c.name] ?? -1) levels")
            if c.sdr { #expect((seen[c.name + "-sdr"] ?? 99) <= 1, "\(c.name) is not the SDR image in PQ") }
        }
    }

    /// The gain raises what it should: at full weight a white base under the map's top
    /// sample is brighter than SDR white (PQ of 203 cd/m2) and at weight 0 it is exactly it.
    @Test func fullGainIsBrighterThanSDRWhite() throws {
        let base = Image(width: 4, height: 2, format: .rgb, fill: .white)
        let map = Image(width: 2, height: 1, format: .gray, pixels: [255, 255])
        let p = Self.hdrgm(min: [0], max: [2], offsets: ([0], [0]), capacity: (0, 2))
        let white = UInt16((GainMapRendition.pq(1) * 65535).rounded())
        let four = UInt16((GainMapRendition.pq(4) * 65535).rounded())
        for (stops, expected) in [(0.0, white), (2.0, four)] {
            let out = try GainMapRendition.render(
                base, color: ColorDescription(), map: map, parameters: p, headroom: .stops(stops), budget: Budget(),
                path: "white")
            for k in stride(from: 0, to: out.bytes.count, by: 2) {
                let v = UInt16(out.bytes[k]) << 8 | UInt16(out.bytes[k + 1])
                #expect(abs(Int(v) - Int(expected)) <= 1)
            }
        }
        #expect(white > 0x8000 && four > white)  // 203 cd/m2 is PQ 0.58; 812 cd/m2 is above it
    }

    @Test func overTheBudgetIsRefusedBeforeAllocating() {
        let base = Image(width: 8, height: 8, format: .rgb, fill: .white)
        let map = Image(width: 2, height: 2, format: .gray, fill: .white)
        #expect(throws: GainMapRenditionError.self) {
            try GainMapRendition.render(
                base, color: ColorDescription(), map: map, parameters: Self.apple(2), headroom: .mapMaximum,
                budget: Budget(maxPixels: 32), path: "big")
        }
    }

    @Test func emptyImagesAndMaps() throws {
        let none = try GainMapRendition.render(
            Image(width: 0, height: 3, format: .rgba, fill: .white), color: ColorDescription(),
            map: Image(width: 1, height: 1, format: .gray, fill: .white), parameters: Self.apple(2),
            headroom: .mapMaximum, budget: Budget(), path: "empty")
        #expect(none.bytes.isEmpty && none.format == .rgba)
        #expect(throws: GainMapRenditionError.emptyMap(path: "no-map.jpg")) {
            try GainMapRendition.render(
                Image(width: 2, height: 2, format: .rgb, fill: .white), color: ColorDescription(),
                map: Image(width: 0, height: 0, format: .gray, fill: .white), parameters: Self.apple(2),
                headroom: .mapMaximum, budget: Budget(), path: "no-map.jpg")
        }
    }

    @Test func aCMYKProfileOnRGBPixelsIsOneColourError() {
        var color = ColorDescription()
        color.hasICC = true
        color.icc = Array(repeating: 0, count: 10)
        #expect(throws: GainMapRenditionError.self) {
            try GainMapRendition.render(
                Image(width: 2, height: 2, format: .rgb, fill: .white), color: color,
                map: Image(width: 1, height: 1, format: .gray, fill: .white), parameters: Self.apple(2),
                headroom: .mapMaximum, budget: Budget(), path: "bad.jpg")
        }
    }
}

/// Runs a Python script (Debian's python3) in `dir` and returns what it printed.
enum RenditionPython {
    static func run(_ script: String, in dir: String) -> String {
        let file = FileSystem.join(dir, "reference.py")
        let out = file + ".out"
        CLI.write(file, Array(script.utf8))
        _ = CLI.shell("cd \(CLI.quote(dir)) && \(CLI.python) \(CLI.quote(file)) > \(CLI.quote(out)) 2>&1")
        return CLI.read(out)
    }
}
