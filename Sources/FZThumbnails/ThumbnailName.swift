import FZSystem

/// A `--name` pattern: how an input's thumbnail is named inside the output folder.
///
/// `%s` the input's stem (name without its last extension), `%e` its extension (no dot),
/// `%d` its folder relative to where it was found (for mirroring a tree), `%i` its
/// running index from 1, `%%` a percent sign. Slashes make subfolders. The output format
/// comes from the extension of the expanded name.
///
/// For a ladder of sizes (`--size 320,640x480`): `%z` the size as typed (`320`, `640x480`),
/// `%w` and `%h` its box width and height (`320` and `320` for `320`; empty for a side not
/// given, as in `640x`). The box, not the image's final size: names are fixed when the batch
/// is planned, before any header is read (collisions, `--dry-run` and `--resume` need them),
/// and two sizes may shrink one small image to the same pixels.
public struct ThumbnailName: Hashable, Sendable, CustomStringConvertible {
    /// One piece of a parsed pattern.
    package enum Piece: Hashable, Sendable {
        case text(String)
        case stem, fileExtension, folder, index
        /// `%z`, `%w`, `%h`: the size as typed, its box width and height.
        case size, width, height
    }

    public let pattern: String
    package let pieces: [Piece]

    /// The default: `%s.thumb.png`, beside each other in the output folder.
    public static let defaultPattern = "%s.thumb.png"
    /// The default pattern, parsed.
    public static let standard: ThumbnailName = {
        do { return try ThumbnailName(defaultPattern) } catch {
            preconditionFailure("the default pattern parses: \(error)")
        }
    }()

    /// Parses a pattern.
    /// - Parameter pattern: the text given to `--name`.
    /// - Throws: `ThumbnailError.invalidPattern` for an unknown `%` code, a trailing `%`,
    ///   an absolute path or a pattern that names no file.
    public init(_ pattern: String = defaultPattern) throws(ThumbnailError) {
        func fail(_ reason: String) -> ThumbnailError { .invalidPattern(pattern: pattern, reason: reason) }
        var pieces: [Piece] = []
        var text = ""
        var escaped = false
        for ch in pattern {
            if escaped {
                escaped = false
                let piece: Piece
                switch ch {
                case "s": piece = .stem
                case "e": piece = .fileExtension
                case "d": piece = .folder
                case "i": piece = .index
                case "z": piece = .size
                case "w": piece = .width
                case "h": piece = .height
                case "%":
                    text.append("%")
                    continue
                default: throw fail("unknown code %\(ch)")
                }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(piece)
            } else if ch == "%" {
                escaped = true
            } else {
                text.append(ch)
            }
        }
        if escaped { throw fail("it ends with a lone %") }
        if !text.isEmpty { pieces.append(.text(text)) }
        if pattern.hasPrefix("/") { throw fail("it is an absolute path; names are relative to --out") }
        if pattern.isEmpty || pattern.hasSuffix("/") { throw fail("it names no file") }
        if pattern.split(separator: "/").contains("..") { throw fail("'..' would leave --out") }
        self.pattern = pattern
        self.pieces = pieces
    }

    /// The expanded name, relative to the output folder, with empty folders and `.`
    /// components removed (`%d/%s.png` for a file at the walk root is just `name.png`).
    /// - Parameters:
    ///   - input: the input path.
    ///   - folder: the input's folder relative to its walk root ("" at the root).
    ///   - index: the running index, from 1.
    ///   - size: the size made (`%z`, `%w`, `%h`); nil leaves them empty.
    public func expand(input: String, folder: String, index: Int, size: ThumbnailSize? = nil) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .stem: out += FileSystem.stem(input)
            case .fileExtension: out += FileSystem.fileExtension(input)
            case .folder: out += folder
            case .index: out += String(index)
            case .size: out += size?.asTyped ?? ""
            case .width: out += size?.width.map(String.init) ?? ""
            case .height: out += size?.height.map(String.init) ?? ""
            }
        }
        // Relative always: the pattern is, and an empty %d must not leave a leading slash.
        return String(Self.normalize(out).drop(while: { $0 == "/" }))
    }

    /// Whether every size of `ladder` gets a name of its own (the pattern has `%z`, or `%w`
    /// and `%h` that tell these sizes apart): else their outputs would collide.
    public func distinguishes(_ ladder: ThumbnailLadder) -> Bool {
        let names = ladder.sizes.map { expand(input: "a.jpg", folder: "", index: 1, size: $0) }
        return Set(names).count == names.count
    }

    /// Collapses `//` and drops `.` components (a relative path stays relative).
    package static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    public var description: String { pattern }
}
