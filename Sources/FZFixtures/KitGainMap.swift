import FZFormat
import FZGainMap
import FZJPEG
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// A gain map of the kit's `hdr` set (issue 39): a known gradient of gain under the coordinate
/// pattern, so a carried map (cropped, fitted, turned) can be checked pixel by pixel. Channel 0
/// rises from 0 to 255 left to right, channel 1 (3-channel maps) top to bottom, channel 2
/// falls left to right; with gamma 1 a value v gives log2 gain min + (max - min) v / 255.
public struct KitGainMap: Sendable {
    public var size: PixelSize
    public var channels: Int
    public var parameters: GainMapParameters
    /// How far a decoder's value may be from `value` (a quality-100 4:4:4 JPEG), in levels:
    /// a 3-channel map goes through YCbCr and back (3 levels measured through Pillow).
    public var levels: Int { channels == 1 ? 2 : 4 }

    /// The stored 8-bit value of channel `c` at map pixel (x, y).
    public func value(_ c: Int, x: Int, y: Int) -> UInt8 {
        func ramp(_ v: Int, _ n: Int) -> UInt8 { n <= 1 ? 0 : UInt8((255 * v + (n - 1) / 2) / (n - 1)) }
        switch c {
        case 0: return ramp(x, size.width)
        case 1: return ramp(y, size.height)
        default: return 255 - ramp(x, size.width)
        }
    }

    /// The log2 gain channel `c` applies at full headroom for stored value `v` (hdrgm: the
    /// value, normalised and raised to 1/gamma, between GainMapMin and GainMapMax).
    public func stops(_ c: Int, _ v: UInt8) -> Double {
        let p = parameters
        func at(_ a: [Double]) -> Double { a.count == 1 ? a[0] : a[c] }
        let recovery = pow(Double(v) / 255, 1 / at(p.gamma))
        return at(p.gainMapMin) * (1 - recovery) + at(p.gainMapMax) * recovery
    }

    /// The map as a quality-100 4:4:4 JPEG (gray for one channel).
    func jpeg(path: String) throws(OutputError) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: size.width * size.height * channels)
        var i = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                for c in 0..<channels {
                    rows[i] = value(c, x: x, y: y)
                    i += 1
                }
            }
        }
        var o = JPEGImageEncoder.FixtureOptions()
        o.quality = 100
        return try JPEGImageEncoder.fixtureBytes(rows: rows, size: size, channels: channels, options: o, path: path)
    }

    /// The manifest's object: the map's size and values and, at its corners and centre, the
    /// stored value and the gain in stops an HDR renderer applies there at full headroom, with
    /// the image point (pixel centres, x right, y down) the map pixel's centre falls on.
    func json(image: PixelSize) -> JSON {
        let p = parameters
        let numbers = { (v: [Double]) -> JSON in .array(v.map { .number($0) }) }
        let (w, h) = (size.width, size.height)
        let points = [(0, 0), (w - 1, 0), (w / 2, h / 2), (0, h - 1), (w - 1, h - 1)]
        let samples = points.map { (x, y) -> JSON in
            let values = (0..<channels).map { value($0, x: x, y: y) }
            return .object([
                ("mapX", .int(x)), ("mapY", .int(y)),
                ("x", .number((Double(x) + 0.5) * Double(image.width) / Double(w) - 0.5)),
                ("y", .number((Double(y) + 0.5) * Double(image.height) / Double(h) - 0.5)),
                ("value", .array(values.map { .int(Int($0)) })),
                ("stops", numbers(values.indices.map { stops($0, values[$0]) })),
            ])
        }
        return .object([
            ("width", .int(w)), ("height", .int(h)), ("channels", .int(channels)),
            ("gainMapMin", numbers(p.gainMapMin)), ("gainMapMax", numbers(p.gainMapMax)), ("gamma", numbers(p.gamma)),
            ("offsetSDR", numbers(p.offsetSDR)), ("offsetHDR", numbers(p.offsetHDR)),
            ("hdrCapacityMin", .number(p.hdrCapacityMin)), ("hdrCapacityMax", .number(p.hdrCapacityMax)),
            ("levels", .int(levels)), ("samples", .array(samples)),
        ])
    }

    /// Writes `pattern` (upright, no tags) as a JPEG with this map after it, as Ultra HDR.
    func writeUltraHDR(_ pattern: Pattern, encoding e: FixtureEncoding, into out: OutputFile) throws {
        let image = FixtureWriter.eightBit(stored: pattern.size, alpha: false) { pattern.sample(x: $0, y: $1) }
        var o = JPEGImageEncoder.FixtureOptions()
        o.quality = e.quality
        o.subsampling = e.subsampling
        let primary = try JPEGImageEncoder.fixtureBytes(
            rows: Array(image.pixels), size: pattern.size, channels: 3, options: o, path: out.path)
        let file = try UltraHDRContainer.assemble(
            primary: primary, gainMap: jpeg(path: out.path), parameters: parameters)
        do {
            try ImageWriter.writeBytes(file, into: out)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
    }
}

