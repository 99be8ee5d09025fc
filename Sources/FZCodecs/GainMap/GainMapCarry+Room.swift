import FZGainMap
import FZMetadata

extension GainMapCarry {
    /// This carry for an output carrying `metadata`: a map an Ultra HDR JPEG would keep, but
    /// whose description does not fit beside that XMP (`UltraHDRContainer.noRoom`), is
    /// dropped with that reason and one warning (the output is the SDR JPEG alone). `metadata`
    /// is only worked out for a kept map. The warning is the reason alone: who says it names the file.
    public func fitting(_ metadata: @autoclosure () -> CarriedMetadata?) -> GainMapCarry {
        guard outcome == .kept, let why = UltraHDRContainer.noRoom(beside: metadata()) else {
            return self
        }
        return GainMapCarry(outcome: .dropped(why), warning: why)
    }
}
