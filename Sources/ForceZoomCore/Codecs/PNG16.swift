import Geometry

/// 16-bit PNGs read and written at full depth: the lossless path of `crop` and quarter
/// turns (`--depth 16`). Reading stops after the last row needed, as the 8-bit crop does.
public enum PNG16 {
    /// Whether `header` is a PNG with 16-bit samples (gray, gray+alpha, RGB or RGBA;
    /// palette images are never 16-bit) or a 10- or 12-bit HEIF/AVIF (scaled to 16 bits).
    public static func applies(to header: ImageHeader) -> Bool {
        (header.format == .png && header.bitDepth == 16) || (header.format == .heif && header.bitDepth > 8)
    }

    /// The pixels of `rect` at 16 bits from a file `applies(to:)` accepts.
    public static func read(path: String, rect: PixelRect, options: DecodeOptions, header: ImageHeader) throws(DecodeError) -> Image16 {
        guard header.format == .heif else { return try read(path: path, rect: rect, options: options) }
        let source = try ImageSource(path: path, stdinLimit: options.stdinLimit)
        let whole = try HEIFDecoder(source: source, options: options).decodeSixteen()
        let r = rect.intersection(PixelRect(size: whole.size))
        var out = Image16(width: r.width, height: r.height, format: whole.format, fill: .black)
        out.place(whole, at: PixelPoint(x: -r.x, y: -r.y))
        return out
    }

    /// The stored pixels of `rect` (clipped to the image) at 16 bits.
    public static func read(path: String, rect: PixelRect, options: DecodeOptions) throws(DecodeError) -> Image16 {
        let source = try ImageSource(path: path, stdinLimit: options.stdinLimit)
        let reader = try PNGReader(file: source.file, path: source.name, options: options, keep16: true)
        guard reader.sampleBytes == 2 else { throw .unsupportedVariant(path: source.name, what: "PNG that is not 16-bit for a 16-bit read") }
        let r = rect.intersection(PixelRect(size: reader.size))
        let rowBytes = reader.size.width * reader.format.channels * 2
        var warnings: [String] = []
        var out = [UInt8](repeating: 0, count: r.width * r.height * reader.format.channels * 2)
        var row = [UInt8](repeating: 0, count: rowBytes)
        let pixel = reader.format.channels * 2
        if reader.details.interlaced {
            var all = [UInt8](repeating: 0, count: rowBytes * reader.size.height)
            try all.withMutableBytes { b throws(DecodeError) in try reader.readInterlaced(into: b, lenient: options.lenient, warnings: &warnings) }
            let span = r.width * pixel
            for y in 0..<r.height {
                let s: Int = (r.y + y) * rowBytes + r.x * pixel
                let d: Int = y * span
                out.replaceSubrange(d..<(d + span), with: all[s..<(s + span)])
            }
        } else {
            for y in 0..<(r.y + r.height) {
                let got = try row.withMutableBytes { b throws(DecodeError) in
                    try reader.readRows(into: b, count: 1, lenient: options.lenient, warnings: &warnings)
                }
                if got == 0 { break }
                guard y >= r.y else { continue }
                let span: Int = r.width * pixel
                let s: Int = r.x * pixel
                let d: Int = (y - r.y) * span
                out.replaceSubrange(d..<(d + span), with: row[s..<(s + span)])
            }
        }
        return Image16(width: r.width, height: r.height, format: reader.format, bytes: out)
    }
}

extension ImageWriter {
    /// Writes a 16-bit PNG (temporary file, renamed), carrying `color`.
    @discardableResult
    public static func write(
        _ image: Image16, to path: String, settings: PNGSettings, protecting inputs: [String] = [],
        color: ColorDescription? = nil, metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        let out = try OutputFile(path: path, protecting: inputs)
        do throws(OutputError) {
            let writer = try PNGWriter(
                file: out.file, path: out.path, size: image.size, format: image.format, settings: settings,
                color: color?.carried(into: image.format), bitDepth: 16)
            let (exif, xmp) = metadata?.blocks(for: image.size) ?? (nil, nil)
            try writer.write(exif: exif, xmp: xmp)
            try image.bytes.withBytes { b throws(OutputError) in try writer.write(rows: b, count: image.height) }
            try writer.finish()
            try out.commit()
        } catch {
            out.discard()
            throw error
        }
        return path == "-" ? nil : FileSystem.size(of: path)
    }
}
