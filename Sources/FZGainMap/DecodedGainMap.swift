import FZImage
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
