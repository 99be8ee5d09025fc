import FZSystem

#if canImport(Glibc)
import Glibc
#endif

extension Journal {
    /// The longest line `read` takes as a record: two paths of PATH_MAX (4096) bytes, each
    /// byte escaped at worst as `\u00XX` (6), the hash, the shard and the keys. An `ok`
    /// record always fits; a longer line (a failed record with a long message, or any other
    /// file's text) is passed over like a torn one, and only the first `maxLine` bytes of it
    /// are ever held.
    public static let maxLine = 2 * 6 * 4096 + 1024

    /// What one kept record is counted as against the budget: its strings and the table's
    /// own overhead per entry (a generous estimate; the point is a bound, not a ledger).
    fileprivate static func cost(_ record: JournalRecord) -> Int64 {
        Int64(record.input.utf8.count + record.output.utf8.count + (record.sha256?.utf8.count ?? 0)) + 256
    }

    /// The inputs a journal says are done, each with its last record, when that says `ok`
    /// (a later `failed` record takes an input out again); an empty table when the file is
    /// missing. Lines that are not records (a torn line from a killed task, a line longer
    /// than `maxLine`) are passed over.
    ///
    /// Why streamed: a journal may hold millions of lines, or be any file at all (one
    /// line of 300 MB); memory must follow the number of distinct inputs done, not the
    /// file's size, and the table is checked against `budget` as it grows.
    /// - Throws: `ShardError.journal` when it cannot be read, holds no record at all in more
    ///   than one line (it is not a journal), or its table would be over the budget.
    /// - Parameter key: what a record is filed under (`--resume` uses `outputKey`: an input
    ///   of a ladder has one output per size, each done or not on its own).
    public static func read(
        _ path: String, budget: Budget = Budget(), key: @escaping (JournalRecord) -> String = \.input
    ) throws(ShardError) -> [String: JournalRecord] {
        if FileSystem.kind(of: path) == .missing { return [:] }
        let file: CFile
        switch CFile.open(readingFrom: path) {
        case .success(let f): file = f
        case .failure(let e): throw .journal(path: path, reason: "cannot be read for --resume: \(e)")
        }
        var table = Table(path: path, budget: budget, key: key)
        var line: [UInt8] = []
        var tooLong = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                file.withStream { fread(raw.baseAddress, 1, raw.count, $0) }
            }
            if count == 0 { break }
            try buffer.withUnsafeBufferPointer { (piece) throws(ShardError) in
                var start = 0
                while start < count {
                    // memchr: a line of hundreds of megabytes is scanned at memory speed.
                    let found = memchr(piece.baseAddress! + start, 10, count - start)
                    let end = found.map { piece.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
                    let stop = end ?? count
                    if !tooLong {
                        if line.count + (stop - start) > maxLine {
                            (tooLong, line) = (true, [])
                        } else {
                            line.append(contentsOf: UnsafeBufferPointer(rebasing: piece[start..<stop]))
                        }
                    }
                    guard end != nil else { break }
                    try table.take(tooLong ? nil : line)
                    line.removeAll(keepingCapacity: true)
                    tooLong = false
                    start = stop + 1
                }
            }
        }
        if file.hasError { throw .journal(path: path, reason: "cannot be read for --resume: \(Errno(EIO))") }
        if tooLong || !line.isEmpty { try table.take(tooLong ? nil : line) }
        if table.records == 0 && table.lines > 1 {
            throw .journal(path: path, reason: "holds no journal record; name the file --journal wrote, or another one")
        }
        return table.done
    }

    /// The key `--resume` files records under: the input and its output. One size: the same
    /// as by input, but for a record of an output no longer asked for (an older --name),
    /// which stays on file instead of hiding the input's other outputs.
    public static func outputKey(_ record: JournalRecord) -> String { outputKey(record.input, record.output) }

    /// The key of an input's output.
    public static func outputKey(_ input: String, _ output: String) -> String { input + "\u{0}" + output }

    /// The table `read` builds, line by line.
    private struct Table {
        let path: String
        let budget: Budget
        let key: (JournalRecord) -> String
        var done: [String: JournalRecord] = [:]
        var lines = 0
        var records = 0
        var bytes: Int64 = 0

        init(path: String, budget: Budget, key: @escaping (JournalRecord) -> String) {
            self.path = path
            self.budget = budget
            self.key = key
        }

        /// One line (nil: one too long to be a record).
        mutating func take(_ line: [UInt8]?) throws(ShardError) {
            lines += 1
            guard let line, let record = JournalRecord(line: PathBytes.string(of: line)) else { return }
            records += 1
            let old =
                record.status == .ok
                ? done.updateValue(record, forKey: key(record)) : done.removeValue(forKey: key(record))
            bytes += (record.status == .ok ? Self.cost(record) : 0) - (old.map(Self.cost) ?? 0)
            do { try budget.check("the table of inputs --resume reads from the journal", bytes: bytes) } catch {
                throw .journal(path: path, reason: "\(error)")
            }
        }

        fileprivate static func cost(_ record: JournalRecord) -> Int64 { Journal.cost(record) }
    }
}
