import FZMetadata
import Geometry

extension JSON {
    /// The record with what its output did with the input's regions (`"regions":{"kept",
    /// "dropped"}`), when the input has any and an output was written.
    package func noting(regions metadata: CarriedMetadata?, size: PixelSize, written: Bool) -> JSON {
        guard written, let count = metadata?.regionCount(for: size), case .object(var members) = self else {
            return self
        }
        members.append(("regions", .object([("kept", .int(count.kept)), ("dropped", .int(count.dropped))])))
        return .object(members)
    }
}
