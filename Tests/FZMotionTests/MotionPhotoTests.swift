// MotionPhoto and LivePhotoIdentifier on bytes built here: Google's Container directory in
// both XMP forms (attributes, and elements as exiftool rewrites them), MicroVideo, Samsung's
// SEFT trailer, a HEIF mpvd box, an Apple maker note in a JPEG's EXIF; and the lies each can
// tell (lengths past the file, 10^9 entries, offsets before it). Adds well under a second.
import FZSystem
import Testing

@testable import FZMotion

@Suite struct MotionPhotoTests {
    static let clip = Box.movie(identifier: nil)
    static let still: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0x55, count: 60)

    static func probe(_ file: [UInt8], xmp: String?) -> MotionPhoto.Probe {
        MotionPhoto.probe(xmp: xmp.map { Array($0.utf8) }, window: ByteWindow(bytes: file), budget: Budget())
    }

    static func container(_ length: Int, elements: Bool = false, extra: String = "") -> String {
        let item =
            elements
            ? "<Container:Item rdf:parseType='Resource'><Item:Semantic>MotionPhoto</Item:Semantic><Item:Length>\(length)</Item:Length></Container:Item>"
            : "<Container:Item Item:Semantic=\"MotionPhoto\" Item:Mime=\"video/mp4\" Item:Length=\"\(length)\"/>"
        return
            "<x:xmpmeta><rdf:RDF><rdf:Description xmlns:Item='x'><Container:Directory><rdf:Seq><rdf:li><Container:Item Item:Semantic=\"Primary\" Item:Length=\"0\"/></rdf:li><rdf:li>\(item)</rdf:li>\(extra)</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>"
    }

    @Test(arguments: [false, true])
    func googleContainerPutsTheClipAtTheEnd(_ elements: Bool) throws {
        let file = Self.still + Self.clip
        guard case .found(let c) = Self.probe(file, xmp: Self.container(Self.clip.count, elements: elements)) else {
            Issue.record("not found")
            return
        }
        #expect(c.source == .googleContainer && c.offset == Self.still.count && c.length == Self.clip.count)
        #expect(c.movie?.duration == 2.5 && c.movie?.video?.codec == "hvc1")
    }

    @Test func aLengthThatLiesOrPointsAtNoMP4IsMalformed() {
        let file = Self.still + Self.clip
        guard case .malformed(let why) = Self.probe(file, xmp: Self.container(1_000_000_000_000)) else {
            Issue.record("a length past the file was believed")
            return
        }
        #expect(why.contains("more than the file"))
        guard case .malformed(let none) = Self.probe(file, xmp: Self.container(Self.clip.count + 3)) else {
            Issue.record("no MP4 there, believed")
            return
        }
        #expect(none.contains("no MP4"))
        let many = String(
            repeating: "<rdf:li><Container:Item Item:Semantic=\"X\" Item:Length=\"1\"/></rdf:li>", count: 200)
        guard case .malformed(let items) = Self.probe(file, xmp: Self.container(Self.clip.count, extra: many)) else {
            Issue.record("200 items read")
            return
        }
        #expect(items.contains("more than 64"))
    }

    @Test func microVideoCountsFromTheEnd() {
        let file = Self.still + Self.clip
        let xmp =
            "<rdf:Description GCamera:MicroVideo=\"1\" GCamera:MicroVideoVersion=\"1\" GCamera:MicroVideoOffset=\"\(Self.clip.count)\"/>"
        #expect(
            Self.probe(file, xmp: xmp)
                == .found(
                    MotionClip(
                        source: .microVideo, offset: Self.still.count, length: Self.clip.count,
                        movie: MovieFacts.read(ByteWindow(bytes: Self.clip), budget: Budget()))))
        let past = "<x GCamera:MicroVideo='1' GCamera:MicroVideoOffset='\(file.count + 1)'/>"
        if case .malformed = Self.probe(file, xmp: past) {} else { Issue.record("an offset past the start believed") }
    }

    static func le(_ v: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) } }

    static func samsung(count: Int = 1, back: Int? = nil) -> [UInt8] {
        let name = Array("MotionPhoto_Data".utf8)
        let block = [0, 0, 0x30, 0x0A] + le(name.count) + name + clip
        let dir =
            Array("SEFH".utf8) + le(106) + le(count) + [0, 0, 0x30, 0x0A] + le(back ?? block.count) + le(block.count)
        return still + block + dir + le(dir.count) + Array("SEFT".utf8)
    }

    @Test func samsungTrailerAndItsLies() throws {
        guard case .found(let c) = Self.probe(Self.samsung(), xmp: nil) else {
            Issue.record("not found")
            return
        }
        #expect(c.source == .samsungTrailer && c.offset == Self.still.count + 24 && c.length == Self.clip.count)
        #expect(Self.probe(Self.samsung(count: 1_000_000_000), xmp: nil) == .none)
        #expect(Self.probe(Self.samsung(back: 0x7FFF_FFF0), xmp: nil) == .none)
    }

    @Test func heifMpvdBox() throws {
        let ftyp = Box.box("ftyp", Array("heic".utf8) + Box.u32(0) + Array("mif1heic".utf8))
        let file = ftyp + Box.box("meta", Box.u32(0)) + Box.box("mpvd", Self.clip)
        guard case .found(let c) = Self.probe(file, xmp: nil) else {
            Issue.record("not found")
            return
        }
        #expect(c.source == .heifBox && c.offset == ftyp.count + 12 + 8 && c.length == Self.clip.count)
    }

    /// A big-endian TIFF whose Exif IFD holds an Apple maker note with tag 0x0011.
    static func exif(identifier: String) -> [UInt8] {
        let value = Array(identifier.utf8) + [0]
        var note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + Box.u16(1)
        note += Box.u16(0x0011) + Box.u16(2) + Box.u32(value.count) + Box.u32(16 + 12 + 4) + Box.u32(0) + value
        // IFD0 at 8: one entry, the Exif pointer (to 26); the Exif IFD: one entry, the note (at 44).
        var tiff = Array("MM".utf8) + Box.u16(42) + Box.u32(8)
        tiff += Box.u16(1) + Box.u16(0x8769) + Box.u16(4) + Box.u32(1) + Box.u32(26) + Box.u32(0)
        tiff += Box.u16(1) + Box.u16(0x927C) + Box.u16(7) + Box.u32(note.count) + Box.u32(44) + Box.u32(0)
        return tiff + note
    }

    @Test func theStillsIdentifierFromAJPEGsMakerNote() throws {
        let tiff = Self.exif(identifier: "8f7c3b2a-1d4e-4c5f-9a6b-7c8d9e0f1a2b")
        #expect(LivePhotoIdentifier.fromEXIF(tiff) == "8F7C3B2A-1D4E-4C5F-9A6B-7C8D9E0F1A2B")
        let app1 = [0xFF, 0xE1] + Box.u16(2 + 6 + tiff.count) + Array("Exif\0\0".utf8) + tiff
        let jpeg = [0xFF, 0xD8] + app1 + [0xFF, 0xDA, 0, 2]
        #expect(
            LivePhotoIdentifier.ofStill(ByteWindow(bytes: jpeg), budget: Budget())
                == "8F7C3B2A-1D4E-4C5F-9A6B-7C8D9E0F1A2B")
        // A count past the note, and a value past it: no identifier, no trap.
        var lying = Self.exif(identifier: "X")
        lying[lying.count - 2 - 4 - 4 - 4] = 0x7F
        #expect(LivePhotoIdentifier.fromEXIF(lying) == nil)
    }
}
