import FZGainMap
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// What an HDR display shows of an SDR image and its gain map (`--gain-map apply`, issue 39),
/// as BT.2100 PQ samples: BT.2020 primaries, the PQ transfer function (SMPTE ST 2084), full
/// range, 16 bits.
///
/// Per pixel: the base goes to linear light in its own primaries (the gain-map specs, Adobe's
/// 1.0 and Ultra HDR, apply the gain there: "in the linear space of the base image"); the map,
/// already at the output's geometry but at any size, is sampled bilinearly with pixel centres
/// aligned (`(x + 0.5) * mapWidth / width - 0.5`, edges clamped), its stored value
/// interpolated before it means a gain, as every reader does; each channel gets its gain by
/// `GainMapParameters.apply` at `weight(displayStops:)`; the result goes to linear BT.2020
/// through lcms2 (float, unbounded); SDR white (1.0) becomes 203 cd/m², ITU-R BT.2408's
/// reference white for PQ; then the PQ curve and 16-bit rounding. Weight 0 is the SDR image
/// itself, in PQ.
///
/// Gray base and gray map: a gray output (BT.2020's white is its gray); a gray base with a
/// 3-channel map is taken as BT.709/sRGB primaries (a gray JPEG is read as sRGB). A LUT ICC
/// profile states no primaries: its pixels go to linear BT.2020 first and the gain applies
/// there. Alpha is kept, widened to 16 bits (`a * 257`).
public enum GainMapRendition {
    /// SDR white in cd/m² (ITU-R BT.2408: diffuse white for HDR in PQ and HLG).
    public static let sdrWhite = 203.0

    /// Rows in one job: enough work per job, small float buffers.
    static let bandRows = 16

