/// Buffer access that keeps typed throws: the standard `withUnsafe...Bytes` are
/// `rethrows`, which erases a closure's error type to `any Error`.
extension Array where Element == UInt8 {
    package mutating func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R)
        throws(E) -> R
    {
        var result: Result<R, E>?
        withUnsafeMutableBytes { buffer in result = Result { () throws(E) -> R in try body(buffer) } }
        return try result!.get()
    }

    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var result: Result<R, E>?
        withUnsafeBytes { buffer in result = Result { () throws(E) -> R in try body(buffer) } }
        return try result!.get()
    }
}
