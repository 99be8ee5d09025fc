import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZHEIF
@testable import FZSystem

/// The box reader reads every child of `iinf`, `iref`, `ipco` up to `HEIFBoxes.maxChildren`
/// and refuses a file with more, so nothing libheif reads escapes the checks (issue 40: a
/// reader that stopped at 4096 children let a `dimg` loop placed after 4096 dummy `iref`
/// entries through to libheif, which recursed until SIGSEGV).
struct HEIFBoxCountTests {
    static let grid = CLIBytes.read(TestSupport.path("Fixtures/hostile/good-grid.heic"))

    static func int(_ b: [UInt8], _ at: Int) -> Int { b[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    static func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(8 + body.count) + Array(type.utf8) + body }

    /// Where the first box of `type` starts (its size field).
    static func offset(of type: String, in b: [UInt8]) -> Int? {
        let t = Array(type.utf8)
        return (4..<(b.count - 4)).first { Array(b[$0..<$0 + 4]) == t }.map { $0 - 4 }
    }

    /// `bytes` with the first `type` box's body made by `edit`, the meta box's size following.
    /// Offsets into mdat are not moved: these files are refused, or read by the box reader
    /// alone, before anything is located.
    static func editing(_ type: String, in bytes: [UInt8], _ edit: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        let at = try #require(offset(of: type, in: bytes))
        let meta = try #require(offset(of: "meta", in: bytes))
        let size = int(bytes, at)
        let body = edit(Array(bytes[(at + 8)..<(at + size)]))
        var out = Array(bytes[..<at]) + box(type, body) + Array(bytes[(at + size)...])
        let delta = body.count + 8 - size
        out.replaceSubrange(meta..<meta + 4, with: be32(int(bytes, meta) + delta))
        return out
    }

    static var primary: Int {
        let at = offset(of: "pitm", in: grid)!
        return Int(grid[at + 12]) << 8 | Int(grid[at + 13])
    }

    /// `count` dimg references between items the file does not have and no path reaches.
    static func dummyReferences(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { box("dimg", be16(0x4000 + $0 % 0x3000) + be16(1) + be16(0x7FFF)) }
    }

    @Test func aLoopAfter4096ReferencesIsSeen() throws {
        let p = Self.primary
        let file = try Self.editing("iref", in: Self.grid) { body in
            Array(body[..<4]) + Self.dummyReferences(4096) + Array(body[4...])
                + Self.box("dimg", Self.be16(p) + Self.be16(1) + Self.be16(p))
        }
        let boxes = HEIFBoxes(file)
        #expect(boxes.referenceLoop)
        #expect(boxes.tooManyChildren == nil)
        #expect(throws: DecodeError.self) { try ImageReader(bytes: file, name: "loop.heic") }
        do {
            _ = try ImageReader(bytes: file, name: "loop.heic")
        } catch {
            #expect(
                error.description
                    == "loop.heic: corrupt image header (the image's derivation references (dimg) form a loop); the file cannot be decoded"
            )
        }
        // The same file without the loop reads as the grid it is.
        let clean = try Self.editing("iref", in: Self.grid) {
            Array($0[..<4]) + Self.dummyReferences(4096) + Array($0[4...])
        }
        #expect(!HEIFBoxes(clean).referenceLoop && HEIFBoxes(clean).gridTiles == HEIFBoxes(Self.grid).gridTiles)
    }

    /// The grid's own item info after 4096 others: still found, so the grid is read as one.
    @Test func aPrimaryItemInfoAfter4096IsRead() throws {
        let file = try Self.editing("iinf", in: Self.grid) { body in
            let head = body[0] == 0 ? 6 : 8
            let dummies = (0..<4096).flatMap {
                Self.box("infe", [2, 0, 0, 0] + Self.be16(0x4000 + $0) + [0, 0] + Array("Exif".utf8) + [0])
            }
            return Array(body[..<head]) + dummies + Array(body[head...])
        }
        let boxes = HEIFBoxes(file)
        #expect(boxes.primaryType == "grid")
        #expect(boxes.gridTiles > 0 && boxes.gridTiles == HEIFBoxes(Self.grid).gridTiles)
        #expect(boxes.tooManyChildren == nil)
    }

    /// More children than are read: refused in one line, never handed to libheif.
    @Test func moreReferencesThanAreReadAreRefused() throws {
        let file = try Self.editing("iref", in: Self.grid) { body in
            Array(body[..<4]) + Self.dummyReferences(HEIFBoxes.maxChildren) + Array(body[4...])
        }
        #expect(HEIFBoxes(file).tooManyChildren == "iref")
        do {
            _ = try ImageReader(bytes: file, name: "many.heic")
            Issue.record("read a file with more references than are checked")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "many.heic: unsupported HEIF structure: its iref box has more than 262144 entries"))
        }
    }
}
