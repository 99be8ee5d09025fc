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
