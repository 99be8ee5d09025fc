import FZRender
import FZSystem

/// The pins a command draws: `--marker` values and a `--markers` file, read when the
/// operation runs (after its input is opened, so a missing input is the error reported first).
public struct MarkerSource: Sendable {
    /// `--marker` values, each X,Y[,label] (checked by the command line).
    public var inline: [String]
    /// `--markers`: a CSV or JSON file of pins.
    public var file: String?

    public init(inline: [String] = [], file: String? = nil) {
        self.inline = inline
        self.file = file
    }

    /// Whether any pin is asked for.
    public var isEmpty: Bool { inline.isEmpty && file == nil }

    /// All pins: the inline ones, then the file's.
    public func load() throws -> [Marker] {
        var out: [Marker] = []
        for m in inline { out += (try? Marker.parseList(m, file: "--marker")) ?? [] }
        if let file {
            let text: String
            do { text = try FileSystem.readText(file, limit: Marker.maxFileBytes) } catch {
                throw ToolFailure(
                    "\(Echo.value(file)): cannot read marker file: \(FileSystem.readFailure(error, limit: Marker.maxFileBytes))"
                )
            }
            out += try Marker.parseList(text, file: file)
        }
        return out
    }
}
