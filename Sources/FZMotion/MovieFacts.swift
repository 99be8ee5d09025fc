import FZSystem

/// What a QuickTime or MP4 movie says of itself without decoding: its brand, duration, first
/// video track (codec, coded size) and Apple's Live Photo content identifier
/// (`com.apple.quicktime.content.identifier` in `moov/meta`'s keys and item list).
///
/// Bounded: only box headers are read, except `mvhd`, `mdhd`, the start of `stsd` and the
/// `meta` box, each a few bytes or a size checked against `maxMetaBytes` and the budget.
package struct MovieFacts: Equatable, Sendable {
    /// The `ftyp` major brand, trailing spaces dropped ("qt", "isom", "mp42").
    package var brand: String?
    /// Seconds, from `mvhd` (nil when its time scale is 0).
    package var duration: Double?
    package var video: VideoTrack?
    package var contentIdentifier: String?

    /// A movie's first video track, as its sample description says.
    package struct VideoTrack: Equatable, Sendable {
        /// The sample entry's four-character code: "avc1", "hvc1", "hev1", "av01", "vp09"...
        package var codec: String
        package var width: Int
        package var height: Int
        /// Seconds, from the track's `mdhd`.
        package var duration: Double?
    }

    /// The largest `moov/meta` read (Apple's is well under 4 KiB).
    package static let maxMetaBytes = 1 << 20
    /// Traks looked at for the first video one.
    static let maxTracks = 64
    /// The key naming the Live Photo pair.
    package static let contentIdentifierKey = "com.apple.quicktime.content.identifier"

    /// The facts of the movie in `window`, nil when it has no `moov` box at its top level.
    package static func read(_ window: ByteWindow, budget: Budget) -> MovieFacts? {
        let top = ISOBox.children(in: 0..<window.length, of: window)
        guard let moov = top.first(where: { $0.type == "moov" }) else { return nil }
        var facts = MovieFacts()
        if let ftyp = top.first(where: { $0.type == "ftyp" }),
            let b = window.bytes(at: ftyp.payload.lowerBound, count: 4)
        {
            var s = Substring(String(decoding: b, as: UTF8.self))
            while s.last == " " { s = s.dropLast() }
            facts.brand = Echo.value(String(s))
        }
        let children = ISOBox.children(in: moov.payload, of: window)
        if let mvhd = children.first(where: { $0.type == "mvhd" }) { facts.duration = duration(of: mvhd, in: window) }
        for trak in children.lazy.filter({ $0.type == "trak" }).prefix(maxTracks) {
            if let v = videoTrack(trak, in: window) {
                facts.video = v
                break
            }
        }
        if let meta = children.first(where: { $0.type == "meta" }) {
            facts.contentIdentifier = contentIdentifier(meta, in: window, budget: budget)
        }
        return facts
    }

    /// `mvhd`'s or `mdhd`'s duration in seconds: version 0 has 32-bit times, version 1 64-bit.
    static func duration(of box: ISOBox, in window: ByteWindow) -> Double? {
        let p = box.payload.lowerBound
        guard let version = window.uint(at: p, size: 1) else { return nil }
        let (scaleAt, size) = version == 1 ? (p + 20, 8) : (p + 12, 4)
        guard box.payload.upperBound >= scaleAt + 4 + size, let scale = window.uint(at: scaleAt, size: 4),
            let units = window.uint(at: scaleAt + 4, size: size), scale > 0
        else { return nil }
        // All ones: "unknown" (ISO 14496-12).
        if units == (size == 4 ? 0xFFFF_FFFF : Int.max) { return nil }
        return Double(units) / Double(scale)
    }

    /// The track's codec and size when its handler is `vide`.
    static func videoTrack(_ trak: ISOBox, in window: ByteWindow) -> VideoTrack? {
        guard let mdia = ISOBox.first("mdia", in: trak.payload, of: window) else { return nil }
        let parts = ISOBox.children(in: mdia.payload, of: window)
        guard let hdlr = parts.first(where: { $0.type == "hdlr" }),
            window.bytes(at: hdlr.payload.lowerBound + 8, count: 4) == Array("vide".utf8),
            let minf = parts.first(where: { $0.type == "minf" }),
            let stsd = ISOBox.find(["stbl", "stsd"], in: minf.payload, of: window),
            // Full box (4), entry count (4), then the first entry: size, format, 6 reserved,
            // data reference index, 16 bytes of pre-defined and reserved, width, height.
            stsd.payload.count >= 8 + 36, let entry = window.bytes(at: stsd.payload.lowerBound + 8, count: 36),
            let codec = entry.fourCC(at: 4), let width = entry.uint(at: 32, size: 2),
            let height = entry.uint(at: 34, size: 2)
        else { return nil }
        let mdhd = parts.first { $0.type == "mdhd" }
        return VideoTrack(
            codec: Echo.value(codec), width: width, height: height,
            duration: mdhd.flatMap { duration(of: $0, in: window) })
    }

    /// The content identifier in a QuickTime `meta` box (handler `mdta`): `keys` names each
    /// item (1-based), `ilst` holds them as boxes typed by the key's index, each with a `data`
    /// box (type, locale, value; type 1 is UTF-8).
    static func contentIdentifier(_ meta: ISOBox, in window: ByteWindow, budget: Budget) -> String? {
        let count = meta.payload.count
        guard count <= maxMetaBytes, (try? budget.check("the movie's metadata box", bytes: Int64(count))) != nil,
            let bytes = window.bytes(at: meta.payload.lowerBound, count: count)
        else { return nil }
        let m = ByteWindow(bytes: bytes)
        let inner = ISOBox(type: "meta", start: 0, payload: 0..<count)
        let parts = ISOBox.children(in: ISOBox.metaChildren(inner, of: m), of: m)
        guard let keys = parts.first(where: { $0.type == "keys" }),
            let ilst = parts.first(where: { $0.type == "ilst" }),
            let index = keyIndex(contentIdentifierKey, keys: keys, in: bytes)
        else { return nil }
        for item in ISOBox.children(in: ilst.payload, of: m) where bytes.uint(at: item.start + 4, size: 4) == index {
            guard let data = ISOBox.first("data", in: item.payload, of: m), data.payload.count > 8,
                bytes.uint(at: data.payload.lowerBound, size: 4) == 1
            else { return nil }
            let value = String(decoding: bytes[(data.payload.lowerBound + 8)..<data.payload.upperBound], as: UTF8.self)
            return LivePhotoIdentifier.normalised(value)
        }
        return nil
    }

    /// The 1-based index of `name` in a `keys` box (full box, entry count, then size,
    /// namespace and name per key); nil when absent or the box is malformed.
    static func keyIndex(_ name: String, keys: ISOBox, in bytes: [UInt8]) -> Int? {
        guard let entries = bytes.uint(at: keys.payload.lowerBound + 4, size: 4) else { return nil }
        var at = keys.payload.lowerBound + 8
        let wanted = Array(name.utf8)
        // Each key takes at least 8 bytes: the count cannot be more than the box holds.
        for k in 0..<min(entries, keys.payload.count / 8) {
            guard let size = bytes.uint(at: at, size: 4), size >= 8, size <= keys.payload.upperBound - at else {
                return nil
            }
            if bytes[(at + 8)..<(at + size)].elementsEqual(wanted) { return k + 1 }
            at += size
        }
        return nil
    }
}
