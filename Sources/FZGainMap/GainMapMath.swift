#if canImport(Glibc)
import Glibc
#endif

/// The arithmetic of a gain map, shared by everything that carries, converts or applies one:
/// what gain a stored sample means, how much of it a display of a given headroom shows, and the
/// sample hdrgm needs to say the same gain.
///
/// hdrgm (Adobe's gain-map spec 1.0, Ultra HDR, ISO 21496-1), per channel c, for a stored
/// sample v in 0...1: `recovery = v^(1/Gamma)`, `log2 gain = GainMapMin*(1-recovery) +
/// GainMapMax*recovery`, and the display shows `(SDR + OffsetSDR) * 2^(log2 gain * weight) -
/// OffsetHDR` in linear light, `weight = clamp((log2 display headroom - HDRCapacityMin) /
/// (HDRCapacityMax - HDRCapacityMin), 0, 1)` (its complement when the base rendition is HDR).
/// Apple ("Applying Apple HDR effect to your photos"): the map is linear gain coded with the
/// Rec. 709 transfer function and the display shows `SDR * (1 + (headroom - 1) * gain)`;
/// `GainMapParameters.setAppleHeadroom` already states its headroom in hdrgm's terms
/// (min 0, max log2 headroom, no offsets), so only the sample's meaning differs.
extension GainMapParameters {
    /// log2 of the gain the stored sample `v` (0...1) gives channel `c` at full weight.
    public func log2Gain(_ v: Double, channel c: Int = 0) -> Double {
        let v = min(max(v, 0), 1)
        switch scheme {
        case .hdrgm:
            let recovery = pow(v, 1 / Self.value(gamma, c))
            return Self.value(gainMapMin, c) * (1 - recovery) + Self.value(gainMapMax, c) * recovery
        case .apple:
            let headroom = appleHeadroom ?? 1
            return log2(1 + (headroom - 1) * Self.rec709Linear(v))
        }
    }

    /// How much of the gain a display with `stops` of headroom (log2 of its peak over SDR
    /// white) shows: 0 (the SDR rendition) to 1 (the full gain).
    public func weight(displayStops stops: Double) -> Double {
        let span = hdrCapacityMax - hdrCapacityMin
        let w = span > 0 ? min(max((stops - hdrCapacityMin) / span, 0), 1) : (stops > hdrCapacityMin ? 1 : 0)
        return baseRenditionIsHDR ? 1 - w : w
    }

    /// The linear value a display shows for the linear base value `base` of channel `c`, when
    /// the map's stored sample there is `v` and the display's weight is `weight`.
    public func apply(_ base: Double, sample v: Double, channel c: Int = 0, weight: Double) -> Double {
        let g = exp2(log2Gain(v, channel: c) * weight)
        return (base + Self.value(offsetSDR, c)) * g - Self.value(offsetHDR, c)
    }

    /// The same map stated in hdrgm's terms (Apple's values become min 0, max log2 headroom,
    /// gamma 1, no offsets); the samples must then go through `hdrgmSample(_:channel:)`.
    public var asHDRGM: GainMapParameters {
        guard scheme == .apple else { return self }
        var p = self
        p.scheme = .hdrgm
        p.version = "1.0"
        p.appleHeadroom = nil
        return p
    }

    /// The sample (0...1) that gives, under `asHDRGM`, the gain `v` gives under these values.
    /// Identity for hdrgm; for Apple, `log2(1 + (h - 1) * gain) / log2 h`.
    public func hdrgmSample(_ v: Double, channel c: Int = 0) -> Double {
        guard scheme == .apple else { return v }
        let target = asHDRGM
        let lo = Self.value(target.gainMapMin, c)
        let span = Self.value(target.gainMapMax, c) - lo
        guard span > 0 else { return 0 }
        let recovery = min(max((log2Gain(v, channel: c) - lo) / span, 0), 1)
        return pow(recovery, Self.value(target.gamma, c))
    }

    /// The stored sample that means no gain (1x): what areas outside the image carry.
    /// GainMapMin above 0 or Max below 0 cannot say 1x; the nearest sample is used.
    public func neutralSample(channel c: Int = 0) -> Double {
        if scheme == .apple { return 0 }
        let lo = Self.value(gainMapMin, c)
        let span = Self.value(gainMapMax, c) - lo
        guard span > 0 else { return 0 }
        let recovery = min(max(-lo / span, 0), 1)
        return pow(recovery, Self.value(gamma, c))
    }

    /// Rec. 709's inverse OETF, with which Apple codes its linear gain.
    static func rec709Linear(_ v: Double) -> Double {
        v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
    }

    static func value(_ values: [Double], _ c: Int) -> Double { values.count > c ? values[c] : values[0] }
}
