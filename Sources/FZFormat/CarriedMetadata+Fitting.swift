import FZMetadata

extension CarriedMetadata {
    /// This metadata as `format`'s containers can hold it (`fitting(_: MetadataContainers)`).
    public func fitting(_ format: OutputFormat) -> (CarriedMetadata?, warnings: [String]) { fitting(format.metadata) }
}
