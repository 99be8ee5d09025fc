import FZMetadata
import FZSystem
import Geometry

extension ImageRegion {
    /// `info --json`'s record of a region: its name (null when unnamed), type, source and
    /// rectangle in upright pixels (edges rounded to the nearest pixel).
    package var json: JSON {
        .object([
            ("name", name.map { .string($0) } ?? .null), ("type", .string(type)), ("source", .string(source.rawValue)),
            ("rect", pixelRect.json),
        ])
    }

    /// `info`'s words for a region: `"Marie Curie" face 95x139+262+146 (mwg)`.
    package var summary: String {
        (name.map { "\"\($0)\" " } ?? "") + "\(type) \(pixelRect) (\(source.rawValue))"
    }
}
