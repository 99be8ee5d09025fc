import FZFormat
import FZImage
import FZSystem
import Geometry

/// An animated PNG written to disk as its frames arrive, in order: the header when it is
/// opened (the frame count is known up front), each frame's chunks as soon as it is added,
/// IEND on `finish`. Only the frames that arrived early wait in memory (the caller's
/// concern), never the whole animation: 40 full-screen frames held ~3 MB each before.
/// Written through `OutputFile` (temporary file, renamed on `finish`, removed on `discard`).
public final class APNGStream {
    private let out: OutputFile
    private let format: APNGWriter
    private let frameCount: Int
    private var written = 0
    private var failed = false

    /// Opens `path` (never one of `inputs`) and writes the header, with `color`'s chunks.
    public init(
        path: String, protecting inputs: [String], size: PixelSize, format: PixelFormat, fps: Double,
        frameCount: Int, color: ColorDescription? = nil
    ) throws(OutputError) {
        out = try OutputFile(path: path, protecting: inputs)
        self.format = APNGWriter(size: size, format: format, fps: fps)
        self.frameCount = frameCount
        try write(self.format.header(frameCount: frameCount, color: color))
    }

    /// The output path.
    public var path: String { out.path }

    /// Writes the next frame's compressed rows (its IDAT payload).
    public func add(payload: [UInt8]) throws(OutputError) {
        try write(format.frame(written, payload: payload))
        written += 1
    }

    /// Writes IEND and moves the file into place; fails if frames are missing.
    public func finish() throws(OutputError) {
        guard written == frameCount else {
            discard()
            throw .writeFailed(path: out.path, reason: "\(written) of \(frameCount) frames were written")
        }
        try write(format.trailer)
        try out.commit()
    }

    /// Removes the partial file.
    public func discard() { out.discard() }

    private func write(_ bytes: [UInt8]) throws(OutputError) {
        do { try ImageWriter.writeBytes(bytes, into: out) } catch {
            discard()
            throw error
        }
    }
}
