import FZImage
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// How an output is encoded: the format's encoder with these settings.
public struct OutputEncoding: Hashable, Sendable {
    public var format: OutputFormat
    public var settings: EncodeSettings

    public init(_ format: OutputFormat, _ settings: EncodeSettings = EncodeSettings()) {
        self.format = format
        self.settings = settings
    }
}

/// Writes images to files safely: a temporary file in the target folder, renamed into
/// place when complete. This is the byte-level part every encoder uses; encoding an image
/// through the registry's encoders, gain maps and HDR renditions are FZCodecs' extension.
public enum ImageWriter {
    /// The temporary output for `path`: relative to `folder`'s descriptor when given (the
    /// batch writers), else as the user named it.
    package static func openOutput(
        _ path: String, in folder: (OutputFolder, shown: String)?, protecting inputs: [String]
    ) throws(OutputError) -> OutputFile {
        guard let (root, shown) = folder else { return try OutputFile(path: path, protecting: inputs) }
        let sub = try root.subfolder(FileSystem.directory(of: path), create: false)
        return try OutputFile(in: sub, name: FileSystem.basename(path), path: shown, protecting: inputs)
    }

    /// Writes a complete encoded file (a lossless crop's bytes, an Ultra HDR JPEG, an animation) to `path`
    /// ("-": stdout), through a temporary file as every output is (in `folder` when given).
    /// - Returns: the bytes written (nil for stdout).
    @discardableResult
    public static func write(
        encoded bytes: [UInt8], to path: String, in folder: (OutputFolder, shown: String)? = nil,
        protecting inputs: [String] = []
    ) throws(OutputError) -> Int64? {
        let out = try openOutput(path, in: folder, protecting: inputs)
        do {
            try writeBytes(bytes, into: out)
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        return out.size
    }

    /// Writes an encoded file's bytes into an open output.
    package static func writeBytes(_ bytes: [UInt8], into out: OutputFile) throws(OutputError) {
        let written = out.file.withStream { stream in
            bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, stream) }
        }
        if written != bytes.count { throw .writeFailed(path: out.path, reason: "short write") }
    }

    /// Hands an image's rows to `write` 64 at a time, so no encoder copies it whole.
    package static func inBands(_ image: Image, _ write: (UnsafeRawBufferPointer, Int) throws(OutputError) -> Void)
        throws(OutputError)
    {
        let band = 64
        try image.pixels.withBytes { buffer throws(OutputError) in
            var y = 0
            while y < image.height {
                let n = min(band, image.height - y)
                try write(UnsafeRawBufferPointer(rebasing: buffer[(y * image.stride)...]), n)
                y += n
            }
        }
    }
}
