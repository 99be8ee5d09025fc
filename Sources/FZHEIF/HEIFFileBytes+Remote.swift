import FZFormat
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// A URL's HEIF bytes (issue 52), fetched into an untouched mapping by range as they are
/// needed: `meta` first, then everything but the grid's tiles (`fetchAllBut`), then each tile
/// when decoded (`bytes`). A fetch that fails leaves its range empty; the decoder then fails,
/// and the reader reports the source's failure (`ImageSource.remoteFailure`).
extension HEIFFileBytes {
    static let chunk = 64 << 10

    static func loadRemote(_ remote: any ByteSource, limit: Int, path: String) throws(DecodeError) -> HEIFFileBytes? {
        guard remote.size <= limit else { return nil }
        let size = max(remote.size, 1)
        // Untouched pages take no memory: what is resident is what was fetched.
        guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            p != MAP_FAILED
        else {
            throw .readFailed(path: path, reason: "cannot map \(remote.size) bytes for the download")
        }
        return HEIFFileBytes(
            buffer: UnsafeRawBufferPointer(start: p, count: remote.size), mapped: false, remote: remote)
    }

    /// Fetches `range` into the buffer unless held; false when the fetch failed.
    @discardableResult
    func ensure(_ range: Range<Int>) -> Bool {
        guard let remote, !range.isEmpty else { return true }
        let clamped = max(0, range.lowerBound)..<min(buffer.count, range.upperBound)
        guard !clamped.isEmpty else { return true }
        return lock.locked {
            var c = clamped.lowerBound / Self.chunk
            let last = (clamped.upperBound - 1) / Self.chunk
            while c <= last {
                if held[c] {
                    c += 1
                    continue
                }
                var end = c
                while end < last, !held[end + 1] { end += 1 }
                let lo = c * Self.chunk
                let hi = min(buffer.count, (end + 1) * Self.chunk)
                let target = UnsafeMutableRawBufferPointer(mutating: UnsafeRawBufferPointer(rebasing: buffer[lo..<hi]))
                var done = 0
                while done < target.count {
                    guard
                        let n = try? remote.read(
                            at: lo + done, into: UnsafeMutableRawBufferPointer(rebasing: target[done...])), n > 0
                    else { return false }
                    done += n
                }
                for k in c...end { held[k] = true }
                c = end + 1
            }
            return true
        }
    }

    /// `range` of the file, fetched first; empty when the fetch failed.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        guard ensure(range) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: buffer[range])
    }

    /// Fetches every byte outside `tiles` (the boxes, Exif, XMP, a thumbnail: what the box
    /// readers and libheif's opening read), leaving the tiles for when they are decoded.
    func fetchAllBut(_ tiles: [Range<Int>], path: String) throws(DecodeError) {
        guard remote != nil else { return }
        var at = 0
        for t in tiles.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if t.lowerBound > at, !ensure(at..<t.lowerBound) { throw failure(path) }
            at = max(at, t.upperBound)
        }
        if at < buffer.count, !ensure(at..<buffer.count) { throw failure(path) }
    }

    /// `fetchAllBut` the tiles of `grid` (colour and alpha), for a grid; nothing otherwise.
    func fetchAllButTiles(of grid: HEIFGrid?, path: String) throws(DecodeError) {
        guard remote != nil, let grid else { return }
        try fetchAllBut(grid.tiles.flatMap(\.extents) + (grid.alphaTiles ?? []).flatMap(\.extents), path: path)
    }

    /// Fetches the whole object (libheif decodes from the buffer in place).
    func fetchWhole(path: String) throws(DecodeError) {
        if remote != nil, !ensure(0..<buffer.count) { throw failure(path) }
    }

    private func failure(_ path: String) -> DecodeError {
        remote?.failure?.decodeError ?? .readFailed(path: path, reason: "the download failed")
    }

    /// The boxes up to the end of `meta`, fetched box header by box header.
    var remoteHead: [UInt8] {
        var i = 0
        while i + 16 <= buffer.count || i + 8 <= buffer.count {
            guard ensure(i..<min(buffer.count, i + 16)) else { return [] }
            var size = Int(buffer.loadUnaligned(fromByteOffset: i, as: UInt32.self).bigEndian)
            if size == 1, i + 16 <= buffer.count {
                let large = buffer.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).bigEndian
                size = large < UInt64(Int.max) ? Int(large) : 0
            }
            guard size >= 8, size <= buffer.count - i else { break }
            let type = (buffer[i + 4], buffer[i + 5], buffer[i + 6], buffer[i + 7])
            if type == (0x6D, 0x65, 0x74, 0x61) {  // "meta"
                guard ensure(0..<(i + size)) else { return [] }
                return Array(buffer[0..<(i + size)])
            }
            i += size
        }
        return whole
    }
}
