/// `thumb --size 320,640,1280`: the sizes made of every input, from one decode (issue 38).
/// One size is today's `--size`; a comma list is a ladder (`srcset`), each entry any
/// `ThumbnailSize` spec (`320,640x480,1280!`). Kept in the order typed; the batch makes
/// them largest first, each smaller one from the decode or from a larger result.
public struct ThumbnailLadder: Hashable, Sendable, CustomStringConvertible {
    /// The sizes, in the order typed (one at least, at most `maximumCount`, no two equal).
    public let sizes: [ThumbnailSize]

    /// The most sizes one batch makes of each input: a `srcset` ladder has 3 to 6; 16 keeps
    /// a typo (a pasted list) from turning one input into hundreds of encodes.
    public static let maximumCount = 16

    public init(_ size: ThumbnailSize) { sizes = [size] }

    /// Parses `--size`: one spec, or several separated by commas.
    /// - Throws: `ThumbnailError.invalidSize` for an entry that does not parse, and
    ///   `.invalidSizeList` for an empty entry, two equal sizes or more than 16.
    public init(parsing text: String) throws(ThumbnailError) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if entries.count == 1 {
            sizes = [try ThumbnailSize(parsing: text)]
            return
        }
        func fail(_ reason: String) -> ThumbnailError { .invalidSizeList(spec: text, reason: reason) }
        guard entries.count <= Self.maximumCount else {
            throw fail("\(entries.count) sizes, more than the \(Self.maximumCount) one batch makes; run it twice")
        }
        var parsed: [ThumbnailSize] = []
        for (i, entry) in entries.enumerated() {
            guard !entry.isEmpty else { throw fail("entry \(i + 1) is empty; separate sizes by one comma") }
            let size = try ThumbnailSize(parsing: entry)
            if let first = parsed.firstIndex(of: size) {
                throw fail("\(parsed[first].asTyped) and \(entry) are the same size; give each size once")
            }
            parsed.append(size)
        }
        sizes = parsed
    }

    /// More than one size: the outputs need a size in their names.
    public var isLadder: Bool { sizes.count > 1 }

    /// The sizes as typed, comma-separated (what messages quote).
    public var asTyped: String { sizes.map(\.asTyped).joined(separator: ",") }

    public var description: String { asTyped }
}
