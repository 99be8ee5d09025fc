import FZMetadata
import FZRender

extension RegionReading {
    /// Every region as `--outline-regions` draws it: labelled with its number (from 1, what
    /// `region:N` takes) and its name, or its type when it has none ("2 Marie Curie", "3 face").
    package var outlines: [RegionOutline] {
        regions.enumerated().map { i, r in RegionOutline(rect: r.rect, label: "\(i + 1) \(r.name ?? r.type)") }
    }
}
