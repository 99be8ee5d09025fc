import FZFixtures
import FZSystem

/// `forcezoom fixture kit DIR`: the kit's sets of fixtures with their references and
/// manifests written into a folder (made if missing).
public struct FixtureKitOperation {
    public var sets: [KitSet]
    public var directory: String

    public init(sets: [KitSet], directory: String) {
        self.sets = sets
        self.directory = directory
    }

    public func run(_ report: Report) throws {
        let summary = try KitWriter.write(KitPlan.entries(for: sets), sets: sets, to: directory)
        report.line(
            "\(Echo.value(directory)): \(summary.files) fixtures, \(summary.references) references, MANIFEST.json, MANIFEST.tsv"
        )
    }
}
