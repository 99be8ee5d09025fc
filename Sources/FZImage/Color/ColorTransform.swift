import CFZColor

#if canImport(Glibc)
import Glibc
#endif

/// An lcms2 transform (through the FZShims colour functions): the one file that holds
/// their pointers. Transforms to sRGB are cached in C by profile and pixel format, so
/// making one per file of a batch costs a lookup after the first.
package final class ColorTransform: @unchecked Sendable {
    private let transform: OpaquePointer

    private init(_ transform: OpaquePointer) { self.transform = transform }

    deinit { fz_color_free(transform) }

    /// From the pixels `icc` describes (`channels`: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA) to
    /// sRGB, alpha copied. Returns the reason when lcms2 cannot.
    /// `sixteenBit`: samples of 16 bits, big-endian (`Image16`), instead of 8.
    package static func toSRGB(
        icc: [UInt8], channels: Int, intent: RenderingIntent, blackPointCompensation: Bool, sixteenBit: Bool = false
    )
        -> Result<ColorTransform, ColorProblem>
    {
        make { out, message in
            icc.withUnsafeBufferPointer { p in
                let create = sixteenBit ? fz_color_to_srgb16_create : fz_color_to_srgb_create
                return create(
                    p.baseAddress, p.count, Int32(channels), intent.lcms, blackPointCompensation ? 1 : 0, &out, message)
            }
        }
    }

    /// From sRGB (`channels` 3 RGB, 4 RGBA with alpha copied) into the space of the RGB
    /// profile `icc`.
    package static func fromSRGB(icc: [UInt8], channels: Int, intent: RenderingIntent) -> Result<
        ColorTransform, ColorProblem
    > {
        make { out, message in
            icc.withUnsafeBufferPointer { p in
                fz_color_from_srgb_create(p.baseAddress, p.count, Int32(channels), intent.lcms, &out, message)
            }
        }
    }

    /// Nil when lcms2 can read `icc` and the tags a transform from it would use (a LUT, or
    /// colorants and tone curves; a CMYK profile's LUT); otherwise the reason. Parsing only,
    /// no transform built: what `--icc keep` checks before it copies a profile, and
    /// `--cmyk-profile` before it uses one.
    package static func readProblem(with icc: [UInt8]) -> String? {
        var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let status = icc.withUnsafeBufferPointer { p in fz_color_profile_readable(p.baseAddress, p.count, &message) }
        return status == FZ_OK ? nil : Self.text(message)
    }

    /// An ICC profile made from PNG's colour chunks (`fz_color_profile_from_chunks`): tone
    /// curves from gAMA (nil: the sRGB curve), primaries and white from cHRM (nil: sRGB's).
    package static func profile(gamma: Double?, chromaticities: [Double]?, gray: Bool) -> Result<[UInt8], ColorProblem>
    {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let chrm = chromaticities ?? []
        let status = chrm.withUnsafeBufferPointer { c in
            message.withUnsafeMutableBufferPointer { m in
                fz_color_profile_from_chunks(
                    gamma ?? 0, chrm.count == 8 ? c.baseAddress : nil, gray ? 1 : 0, &out, &length, m.baseAddress!)
            }
        }
        guard status == FZ_OK, let out else { return .failure(ColorProblem(reason: text(message))) }
        defer { free(out) }
        return .success(Array(UnsafeBufferPointer(start: out, count: length)))
    }

    private static func make(_ create: (inout OpaquePointer?, UnsafeMutablePointer<CChar>) -> Int32) -> Result<
        ColorTransform, ColorProblem
    > {
        var out: OpaquePointer?
        var message = [CChar](repeating: 0, count: Int(FZ_MESSAGE_MAX))
        let status = message.withUnsafeMutableBufferPointer { create(&out, $0.baseAddress!) }
        guard status == FZ_OK, let out else { return .failure(ColorProblem(reason: text(message))) }
        return .success(ColorTransform(out))
    }

    private static func text(_ message: [CChar]) -> String {
        let s = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return s.isEmpty ? "lcms2 cannot use the profile" : s
    }

    /// Converts `pixels` pixels in place.
    package func apply(_ buffer: UnsafeMutableRawBufferPointer, pixels: Int) {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        fz_color_apply(transform, base, base, pixels)
    }
}

/// Why lcms2 could not make a transform (its own words).
package struct ColorProblem: Error {
    package let reason: String
}

/// Linear light in 32-bit floats (issue 39, the HDR rendition of a gain map): unbounded, so
/// values above SDR white survive.
extension ColorTransform {
    /// From floats (0...1: the 8-bit samples / 255, gray or RGB as `gray` says) in the space
    /// `icc` describes (nil: sRGB) to linear light: in the profile's own primaries when it is
    /// a matrix/TRC profile (`ownPrimaries` true), else (a LUT profile) in linear BT.2020.
    package static func toLinear(icc: [UInt8]?, gray: Bool) -> Result<
        (transform: ColorTransform, ownPrimaries: Bool), ColorProblem
    > {
        var own: Int32 = 1
        let made = make { out, message in
            withOptionalBuffer(icc) { p, n in
                fz_color_linear_create(p, n, gray ? 1 : 3, &out, &own, message)
            }
        }
        return made.map { ($0, own != 0) }
    }

    /// From linear RGB floats in the primaries of the matrix/TRC profile `icc` (nil: sRGB's)
    /// to linear BT.2020 RGB floats.
    package static func linearToBT2020(icc: [UInt8]?) -> Result<ColorTransform, ColorProblem> {
        make { out, message in
            withOptionalBuffer(icc) { p, n in fz_color_linear_to_bt2020_create(p, n, &out, message) }
        }
    }

    /// Converts `pixels` pixels from `source` into `target` (distinct float buffers).
    package func apply(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, pixels: Int) {
        fz_color_apply_between(transform, source, target, pixels)
    }

    private static func withOptionalBuffer<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int) -> R) -> R {
        guard let bytes else { return body(nil, 0) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
