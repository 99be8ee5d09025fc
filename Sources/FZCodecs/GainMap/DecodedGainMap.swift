import FZFormat
import FZGainMap
import FZHEIF
import FZImage
import FZSystem
import Geometry

/// A gain map decoded for carrying or applying: its 8-bit pixels (gray for one channel, RGB for
/// three) turned upright with the primary, so map pixel (x, y) covers primary upright pixels
/// (x / scaleX, y / scaleY), its values as stored (Apple's stay Apple's: `hdrgmImage` restates
/// them), and the primary's upright size.
///
/// How it is turned upright: Ultra HDR and Adobe's spec give the gain map no orientation of its
/// own (its EXIF, if any, is not applied): it follows the primary's, so the primary's EXIF
/// orientation is applied to it too. An HEIF auxiliary image gets its own transforms (libheif
/// applies them) and then, as the primary, none from EXIF.
public struct DecodedGainMap: Sendable {
    /// The map's pixels, upright, `.gray` or `.rgb`.
    public var image: Image
    public var parameters: GainMapParameters
    /// The primary's upright size, which the map covers whole.
    public var primary: PixelSize
    /// Where it came from (MPF or an HEIF auxiliary image), with its stored size.
    public var source: GainMap
    /// Set with `--gain-map apply`: outputs are its HDR rendition.
    public var rendering: HDRRendering?
    /// Where the writer records outputs it wrote without this map (`GainMapCarry.drops`).
    public var drops: GainMapDrops?

    public init(image: Image, parameters: GainMapParameters, primary: PixelSize, source: GainMap) {
        self.image = image
        self.parameters = parameters
        self.primary = primary
        self.source = source
    }

    /// Map pixels per primary pixel along x and y.
    public var scaleX: Double { Double(image.width) / Double(primary.width) }
    public var scaleY: Double { Double(image.height) / Double(primary.height) }

    /// The map size for an output of `size` primary pixels: each side times the map's scale,
    /// rounded, at least 1.
    public func outputSize(for size: PixelSize) -> PixelSize {
        PixelSize(
            width: max(1, Int((Double(size.width) * scaleX).rounded())),
            height: max(1, Int((Double(size.height) * scaleY).rounded())))
    }

    /// The sample meaning no gain, as a colour in the map's format (gray or RGB): what areas
    /// outside the image (padding, letterbox, rotated corners) carry.
    public var neutral: Color {
        func byte(_ c: Int) -> UInt8 { UInt8((parameters.neutralSample(channel: c) * 255).rounded()) }
        if image.format == .gray { return Color(r: byte(0), g: byte(0), b: byte(0), a: 255) }
        return Color(r: byte(0), g: byte(1), b: byte(2), a: 255)
    }

    /// The values an Ultra HDR file states (`asHDRGM`) and `map`'s samples restated for them:
    /// identity for hdrgm, a 256-entry table per channel for Apple's linear map.
    public static func hdrgm(_ map: Image, _ parameters: GainMapParameters) -> (
        image: Image, parameters: GainMapParameters
    ) {
        guard parameters.scheme == .apple else { return (map, parameters) }
        let c = map.format.channels
        let tables = (0..<c).map { ch in
            (0..<256).map { UInt8((parameters.hdrgmSample(Double($0) / 255, channel: ch) * 255).rounded()) }
        }
        var out = map
        for i in 0..<out.pixels.count { out.pixels[i] = tables[i % c][Int(out.pixels[i])] }
        return (out, parameters.asHDRGM)
    }
}

/// What reading an input's gain map gave.
public enum GainMapRead: Sendable {
    /// The input has none (or it is not one we read).
    case none
    case decoded(DecodedGainMap)
    /// Found and not decoded (`readGainMap(decode: false)`).
    case found(GainMap)
    /// One is announced but unusable: the output is SDR, with this warning.
    case malformed(String)
}

extension ImageReader {
    /// Decodes the input's gain map, upright with the primary. Called after the primary's
    /// pixels are read (it reads the file again from its start); `options` bound the map's
    /// decode as any image's (the probe already refused a map larger than the primary).
    public func readGainMap(decode: Bool = true) -> GainMapRead { readGainMap { _ in decode } }

    /// `readGainMap(decode:)`, decoding the map only where `decode` says for what the probe found.
    public func readGainMap(decodeIf decode: (GainMap) -> Bool) -> GainMapRead {
        let probe: GainMap.Probe
        switch header.format {
        case .jpeg: probe = GainMap.probeJPEG(source.file, primary: header.storedSize)
        case .heif: probe = HEIFGainMap.probe(source.file, primary: header.storedSize, exif: metadata.exif)
        default: return .none
        }
        switch probe {
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
