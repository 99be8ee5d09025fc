import FZCodecs
import FZFormat
import FZGainMap
import FZImage
import FZMetadata
import FZSystem
import FZThumbnails

/// Where a command writes its images, decided once before any work: nowhere (`--show`
/// without `-o`), standard output, a list of files known up front, a numbered series
/// (`peek`'s saves), or a folder with a name pattern (`thumb`'s batch) — with the format and
/// encoding each name gets (`OutputChoice`).
///
/// Why one value: the path of output N, its format, its encoding and the check that it is
/// no input were worked out in several places, which disagreed (an output named after a
/// file that came in on standard input was written before it was refused). Every path is
/// checked against every input by file identity (`checkNotInputs`) before the first byte.
public struct OutputTarget: Sendable {
    public enum Place: Hashable, Sendable {
        /// Nothing is written (`--show` without `-o`).
        case none
        case standardOutput
        /// One path per output, in order.
        case files([String])
        /// Output N (from 1) is the pattern's path N: a series whose length is not known.
        case numbered(OutputPattern)
        /// Every output below one folder, named from its input by a pattern (`thumb --out`
        /// and `--name`): the batch's plan resolves each name, after the inputs are walked,
        /// and checks each against the inputs by file identity before anything is written.
        case folder(String, names: ThumbnailName)
    }

    public let place: Place
    /// The format, quality, lossless mode, PNG settings and flattening colour.
    public var choice: OutputChoice

    public init(_ place: Place, choice: OutputChoice = OutputChoice()) {
        self.place = place
        self.choice = choice
    }

    /// `-o` as typed for `count` outputs: "-" is standard output; a name is a pattern when
    /// `count` > 1 (the command line checked its %d) and a plain path otherwise; without
    /// `-o`, `defaultName(n)` names output n (from 1).
    public init(
        named: String?, count: Int = 1, patterned: Bool = false, choice: OutputChoice,
        defaultName: (Int) -> String
    ) {
        guard let named else {
            self.init(.files((1...max(1, count)).map(defaultName)), choice: choice)
            return
        }
        if StandardStream.isNamed(named) {
            self.init(.standardOutput, choice: choice)
        } else if patterned || count > 1, let pattern = try? OutputPattern(parsing: named) {
            self.init(.files((1...max(1, count)).map(pattern.path)), choice: choice)
        } else {
            self.init(.files(Array(repeating: named, count: max(1, count))), choice: choice)
        }
    }

    /// Whether anything is written.
    public var writes: Bool { place != .none }

    /// A `.folder` target's folder and name pattern, else nil.
    public var folder: (path: String, names: ThumbnailName)? {
        if case .folder(let path, let names) = place { return (path, names) }
        return nil
    }

    /// The path of output `index` (from 0): "-" for standard output.
    public func path(_ index: Int) -> String {
        switch place {
        case .none, .standardOutput: return StandardStream.argument
        case .files(let paths): return paths[min(index, paths.count - 1)]
        case .numbered(let pattern): return pattern.path(index + 1)
        case .folder(let folder, _): return folder
        }
    }

    /// The path of output `index` when it is written, else nil.
    public func writtenPath(_ index: Int) -> String? { writes ? path(index) : nil }

    /// The format output `index` is written in.
    public func format(_ index: Int = 0) -> OutputFormat { choice.format(for: path(index)) }

    /// Refuses, before anything is written, an output that is one of `inputs` (by file
    /// identity: links and `./a.png` count; "-" is the file standard input comes from) or
    /// a file this process has read. A numbered series is checked as each file is made.
    public func checkNotInputs(_ inputs: [String]) throws(ToolFailure) {
        guard case .files(let paths) = place else { return }
        var protected = Set<FileIdentity>()
        for input in inputs {
            let id = StandardStream.isNamed(input) ? FileIdentity.ofDescriptor(0) : FileSystem.identity(of: input)
            if let id { protected.insert(id) }
        }
        for path in paths {
            guard let id = FileSystem.identity(of: path), protected.contains(id) || ReadFiles.contains(id) else {
                continue
            }
            throw ToolFailure(
                "\(Echo.value(path)): output is the input file; forcezoom never overwrites an input (choose another -o)"
            )
        }
    }

    /// Two outputs of one command on the same path (standard output aside): the message
    /// naming both options, or nil. Found before any work: the command line says it as a
    /// usage error, and `animate` again once its frames' paths are known.
    public static func clash(_ outputs: [(option: String, path: String)]) -> String? {
        var seen: [String: String] = [:]
        for (option, path) in outputs where !StandardStream.isNamed(path) {
            if let first = seen[path] {
                return "\(first) and \(option) both write '\(Echo.value(path))'; give each output its own path"
            }
            seen[path] = option
        }
        return nil
    }

    /// Writes `image` as output `index`; the bytes written (nil for standard output). With
    /// `gainMap` (the input's map at this output's geometry) a JPEG is written as Ultra HDR.
    @discardableResult
    package func write(
        _ image: Image, _ index: Int = 0, protecting inputs: [String], color: ColorDescription? = nil,
        metadata: CarriedMetadata? = nil, threads: Int = Threads.perImage, gainMap: CarriedGainMap? = nil
    ) throws(OutputError) -> Int64? {
        let path = path(index)
        return try ImageWriter.write(
            image, to: path, encoding: choice.encoding(for: path), protecting: inputs, threads: threads, color: color,
            background: choice.background, metadata: metadata, gainMap: gainMap)
    }

    /// Writes an encoded file's bytes (an animation) as output `index`: a temp file renamed
    /// into place, as every output; the bytes written (nil for standard output).
    @discardableResult
    package func writeBytes(_ bytes: [UInt8], _ index: Int = 0, protecting inputs: [String]) throws(OutputError)
        -> Int64?
    {
        try ImageWriter.write(encoded: bytes, to: path(index), protecting: inputs)
    }

    /// Writes a 16-bit image as output `index` (a format that `writes16Bit`: PNG, JPEG XL).
    @discardableResult
    package func write(
        _ image: Image16, _ index: Int = 0, protecting inputs: [String], color: ColorDescription? = nil,
        metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        let path = path(index)
        return try ImageWriter.write(
            image, to: path, settings: choice.png, protecting: inputs, color: color, metadata: metadata,
            encoding: choice.encoding(for: path))
    }
}
