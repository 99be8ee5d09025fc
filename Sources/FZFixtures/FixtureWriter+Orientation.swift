import FZSystem
import Geometry

/// The fixture kit's orientation cases that FixtureWriter's main path does not make:
/// HEIF irot with imir, and a JPEG whose XMP contradicts its EXIF.
extension FixtureWriter {
    /// The EXIF orientation that shows stored pixels as an HEIF reader does with this `irot`
    /// (anticlockwise degrees) followed by this `imir` axis (0 top-bottom, 1 left-right).
    public static func heifOrientation(rotation: Int, mirror: Int?) -> Orientation {
        // irot turns anticlockwise: 90 is EXIF 8, 180 is 3, 270 is 6.
        let turn = Orientation(rawValue: [90: 8, 180: 3, 270: 6][rotation] ?? 1) ?? .up
        guard let mirror else { return turn }
        // Found by probing: the orientation whose stored pixel for every upright pixel of a
        // 2x3 image is the one the turn then the mirror bring there.
        let stored = PixelSize(width: 2, height: 3)
        let upright = turn.uprightSize(ofStored: stored)
        func viaHEIF(_ p: PixelPoint) -> PixelPoint {
            let q =
                mirror & 1 == 0
                ? PixelPoint(x: p.x, y: upright.height - 1 - p.y) : PixelPoint(x: upright.width - 1 - p.x, y: p.y)
            return turn.storedPixel(forUpright: q, stored: stored)
        }
        let points = (0..<upright.height).flatMap { y in (0..<upright.width).map { PixelPoint(x: $0, y: y) } }
        return Orientation.allCases.first { o in
            o.uprightSize(ofStored: stored) == upright
                && points.allSatisfy { o.storedPixel(forUpright: $0, stored: stored) == viaHEIF($0) }
        } ?? turn
    }

    /// The pattern's samples at 10 bits (rounded from 16), interleaved RGB or RGBA, for a
    /// 10-bit HEIC or AVIF.
    package static func tenBit(_ stored: PixelSize, _ alpha: Bool, _ sample: (Int, Int) -> Sample16) -> [UInt16] {
        func to10(_ v: UInt16) -> UInt16 { UInt16((UInt32(v) * 1023 + 32767) / 65535) }
        var out: [UInt16] = []
        out.reserveCapacity(stored.width * stored.height * (alpha ? 4 : 3))
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let s = sample(x, y)
                out += alpha ? [to10(s.r), to10(s.g), to10(s.b), to10(s.a)] : [to10(s.r), to10(s.g), to10(s.b)]
            }
        }
        return out
    }

    /// An XMP packet that says only tiff:Orientation, as exiftool writes it.
    package static func xmpPacket(orientation: Int) -> [UInt8] {
        Array(
            """
            <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
            <rdf:Description rdf:about='' xmlns:tiff='http://ns.adobe.com/tiff/1.0/'>
            <tiff:Orientation>\(orientation)</tiff:Orientation>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            <?xpacket end='w'?>
            """.utf8)
    }

    /// A big-endian TIFF block with one IFD0 entry: Orientation.
    public static func exifTIFF(orientation: Orientation) -> [UInt8] {
        [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // tag 0x0112, SHORT, count 1
            0x00, UInt8(orientation.rawValue), 0x00, 0x00,  // value, padding
            0x00, 0x00, 0x00, 0x00,
        ]  // no next IFD
    }
}
