#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Zero-filled bytes from `calloc`, freed with the last reference.
///
/// Unlike `[UInt8](repeating: 0, count:)`, which writes every byte, `calloc` of a large
/// block maps fresh zero pages that become resident only when written. A decoder that
/// fails early (a huge header, then no data) then costs only what it wrote.
package final class ZeroedBuffer {
    package let bytes: UnsafeMutableRawBufferPointer

    /// nil when the memory cannot be had.
    package init?(count: Int) {
        guard count >= 0, let p = calloc(max(count, 1), 1) else { return nil }
        bytes = UnsafeMutableRawBufferPointer(start: p, count: count)
    }

    deinit { free(bytes.baseAddress) }
}
