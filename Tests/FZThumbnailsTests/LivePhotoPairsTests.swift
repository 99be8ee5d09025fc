import TestSupport
import Testing

@testable import FZCodecs
@testable import FZSystem
@testable import FZThumbnails

#if canImport(Glibc)
import Glibc
#endif

/// Live Photo pairing's rules on files built here byte by byte (no ffmpeg, no decoding): a
/// QuickTime movie with or without `com.apple.quicktime.content.identifier`, a JPEG with or
/// without an Apple maker note carrying tag 0x0011. The end-to-end suite (LivePhotoCLITests)
/// runs the same rules on ffmpeg/exiftool files. Adds well under a second.
struct LivePhotoPairsTests {
    static func u32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func u16(_ v: Int) -> [UInt8] { [8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func box(_ type: String, _ p: [UInt8]) -> [UInt8] { u32(8 + p.count) + Array(type.utf8) + p }

    /// ftyp 'qt  ', an mdat, and a moov whose meta holds the identifier (none: no meta).
    static func movie(_ id: String?) -> [UInt8] {
        var moov = box(
            "mvhd", [UInt8](repeating: 0, count: 12) + u32(600) + u32(900) + [UInt8](repeating: 0, count: 80))
        if let id {
            let hdlr = box(
                "hdlr", [UInt8](repeating: 0, count: 8) + Array("mdta".utf8) + [UInt8](repeating: 0, count: 12))
            let keys = box("keys", u32(0) + u32(1) + box("mdta", Array("com.apple.quicktime.content.identifier".utf8)))
            let data = box("data", u32(1) + u32(0) + Array(id.utf8))
            moov += box("meta", hdlr + keys + box("ilst", u32(8 + data.count) + u32(1) + data))
        }
        return box("ftyp", Array("qt  ".utf8) + u32(0) + Array("qt  ".utf8)) + box("mdat", [0, 0]) + box("moov", moov)
    }

    /// A JPEG head (no scan needed: pairing never decodes) with EXIF whose Exif IFD holds an
    /// Apple maker note with tag 0x0011 (none: no EXIF).
    static func still(_ id: String?) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        if let id {
            let value = Array(id.utf8) + [0]
            let note =
                Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + u16(1) + u16(0x0011) + u16(2) + u32(value.count)
                + u32(32) + u32(0) + value
            var tiff = Array("MM".utf8) + u16(42) + u32(8)
            tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
            tiff += u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(44) + u32(0) + note
            out += [0xFF, 0xE1] + u16(8 + tiff.count) + Array("Exif\0\0".utf8) + tiff
        }
        return out + [0xFF, 0xDB, 0, 3, 0, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        let f = fopen(path, "wb")
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
    }

    @Test func pairsByIdentifierThenByNameAndNeverAcrossTwoIdentifiers() throws {
        let dir = TestSupport.scratch()
        let files: [(String, [UInt8])] = [
            ("a.JPG", Self.still("ID-A")), ("a.MOV", Self.movie("id-a")),  // identifiers compare in upper case
            ("b.JPG", Self.still(nil)), ("b.MOV", Self.movie(nil)),
            ("c.JPG", Self.still("ID-C")), ("c.MOV", Self.movie("ID-Z")),
            ("d.JPG", Self.still("ID-D")), ("other.MOV", Self.movie("ID-D")),
            ("lonely.MOV", Self.movie("ID-L")),
        ]
        for (name, bytes) in files { Self.write(FileSystem.join(dir, name), bytes) }
        let found = LivePhotoPairs.pair(InputWalker().collectAll([dir]), budget: Budget())
        var skips: [String: SkippedFile] = [:]
        for s in found.skipped { skips[FileSystem.basename(s.path)] = s }
        // The movies that pair with nothing stay inputs: videos, read as their posters.
        #expect(
            found.inputs.map { FileSystem.basename($0.path) }.sorted() == [
                "a.JPG", "b.JPG", "c.JPG", "c.MOV", "d.JPG", "lonely.MOV",
            ])
        for (movie, still, how) in [
            ("a.MOV", "a.JPG", "content identifier ID-A"), ("b.MOV", "b.JPG", "the same name"),
            ("other.MOV", "d.JPG", "content identifier ID-D"),
        ] {
            let s = try #require(skips[movie], "\(movie) not skipped")
            #expect(s.skip.category == .livePhotoMotion && s.of.map(FileSystem.basename) == still, "\(movie): \(s)")
            #expect(s.skip.reason.contains(how), "\(movie): \(s.skip.reason)")
            #expect(s.json.description.contains("\"of\":"), "\(s.json)")
        }
        #expect(skips["c.MOV"] == nil && skips["lonely.MOV"] == nil)
        #expect(SkipTally(found.skipped).summary?.contains("3 Live Photo motion parts (.MOV)") == true)
    }

    @Test func aMovieNamedAsAnInputLeavesTheInputs() {
        let dir = TestSupport.scratch()
        let (still, movie) = (FileSystem.join(dir, "IMG_1.HEIC.jpg"), FileSystem.join(dir, "IMG_1.HEIC.mov"))
        Self.write(still, Self.still("X"))
        Self.write(movie, Self.movie("X"))
        let found = LivePhotoPairs.pair(InputWalker().collectAll([still, movie]), budget: Budget())
        #expect(found.inputs.map(\.path) == [still])
        #expect(found.skipped.map(\.path) == [movie] && found.skipped.first?.of == still)
        // Alone, it stays an input (the decoder judges it).
        let alone = LivePhotoPairs.pair(InputWalker().collectAll([movie]), budget: Budget())
        #expect(alone.inputs.map(\.path) == [movie] && alone.skipped.isEmpty)
    }
}
