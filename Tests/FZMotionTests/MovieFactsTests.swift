// MovieFacts on movies the tests build box by box (no files, no FFmpeg): the content
// identifier in moov/meta's keys and item list, mvhd/mdhd durations, the video sample entry,
// and boxes whose sizes lie. Adds well under a second.
import FZSystem
import Testing

@testable import FZMotion

/// ISO-BMFF boxes as bytes.
enum Box {
    static func u32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func u16(_ v: Int) -> [UInt8] { [8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(8 + payload.count) + Array(type.utf8) + payload
    }
    static func full(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    /// QuickTime's moov/meta (no version and flags) with one key and its UTF-8 value.
    static func meta(key: String, value: String) -> [UInt8] {
        let hdlr = full("hdlr", [0, 0, 0, 0] + Array("mdta".utf8) + [UInt8](repeating: 0, count: 13))
        let keys = full("keys", u32(1) + box("mdta", Array(key.utf8)))
        let data = box("data", u32(1) + u32(0) + Array(value.utf8))
        let ilst = box("ilst", u32(8 + data.count) + u32(1) + data)
        return box("meta", hdlr + keys + ilst)
    }

    static func mvhd(scale: Int, units: Int) -> [UInt8] {
        full("mvhd", u32(0) + u32(0) + u32(scale) + u32(units) + [UInt8](repeating: 0, count: 80))
    }

    static func videoTrak(codec: String, width: Int, height: Int, scale: Int, units: Int) -> [UInt8] {
        let mdhd = full("mdhd", u32(0) + u32(0) + u32(scale) + u32(units) + u32(0))
        let hdlr = full("hdlr", u32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
        let entry =
            box(
                codec,
                [UInt8](repeating: 0, count: 6) + u16(1) + [UInt8](repeating: 0, count: 16) + u16(width) + u16(height)
                    + [UInt8](repeating: 0, count: 50))
        let stsd = full("stsd", u32(1) + entry)
        return box("trak", box("mdia", mdhd + hdlr + box("minf", box("stbl", stsd))))
    }

    static func movie(identifier: String?) -> [UInt8] {
        let ftyp = box("ftyp", Array("qt  ".utf8) + u32(0) + Array("qt  ".utf8))
        let meta = identifier.map { self.meta(key: MovieFacts.contentIdentifierKey, value: $0) } ?? []
        let moov = box(
            "moov",
            mvhd(scale: 600, units: 1500) + videoTrak(codec: "hvc1", width: 1920, height: 1440, scale: 30, units: 75)
                + meta)
        return ftyp + box("mdat", [1, 2, 3]) + moov
    }
}

@Suite struct MovieFactsTests {
    @Test func readsTheContentIdentifierDurationAndVideoTrack() throws {
        let bytes = Box.movie(identifier: "a1b2c3d4-0000-4000-8000-0123456789ab")
        let facts = try #require(MovieFacts.read(ByteWindow(bytes: bytes), budget: Budget()))
        #expect(facts.contentIdentifier == "A1B2C3D4-0000-4000-8000-0123456789AB")
        #expect(facts.brand == "qt")
        #expect(facts.duration == 2.5)
        #expect(facts.video == MovieFacts.VideoTrack(codec: "hvc1", width: 1920, height: 1440, duration: 2.5))
    }

    @Test func aMovieWithoutMetadataHasNoIdentifier() throws {
        let facts = try #require(MovieFacts.read(ByteWindow(bytes: Box.movie(identifier: nil)), budget: Budget()))
        #expect(facts.contentIdentifier == nil)
        #expect(facts.video?.codec == "hvc1")
    }

    @Test func otherKeysAreNotTheIdentifier() throws {
        let moov = Box.box("moov", Box.meta(key: "com.apple.quicktime.make", value: "Apple"))
        let facts = try #require(MovieFacts.read(ByteWindow(bytes: moov), budget: Budget()))
        #expect(facts.contentIdentifier == nil)
    }

    @Test func sizesThatLieEndTheWalkWithoutReadingPastTheFile() {
        // A moov claiming 4 GB in a 100-byte file; a keys box claiming 10^9 entries.
        var lying = Box.u32(0xFFFF_FFF0) + Array("moov".utf8) + [UInt8](repeating: 0, count: 92)
        #expect(MovieFacts.read(ByteWindow(bytes: lying), budget: Budget()) == nil)
        let keys = Box.full("keys", Box.u32(1_000_000_000))
        lying = Box.box("moov", Box.box("meta", keys + Box.box("ilst", [])))
        let facts = MovieFacts.read(ByteWindow(bytes: lying), budget: Budget())
        #expect(facts != nil && facts?.contentIdentifier == nil)
    }

    @Test func aBudgetTooSmallForTheMetadataBoxReadsNoIdentifier() throws {
        let bytes = Box.movie(identifier: "X")
        let facts = try #require(MovieFacts.read(ByteWindow(bytes: bytes), budget: Budget(maxPixels: 0, maxBytes: 16)))
        #expect(facts.contentIdentifier == nil)
        #expect(facts.duration == 2.5)
    }
}
