extension Orientation {
    /// The map from a stored picture of `stored` size to its upright picture (what
    /// `Image.oriented` does to pixels), as an affine transform of continuous coordinates: a
    /// rectangle's corners go where its pixels go. Regions follow an output's turns with it.
    public func uprightTransform(stored: PixelSize) -> AffineTransform {
        let w = Double(stored.width)
        let h = Double(stored.height)
        switch self {
        case .up: return .identity
        case .mirrored: return AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .rotate180: return AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .flipped: return AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .transposed: return AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .rotate90: return AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case .transverse: return AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .rotate270: return AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        }
    }
}
