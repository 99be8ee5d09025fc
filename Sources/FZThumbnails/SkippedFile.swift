import FZCodecs
import FZSystem

/// A file of a folder or `--from` list that a batch passes over, and why: it is no image
/// forcezoom reads (a video, a sidecar, an image format no decoder reads, text).
public struct SkippedFile: Hashable, Sendable {
    /// The file as found (its folder relative to the folder argument, for sharding).
    public let input: ThumbnailPlan.Input
    public let skip: FileContent.Skip
    /// A Live Photo's movie: the still (as found) that stands for it (`LivePhotoPairs`).
    public var of: String?

    public init(input: ThumbnailPlan.Input, skip: FileContent.Skip, of: String? = nil) {
        self.input = input
        self.skip = skip
        self.of = of
    }

    public var path: String { input.path }

    /// The `--json` record. `status` "skipped" (not attempted) is apart from the `skipped`
    /// boolean of attempted inputs, which says an output already there was kept
    /// (`--skip-existing`, `--resume`); so this record has no `skipped` boolean at all.
    public var json: JSON {
        .object(
            [
                ("input", .string(input.path)),
                ("output", .null),
                ("status", .string("skipped")),
                ("category", .string(skip.category.rawValue)),
                ("reason", .string(skip.reason)),
            ] + (of.map { [("of", JSON.string($0))] } ?? []))
    }

    /// The `--verbose` line: `photos/IMG_1.MOV: skipped: a QuickTime video, brand 'qt'`.
    public var line: String { "\(input.path): skipped: \(skip.reason)" }
}

/// The files a batch passed over, grouped for its summary: `skipped 14: 9 videos (.MOV,
/// .MP4), 3 sidecars (.AAE, .XMP), 2 not images (.txt)`.
public struct SkipTally: Hashable, Sendable {
    /// Per group: how many, and the extensions (or format names) seen, in the order met.
    private var groups: [FileContent.Skip.Category: (count: Int, kinds: [String])] = [:]
    public private(set) var count = 0

    public init() {}

    public init(_ files: [SkippedFile]) { for f in files { add(f) } }

    public mutating func add(_ file: SkippedFile) {
        count += 1
        let ext = FileSystem.fileExtension(file.path)
        // Unreadable images are listed by format (the name says less), unless only their name
        // told what they are; the rest by extension.
        let byFormat = file.skip.category == .image && !file.skip.what.contains(" by its name")
        let kind =
            file.skip.listedAs ?? (byFormat ? file.skip.what : ext.isEmpty ? "no extension" : "." + Echo.value(ext))
        var g = groups[file.skip.category] ?? (0, [])
        g.count += 1
        if !g.kinds.contains(kind) { g.kinds.append(kind) }
        groups[file.skip.category] = g
    }

    /// How many files a group holds.
    public func count(_ category: FileContent.Skip.Category) -> Int { groups[category]?.count ?? 0 }

    /// Up to this many kinds are listed per group, then "...".
    static let kindsShown = 4

    /// `skipped 14: 9 videos (.MOV, .MP4), 3 sidecars (.AAE, .XMP), 2 not images (.txt)`;
    /// nil when nothing was skipped.
    public var summary: String? {
        guard count > 0 else { return nil }
        let parts = FileContent.Skip.Category.allCases.compactMap { category -> String? in
            guard let g = groups[category] else { return nil }
            let shown = g.kinds.prefix(Self.kindsShown).joined(separator: ", ")
            return category.words(g.count) + " (\(shown)\(g.kinds.count > Self.kindsShown ? ", ..." : ""))"
        }
        return "skipped \(count): " + parts.joined(separator: ", ")
    }

    public static func == (a: SkipTally, b: SkipTally) -> Bool { a.summary == b.summary }
    public func hash(into hasher: inout Hasher) { hasher.combine(summary) }
}
