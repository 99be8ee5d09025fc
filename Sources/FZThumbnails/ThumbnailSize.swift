/// A thumbnail size as vipsthumbnail and ImageMagick users write it: `256` (longest side
/// 256, i.e. fit a 256x256 box), `256x192` (fit inside that box), `256x` (width 256) or
/// `x192` (height 192), optionally followed by one modifier: `>` only shrink (the default:
/// a thumbnail never enlarges), `<` only enlarge, `!` exactly that size, ignoring aspect.
public struct ThumbnailSize: Hashable, Sendable, CustomStringConvertible {
    /// Which way the image may be scaled.
    public enum Mode: Hashable, Sendable {
        /// `>`: scale down to fit; an image already inside the box keeps its size.
        case shrinkOnly
        /// `<`: scale up to fit; an image already larger than the box keeps its size.
        case enlargeOnly
        /// `!`: exactly the given size; a missing side keeps the image's own.
        case exact
    }

    /// The box width (nil: no limit across).
    public let width: Int?
    /// The box height (nil: no limit down).
    public let height: Int?
    public let mode: Mode
    /// The spec as the user typed it (`200x`), for messages; nil when made from numbers.
    /// Not part of the value: `256` and `256x256>` are the same size.
    public private(set) var typed: String?

    /// The largest side accepted: JPEG's own limit, and far beyond any thumbnail.
    public static let maximumSide = 65500

    public init(width: Int?, height: Int?, mode: Mode = .shrinkOnly) {
        precondition(width != nil || height != nil, "a thumbnail size needs a side")
        self.width = width
        self.height = height
        self.mode = mode
    }

    /// Parses a spec such as `256`, `256x192`, `x192`, `256x`, `256x192!`, `800<`.
    /// - Parameter spec: the text given to `--size`.
    /// - Throws: `ThumbnailError.invalidSize` saying what is wrong.
    public init(parsing spec: String) throws(ThumbnailError) {
        func fail(_ reason: String) -> ThumbnailError { .invalidSize(spec: spec, reason: reason) }
        var body = Substring(spec.lowercased())
        var mode = Mode.shrinkOnly
        if let last = body.last, let m = Self.modifiers[last] {
            mode = m
            body = body.dropLast()
        }
        if body.contains(where: { Self.modifiers[$0] != nil }) {
            throw fail("give at most one modifier, at the end")
        }
        func side(_ text: Substring, _ name: String) throws(ThumbnailError) -> Int? {
            if text.isEmpty { return nil }
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text) else {
                throw fail("the \(name) '\(text)' is not a whole number")
            }
            guard n > 0 else { throw fail("the \(name) must be positive") }
            guard n <= Self.maximumSide else { throw fail("the \(name) \(n) is over the limit of \(Self.maximumSide)") }
            return n
        }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard !body.isEmpty else { throw fail("no size given") }
            let n = try side(parts[0], "size")
            self.init(width: n, height: n, mode: mode)
        case 2:
            let w = try side(parts[0], "width")
            let h = try side(parts[1], "height")
            guard w != nil || h != nil else { throw fail("give a width, a height or both around the x") }
            self.init(width: w, height: h, mode: mode)
        default:
            throw fail("more than one x")
        }
        typed = spec
    }

    public static func == (a: ThumbnailSize, b: ThumbnailSize) -> Bool {
        a.width == b.width && a.height == b.height && a.mode == b.mode
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(mode)
    }

    /// What the user typed, or the canonical spec: what messages quote.
    public var asTyped: String { typed ?? description }

    private static let modifiers: [Character: Mode] = [">": .shrinkOnly, "<": .enlargeOnly, "!": .exact]

    /// True when both sides are given: a box that `--crop` can fill.
    public var isBox: Bool { width != nil && height != nil }

    /// The canonical spec (`256x256>` for `256`).
    public var description: String {
        let m: String
        switch mode {
        case .shrinkOnly: m = ">"
        case .enlargeOnly: m = "<"
        case .exact: m = "!"
        }
        return (width.map(String.init) ?? "") + "x" + (height.map(String.init) ?? "") + m
    }
}
