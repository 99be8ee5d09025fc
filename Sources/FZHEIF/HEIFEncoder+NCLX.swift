extension HEIFEncoder {
    /// A `colr` `nclx` box's values (ITU-T H.273 code points), which libheif also converts
    /// RGB to YCbCr by.
    package struct NCLX: Hashable, Sendable {
        package var primaries: UInt16
        package var transfer: UInt16
        package var matrix: UInt16
        package var fullRange: Bool

        /// BT.2100 PQ: BT.2020 primaries (9), the ST 2084 curve (16), BT.2020's
        /// non-constant-luminance matrix (9), full range, as the PQ PNG's cICP (9, 16, 0, 1)
        /// states for RGB (a YCbCr codec needs a matrix; 0 would code RGB as GBR planes).
        package static let pq = NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: true)
    }
}