extension KitPlan {
    /// Ultra HDR JPEGs: the coordinate pattern (4:2:0, as phones write) with a gray map at 1/4
    /// (lossless crops then start on 32 pixels), a 3-channel map at 1/2, and a gray map at 3/8,
    /// which no lossless crop can keep (the grids never meet) and every carrier must resample.
    package static func hdr() -> [KitEntry] {
        let plane = Pattern(.coords, size: PixelSize(width: 256, height: 192))
        let reference = KitReference(path: "reference/hdr-coords.png", pattern: plane)
        var e = encoding("jpg", quality: 95)
        e.subsampling = 420
        let shows =
            "the SDR image is the coordinate pattern; an HDR renderer at full headroom multiplies each linear pixel "
            + "plus offsetSDR by 2^stops and subtracts offsetHDR, stops as the manifest's gainMap samples give them"
        let maps = [
            (
                "hdr/ultrahdr-gray-quarter.jpg", PixelSize(width: 64, height: 48), 1,
                GainMapParameters.hdrgm(
                    min: [0], max: [2], gamma: [1], offsetSDR: 1.0 / 64, offsetHDR: 1.0 / 64, capacityMax: 2),
                "a gray gain map at 1/4 scale (64x48) rising from 0 to 2 stops left to right"
            ),
            (
                "hdr/ultrahdr-rgb-half.jpg", PixelSize(width: 128, height: 96), 3,
                .hdrgm(
                    min: [0, -0.5, 0], max: [2, 1.5, 3], gamma: [1, 1, 1], offsetSDR: 1.0 / 64, offsetHDR: 1.0 / 64,
                    capacityMax: 3),
                "a 3-channel gain map at 1/2 scale (128x96): red's gain rises 0 to 2 stops left to right, "
                    + "green's -0.5 to 1.5 top to bottom, blue's falls 3 to 0 left to right"
            ),
            (
                "hdr/ultrahdr-gray-three-eighths.jpg", PixelSize(width: 96, height: 72), 1,
                .hdrgm(min: [0], max: [1], gamma: [1], offsetSDR: 1.0 / 64, offsetHDR: 1.0 / 64, capacityMax: 1),
                "a gray gain map at 3/8 scale (96x72) rising from 0 to 1 stop left to right, which no lossless "
                    + "crop can keep (its blocks never meet the image's) and every carrier must resample"
            ),
        ]
        return maps.map { (path, size, channels, parameters, what) in
            var entry = entry(
                path, .hdr, e, .psnr(38), "Ultra HDR JPEG (MPF + hdrgm XMP) with \(what): \(shows).", pattern: plane,
                reference: reference)
            entry.gainMap = KitGainMap(size: size, channels: channels, parameters: parameters)
            return entry
        }
    }
}
