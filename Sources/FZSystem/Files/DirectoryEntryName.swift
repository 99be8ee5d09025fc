#if canImport(Glibc)
import Glibc
#endif

/// The name in a `readdir` record, as the bytes it has (a name that is not UTF-8 is still
/// found).
///
/// Why not `entry.pointee.d_name`: that copies the whole fixed 256-byte field (and
/// `pointee` the whole struct), but the kernel packs records by their real length
/// (`d_reclen`), so a short name at the end of glibc's buffer ends before the field does:
/// reading all of it reads past the buffer (AddressSanitizer's heap-buffer-overflow in a
/// folder of many files). The name is read through a pointer, up to its NUL, and no further.
package enum DirectoryEntryName {
    package static func of(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
        return PathBytes.string(cString: start)
    }
}
