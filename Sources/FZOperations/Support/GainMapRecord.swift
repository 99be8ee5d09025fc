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

extension JSON {
    /// This record with what its output did with a motion photo's clip (issue 50): always
    /// `"motionPhoto":"dropped"` and why (`motionPhotoNote`); unchanged for any other input
    /// or when nothing was written.
    package func noting(motionClip note: String?, written: Bool) -> JSON {
        guard let note, written, case .object(var members) = self else { return self }
        members += [("motionPhoto", .string("dropped")), ("motionPhotoNote", .string(note))]
        return .object(members)
    }
}
