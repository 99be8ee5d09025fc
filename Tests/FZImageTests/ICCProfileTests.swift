import Testing

@testable import FZImage

/// ICC headers and descriptions read from bytes built here (v2 `desc`, v4 `mluc`), and what
/// an output carries for each pairing of profile and pixels.
struct ICCProfileTests {
    /// A minimal profile: 128-byte header, a tag table with one `desc` tag.
    static func profile(space: String, version: UInt8, desc: [UInt8]) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 128)
        let size = 128 + 4 + 12 + desc.count
        b[0] = UInt8(size >> 24)
        b[1] = UInt8(size >> 16 & 0xFF)
        b[2] = UInt8(size >> 8 & 0xFF)
        b[3] = UInt8(size & 0xFF)
        b[8] = version
        b.replaceSubrange(12..<16, with: Array("mntr".utf8))
        b.replaceSubrange(16..<20, with: Array(space.utf8))
        b.replaceSubrange(36..<40, with: Array("acsp".utf8))
        b += [0, 0, 0, 1] + Array("desc".utf8) + [0, 0, 0, 144] + [0, 0, 0, UInt8(desc.count)]
        return b + desc
    }

    static func v2(_ text: String) -> [UInt8] {
        let t = Array(text.utf8) + [0]
        return Array("desc".utf8) + [0, 0, 0, 0] + [0, 0, 0, UInt8(t.count)] + t
    }

    static func v4(_ text: String) -> [UInt8] {
        let units = Array(text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        return Array("mluc".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + [0, 0, 0, 12] + Array("enUS".utf8)
            + [0, 0, 0, UInt8(units.count)] + [0, 0, 0, 28] + units
    }

    @Test func descriptionsOfBothVersions() throws {
        let a = try #require(ICCProfile(Self.profile(space: "RGB ", version: 2, desc: Self.v2("Adobe RGB (1998)"))))
        #expect(
            a.description == "Adobe RGB (1998)" && a.colorSpace == "RGB" && a.deviceClass == "mntr"
                && a.version == "2.0")
        let p = try #require(ICCProfile(Self.profile(space: "RGB ", version: 4, desc: Self.v4("Display P3"))))
        #expect(p.description == "Display P3" && p.version == "4.0")
    }

    @Test func brokenProfilesAreNotRead() {
        var b = Self.profile(space: "RGB ", version: 2, desc: Self.v2("x"))
        #expect(ICCProfile(Array(b.dropLast())) == nil)  // size field disagrees
        b[36] = 0x41
        #expect(ICCProfile(b) == nil)  // no acsp
        #expect(ICCProfile([]) == nil)
        // A tag pointing past the end: header read, no description.
        var c = Self.profile(space: "GRAY", version: 2, desc: Self.v2("gray"))
        c[139] = 200
        #expect(ICCProfile(c)?.description == nil && ICCProfile(c)?.colorSpace == "GRAY")
    }

    @Test func whatAnOutputCarries() {
        var rgb = ColorDescription()
        rgb.icc = Self.profile(space: "RGB ", version: 4, desc: Self.v4("Display P3"))
        #expect(rgb.carried(into: .rgb)?.icc == rgb.icc)
        #expect(rgb.carried(into: .rgba)?.icc == rgb.icc)
        #expect(rgb.carried(into: .gray) == nil)  // an RGB profile cannot describe gray pixels

        var cmyk = ColorDescription()
        cmyk.icc = Self.profile(space: "CMYK", version: 2, desc: Self.v2("U.S. Web Coated (SWOP) v2"))
        #expect(cmyk.carried(into: .rgb) == nil)  // a CMYK profile cannot describe RGB pixels
        cmyk.madeFromCMYK = "embedded profile"
        let tagged = cmyk.carried(into: .rgb)
        #expect(tagged?.icc == nil && tagged?.sRGBIntent == 0)  // RGB pixels forcezoom made from CMYK: tagged sRGB

        var png = ColorDescription()
        png.gamma = 0.45455
        png.chromaticities = [0.3127, 0.329, 0.64, 0.33, 0.3, 0.6, 0.15, 0.06]
        #expect(png.carried(into: .gray)?.gamma == 0.45455 && png.carried(into: .rgb)?.chromaticities?.count == 8)
        #expect(ColorDescription().carried(into: .rgb) == nil)
    }
}
