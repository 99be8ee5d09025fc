import FZCodecs
import FZFormat
import FZSystem

/// The outputs of a thumbnail batch, worked out and checked before any pixel is decoded:
/// every input gets one output path, no two inputs share one, no output is an input, and
/// every output name names a format `ImageWriter` encodes. Pure apart from the file identities it is given.
public struct ThumbnailPlan: Hashable, Sendable {
    /// An input file and where it was found.
    public struct Input: Hashable, Sendable {
        /// The path as found (argument, list entry, or folder + name).
        public let path: String
        /// The folder relative to its walk root, for `%d` ("" at the root).
        public let folder: String

        public init(path: String, folder: String = "") {
            self.path = path
            self.folder = folder
        }
    }

    /// One thumbnail to make.
    public struct Job: Hashable, Sendable {
        public let input: Input
        /// The output path (the output folder joined with the expanded name).
        public let output: String
        /// The expanded name, inside the output folder (normalised, no `..`).
        public let name: String
        /// The running index (`%i`), from 1.
        public let index: Int
        /// The format the output name asks for.
        public let format: OutputFormat
        /// The size of this output when the batch makes a ladder (`--size 320,640`); nil:
        /// the thumbnailer's one size. An input's jobs are consecutive, in the order typed.
        public var size: ThumbnailSize? = nil
    }

    public let jobs: [Job]

    /// Plans the outputs.
    /// - Parameters:
    ///   - inputs: the inputs, in order (the index follows it).
    ///   - folder: the output folder (`--out`).
    ///   - name: the name pattern.
    ///   - alsoRead: other files the batch reads (the --from list): no output may be one.
    ///   - journal: `--journal`'s file (after `%k`): it may be no input, no `alsoRead` file
    ///     and no output, by identity when it exists and by folder and name when it does not
    ///     yet. Checked here, before the journal is opened, so a refusal writes nothing.
    ///   - identity: (device, inode) of an existing file, nil when absent; used to find
    ///     outputs that are inputs under another name (links, `./a` vs `a`).
    ///   - requested: `--format`, for names whose extension names no format.
    ///   - ladder: several sizes: one job per input and size, named by `%z`/`%w`/`%h` (nil or
    ///     one size: one job per input, as ever, its size filling `%z`/`%w`/`%h`).
    /// - Throws: `ThumbnailError` for a collision, an output that is an input, an output
    ///   outside the folder, or one whose extension (or, without one it knows, `requested`)
    ///   names no format `ImageWriter` encodes: the formats and their extensions come from
    ///   `FormatRegistry` (`OutputFormat.chosen(forPath:requested:)`).
    public init(
        inputs: [Input], folder: String, name: ThumbnailName, alsoRead: [String] = [], journal: String? = nil,
        identity: (String) -> FileIdentity? = FileSystem.identity(of:), requested: OutputFormat? = nil,
        ladder: ThumbnailLadder? = nil
    ) throws(ThumbnailError) {
        let rungs: [ThumbnailSize?] = ladder?.isLadder == true ? ladder?.sizes ?? [] : [nil]
        var jobs: [Job] = []
        jobs.reserveCapacity(inputs.count)
        var owners: [String: Int] = [:]
        var inputIDs: [FileIdentity: String] = [:]
        for path in inputs.map(\.path) + alsoRead {
            // `--from -` reads the list from standard input: its file is the one to guard
            // (`--journal list.txt < list.txt` would append to the list being read).
            let id = StandardStream.isNamed(path) ? FileIdentity.ofDescriptor(0) : identity(path)
            if let id { inputIDs[id] = inputIDs[id] ?? path }
        }
        let journalCheck = journal.map { JournalCheck(path: $0, identity: identity) }
        if let journalCheck, let id = journalCheck.id, let file = inputIDs[id] {
            let role = alsoRead.contains(file) && !inputs.contains { $0.path == file } ? "the input list" : "the input"
            throw .journalIsBatchFile(journal: journalCheck.path, file: StandardStream.inputName(file), role: role)
        }
        for (i, input) in inputs.enumerated() {
            for size in rungs {
                let relative = name.expand(
                    input: input.path, folder: input.folder, index: i + 1, size: size ?? ladder?.sizes.first)
                let output = ThumbnailName.normalize(FileSystem.join(folder, relative))
                if relative.split(separator: "/").contains("..") {
                    throw .outsideOutputFolder(input: input.path, output: output)
                }
                let chosen = try? OutputFormat.chosen(forPath: output, requested: requested).get()
                guard let format = chosen else {
                    throw .unsupportedOutputFormat(output: output)
                }
                if let first = owners[output] {
                    // Job indexes: with a ladder an input has several (`rungs.count` each).
                    let all =
                        jobs.indices.filter { j in j == first || (j > first && jobs[j].output == output) }
                        .map { jobs[$0].input.path } + [input.path]
                    throw .collision(output: output, inputs: all)
                }
                owners[output] = jobs.count
                let outputID = identity(output)
                if let id = outputID, let victim = inputIDs[id] {
                    throw .wouldOverwriteInput(input: victim, output: output)
                }
                if let journalCheck, journalCheck.isPath(output, id: outputID, identity: identity) {
                    throw .journalIsBatchFile(
                        journal: journalCheck.path, file: output, role: "the output of \(input.path)")
                }
                jobs.append(
                    Job(
                        input: input, output: output, name: ThumbnailName.normalize(relative), index: i + 1,
                        format: format,
                        size: size))
            }
        }
        self.jobs = jobs
    }

    /// The folders the outputs go in, relative to the output folder, each once, in order of first use (to create them
    /// before the batch starts).
    public var folders: [String] { Self.folders(of: jobs) }

    /// The folders some of the jobs' outputs go in (a shard's), each once, in order of first use.
    public static func folders(of jobs: [Job]) -> [String] {
        var seen = Set<String>()
        return jobs.map { FileSystem.directory(of: $0.name) }.filter { seen.insert($0).inserted }
    }
}

/// Whether a path names the journal: the same file when the journal exists; when it does not
/// yet, the same name in the same folder (the folder by identity, so `./t/j` and `t/j`, or a
/// link to `t`, count), which is where opening it would create it.
private struct JournalCheck {
    let path: String
    let id: FileIdentity?
    private let name: String
    private let folderID: FileIdentity?

    init(path: String, identity: (String) -> FileIdentity?) {
        self.path = path
        id = identity(path)
        name = FileSystem.basename(path)
        folderID = id == nil ? identity(FileSystem.directory(of: path)) : nil
    }

    func isPath(_ other: String, id otherID: FileIdentity?, identity: (String) -> FileIdentity?) -> Bool {
        if let id { return otherID == id }
        guard FileSystem.basename(other) == name else { return false }
        if ThumbnailName.normalize(other) == ThumbnailName.normalize(path) { return true }
        guard let folderID else { return false }
        return identity(FileSystem.directory(of: other)) == folderID
    }
}
