import FZSystem

/// An input taken once because it is the same file (device and inode) as one taken before it:
/// named twice, or named beside its folder (`thumb link.jpg dir/` with the link pointing into
/// `dir`). Each thumbnail is made once, and the summary names what was dropped (issue 37), so
/// an input never goes missing without a word.
public struct DuplicateInput: Hashable, Sendable {
    /// The input dropped, as found (its folder relative to the folder argument, for sharding).
    public let input: ThumbnailPlan.Input
    /// The path of the input taken instead.
    public let sameAs: String

    public init(input: ThumbnailPlan.Input, sameAs: String) {
        self.input = input
        self.sameAs = sameAs
    }

    /// `link.jpg (the same file as dir/a.jpg)`, or `a.jpg (given twice)`.
    public var words: String {
        let path = Echo.value(input.path)
        return sameAs == input.path ? "\(path) (given twice)" : "\(path) (the same file as \(Echo.value(sameAs)))"
    }

    /// Up to this many are named in the summary, then how many more.
    static let shown = 3

    /// `taken once: link.jpg (the same file as dir/a.jpg)`; nil when there are none.
    public static func summary(_ all: [DuplicateInput]) -> String? {
        guard !all.isEmpty else { return nil }
        let named = all.prefix(shown).map(\.words).joined(separator: ", ")
        let more = all.count > shown ? ", and \(all.count - shown) more" : ""
        return "taken once: " + named + more
    }
}
