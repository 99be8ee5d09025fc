/// Where a command looks: the one vocabulary `crop --at`, `thumb --crop-at` and `frame --at`
/// take. A point as numbers, or a place the file or its pixels say: a region its metadata
/// names, its faces, the most interesting part of its pixels, or the centre.
public enum Where: Hashable, Sendable, CustomStringConvertible {
    /// `X,Y` or `X%,Y%` (or a view point with `--view`).
    case point(TouchPoint)
    /// `region:NAME`: the region of that name (case-insensitive), or `region:N`, the Nth (from 1).
    case region(String)
    /// `face`: the largest face region; for a crop box, all of them framed together.
    case face
    /// `attention`: the faces when the file names some, else the most salient part of the
    /// pixels (edges, colour and luminance contrast, skin tones).
    case attention
    /// `entropy`: the part of the pixels with the most varied luminance.
    case entropy
    /// `center` (or `centre`): the middle of the upright image.
    case center

    /// The words besides numbers, for messages and help.
    public static let words = "X,Y, X%,Y%, region:NAME, region:N, face, attention, entropy or center"

    /// Parses one of `words`; nil for anything else.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        switch lower {
        case "face", "faces": self = .face
        case "attention": self = .attention
        case "entropy": self = .entropy
        case "center", "centre": self = .center
        default:
            if lower.hasPrefix("region:") {
                let name = String(text.dropFirst("region:".count))
                guard !name.isEmpty else { return nil }
                self = .region(name)
                return
            }
            guard let t = TouchPoint(parsing: text) else { return nil }
            self = .point(t)
        }
    }

    /// The touch point when it is one.
    public var touch: TouchPoint? {
        if case .point(let t) = self { return t }
        return nil
    }

    /// Whether finding it needs the pixels (a reduced decode before the real one).
    public var needsPixels: Bool { self == .attention || self == .entropy }

    /// Whether finding it needs the file's regions.
    public var needsRegions: Bool {
        switch self {
        case .region, .face, .attention: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .point(let t): return t.description
        case .region(let name): return "region:\(name)"
        case .face: return "face"
        case .attention: return "attention"
        case .entropy: return "entropy"
        case .center: return "center"
        }
    }
}
