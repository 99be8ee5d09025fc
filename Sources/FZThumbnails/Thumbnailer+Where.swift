import FZCodecs
import FZFormat
import FZMetadata
import FZRender
import FZSystem
import Geometry

extension Thumbnailer {
    /// The crop for one input: `crop` as it is, or with `place` the point it finds for the
    /// box this size fills (its record in `result.place`). A reduced decode (attention,
    /// entropy) uses the reader up: `reader` is then a new one for the thumbnail's decode.
    func resolvedCrop(_ reader: inout ImageReader, size: ThumbnailSize, into result: inout ThumbnailResult)
        throws(ThumbnailError) -> ThumbnailGeometry.Crop
    {
        var held: HeldDecode?
        return try resolvedCrop(&reader, size: size, into: &result, held: &held, hold: false)
    }

    /// `resolvedCrop`, and with `hold` the reduced decode of attention and entropy kept in
    /// `held` (`HeldDecode`, when the decoder can reduce): the thumbnail is then made from
    /// it, and the file is decoded once.
    func resolvedCrop(
        _ reader: inout ImageReader, size: ThumbnailSize, into result: inout ThumbnailResult, held: inout HeldDecode?,
        hold: Bool = true
    ) throws(ThumbnailError) -> ThumbnailGeometry.Crop {
        guard let place else { return crop }
        let upright = reader.header.uprightSize
        let path = reader.path
        let first = reader
        var decoded = false
        var warnings: [String] = []
        var placement: Placement
        var kept: HeldDecode?
        do {
            let centred = try ThumbnailGeometry(source: upright, size: size, crop: .centre)
            let box = centred.window
            placement = try WhereResolver.resolve(
                place, path: path, upright: upright, box: (box.width, box.height),
                regions: {
                    let r = first.uprightRegions()
                    warnings = r.warnings
                    return r
                },
                pixels: {
                    // A file with embedded thumbnails may make its thumbnail from one: not held.
                    if hold, first.embeddedThumbnailSizes.isEmpty,
                        let h = try HeldDecode.decode(
                            first, target: centred.output, window: (box.width, box.height), headroom: Self.headroom,
                            reducing: InterestMap.reducedSize(of: upright))
                    {
                        (kept, decoded) = (h, true)
                        return h.reduced(to: InterestMap.reducedSize(of: upright))
                    }
                    let (p, consumed) = try WhereResolver.reducedPixels(first)
                    decoded = consumed
                    return p
                }, explain: explain != nil)
        } catch let e as DecodeError {
            throw .decode(e)
        } catch let e as GeometryError {
            throw .geometry(path: path, e)
        } catch let e as WhereError {
            throw .place(path: path, Self.withoutPath(e.message, path))
        } catch {
            throw .place(path: path, "\(error)")
        }
        held = kept
        result.regionWarnings = warnings
        if let explain, let map = placement.explanation {
            let out = explain.replacing("%s", with: StandardStream.stem(of: path))
            do { _ = try ImageWriter.write(map, to: out, protecting: [path]) } catch {
                throw .place(path: path, "--explain: \(error)")
            }
            placement.note("explain", .string(out))
        }
        result.place = placement.record
        if decoded {
            do { reader = try reader.reopened() } catch { throw .decode(error) }
        }
        return .point(placement.touch)
    }

    /// A message without its leading "path: " (the batch adds its own).
    static func withoutPath(_ message: String, _ path: String) -> String {
        for prefix in [path + ": ", "<stdin>: "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }
}
