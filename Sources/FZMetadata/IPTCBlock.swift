/// An IPTC-NAA record (IIM datasets), as JPEG carries it in an APP13 "Photoshop 3.0"
/// segment's 8BIM resource 0x0404: parsed so an output's copy can leave the location out.
/// JPEG is the only container forcezoom writes that has a place for it.
///
/// Bounded like the EXIF parser: every dataset's length is checked against the record, an
/// extended-length dataset (over 32 KiB, which no 64 KiB segment holds) fails it, and a
/// record that does not parse is left out with a warning.
public struct IPTCBlock: Hashable, Sendable {
    /// One dataset: record number, dataset number and its bytes as found (tag and length included).
    package struct DataSet: Hashable, Sendable {
        var record: UInt8
        var number: UInt8
        var bytes: ArraySlice<UInt8>
    }

    package var dataSets: [DataSet]

    /// The datasets exiftool counts as location (`-location:all`): 2:26/2:27 Content
    /// location code and name, 2:90 City, 2:92 Sublocation, 2:95 Province/State, 2:100
    /// Country code, 2:101 Country, and the envelope's 1:5 Destination.
    package static let locationDataSets: Set<[UInt8]> = [
        [2, 26], [2, 27], [2, 90], [2, 92], [2, 95], [2, 100], [2, 101], [1, 5],
    ]

    package static func isLocation(_ d: DataSet) -> Bool { locationDataSets.contains([d.record, d.number]) }

    /// The IPTC record inside an APP13 segment's 8BIM resources (after "Photoshop 3.0\0"),
    /// or nil when there is none or the resources do not parse.
    public static func iim(inResources r: [UInt8]) -> [UInt8]? {
        var i = 0
        while i + 12 <= r.count, Array(r[i..<(i + 4)]) == Array("8BIM".utf8) {
            let id = Int(r[i + 4]) << 8 | Int(r[i + 5])
            let nameLength = Int(r[i + 6])
            let name = 1 + nameLength + (1 + nameLength) % 2  // a Pascal string padded to even
            let sizeAt = i + 6 + name
            guard sizeAt + 4 <= r.count else { return nil }
            let size = Int(r[sizeAt]) << 24 | Int(r[sizeAt + 1]) << 16 | Int(r[sizeAt + 2]) << 8 | Int(r[sizeAt + 3])
            let data = sizeAt + 4
            guard size <= r.count - data else { return nil }
            if id == 0x0404 { return size > 0 ? Array(r[data..<(data + size)]) : nil }
            i = data + size + size % 2
        }
        return nil
    }

    /// Parses an IIM record.
    /// - Throws: `IPTCError` when a dataset does not start with 0x1C, runs past the end, or
    ///   has an extended length.
    public init(parsing b: [UInt8]) throws(IPTCError) {
        var sets: [DataSet] = []
        var i = 0
        while i < b.count {
            // Trailing zero padding after the last dataset is common.
            if b[i] == 0 && b[i...].allSatisfy({ $0 == 0 }) { break }
            guard b[i] == 0x1C, i + 5 <= b.count else {
                throw .malformed("a dataset does not start with 0x1C at byte \(i)")
            }
            let length = Int(b[i + 3]) << 8 | Int(b[i + 4])
            guard length & 0x8000 == 0 else { throw .malformed("an extended-length dataset") }
            guard length <= b.count - (i + 5) else { throw .malformed("a dataset runs past the end") }
            sets.append(DataSet(record: b[i + 1], number: b[i + 2], bytes: b[i..<(i + 5 + length)]))
            i += 5 + length
        }
        guard !sets.isEmpty else { throw .malformed("no datasets") }
        dataSets = sets
    }

    /// Whether it names a place (city, sublocation, state, country, content location).
    public var hasLocation: Bool { dataSets.contains(where: Self.isLocation) }

    /// The record for an output, without the location datasets unless `location`.
    public func rewritten(location: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for d in dataSets where location || !Self.isLocation(d) {
            out += d.bytes
        }
        return out
    }

    /// An APP13 payload holding `record`: "Photoshop 3.0\0", one 8BIM resource 0x0404.
    package static func app13(_ record: [UInt8]) -> [UInt8] {
        let n = record.count
        return Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
            + [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + record
            + (n % 2 == 1 ? [0] : [])
    }
}

/// Why an IPTC record was left out.
public enum IPTCError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let why): return "IPTC record is malformed (\(why))"
        }
    }
}
