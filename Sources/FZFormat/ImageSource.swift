import FZSystem

/// An input opened for decoding: a file, standard input ("-") or bytes in memory, with its
/// first bytes sniffed and, for files, its identity (so an output never replaces it).
public final class ImageSource {
    /// The input as named in messages ("<stdin>" for "-").
    public let name: String
    /// The first bytes, for sniffing.
    package let head: [UInt8]
    /// The stream, at the first byte.
    package let file: CFile
    /// The file read, when it is a regular file.
    public let identity: FileIdentity?
    /// The byte source behind `file` when the input is not a file (a URL: issue 52).
    package private(set) var byteSource: (any ByteSource)?

    /// Opens a file, or "-" for standard input (read whole, up to `stdinLimit` bytes: it
    /// cannot seek back after sniffing).
    /// - Throws: `DecodeError` for a missing, unreadable, directory or empty input.
    public convenience init(path: String, stdinLimit: Int = 1 << 30) throws(DecodeError) {
        let name = StandardStream.inputName(path)
        let file: CFile
        var identity: FileIdentity?
        if StandardStream.isNamed(path) {
            identity = FileIdentity.ofDescriptor(0)
            switch CFile.slurpStandardInput(limit: stdinLimit) {
            case .success(let f): file = f
            case .failure(let e): throw .readFailed(path: name, reason: e.description)
            }
        } else {
            // open says why when it fails (missing, a dangling link, no permission, a FIFO).
            switch CFile.open(readingFrom: path) {
            case .success(let f): file = f
            case .failure(let e) where e.code == EISDIR: throw .isDirectory(path: name)
            case .failure(let e): throw .cannotOpen(path: name, reason: e.description)
            }
            identity = file.withStream { FileIdentity.ofDescriptor(fileno($0)) }
        }
        try self.init(file: file, name: name, identity: identity)
    }

    /// Reads an image held in memory (a download, a fuzzer's input): the bytes are copied
    /// and read through a `fmemopen` stream.
    public convenience init(bytes: [UInt8], name: String) throws(DecodeError) {
        switch CFile.open(bytes: bytes) {
        case .success(let f): try self.init(file: f, name: name, identity: nil)
        case .failure(let e): throw .readFailed(path: name, reason: e.description)
        }
    }

    /// Reads a byte source (a URL's object) through a stdio stream over it.
    package convenience init(byteSource: any ByteSource) throws(DecodeError) {
        switch CFile.open(source: byteSource) {
        case .success(let f):
            try self.init(file: f, name: byteSource.name, identity: nil)
            self.byteSource = byteSource
        case .failure(let e): throw .readFailed(path: byteSource.name, reason: e.description)
        }
    }

    private init(file: CFile, name: String, identity: FileIdentity?) throws(DecodeError) {
        self.file = file
        self.name = name
        self.identity = identity
        head = file.read(upTo: ImageFormat.sniffLength)
        if head.isEmpty { throw .empty(path: name) }
        guard file.rewind() else { throw .readFailed(path: name, reason: "cannot seek back to the start") }
    }
}

#if canImport(Glibc)
import Glibc
#endif