    /// - Parameters:
    ///   - base: the SDR output pixels (gray or RGB, with or without alpha).
    ///   - color: what the base's colours are (an ICC profile or PNG's chunks; sRGB if none).
    ///   - map: the gain map at the output's geometry (gray or RGB; any size).
    ///   - headroom: the display's headroom.
    ///   - path: the input, named in messages.
    /// - Returns: the rendition, big-endian 16-bit samples (`Image16`).
    public static func render(
        _ base: Image, color: ColorDescription, map: Image, parameters: GainMapParameters,
        headroom: HDRHeadroom, budget: Budget, path: String, threads: Int = Threads.perImage
    ) throws(GainMapRenditionError) -> Image16 {
        let gray = base.format.isGray
        let mapChannels = map.format.isGray ? 1 : 3
        let outGray = gray && mapChannels == 1
        let format: PixelFormat =
            outGray ? (base.format.hasAlpha ? .grayAlpha : .gray) : (base.format.hasAlpha ? .rgba : .rgb)
        do {
            try budget.check(
                "the HDR rendition (--gain-map apply)", size: base.size, bytesPerPixel: format.channels * 2)
            // The floats of one band of rows at a time, per thread.
            try budget.check(
                "the HDR rendition's rows", size: PixelSize(width: base.width, height: bandRows), bytesPerPixel: 24,
                count: max(threads, 1))
        } catch {
            throw .budget(error)
        }
        guard map.width > 0, map.height > 0 else { throw .emptyMap(path: path) }
        let icc = try profile(color, gray: gray, path: path)
        let (toLinear, curves, toBT2020) = try transforms(icc: icc, gray: gray, outGray: outGray, path: path)
        let job = RenditionJob(
            base: base, map: map, format: format, parameters: parameters,
            weight: parameters.weight(displayStops: headroom.stops(for: parameters)), toLinear: toLinear,
            curves: curves, toBT2020: toBT2020)
        let bands = (base.height + bandRows - 1) / bandRows
        let count = base.width * base.height * format.channels * 2
        guard count > 0 else { return Image16(width: base.width, height: base.height, format: format, bytes: []) }
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let target = UncheckedPointer(out.baseAddress!)
            if threads <= 1 || bands <= 1 {
                for band in 0..<bands { job.render(band: band, into: target.pointer) }
            } else {
                WorkerPool<Bool>.run(
                    count: bands, threads: threads,
                    work: {
                        job.render(band: $0, into: target.pointer)
                        return true
                    },
                    onResult: { _, _ in }, onTick: { true })
            }
            initialized = count  // every band writes every sample of its rows
        }
        return Image16(width: base.width, height: base.height, format: format, bytes: bytes)
    }

    /// The profile the base's samples are in: its ICC profile, one made from PNG's gAMA/cHRM,
    /// or nil (sRGB). Pixels forcezoom made from CMYK are sRGB.
    static func profile(_ color: ColorDescription, gray: Bool, path: String) throws(GainMapRenditionError) -> [UInt8]? {
        if color.madeFromCMYK != nil { return nil }
        if color.hasICC && color.icc == nil {
            throw .color(.unusableProfile(path: path, reason: "it could not be read whole"))
        }
        var icc = color.icc
        if icc == nil {
            do throws(ColorError) {
                icc = try SRGBConverter.chunkProfile(color, gray: gray, path: path)
            } catch {
                throw .color(error)
            }
        }
        guard let icc else { return nil }
        guard let p = ICCProfile(icc) else {
            throw .color(.unusableProfile(path: path, reason: "not a valid ICC profile header"))
        }
        guard p.colorSpace == (gray ? "GRAY" : "RGB") else {
            throw .color(
                .unusableProfile(path: path, reason: "a \(p.colorSpace) profile on \(gray ? "gray" : "colour") pixels"))
        }
        return icc
    }

    /// The base to linear light (its own primaries where it has them), as a table of the 256
    /// values of each channel when the profile is a tone curve per channel (gray, or a
    /// matrix/TRC profile whose matrix the transform undoes again), and, unless the output
    /// is gray or the first is in BT.2020 already, linear light to linear BT.2020.
    static func transforms(icc: [UInt8]?, gray: Bool, outGray: Bool, path: String) throws(GainMapRenditionError) -> (
        linear: ColorTransform, curves: [Float]?, toBT2020: ColorTransform?
    ) {
        func fail(_ p: ColorProblem) -> GainMapRenditionError { .color(.unusableProfile(path: path, reason: p.reason)) }
        let linear: (transform: ColorTransform, ownPrimaries: Bool)
        switch ColorTransform.toLinear(icc: icc, gray: gray) {
        case .success(let t): linear = t
        case .failure(let p): throw fail(p)
        }
        let curves = gray || linear.ownPrimaries ? Self.curves(linear.transform, channels: gray ? 1 : 3) : nil
        guard !outGray, linear.ownPrimaries else { return (linear.transform, curves, nil) }
        // A gray base under a colour map: its gray taken as sRGB's (BT.709) primaries.
        switch ColorTransform.linearToBT2020(icc: gray ? nil : icc) {
        case .success(let t): return (linear.transform, curves, t)
        case .failure(let p): throw fail(p)
        }
    }

    /// What `transform` makes of the gray pixels (v, v, v), v = 0...255: channel c of entry v
    /// is channel c's tone curve at v (the profile's matrix and its inverse cancel).
    static func curves(_ transform: ColorTransform, channels: Int) -> [Float] {
        let input = (0..<256).flatMap { v in [Float](repeating: Float(v) / 255, count: channels) }
        var out = [Float](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { transform.apply(i.baseAddress!, into: $0.baseAddress!, pixels: 256) }
        }
        return out
    }

    /// SMPTE ST 2084's inverse EOTF of a linear value relative to SDR white: the PQ signal
    /// (0...1) of `linear * sdrWhite` cd/m², clipped to 0...10000 cd/m².
    public static func pq(_ linear: Double) -> Double {
        let y = min(max(linear * sdrWhite / 10000, 0), 1)
        let p = pow(y, PQ.m1)
        return pow((PQ.c1 + PQ.c2 * p) / (1 + PQ.c3 * p), PQ.m2)
    }

    /// SMPTE ST 2084's constants.
    enum PQ {
        static let m1 = 2610.0 / 16384
        static let m2 = 2523.0 / 4096 * 128
        static let c1 = 3424.0 / 4096
        static let c2 = 2413.0 / 4096 * 32
        static let c3 = 2392.0 / 4096 * 32
    }
}

/// Why an HDR rendition cannot be made.
public enum GainMapRenditionError: ForceZoomError, Equatable, Sendable, CustomStringConvertible {
    /// The base's colour profile cannot be used.
    case color(ColorError)
    /// The rendition would be over --max-pixels or --max-memory.
    case budget(BudgetError)
    /// The gain map has no pixels.
    case emptyMap(path: String)

    public var description: String {
        switch self {
        case .color(let e): return e.description
        case .budget(let e): return e.description
        case .emptyMap(let path): return "\(path): the gain map has no pixels; use --gain-map drop"
        }
    }
}

/// A pointer handed to worker threads, each writing its own rows.
struct UncheckedPointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
}
