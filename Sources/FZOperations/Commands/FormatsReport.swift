import FZCodecs
import FZFormat
import FZSystem

/// `forcezoom info --formats`: every format forcezoom reads or writes, with the library it is
/// opened with on first use and whether that library loaded on this machine (issue 48: a
/// missing library fails only its format's files, and this says which). One row per name
/// users know a format by, read from the registry (`FormatRegistry.inputs`, `OutputFormat.all`),
/// so no format can be left out. Tools/deb/make-deb.sh reads the package's Depends from the
/// JSON (docs/json/info-formats.schema.json).
public struct FormatsReport {
    /// One format.
    public struct Row: Sendable {
        /// The name users know it by ("JPEG XL", "HEIF/HEIC").
        public var name: String
        /// The file extensions that say it, lower case.
        public var extensions: [String]
        public var read: Bool
        public var write: Bool
        /// The library opened on first use; nil when linked into the binary.
        public var library: FormatLibrary?
        /// Why `library` cannot be loaded here, or nil when it loaded (or is linked).
        public var problem: String?
    }

    public let rows: [Row]

    /// The registry's formats; each library is opened (once) to say whether it loads.
    public init() {
        var rows: [Row] = []
        let outputs = OutputFormat.all
        for input in FormatRegistry.inputs {
            for name in input.names {
                // An encoder writes the decoder's format when its name is one of the name's
                // spellings ("HEIC" of "HEIF/HEIC").
                let output = outputs.first { name.split(separator: "/").contains(Substring($0.name)) }
                let extensions = input.names.count > 1 ? output?.extensions ?? input.extensions : input.extensions
                rows.append(
                    Row(
                        name: name, extensions: extensions, read: true, write: output != nil,
                        library: input.library ?? output?.library))
            }
        }
        for output in outputs
        where !rows.contains(where: { $0.name.split(separator: "/").contains(Substring(output.name)) }) {
            rows.append(
                Row(name: output.name, extensions: output.extensions, read: false, write: true, library: output.library)
            )
        }
        for i in rows.indices { rows[i].problem = rows[i].library?.loadProblem }
        self.rows = rows
    }

    /// Prints one line (text) or one JSON record per format.
    public func run(_ report: Report, json: Bool) {
        let width = rows.map(\.name.count).max() ?? 0
        for row in rows {
            report.line(json ? Self.record(row).description : Self.text(row, width: width))
        }
    }

    /// "TIFF       read        libtiff.so.6 (libtiff6): loaded".
    static func text(_ row: Row, width: Int) -> String {
        let name = row.name + String(repeating: " ", count: max(0, width - row.name.count))
        let abilities = (row.read ? "read " : "-    ") + (row.write ? "write" : "-    ")
        guard let library = row.library else { return "\(name)  \(abilities)  linked" }
        let state = row.problem.map { "unavailable: \($0); apt-get install \(library.package)" } ?? "loaded"
        return "\(name)  \(abilities)  \(library): \(state)"
    }

    /// The row as docs/json/info-formats.schema.json has it.
    static func record(_ row: Row) -> JSON {
        var library = JSON.null
        if let l = row.library {
            var members: [(String, JSON)] = [
                ("name", .string(l.name)), ("sonames", .array(l.sonames.map { .string($0) })),
                ("package", .string(l.package)), ("depends", .string(l.dependency)),
                ("loaded", .bool(row.problem == nil)),
            ]
            if let problem = row.problem { members.append(("error", .string(problem))) }
            library = .object(members)
        }
        return JSON.record([
            ("format", .string(row.name)), ("extensions", .array(row.extensions.map { .string($0) })),
            ("read", .bool(row.read)), ("write", .bool(row.write)), ("library", library),
        ])
    }
}
