/// Crafted metadata for the metadata tests: little-endian TIFF blocks whose IFDs point
/// anywhere (loops, pointers in unusual IFDs), XMP packets, IPTC records, and a JPEG with
/// them inserted after its SOI.
package enum MetadataBytes {
    /// An IFD entry's value: bytes (inline when at most 4, else stored after the IFD), or
    /// the offset of another IFD of the block (by index), or a raw offset.
    package enum Value {
        case bytes([UInt8])
        case ifd(Int)
        case offset(Int)
    }

    package struct Entry {
        package var tag: UInt16
        package var type: UInt16
        package var count: UInt32
        package var value: Value

        package init(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: Value) {
            (self.tag, self.type, self.count, self.value) = (tag, type, count, value)
        }

        /// An ASCII entry (NUL added).
        package static func ascii(_ tag: UInt16, _ s: String) -> Entry {
            let b = Array(s.utf8) + [0]
            return Entry(tag, 2, UInt32(b.count), .bytes(b))
        }

        /// A pointer (LONG) to the IFD at `index`.
        package static func pointer(_ tag: UInt16, to index: Int) -> Entry { Entry(tag, 4, 1, .ifd(index)) }

        /// RATIONALs.
        package static func rationals(_ tag: UInt16, _ r: [(UInt32, UInt32)]) -> Entry {
            Entry(tag, 5, UInt32(r.count), .bytes(r.flatMap { u32(Int($0.0)) + u32(Int($0.1)) }))
        }
    }

    package static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    package static func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }

    /// A TIFF block: IFD 0 first, the others after it in order, each followed by its values;
    /// `prefix` bytes lie between the header and IFD 0 (a place for a blob an offset can land in).
    package static func tiff(_ ifds: [[Entry]], prefix: [UInt8] = []) -> [UInt8] {
        var starts: [Int] = []
        var at = 8 + prefix.count
        for ifd in ifds {
            starts.append(at)
            at += 2 + ifd.count * 12 + 4
            for e in ifd { if case .bytes(let b) = e.value, b.count > 4 { at += b.count + b.count % 2 } }
        }
        var out: [UInt8] = [0x49, 0x49, 42, 0] + u32(8 + prefix.count) + prefix
        for (n, ifd) in ifds.enumerated() {
            var dataAt = starts[n] + 2 + ifd.count * 12 + 4
            var values: [UInt8] = []
            out += u16(ifd.count)
            for e in ifd.sorted(by: { $0.tag < $1.tag }) {
                out += u16(Int(e.tag)) + u16(Int(e.type)) + u32(Int(e.count))
                switch e.value {
                case .bytes(let b) where b.count <= 4: out += b + [UInt8](repeating: 0, count: 4 - b.count)
                case .bytes(let b):
                    out += u32(dataAt)
                    values += b + (b.count % 2 == 1 ? [0] : [])
                    dataAt += b.count + b.count % 2
                case .ifd(let i): out += u32(starts[i])
                case .offset(let o): out += u32(o)
                }
            }
            out += u32(0) + values
        }
        return out
    }

    /// A GPS IFD's entries: 48°51'N 2°21'E.
    package static let gpsEntries: [Entry] = [
        Entry(0x0000, 1, 4, .bytes([2, 3, 0, 0])), .ascii(0x0001, "N"),
        .rationals(0x0002, [(48, 1), (51, 1), (0, 1)]), .ascii(0x0003, "E"),
        .rationals(0x0004, [(2, 1), (21, 1), (0, 1)]),
    ]

    /// An XMP packet around `body` (the inside of rdf:RDF).
    package static func xmp(_ body: String) -> [UInt8] {
        Array(
            """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            \(body)
            </rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    /// An IIM dataset.
    package static func iptc(_ record: UInt8, _ number: UInt8, _ s: String) -> [UInt8] {
        [0x1C, record, number, 0, UInt8(s.utf8.count)] + Array(s.utf8)
    }

    /// `jpeg` with APP1 Exif, APP1 XMP and APP13 IPTC segments (those given) after its SOI.
    package static func jpeg(_ jpeg: [UInt8], exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iptc: [UInt8]? = nil)
        -> [UInt8]
    {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var inserted: [UInt8] = []
        if let exif { inserted += segment(0xE1, Array("Exif".utf8) + [0, 0] + exif) }
        if let xmp { inserted += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp) }
        if let iptc {
            let n = iptc.count
            let resource =
                Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [4, 4, 0, 0] + u32(n).reversed() + iptc
                + (n % 2 == 1 ? [0] : [])
            inserted += segment(0xED, resource)
        }
        return Array(jpeg.prefix(2)) + inserted + Array(jpeg.dropFirst(2))
    }
}
