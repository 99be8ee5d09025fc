import FZFormat
import FZGainMap
import FZHEIF
import FZImage
import FZSystem
import Geometry

extension ImageReader {
    /// Decodes the input's gain map, upright with the primary. Called after the primary's
    /// pixels are read (it reads the file again from its start); `options` bound the map's
    /// decode as any image's (the probe already refused a map larger than the primary).
    public func readGainMap(decode: Bool = true) -> GainMapRead { readGainMap { _ in decode } }

    /// `readGainMap(decode:)`, decoding the map only where `decode` says for what the probe found.
    public func readGainMap(decodeIf decode: (GainMap) -> Bool) -> GainMapRead {
        switch probedGainMap() {
        case .none: return .none
        case .malformed(let why): return .malformed(why)
        case .found(let map):
            guard decode(map) else { return .found(map) }
            do {
                let image: Image
                switch map.container {
                case .mpf: image = try decodeMPF(map)
                case .heifAuxiliary:
                    guard let aux = try decodeAuxiliary(map) else { return .none }
                    image = aux
                }
                guard
                    image.size == header.orientation.uprightSize(ofStored: map.size) || map.container == .heifAuxiliary
                else { return .malformed("the gain map decodes to \(image.size), not the \(map.size) it states") }
                let upright = header.uprightSize
                guard image.width <= upright.width, image.height <= upright.height else {
                    return .malformed("the gain map (\(image.size)) is larger than the image (\(upright))")
                }
                // A map turned another way than the image (or of another shape) would be
                // misaligned: its two scales must agree within 25%.
                let sx = Double(image.width) / Double(upright.width)
                let sy = Double(image.height) / Double(upright.height)
                guard max(sx, sy) / min(sx, sy) < 1.25 else {
                    return .malformed("the gain map (\(image.size)) does not have the image's shape (\(upright))")
                }
                return .decoded(DecodedGainMap(image: image, parameters: map.parameters, primary: upright, source: map))
            } catch {
                return .malformed("its gain map cannot be decoded: \(error.reason)")
            }
        }
    }

    /// An MPF gain map: its bytes read and decoded by our JPEG decoder, stored orientation,
    /// then the primary's orientation applied.
    private func decodeMPF(_ map: GainMap) throws(DecodeError) -> Image {
        var options = self.options
        options.autoOrient = false
        try options.checkPixels(map.size, path: path)
        guard source.file.seek(to: map.offset) else {
            throw .readFailed(path: path, reason: "cannot seek to the gain map")
        }
        let bytes = source.file.read(upTo: map.length)
        guard bytes.count == map.length else { throw .truncated(path: path, detail: "inside the gain map") }
        let reader = try ImageReader(bytes: bytes, name: "\(path) (gain map)", options: options)
        var image = try reader.readImage()
        let channels = image.format.isGray ? PixelFormat.gray : .rgb
        image = image.converted(to: channels)
        return image.oriented(header.orientation)
    }

    /// An HEIF auxiliary gain map, through libheif's auxiliary-image API (`HEIFDecoder`); nil
    /// where this build does not read it.
    private func decodeAuxiliary(_ map: GainMap) throws(DecodeError) -> Image? {
        guard let heif = decoder as? HEIFDecoder else { return nil }
        return try heif.decodeGainMap(item: map.item)
    }
}
