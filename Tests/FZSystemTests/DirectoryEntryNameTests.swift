import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Folder listings read each name up to its NUL and no further: glibc packs `readdir`
/// records by their real length, and copying the fixed 256-byte `d_name` of a short name at
/// the end of its buffer read past it (AddressSanitizer found it writing into /tmp). The
/// names here are every length from 1 to 60, a few thousand of them, so that many records
/// end a buffer; `make test-sanitize` is where an overread would trap.
struct DirectoryEntryNameTests {
    static func folder() -> (String, Set<String>) {
        var template = Array("/tmp/fz-dirent-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        var names = Set<String>()
        for i in 0..<3000 {
            let name = String(repeating: "n", count: 1 + i % 60) + "\(i)"
            names.insert(name)
            let fd = open(dir + "/" + name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if fd >= 0 { close(fd) }
        }
        return (dir, names)
    }

    @Test func everyNameIsListedWhole() throws {
        let (dir, names) = Self.folder()
        defer { _ = system("rm -rf '\(dir)'") }
        #expect(Set(try FileSystem.list(dir)) == names)
    }

    @Test func staleTemporariesListAFullFolder() throws {
        let (dir, _) = Self.folder()
        defer { _ = system("rm -rf '\(dir)'") }
        let folder = try OutputFolder.open(dir)
        // Nothing there is a temporary of ours: the listing must simply get through every record.
        StaleTemporaries.remove(for: "x.png", in: folder)
        #expect(try FileSystem.list(dir).count == 3000)
    }
}
