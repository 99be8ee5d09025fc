import FZFormat
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Where a RAW is read from, for libraw (`LibRawHandle`) and for the DNG preview reader
/// (`DNGHeader`), which reads a DNG's preview without libraw: a regular file mapped (libraw
/// touches only the pages it needs, a preview thumbnail never the raw data; through a file,
/// libraw's stream re-read 8 KB at each of its ~900 seeks of a DNG's header, a third of a RAW
/// thumbnail's time), or through its own descriptor (a `dup`, opened as /proc/self/fd/N) when
/// it cannot be mapped, else the bytes held here (standard input, bytes in memory).
final class RAWInput {
    enum Storage {
        case mapped(UnsafeMutableRawBufferPointer)
        case descriptor(Int32)
        case bytes(UnsafeMutableRawBufferPointer)
    }
    let storage: Storage
    /// The file's size in bytes.
    let fileSize: Int

    /// Opens `source`; bytes held in memory count against `memoryLimit`.
    init(source: ImageSource, path: String, memoryLimit: Int64) throws(DecodeError) {
        var st = stat()
        let fd = source.file.withStream { fileno($0) }
        if fd >= 0, fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size > 0,
            let p = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED
        {
            storage = .mapped(UnsafeMutableRawBufferPointer(start: p, count: Int(st.st_size)))
            fileSize = Int(st.st_size)
        } else if fd >= 0, st.st_mode & S_IFMT == S_IFREG, case let copy = dup(fd), copy >= 0 {
            storage = .descriptor(copy)
            fileSize = Int(st.st_size)
        } else {
            let cap = memoryLimit > 0 ? Int(min(memoryLimit, Int64(Int.max / 2))) : Int.max / 2
            guard let file = source.file.readAll(limit: cap) else {
                throw .overMemoryLimit(path: path, needed: Int64(cap) + 1, limit: memoryLimit)
            }
            guard let memory = malloc(max(file.count, 1)) else {
                throw .readFailed(path: path, reason: "out of memory for the \(file.count)-byte file")
            }
            let copy = UnsafeMutableRawBufferPointer(start: memory, count: file.count)
            file.withUnsafeBytes { copy.copyMemory(from: $0) }
            storage = .bytes(copy)
            fileSize = file.count
        }
    }

    /// The file's bytes when mapped or held (nil when read through a descriptor); valid while
    /// this object lives.
    var bytes: UnsafeRawBufferPointer? {
        switch storage {
        case .mapped(let b), .bytes(let b): return UnsafeRawBufferPointer(b)
        case .descriptor: return nil
        }
    }

    deinit {
        switch storage {
        case .mapped(let b): munmap(b.baseAddress, b.count)
        case .descriptor(let fd): close(fd)
        case .bytes(let b): free(b.baseAddress)
        }
    }
}
