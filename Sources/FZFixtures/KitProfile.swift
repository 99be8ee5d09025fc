#if canImport(Glibc)
import Glibc
#endif

/// The ICC profiles the fixture kit's colour set tags its files with, built here byte by byte
/// (ICC v2 matrix/TRC and gray/TRC profiles, as Tools/fixtures/make-icc.py writes them), so
/// the kit needs no profile files and is the same on every machine.
public enum KitProfile: String, CaseIterable, Sendable {
    /// Display P3: P3 primaries, D65 white (colorants adapted to D50 as in Apple's profile), the sRGB curve.
    case displayP3 = "Display P3"
    /// Adobe RGB (1998) compatible: its primaries adapted to D50, gamma 563/256.
    case adobeRGB = "Adobe RGB (1998) compatible"
    /// Gray, D50, gamma 2.2 (as Photoshop's "Gray Gamma 2.2").
    case grayGamma22 = "Gray Gamma 2.2"

    /// Whether the profile describes one gray channel.
    public var isGray: Bool { self == .grayGamma22 }

    /// The profile's bytes.
    public var bytes: [UInt8] {
        switch self {
        case .displayP3:
            return Self.rgb(
                name: "forcezoom kit Display P3", r: (0.515121, 0.241196, -0.001053), g: (0.291977, 0.692245, 0.041885),
                b: (0.157104, 0.066574, 0.784073), curve: Self.sRGBCurve)
        case .adobeRGB:
            return Self.rgb(
                name: "forcezoom kit Adobe RGB (1998) compatible", r: (0.609741, 0.311111, 0.019470),
                g: (0.205276, 0.625671, 0.060867), b: (0.149185, 0.063217, 0.744568), curve: Self.gamma(563.0 / 256))
        case .grayGamma22:
            return Self.profile(
                space: "GRAY",
                tags: [
                    ("desc", Self.desc("forcezoom kit Gray Gamma 2.2")), ("wtpt", Self.xyz(0.9642, 1.0, 0.8249)),
                    ("kTRC", Self.gamma(2.2)), ("cprt", Self.text("CC0")),
                ])
        }
    }

    package typealias XYZ = (Double, Double, Double)

    package static func rgb(name: String, r: XYZ, g: XYZ, b: XYZ, curve: [UInt8]) -> [UInt8] {
        profile(
            space: "RGB ",
            tags: [
                ("desc", desc(name)), ("wtpt", xyz(0.9642, 1.0, 0.8249)), ("rXYZ", xyz(r.0, r.1, r.2)),
                ("gXYZ", xyz(g.0, g.1, g.2)), ("bXYZ", xyz(b.0, b.1, b.2)), ("rTRC", curve), ("gTRC", curve),
                ("bTRC", curve), ("cprt", text("CC0")),
            ])
    }

    package static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    package static func s15(_ v: Double) -> [UInt8] { be32(Int(Int32(truncatingIfNeeded: Int((v * 65536).rounded())))) }

    package static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    package static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        ascii("XYZ ") + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
    }

    package static func gamma(_ g: Double) -> [UInt8] {
        ascii("curv") + [0, 0, 0, 0] + be32(1) + [
            UInt8(Int((g * 256).rounded()) >> 8), UInt8(Int((g * 256).rounded()) & 0xFF),
        ]
    }

    /// The sRGB transfer curve as a 1024-entry table (v2 has no parametric curves).
    package static var sRGBCurve: [UInt8] {
        let n = 1024
        var out = ascii("curv") + [0, 0, 0, 0] + be32(n)
        for i in 0..<n {
            let v = Double(i) / Double(n - 1)
            let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            let q = Int((linear * 65535).rounded())
            out += [UInt8(q >> 8), UInt8(q & 0xFF)]
        }
        return out
    }

    package static func text(_ s: String) -> [UInt8] { ascii("text") + [0, 0, 0, 0] + ascii(s) + [0] }

    package static func desc(_ s: String) -> [UInt8] {
        ascii("desc") + [0, 0, 0, 0] + be32(s.utf8.count + 1) + ascii(s) + [0]
            + [UInt8](repeating: 0, count: 4 + 4 + 2 + 1 + 67)
    }

    package static func profile(space: String, tags: [(String, [UInt8])]) -> [UInt8] {
        var table: [UInt8] = []
        var data: [UInt8] = []
        let start = 128 + 4 + 12 * tags.count
        for (signature, body) in tags {
            var b = body
            while b.count % 4 != 0 { b.append(0) }
            table += ascii(signature) + be32(start + data.count) + be32(b.count)
            data += b
        }
        let size = start + data.count
        var header = be32(size) + ascii("lcms") + [2, 0x10, 0, 0] + ascii("mntr") + ascii(space) + ascii("XYZ ")
        header += [UInt8](repeating: 0, count: 12) + ascii("acsp") + [UInt8](repeating: 0, count: 24) + be32(0)
        header += s15(0.9642) + s15(1.0) + s15(0.8249) + [UInt8](repeating: 0, count: 48)
        precondition(header.count == 128)
        return header + be32(tags.count) + table + data
    }
}
