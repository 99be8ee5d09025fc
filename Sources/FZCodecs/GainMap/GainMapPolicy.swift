import FZImage
import Geometry

/// `--gain-map`: what outputs do with an input's HDR gain map.
///
/// `apply` (render what an HDR screen shows, `--hdr-headroom`) is meant to join as one more
/// case: `GainMapCarry.read` decodes the map for it as for `keep`, every command already
/// renders the map at its output's geometry and hands it to `ImageWriter.write` as a
/// `CarriedGainMap`, so applying it is one branch there.
public enum GainMapPolicy: String, CaseIterable, Sendable {
    /// Carried to the output's geometry; JPEG outputs are Ultra HDR, other formats drop it.
    case keep
    /// Left out: every output is SDR.
    case drop
}

/// A gain map at an output's geometry, handed to the writer with the output's pixels.
public struct CarriedGainMap: Sendable {
    /// The map, gray or RGB, as the output's geometry resampled it (values as stored).
    public var image: Image
    public var parameters: GainMapParameters

    public init(image: Image, parameters: GainMapParameters) {
        self.image = image
        self.parameters = parameters
    }
}

/// What an output did with its input's gain map, for --json (`gainMap`, `gainMapNote`).
public enum GainMapOutcome: Hashable, Sendable {
    /// Written with the output (an Ultra HDR JPEG).
    case kept
    /// Not written, and why.
    case dropped(String)

    public var word: String {
        switch self {
        case .kept: return "kept"
        case .dropped: return "dropped"
        }
    }

    public var note: String? {
        if case .dropped(let why) = self { return why }
        return nil
    }
}

/// One input's gain map as its outputs will carry it: read once after the primary's pixels.
public struct GainMapCarry: Sendable {
    /// The decoded map, when outputs keep it.
    public var map: DecodedGainMap?
    /// What outputs do with it; nil when the input has none.
    public var outcome: GainMapOutcome?
    /// A map announced but unusable: said once, the output is SDR.
    public var warning: String?

    public init(map: DecodedGainMap? = nil, outcome: GainMapOutcome? = nil, warning: String? = nil) {
        self.map = map
        self.outcome = outcome
        self.warning = warning
    }

    /// Reads `reader`'s gain map (after its pixels were read) for outputs in `format`: decoded
    /// only when `policy` keeps it and the format carries it.
    public static func read(_ reader: ImageReader, policy: GainMapPolicy, format: OutputFormat) -> GainMapCarry {
        let carries = ImageWriter.carriesGainMap(format)
        switch reader.readGainMap(decode: policy == .keep && carries) {
        case .none: return GainMapCarry()
        case .malformed(let why):
            return GainMapCarry(outcome: .dropped(why), warning: "\(reader.path): \(why); gain map ignored")
        case .found:
            let why =
                policy == .drop
                ? "--gain-map drop" : "\(format.name) has no gain-map form every reader knows (JPEG outputs keep it)"
            return GainMapCarry(outcome: .dropped(why))
        case .decoded(let map): return GainMapCarry(map: map, outcome: .kept)
        }
    }
}
