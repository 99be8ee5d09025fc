/// Warnings kept to be said later, in the order they came: `CropOperation` works out what
/// its outputs carry before the decode and says those warnings where it said them after it.
/// A class: the held settings' closures append to it.
final class HeldWarnings {
    /// Warnings taken out together, each said as it was (`say`, or `once`).
    struct Batch {
        fileprivate let lines: [(once: Bool, text: String)]

        func say(to warnings: Warnings) {
            for line in lines { line.once ? warnings.once(line.text) : warnings.say(line.text) }
        }
    }

    private var lines: [(once: Bool, text: String)] = []

    /// `settings` with its warnings held, and what holds them.
    static func holding(_ settings: RenderSettings) -> (RenderSettings, HeldWarnings) {
        let holder = HeldWarnings()
        var held = settings
        held.warnings = Warnings(say: { holder.lines.append((false, $0)) }, once: { holder.lines.append((true, $0)) })
        return (held, holder)
    }

    /// The warnings held since the last take.
    func take() -> Batch {
        defer { lines = [] }
        return Batch(lines: lines)
    }
}
