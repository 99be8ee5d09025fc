import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZSystem
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The libjxl conformance files in ../shared/formats/jxl (SOURCES.md there; skipped when
/// absent) against `djxl` 0.7's PNG of the same file: within 1 level of 8-bit output, or
/// within 1 level at 16 bits for deep files (djxl cannot write some of those at 8 bits).
struct JXLConformanceTests {
    static let folder = TestSupport.path("../shared/formats/jxl")
    static let present =
        FileSystem.kind(of: folder) == .directory
        && TestSupport.shell("command -v djxl >/dev/null") == 0

    /// name -> how djxl's output is compared.
    enum Check: Sendable {
        /// 8-bit output within 1 level (visible pixels).
        case eight
        /// `readStored16` equal to djxl --bits_per_sample=16, sample for sample (within 1 of 65535).
        case deep
        /// As `deep`, djxl's colours premultiplied by alpha (djxl 0.7 writes premultiplied
        /// samples into PNG; forcezoom asks libjxl for straight alpha).
        case premultiplied
        /// djxl 0.7 writes this file's 10-bit alpha wrongly ("Alpha bit depth does not
        /// match"): sizes and orientation only.
        case sizesOnly
    }

    static let files: [(String, Check)] = [
        ("conformance_bike_lossy_vardct", .eight), ("conformance_lz77_flower_lossless", .eight),
        ("conformance_patches_lossless", .eight), ("conformance_cafe_jpeg_recompressed", .eight),
        ("conformance_bench_oriented_brg_jpeg_orient", .eight), ("conformance_grayscale_jpeg_recompressed", .eight),
        ("conformance_animation_newtons_cradle", .eight), ("conformance_animation_icos4d_alpha", .eight),
        ("conformance_cmyk_layers", .eight), ("conformance_upsampling_alpha", .eight),
        ("conformance_lossless_pfm_float32", .deep), ("conformance_spot_16bit_prophoto", .deep),
        ("conformance_alpha_premultiplied_12bit", .premultiplied), ("conformance_sunset_logo_10bit_orient", .sizesOnly),
    ]

    static func djxl(_ name: String, bits: Int) -> String {
        let out = FileSystem.join(TestSupport.scratch(), "\(name).png")
        let status = TestSupport.shell(
            "djxl '\(folder)/\(name).jxl' '\(out)' --bits_per_sample=\(bits) >/dev/null 2>&1")
        #expect(status == 0, "djxl \(name)")
        return out
    }

    @Test(.enabled(if: present), arguments: files.map(\.0))
    func decodesAsDjxl(_ name: String) throws {
        let check = Self.files.first { $0.0 == name }!.1
        let path = "\(Self.folder)/\(name).jxl"
        guard FileSystem.kind(of: path) == .regular else { return }
        let reader = try ImageReader(path: path)
        switch check {
        case .eight:
            let image = try reader.readImage()
            let refReader = try ImageReader(path: Self.djxl(name, bits: 8))
            let reference = try refReader.readImage()
            #expect(image.size == reference.size, "\(name): upright size")
            #expect(JXLTests.visibleDifference(image, reference) <= 1, "\(name)")
            // djxl writes libjxl's profile for the samples; forcezoom the same, or sRGB where
            // the codestream says sRGB (djxl's profile is then libjxl's sRGB, "..._SRG_..._SRG").
            if let icc = refReader.header.color.icc {
                if reader.header.color.sRGB {
                    let described = refReader.header.color.profile?.description ?? ""
                    #expect(described.hasPrefix("RGB_D65_SRG_") || described.hasPrefix("Gra_D65_"), "\(described)")
                } else {
                    #expect(reader.header.color.icc == icc, "\(name): the profile")
                }
            }
        case .deep, .premultiplied:
            #expect(reader.hasDeepSamples)
            let rect = PixelRect(size: reader.header.storedSize)
            let deep = try reader.readStored16([rect])[0]
            let reference = try ImageReader(path: Self.djxl(name, bits: 16)).readStored16([rect])[0]
            #expect(deep.format.channels == reference.format.channels)
            // Straight alpha premultiplied again loses up to 2 levels where alpha is small.
            let bound = check == .premultiplied ? 514 : 257
            #expect(Self.deepDifference(deep, reference, premultiply: check == .premultiplied) <= bound, "\(name)")
        case .sizesOnly:
            #expect(reader.header.storedSize == PixelSize(width: 1386, height: 924))
            #expect(
                reader.header.exifOrientationValue == 7
                    && reader.header.uprightSize == PixelSize(width: 924, height: 1386))
            #expect(try reader.readImage().size == reader.header.uprightSize)
        }
    }

    /// The largest difference of two 16-bit images on pixels with alpha (or all, without),
    /// `a`'s colours first multiplied by its alpha when `premultiply`.
    static func deepDifference(_ a: Image16, _ b: Image16, premultiply: Bool) -> Int {
        let c = a.format.channels
        func sample(_ img: Image16, _ i: Int) -> Int { Int(img.bytes[2 * i]) << 8 | Int(img.bytes[2 * i + 1]) }
        var m = 0
        for p in 0..<(a.width * a.height) {
            let alpha = a.format.hasAlpha ? sample(a, p * c + c - 1) : 65535
            if a.format.hasAlpha && alpha == 0 && sample(b, p * c + c - 1) == 0 { continue }
            for k in 0..<c {
                var v = sample(a, p * c + k)
                if premultiply && a.format.hasAlpha && k < c - 1 { v = (v * alpha + 32767) / 65535 }
                m = max(m, abs(v - sample(b, p * c + k)))
            }
        }
        return m
    }
}
