#if canImport(Glibc)
import FZFormat
import FZSystem
import Glibc
#endif

/// An HEIF file's bytes for libheif (which reads them in place for as long as its context
/// lives) and for the tile decoder, and the part of them the box readers parse.
///
/// A regular file is mapped, not read: libheif and the tiles touch only the pages they need
/// (`meta`, then the tiles a crop decodes), so a crop of a 90 MB 200 MP photo holds a few
/// MB of it, not two copies (the array and libheif's buffer, as when it was read). The box
/// readers (`HEIFBoxes`, `HEIFGrid`) then get the boxes up to the end of `meta`, or the whole
/// file when they need more (`whole`). Other inputs (standard input, bytes in memory) are read.
///
/// A URL (issue 52, `HEIFFileBytes+Remote.swift`) gets an anonymous mapping of its length whose
/// pages stay untouched until a range is fetched into them: the boxes, then what is not a
/// grid tile, then each tile a crop decodes (`bytes(_:)`), so a crop fetches its tiles only.
final class HEIFFileBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
    /// Whether `buffer` is a mapping of the file (not memory of our own).
    let mapped: Bool
    /// The URL's bytes, fetched into `buffer` on demand (nil for a file or bytes in memory).
    let remote: (any ByteSource)?
    /// Which 64 KiB chunks of `buffer` hold the remote bytes (under `lock`).
    var held: [Bool] = []
    let lock = Monitor()

    init(buffer: UnsafeRawBufferPointer, mapped: Bool, remote: (any ByteSource)? = nil) {
        self.buffer = buffer
        self.mapped = mapped
        self.remote = remote
        if remote != nil { held = [Bool](repeating: false, count: (buffer.count + Self.chunk - 1) / Self.chunk) }
    }

    deinit {
        if mapped || remote != nil {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), max(buffer.count, 1))
        } else {
            free(UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        }
    }

    var count: Int { buffer.count }

    /// The file behind `source`; nil when it has more than `limit` bytes.
    /// - Throws: `DecodeError.readFailed` when memory for it cannot be had.
    static func load(_ source: ImageSource, limit: Int, path: String) throws(DecodeError) -> HEIFFileBytes? {
        if let remote = source.byteSource { return try loadRemote(remote, limit: limit, path: path) }
        let fd = source.file.withStream { fileno($0) }
        var st = stat()
        if fd >= 0, fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 {
            guard st.st_size <= Int64(limit) else { return nil }
            let size = Int(st.st_size)
            if let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED {
                return HEIFFileBytes(buffer: UnsafeRawBufferPointer(start: p, count: size), mapped: true)
            }
        }
        guard let bytes = source.file.readAll(limit: limit) else { return nil }
        guard let memory = malloc(max(bytes.count, 1)) else {
            throw .readFailed(path: path, reason: "out of memory for the \(bytes.count)-byte file")
        }
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return HEIFFileBytes(buffer: UnsafeRawBufferPointer(start: memory, count: bytes.count), mapped: false)
    }

    /// The bytes from the start to the end of the first `meta` box (all of them when there
    /// is none, or it does not end inside the file): what the box readers need of most files.
    var head: [UInt8] {
        if remote != nil { return remoteHead }
        var i = 0
        while i + 8 <= buffer.count {
            var size = Int(buffer.loadUnaligned(fromByteOffset: i, as: UInt32.self).bigEndian)
            if size == 1, i + 16 <= buffer.count {
                let large = buffer.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).bigEndian
                size = large < UInt64(Int.max) ? Int(large) : 0
            }
            guard size >= 8, size <= buffer.count - i else { break }
            let type = (buffer[i + 4], buffer[i + 5], buffer[i + 6], buffer[i + 7])
            if type == (0x6D, 0x65, 0x74, 0x61) { return Array(buffer[0..<(i + size)]) }  // "meta"
            i += size
        }
        return whole
    }

    /// Gives back the whole pages inside `range` of a mapped file once they have been copied
    /// (a streamed decode then holds a band of tiles, not every page it went through); they
    /// stay in the page cache and come back if read again. Memory of our own is kept.
    func release(_ range: Range<Int>) {
        guard mapped, range.count >= 1 << 16, let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
        let end = (Int(bitPattern: base) + range.upperBound) / page * page
        if end > start { madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED) }
    }

    /// Every byte, as an array.
    var whole: [UInt8] {
        if remote != nil, !ensure(0..<buffer.count) { return [] }
        return Array(buffer)
    }
}
