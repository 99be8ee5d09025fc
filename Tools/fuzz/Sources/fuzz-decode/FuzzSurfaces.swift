import FZCodecs
import FZFormat
import FZMotion
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The parsers of the surfaces issue 40 attacked, each fed the input's bytes: the terminal's
/// answers to the probe (replies are input: a lying cell size must be refused, never
/// trusted), the journal `--resume` reads (streamed, lines capped, within a budget), and
/// the HEIF box reader past 4096 children (the input's bytes become more `iref` entries
/// after 4097 dummies in a real grid, so whatever lies past the old cap is read and checked).
func fuzzSurfaces(_ bytes: [UInt8], hash: UInt64) {
    let answers = ProbeAnswers(parsing: bytes)
    if let cell = answers.cell {
        precondition(TerminalScreen.Window.plausible(cell: cell), "an implausible cell trusted")
    }
    readAsJournal(bytes)
    // Live Photo and motion photo boxes, trailers and XMP (issue 50).
    MotionFuzzing.exercise(bytes)
    if hash & 0xF == 0, let file = gridWithManyReferences(bytes) {
        if let reader = try? ImageReader(bytes: file, name: "fuzz-boxes.heic") {
            _ = try? reader.readUpright([PixelRect(x: 0, y: 0, width: 8, height: 8)])
        }
    }
}

/// The bytes as a journal file, read for `--resume` within a small budget.
private func readAsJournal(_ bytes: [UInt8]) {
    let path = "/tmp/fz-fuzz-journal-\(getpid())"
    guard let f = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
    fclose(f)
    if let table = try? Journal.read(path, budget: Budget(maxPixels: 0, maxBytes: 1 << 20)) {
        precondition(table.keys.allSatisfy { $0.utf8.count <= Journal.maxLine }, "a path longer than a line")
    }
    unlink(path)
}

/// Fixtures/hostile/good-grid.heic (read once, from the repository root where `make fuzz`
/// runs) with 4097 dummy `dimg` references and then `tail` at the end of its `iref` box.
private func gridWithManyReferences(_ tail: [UInt8]) -> [UInt8]? {
    guard let grid = goodGrid, let iref = boxOffset("iref", grid), let meta = boxOffset("meta", grid) else {
        return nil
    }
    let size = be32(grid, iref)
    var dummies: [UInt8] = []
    for i in 0..<4097 {
        let from = 0x4000 + i % 0x3000
        let entry: [UInt8] = [UInt8(from >> 8), UInt8(from & 0xFF), 0, 1, 0x7F, 0xFF]
        dummies += box("dimg", entry)
    }
    var body: [UInt8] = Array(grid[(iref + 8)..<(iref + size)])
    body += dummies
    body += tail
    var out: [UInt8] = Array(grid[..<iref])
    out += box("iref", body)
    out += Array(grid[(iref + size)...])
    let grown: Int = be32(grid, meta) + body.count + 8 - size
    let sizeField: [UInt8] = [24, 16, 8, 0].map { UInt8((grown >> $0) & 0xFF) }
    out.replaceSubrange(meta..<meta + 4, with: sizeField)
    return out
}

private let goodGrid: [UInt8]? = {
    guard let f = fopen("Fixtures/hostile/good-grid.heic", "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
        if n <= 0 { break }
        bytes += chunk[..<n]
    }
    return bytes
}()

private func be32(_ b: [UInt8], _ at: Int) -> Int { b[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }

private func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let n = 8 + body.count
    var out: [UInt8] = [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) }
    out += Array(type.utf8)
    out += body
    return out
}

/// Where the first box of `type` starts (its size field).
private func boxOffset(_ type: String, _ b: [UInt8]) -> Int? {
    let t = Array(type.utf8)
    return (4..<(b.count - 4)).first { Array(b[$0..<$0 + 4]) == t }.map { $0 - 4 }
}
