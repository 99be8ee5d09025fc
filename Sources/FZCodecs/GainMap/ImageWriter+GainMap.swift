import FZFormat
import FZGainMap
import FZHEIF
import FZImage
import FZJPEG
import FZMetadata
import FZSystem
import Geometry

/// Writing an output with the gain map carried to its geometry: a JPEG output becomes an
/// Ultra HDR JPEG (`UltraHDRContainer`); other formats have no gain-map form every reader
/// knows, so the map is dropped there (the caller records why).
extension ImageWriter {
    /// The quality the gain map is encoded at: 95, libultrahdr's default, 4:4:4. Why so high:
    /// the map is a sixteenth of the pixels or less (a Pixel's is 1/4 per axis), so it costs
    /// little (a 400 px crop's map is about 1.5 KB), while each of its 8-bit steps is already
    /// a gain step (a Pixel's 255 steps span 2.66 stops: one is 0.7% of light), and a map's
    /// sharp edges (padding, letterbox next to the image) ring at lower qualities. 4:4:4
    /// keeps a 3-channel map's channels at its own resolution (it is no picture whose chroma
    /// may be halved).
    package static let gainMapQuality = 95

    /// Whether an output format can carry any gain map (as Ultra HDR: JPEG's registration).
    public static func carriesGainMap(_ format: OutputFormat) -> Bool { format.gainMaps.contains(.ultraHDR) }

    /// Whether an output in `format` carries a map of this scheme and channel count: an Ultra
    /// HDR carrier any, an Apple auxiliary-image carrier (HEIC) Apple's one-channel maps.
    public static func carriesGainMap(_ format: OutputFormat, scheme: GainMapParameters.Scheme, channels: Int) -> Bool {
        carriesGainMap(format) || (keepsAppleMap(format) && scheme == .apple && channels == 1)
    }

    static func keepsAppleMap(_ format: OutputFormat) -> Bool { format.gainMaps.contains(.appleAuxiliary) }

    /// The names of the formats with `ability` ("JPEG"), from the encoders' registrations.
    static func names(with ability: GainMapAbilities) -> String {
        FormatRegistry.sentence(OutputFormat.all.filter { $0.gainMaps.contains(ability) }.map(\.name), "and")
    }

    /// Why an output in `format` leaves `map` out (`--json`'s gainMapNote).
    public static func noGainMap(_ format: OutputFormat, _ map: GainMap) -> String {
        let keepers = "\(names(with: .ultraHDR)) outputs keep it"
        guard keepsAppleMap(format) else {
            let apple =
                map.parameters.scheme == .apple && map.channels == 1
                ? ", and \(names(with: .appleAuxiliary)) outputs Apple's" : ""
            return "\(format.name) has no gain-map form every reader knows (\(keepers)\(apple))"
        }
        if map.parameters.scheme == .apple {
            return
                "\(format.name) keeps Apple's one-channel gain maps; this one has \(map.channels) channels (\(keepers))"
        }
        return "\(format.name) keeps Apple's gain maps only: an Ultra HDR or Adobe map has no headroom in Apple's form"
            + " (an Apple maker note), and libheif 1.15 reads no ISO 21496-1 tmap (\(keepers))"
    }

    /// Writes `image` as an HEIC with Apple's gain map (`AppleHEICGainMap`): `image` encoded as
    /// `write` would, `map` (gray, at the output's geometry) coded as a monochrome HEVC image
    /// and joined to it as the hdrgainmap auxiliary image. Where the map cannot be coded or
    /// joined, the HEIC is written without it and `map.drops` says why.
    @discardableResult
    static func writeAppleHEIC(
        _ image: Image, map: CarriedGainMap, to path: String, in folder: (OutputFolder, shown: String)?,
        encoding: OutputEncoding, protecting inputs: [String], color: ColorDescription?, background: Color?,
        metadata: CarriedMetadata?
    ) throws(OutputError) -> Int64? {
        let bytes = try encodedPrimary(
            image, path: path, encoding: encoding, color: color, background: background, metadata: metadata)
        let lossless = encoding.settings.lossless
        let joined = AppleHEICGainMap.joined(primary: bytes, map: map.image, parameters: map.parameters) {
            (gray) throws(OutputError) in
            try HEIFEncoder.encodeMonochrome(gray, quality: gainMapQuality, lossless: lossless, path: path)
        }
        switch joined {
        case .success(let file): return try write(encoded: file, to: path, in: folder, protecting: inputs)
        case .failure(let why):
            map.drops?.add(why.detail)
            return try write(encoded: bytes, to: path, in: folder, protecting: inputs)
        }
    }

    /// Writes `image` as an Ultra HDR JPEG: `image` encoded as `write` would (EXIF, XMP, ICC
    /// as given), `map` (gray or RGB, already at the output's geometry) encoded beside it, and
    /// the two assembled with `parameters` (Apple's restated by `DecodedGainMap.hdrgm` first).
    /// Atomic as `write`: a temporary file beside the target, renamed when complete.
    @discardableResult
    public static func writeUltraHDR(
        _ image: Image, map: Image, parameters: GainMapParameters, to path: String,
        in folder: (OutputFolder, shown: String)? = nil, encoding: OutputEncoding, protecting inputs: [String] = [],
        color: ColorDescription? = nil, background: Color? = nil, metadata: CarriedMetadata? = nil
    ) throws(OutputError) -> Int64? {
        precondition(carriesGainMap(encoding.format), "an Ultra HDR output is a JPEG")
        let primaryBytes = try encodedPrimary(
            image, path: path, encoding: encoding, color: color, background: background, metadata: metadata)
        let mapBytes = try encodeGainMap(map, path: path)
        // The container fails only for an input XMP too large to share its 64 KiB segment
        // with the gain map's directory: the output is then the SDR JPEG alone. The commands
        // find that out before (`GainMapCarry.fitting`) and hand no map, so --json says so.
        let bytes =
            (try? UltraHDRContainer.assemble(primary: primaryBytes, gainMap: mapBytes, parameters: parameters))
            ?? primaryBytes
        return try write(encoded: bytes, to: path, in: folder, protecting: inputs)
    }

    /// The image a gain-map output is built around, encoded in memory as `write` would encode
    /// it (EXIF, XMP, ICC as given), less the input's XMP that announced a map: the containers
    /// (Ultra HDR, Apple's HEIC) add the map and its own description to these bytes.
    private static func encodedPrimary(
        _ image: Image, path: String, encoding: OutputEncoding, color: ColorDescription?, background: Color?,
        metadata: CarriedMetadata?
    ) throws(OutputError) -> [UInt8] {
        let primary = try OutputFile.inMemory(path: path)
        try encode(
            image, into: primary, encoding: encoding, color: color?.carried(into: image.format),
            background: background, metadata: metadata?.withoutGainMap())
        try primary.commit()
        return primary.memoryContents()
    }

    /// The gain map as a baseline JPEG (gray or 4:4:4 RGB) at `gainMapQuality`, no metadata.
    static func encodeGainMap(_ map: Image, path: String) throws(OutputError) -> [UInt8] {
        let out = try OutputFile.inMemory(path: path)
        let coding = JPEGWriter.Coding(quality: gainMapQuality, subsampling: 444)
        let writer = try JPEGWriter(
            file: out.file, path: path, size: map.size, channels: map.format.channels, coding: coding)
        try inBands(map) { rows, count throws(OutputError) in try writer.write(rows: rows, count: count) }
        try writer.finish()
        try out.commit()
        return out.memoryContents()
    }
}
