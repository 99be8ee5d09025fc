import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `--hdr-headroom`: how far above SDR white the display that `--gain-map apply` renders for
/// reaches, in stops (log2 of its peak over SDR white: `2.5`) or as a ratio (`4x`, read "four
/// times SDR white", as zoom factors are written). By default the map's own HDRCapacityMax:
/// the whole gain, what the photo was made to show.
public enum HDRHeadroom: Hashable, Sendable, CustomStringConvertible {
    /// The gain map's HDRCapacityMax (Apple's: log2 of its headroom).
    case mapMaximum
    /// A headroom in stops, 0 (SDR) to `maximumStops`.
    case stops(Double)

    /// More than any display (HDR screens reach about 4 stops; PQ's 10,000 cd/m² is 5.6
    /// stops above 203) and the bound the gain-map values are read with.
    public static let maximumStops = 32.0

    /// The help text of `--hdr-headroom` (one paragraph).
    public static let help =
        "How far above SDR white the HDR display reaches, in stops (2.5) or as a ratio (4x); default: the HDRCapacityMax of the gain map."

    /// Parses `2.5` (stops) or `4x` (a ratio).
    /// - Throws: a usage error (exit 2) saying what is wrong and the forms it takes, without
    ///   the option or the value: its caller, ArgumentParser's `transform:`, says "The value
    ///   'x4' is invalid for '--hdr-headroom <stops|ratio>': " before it.
    public init(parsing text: String) throws(ToolFailure) {
        let t = text.trimmingCharacters(in: " \t")
        func fail(_ why: String) -> ToolFailure {
            ToolFailure("\(why); give stops above SDR white (2.5) or a ratio to it (4x)", exitCode: 2)
        }
        let isRatio = t.hasSuffix("x") || t.hasSuffix("X")
        let number = isRatio ? String(t.dropLast()) : t
        if t.hasPrefix("x") || t.hasPrefix("X") { throw fail("write the ratio with the x after it") }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }),
            let v = Double(number), v.isFinite
        else {
            throw fail("not a number")
        }
        let stops = isRatio ? log2(v) : v
        if isRatio && v < 1 { throw fail("a ratio below 1x is darker than SDR white") }
        if !isRatio && v < 0 { throw fail("below 0 stops is darker than SDR white") }
        if stops > Self.maximumStops { throw fail("more than \(Int(Self.maximumStops)) stops") }
        self = .stops(stops)
    }

    /// The headroom in stops for a map with `parameters`.
    public func stops(for parameters: GainMapParameters) -> Double {
        switch self {
        case .mapMaximum: return parameters.hdrCapacityMax
        case .stops(let s): return s
        }
    }

    public var description: String {
        switch self {
        case .mapMaximum: return "the gain map's HDRCapacityMax"
        case .stops(let s): return "\(s) stops"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let skip = Set(set)
        return String(drop(while: { skip.contains($0) }).reversed().drop(while: { skip.contains($0) }).reversed())
    }
}
