import FZSystem

/// Inputs named by URL (issue 52): opened through `RemoteInputs`, read by range.
extension ImageSource {
    /// Opens a file, "-", or a URL (read by range through its byte source, its cache within
    /// `options.maxMemory`).
    public convenience init(path: String, options: DecodeOptions) throws(DecodeError) {
        guard RemoteInputs.isURL(path) else {
            try self.init(path: path, stdinLimit: options.stdinLimit)
            return
        }
        let source: any ByteSource
        do throws(RemoteFailure) {
            source = try RemoteInputs.open(path, maxMemory: options.maxMemory, caFile: options.caFile)
        } catch {
            throw error.decodeError
        }
        if source.size == 0 { throw .empty(path: source.name) }
        try self.init(byteSource: source)
    }

    /// The byte source's own failure in place of what a decoder made of the EIO it saw (a
    /// truncated file, a read error): the URL's words and exit code.
    package func remoteFailure(or error: DecodeError) -> DecodeError {
        guard let failure = byteSource?.failure else { return error }
        return failure.decodeError
    }
}

extension RemoteFailure {
    /// As a decoder's error (the reader's functions throw `DecodeError`).
    package var decodeError: DecodeError { .remote(path: name, reason: reason, retryable: retryable) }
}
