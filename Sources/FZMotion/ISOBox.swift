/// One box of an ISO base media file (MP4, QuickTime, HEIF): its type and where its payload
/// lies in the window it was found in.
///
/// Why a walker of our own: the boxes read here (`moov/meta`, `mvhd`, `mdhd`, `stsd`, HEIF's
/// `meta/iinf/iloc`, a motion photo's `mpvd`) are a handful of headers, and reading them needs
/// no decoder (FFmpeg and libheif are opened only for pixels).
package struct ISOBox: Equatable, Sendable {
    package var type: String
    /// The box's first byte (its size field).
    package var start: Int
    /// The bytes after the header (size, type, a 64-bit size when present).
    package var payload: Range<Int>

    /// The most boxes read from one level: real files have tens; a file claiming 10^9 tiny
    /// boxes is read this far and no further.
    package static let maxChildren = 4096

    /// The boxes laid end to end in `range` of `window`, in order. A box whose size runs past
    /// the range (a cut file, a size that lies), or is smaller than its header, ends the list:
    /// what came before is kept. Size 0 means "to the end of the range", as ISO 14496-12 says.
    package static func children(in range: Range<Int>, of window: ByteWindow, limit: Int = maxChildren) -> [ISOBox] {
        var out: [ISOBox] = []
        var at = range.lowerBound
        while at <= range.upperBound - 8, out.count < limit {
            guard let size32 = window.uint(at: at, size: 4), let head = window.bytes(at: at + 4, count: 4) else {
                break
            }
            let type = String(decoding: head, as: UTF8.self)
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = window.uint(at: at + 8, size: 8) else { break }
                size = large
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            out.append(ISOBox(type: type, start: at, payload: (at + header)..<(at + size)))
            at += size
        }
        return out
    }

    /// The first child of `type`.
    package static func first(_ type: String, in range: Range<Int>, of window: ByteWindow) -> ISOBox? {
        children(in: range, of: window).first { $0.type == type }
    }

    /// The box at the end of `path` ("moov", "meta"), each found as the first of its type
    /// inside the one before; `fullBoxes` are the types whose payload starts with a version
    /// and flags (4 bytes) before their children.
    package static func find(
        _ path: [String], in range: Range<Int>, of window: ByteWindow, fullBoxes: Set<String> = []
    ) -> ISOBox? {
        var range = range
        var found: ISOBox?
        for type in path {
            guard let box = first(type, in: range, of: window) else { return nil }
            found = box
            let skip = fullBoxes.contains(type) ? 4 : 0
            guard box.payload.count >= skip else { return nil }
            range = (box.payload.lowerBound + skip)..<box.payload.upperBound
        }
        return found
    }

    /// Where a `meta` box's children start: ISO's `meta` is a full box (4 bytes of version
    /// and flags first); QuickTime's `moov/meta` is not. Told by where a `hdlr` box is.
    package static func metaChildren(_ meta: ISOBox, of window: ByteWindow) -> Range<Int> {
        let p = meta.payload
        if p.count >= 8, window.bytes(at: p.lowerBound + 4, count: 4) == Array("hdlr".utf8) { return p }
        return p.count >= 4 ? (p.lowerBound + 4)..<p.upperBound : p
    }
}
