import FZGainMap
import FZSystem

extension JSON {
    /// This record with what its output did with the input's gain map (`gainMap`: "kept" or
    /// "dropped", and `gainMapNote`: why it was dropped); unchanged for an input without one.
    package func noting(_ outcome: GainMapOutcome?) -> JSON {
        guard let outcome, case .object(var members) = self else { return self }
        members.append(("gainMap", .string(outcome.word)))
        if let note = outcome.note { members.append(("gainMapNote", .string(note))) }
        return .object(members)
    }
}
