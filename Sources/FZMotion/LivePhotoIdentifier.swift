import FZMetadata
import FZSystem

/// The identifier that makes a still and a movie one Live Photo: Apple writes the same UUID
/// in the still's EXIF maker note (tag 0x0011, which exiftool calls MediaGroupUUID and earlier
/// ContentIdentifier) and in the movie's `com.apple.quicktime.content.identifier`.
package enum LivePhotoIdentifier {
    /// The maker-note tag.
    package static let makerNoteTag = 0x0011
    /// The longest identifier kept (a UUID is 36 characters).
    static let maxLength = 128

    /// The identifier as compared and shown: NULs and spaces at the ends dropped, upper case
    /// (both sides are Apple's upper-case UUIDs; a tool that rewrote one in lower case still
    /// pairs), printable ASCII only; nil when empty or longer than `maxLength`.
    package static func normalised(_ value: String) -> String? {
        let trimmed = value.unicodeScalars.drop { $0 == "\0" || $0 == " " }.reversed().drop { $0 == "\0" || $0 == " " }
        let s = String(String.UnicodeScalarView(trimmed.reversed())).uppercased()
        guard !s.isEmpty, s.utf8.count <= maxLength, s.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        return s
    }

    /// The identifier in an EXIF block (TIFF bytes): the Apple maker note's tag 0x0011.
    package static func fromEXIF(_ tiff: [UInt8]) -> String? {
        guard let block = try? EXIFBlock(parsing: tiff),
            let note = block.exif.first(where: { $0.tag == 0x927C })?.value
        else { return nil }
        return fromMakerNote(note)
    }

    /// Tag 0x0011 of an Apple maker note: "Apple iOS\0", a version, "MM", then one big-endian
    /// IFD whose offsets count from the note's first byte.
    package static func fromMakerNote(_ n: [UInt8]) -> String? {
        guard n.count >= 16, n[0..<10].elementsEqual(Array("Apple iOS\0".utf8)), n[12] == 0x4D, n[13] == 0x4D,
            let count = n.uint(at: 14, size: 2)
        else { return nil }
        for k in 0..<min(count, (n.count - 16) / 12) {
            let e = 16 + 12 * k
            guard n.uint(at: e, size: 2) == makerNoteTag else { continue }
            guard n.uint(at: e + 2, size: 2) == 2, let length = n.uint(at: e + 4, size: 4), length <= maxLength + 1
            else { return nil }
            let at = length <= 4 ? e + 8 : (n.uint(at: e + 8, size: 4) ?? -1)
            guard at >= 0, at <= n.count - length else { return nil }
            return normalised(String(decoding: n[at..<(at + length)], as: UTF8.self))
        }
        return nil
    }

    /// The identifier of a still (JPEG or HEIF) read from its file, nil when it has none.
    package static func ofStill(_ window: ByteWindow, budget: Budget) -> String? {
        StillEXIF.read(window, budget: budget).flatMap(fromEXIF)
    }
}
