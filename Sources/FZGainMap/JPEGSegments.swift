/// The marker segments of a JPEG from SOI up to its first SOS, with where each one's payload
/// lies in the bytes given, and the frame header's size and component count.
///
/// Why our own walk beside libjpeg's: a gain map is found by offsets (MPF's are counted from
/// the MPF segment's own TIFF header), so the segment's position in the file matters, which
/// libjpeg's saved markers do not keep. Every length is checked against the bytes given; a walk
/// that runs out of bytes stops with what it has (`complete` false).
struct JPEGSegments: Sendable {
    struct Segment: Sendable {
        /// The marker's second byte (0xE1 for APP1).
        var marker: UInt8
        /// The payload's range in the bytes walked (after the two length bytes).
        var payload: Range<Int>
    }

    var segments: [Segment] = []
    /// The frame header's width, height and components (nil before a SOFn was seen).
    var frame: (width: Int, height: Int, components: Int)?
    /// Whether the walk reached SOS.
    var complete = false

    /// Walks `bytes`, which begin with a JPEG's SOI.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return }
            let marker = bytes[at + 1]
            if marker == 0xFF {  // fill bytes before a marker
                at += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                at += 2
                continue
            }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return }
            let payload = (at + 4)..<(at + 2 + length)
            segments.append(Segment(marker: marker, payload: payload))
            // SOF0-15 but DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) && payload.count >= 6 {
                let p = payload.lowerBound
                frame = (
                    Int(bytes[p + 3]) << 8 | Int(bytes[p + 4]), Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]),
                    Int(bytes[p + 5])
                )
            }
            if marker == 0xDA {
                complete = true
                return
            }
            at += 2 + length
        }
    }

    /// The payloads of the segments with `marker` whose payload starts with `signature`, the
    /// signature dropped.
    func payloads(_ marker: UInt8, signature: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        segments.compactMap { s in
            guard s.marker == marker, s.payload.count >= signature.count,
                bytes[s.payload.lowerBound..<(s.payload.lowerBound + signature.count)].elementsEqual(signature)
            else { return nil }
            return (s.payload.lowerBound + signature.count)..<s.payload.upperBound
        }
    }

    /// What an XMP APP1 segment's payload starts with.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// The XMP packet of APP1 "http://ns.adobe.com/xap/1.0/\0", if any.
    func xmp(in bytes: [UInt8]) -> [UInt8]? {
        payloads(0xE1, signature: Self.xmpSignature, in: bytes).first.map {
            Array(bytes[$0])
        }
    }
}
