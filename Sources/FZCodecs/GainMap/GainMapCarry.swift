import FZFormat
import FZGainMap
import FZImage
import FZSystem
import Geometry
import Synchronization

/// One input's gain map as its outputs will carry it: read once after the primary's pixels.
public struct GainMapCarry: Sendable {
    /// The decoded map, when outputs keep it.
    public var map: DecodedGainMap?
    /// What outputs do with it; nil when the input has none.
    public var outcome: GainMapOutcome?
    /// A map announced but unusable: said once, the output is SDR. The reason alone, without
    /// the file's name: the layer that prints it names the file (once).
    public var warning: String?
    /// The writer's record of outputs written without the map.
    public var drops = GainMapDrops()

    /// `outcome` once the outputs are written: dropped, with the writer's reason, when one of
    /// them could not carry the map after all.
    public var written: GainMapOutcome? {
        guard outcome == .kept, let why = drops.first else { return outcome }
        return .dropped(why)
    }

    /// The warning for an output written without its map (nil when all kept it), without the
    /// file's name (as `warning`).
    public var droppedWarning: String? {
        guard outcome == .kept, let why = drops.first else { return nil }
        return "\(why); the output is SDR"
    }

    public init(
        map: DecodedGainMap? = nil, outcome: GainMapOutcome? = nil, warning: String? = nil,
        drops: GainMapDrops = GainMapDrops()
    ) {
        self.map = map
        self.outcome = outcome
        self.warning = warning
        self.drops = drops
    }

    /// Reads `reader`'s gain map (after its pixels were read) for outputs in `format`: decoded
    /// only when `policy` keeps it and the format carries it.
    /// With `apply`, a PNG, AVIF or HEIC output is the HDR rendition at `headroom`; any other
    /// format is SDR with one warning.
    public static func read(
        _ reader: ImageReader, policy: GainMapPolicy, format: OutputFormat, headroom: HDRHeadroom = .mapMaximum
    ) -> GainMapCarry {
        let renders = policy == .apply && ImageWriter.rendersHDR(format)
        let decoded = reader.readGainMap(decodeIf: { map in
            (policy == .keep
                && ImageWriter.carriesGainMap(format, scheme: map.parameters.scheme, channels: map.channels))
                || renders
        })
        switch decoded {
        case .none: return GainMapCarry()
        case .malformed(let why):
            return GainMapCarry(outcome: .dropped(why), warning: "\(why); gain map ignored")
        case .found(let found):
            if policy == .apply {
                let why =
                    "--gain-map apply renders into \(ImageWriter.namesRenderingHDR) outputs only; this \(format.name) output is SDR"
                return GainMapCarry(outcome: .dropped(why), warning: "\(why) (use -o NAME.png)")
            }
            return GainMapCarry(
                outcome: .dropped(policy == .drop ? "--gain-map drop" : ImageWriter.noGainMap(format, found)))
        case .decoded(var map):
            guard renders else {
                let drops = GainMapDrops()
                map.drops = drops
                return GainMapCarry(map: map, outcome: .kept, drops: drops)
            }
            map.rendering = HDRRendering(headroom: headroom, budget: reader.options.budget, path: reader.path)
            return GainMapCarry(map: map, outcome: .applied)
        }
    }
}
