import FZSystem

extension GainMapParameters {
    /// hdrgm values chosen by a writer (the kit's gain-map fixtures): one value per channel
    /// (1 or 3), stops but the offsets. Not checked: the writer's own constants.
    package static func hdrgm(
        min: [Double], max: [Double], gamma: [Double], offsetSDR: Double, offsetHDR: Double, capacityMax: Double
    ) -> Self {
        var p = Self(scheme: .hdrgm, version: "1.0")
        p.gainMapMin = min
        p.gainMapMax = max
        p.gamma = gamma
        p.offsetSDR = [offsetSDR]
        p.offsetHDR = [offsetHDR]
        p.hdrCapacityMin = 0
        p.hdrCapacityMax = capacityMax
        return p
    }
}

extension GainMapParameters {
    /// The version an output's gain-map XMP states: the input's when it is a version number
    /// (digits and dots, up to 16 characters: hdrgm's "1.0", Apple's "65536"), else
    /// `default`. Only values forcezoom can vouch for are written: an input's `1"0` or
    /// `1&000`, copied into an attribute or an element, made the output's XMP ill-formed and
    /// its map unreadable on the next read (issue 51).
    package static func writtenVersion(_ version: String, default fallback: String) -> String {
        let v = version.trimmingWhitespace
        let number =
            !v.isEmpty && v.count <= 16 && v.first != "." && v.last != "."
            && v.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." }
        return number ? v : fallback
    }
}
