import FZImage
import FZSystem
import Synchronization

/// `--gain-map`: what outputs do with an input's HDR gain map.
///
/// `apply` (what an HDR screen shows, `--hdr-headroom`): `GainMapCarry.read` decodes the map
/// for it as for `keep`, every command renders the map at its output's geometry and hands it
/// to `ImageWriter.write` as a `CarriedGainMap` whose `rendition` (set by the rendering layer,
/// which owns the HDR kernel) turns the output into BT.2100 PQ: a 16-bit PNG, or a 10-bit AVIF
/// or HEIC: one branch there.
public enum GainMapPolicy: String, CaseIterable, Sendable {
    /// Carried to the output's geometry; JPEG outputs are Ultra HDR, other formats drop it.
    case keep
    /// Left out: every output is SDR.
    case drop
    /// Applied: PNG, AVIF and HEIC outputs are what an HDR display shows (BT.2100 PQ: a
    /// 16-bit PNG with cICP, a 10-bit HEIC or a 12-bit AVIF with nclx).
    case apply
}

/// What `--gain-map apply` renders for: the headroom, and the budget and name of the input.
public struct HDRRendering: Sendable {
    public var headroom: HDRHeadroom
    public var budget: Budget
    public var path: String

    public init(headroom: HDRHeadroom, budget: Budget, path: String) {
        self.headroom = headroom
        self.budget = budget
        self.path = path
    }
}

/// A gain map at an output's geometry, handed to the writer with the output's pixels.
public struct CarriedGainMap: Sendable {
    /// The map, gray or RGB, as the output's geometry resampled it (values as stored).
    public var image: Image
    public var parameters: GainMapParameters
    /// With `--gain-map apply`: the output's pixels (and their colour) to the HDR rendition
    /// written instead of them, a 16-bit PQ image.
    public var rendition: (@Sendable (Image, ColorDescription?) throws(OutputError) -> Image16)?
    /// Where the writer says it wrote the output without the map (`GainMapCarry.written`).
    public var drops: GainMapDrops?

    public init(
        image: Image, parameters: GainMapParameters,
        rendition: (@Sendable (Image, ColorDescription?) throws(OutputError) -> Image16)? = nil
    ) {
        self.image = image
        self.parameters = parameters
        self.rendition = rendition
    }
}

/// Where the writer records that it wrote an output without its carried map (the map could
/// not be coded or joined to the file): shared by one input's outputs, and read by the command
/// once they are written (`GainMapCarry.written`, `droppedWarning`).
public final class GainMapDrops: Sendable {
    private let reasons = Mutex<[String]>([])

    public init() {}

    public func add(_ why: String) { reasons.withLock { $0.append(why) } }

    /// The first reason given, nil when every output kept its map.
    public var first: String? { reasons.withLock { $0.first } }
}

/// What an output did with its input's gain map, for --json (`gainMap`, `gainMapNote`).
public enum GainMapOutcome: Hashable, Sendable {
    /// Written with the output (an Ultra HDR JPEG).
    case kept
    /// Applied: the output is the HDR rendition (`--gain-map apply`).
    case applied
    /// Not written, and why.
    case dropped(String)

    public var word: String {
        switch self {
        case .kept: return "kept"
        case .applied: return "applied"
        case .dropped: return "dropped"
        }
    }

    public var note: String? {
        if case .dropped(let why) = self { return why }
        return nil
    }
}
