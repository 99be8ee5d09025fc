import FZFormat
import FZImage
import FZSystem
import FZTerminal
import Geometry

extension CropOperation {
    /// The lossless path for deep samples: the squares read at full depth in one decode (the
    /// image is upright as stored here) and written at 16 bits, the samples unchanged (the
    /// padding is the background at 16 bits).
    func runSixteenBit(_ geometries: [PeekGeometry], reader: ImageReader, _ report: Report) throws {
        let header = reader.header
        let carried = settings.carry(header.color, path: reader.path)
        let metadata = settings.carriedMetadata(reader, format: target.format())
        let sources = try reader.readStored16(geometries.map(\.coveredRect))
        for (i, g) in geometries.enumerated() {
            var source = sources[i]
            try settings.convert(&source, from: header.color, path: reader.path)
            let padded = g.coveredRect.size != PixelSize(width: g.side, height: g.side)
            let format = padded ? source.format.union(background.minimalFormat) : source.format
            var peek = Image16(width: g.side, height: g.side, format: format, fill: background)
            peek.place(source.converted(to: format), at: g.destination)
            let placed = metadata?.placed(
                .translation(Double(g.destination.x - g.coveredRect.x), Double(g.destination.y - g.coveredRect.y)),
                output: peek.size)
            let bytes =
                target.writes ? try target.write(peek, i, protecting: [input], color: carried, metadata: placed) : nil
            if json {
                report.record(
                    record(g, header, i, path: reader.path, output: target.writtenPath(i), bytes: bytes, depth: 16))
            }
            if let display { try display.show([InlineImage.eightBit(peek)]) }
        }
    }
}
