import FZFormat
import FZJPEG
import FZSystem
import Geometry

/// The gain map of a JPEG cut losslessly with its primary (`crop --lossless`, issue 39): the
/// map's JPEG (its bytes in the same file, found through MPF) is cut by the same `tjTransform`
/// as the primary, from the rectangle that covers the same part of the photo at the map's
/// scale, and the two are joined again as an Ultra HDR JPEG (`UltraHDRContainer`).
///
/// Both cuts must start on their own block grids. With a map 1/k of the image along an axis
/// (k whole) and blocks of b (image) and c (map) pixels there, a primary rectangle starting on
/// a multiple of lcm(b, k·c) starts the map's on a multiple of c, so the primary's grid is
/// widened to that (Pixel: 4080x3072 with a 1020x768 gray map, k = 4, c = 8, b = 16: 32
/// pixels). A map that is not 1/k of the image (or not a JPEG TurboJPEG can crop) cannot be
/// cut so: `init` says why, and the caller drops it with a warning.
public struct LosslessGainMapCrop {
    public let map: GainMap
    /// How many image pixels one map pixel covers along each axis.
    public let scale: PixelSize
    /// The map's own block (iMCU).
    public var block: PixelSize { cropper.block }
    private let primarySize: PixelSize
    private let cropper: LosslessJPEGCrop

    /// Why a map cannot be cut with its image: one clause for a warning.
    public struct Refusal: Error, Equatable, Sendable {
        public let reason: String
    }

    /// Reads the map from `primary`'s bytes and widens `primary`'s grid so that every rectangle
    /// it delivers corresponds to a rectangle on the map's grid.
    /// - Throws: `Refusal` when no rectangle can fall on both grids, or the map is unreadable.
    public init(_ map: GainMap, primary: inout LosslessJPEGCrop) throws(Refusal) {
        let whole = primary.storedSize
        guard map.container == .mpf, map.offset >= 0, map.length > 0, map.offset <= primary.bytes.count - map.length
        else { throw Refusal(reason: "the gain map is not a JPEG inside the file") }
        guard map.size.width > 0, map.size.height > 0, whole.width % map.size.width == 0,
            whole.height % map.size.height == 0
        else {
            throw Refusal(
                reason: "the gain map (\(map.size)) is not the image (\(whole)) divided by a whole number "
                    + "along each axis, so no rectangle lies on both block grids")
        }
        let bytes = Array(primary.bytes[map.offset..<(map.offset + map.length)])
        do {
            cropper = try LosslessJPEGCrop(bytes: bytes, path: "\(primary.path) (gain map)", options: primary.options)
        } catch {
            throw Refusal(reason: "its gain map cannot be cut losslessly: \(error)")
        }
        guard cropper.storedSize == map.size else {
            throw Refusal(reason: "the gain map's frame (\(cropper.storedSize)) is not its announced \(map.size)")
        }
        self.map = map
        primarySize = whole
        scale = PixelSize(width: whole.width / map.size.width, height: whole.height / map.size.height)
        primary.grid = PixelSize(
            width: Self.lcm(primary.block.width, scale.width * cropper.block.width),
            height: Self.lcm(primary.block.height, scale.height * cropper.block.height))
    }

    /// The map's rectangle for a stored rectangle of the image on its (widened) grid.
    public func rect(forStored r: PixelRect) -> PixelRect {
        let maxX = r.maxX == primarySize.width ? map.size.width : r.maxX / scale.width
        let maxY = r.maxY == primarySize.height ? map.size.height : r.maxY / scale.height
        let x = r.x / scale.width
        let y = r.y / scale.height
        return PixelRect(x: x, y: y, width: maxX - x, height: maxY - y)
    }

    /// Cuts the map for each of the image's rectangles (as the widened `delivered` returns them).
    public func crop(forStored rects: [PixelRect], lenient: Bool = false) throws(DecodeError) -> [[UInt8]] {
        try cropper.crop(rects.map(rect(forStored:)), lenient: lenient)
    }

    /// The Ultra HDR file of a cut primary and its cut map: hdrgm values restated as they were;
    /// Apple's map keeps Apple's XMP (and the primary its maker note), with a new MPF index.
    public func assemble(primary: [UInt8], map cut: [UInt8]) throws(UltraHDRContainer.Failure) -> [UInt8] {
        if map.parameters.scheme == .hdrgm {
            return try UltraHDRContainer.assemble(primary: primary, gainMap: cut, parameters: map.parameters)
        }
        return try UltraHDRContainer.assemble(primary: primary, keepingGainMap: cut)
    }

    static func lcm(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / x * b
    }
}
