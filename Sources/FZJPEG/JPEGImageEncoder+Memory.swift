import FZSystem
import Geometry

extension JPEGImageEncoder {
    /// Packed rows (1 gray or 3 RGB bytes a pixel) encoded in memory: the gain-map fixtures
    /// (`fixture kit --set hdr`) are two JPEGs joined as Ultra HDR before anything is written.
    /// - Parameter path: the output named in messages.
    package static func fixtureBytes(
        rows: [UInt8], size: PixelSize, channels: Int, options o: FixtureOptions, path: String
    ) throws(OutputError) -> [UInt8] {
        let coding = JPEGWriter.Coding(
            quality: o.quality, subsampling: o.subsampling, progressive: o.progressive, arithmetic: o.arithmetic,
            rgbCoded: o.rgbCoded, ycck: o.ycck, restartRows: o.restartRows, app1: nil, icc: o.icc)
        guard let memory = CFile.memoryStream() else {
            throw OutputError.writeFailed(path: path, reason: "open_memstream failed")
        }
        let writer = try JPEGWriter(file: memory, path: path, size: size, channels: channels, coding: coding)
        try rows.withBytes { buffer throws(OutputError) in try writer.write(rows: buffer, count: size.height) }
        try writer.finish()
        _ = memory.close()
        return memory.memoryContents
    }
}
