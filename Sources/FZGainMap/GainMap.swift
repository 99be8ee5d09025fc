import FZSystem
import Geometry

/// An HDR gain map found beside an image: where it is, its size and channels, and what its
/// metadata says (`GainMapParameters`). Read for `info`; carried through outputs later.
public struct GainMap: Hashable, Sendable {
    public enum Container: String, Hashable, Sendable {
        /// A JPEG after the primary, listed by its MPF index (Ultra HDR, Adobe, Apple JPEGs).
        case mpf = "MPF"
        /// An HEIF auxiliary image of the primary item (Apple's HEICs).
        case heifAuxiliary = "HEIF auxiliary image"
    }

    public var container: Container
    /// Where its bytes lie in the file (MPF; 0 for an HEIF auxiliary image).
    public var offset: Int
    public var length: Int
    /// The HEIF item that holds it (an auxiliary image), nil in a JPEG.
    public var item: UInt32?
    public var size: PixelSize
    /// 1 (one gain for all channels) or 3.
    public var channels: Int
    public var parameters: GainMapParameters

    /// What a look for a gain map found.
    public enum Probe: Hashable, Sendable {
        case none
        case found(GainMap)
        /// A gain map is announced but unusable: the image is read as SDR, with this warning.
        case malformed(String)
    }

    /// The most bytes of a JPEG's head walked for its segments (APP segments are at most
    /// 64 KB each; a primary's EXIF, XMP, ICC and MPF fit well within this).
    static let headLimit = 1 << 20

    /// Looks for an MPF gain map in the JPEG `file` (which is rewound first and left anywhere).
    /// `primary` is the primary image's stored size: a gain map larger than it is refused.
    /// An Apple map whose XMP has no headroom takes it from `exif`'s Apple maker note.
    package static func probeJPEG(_ file: CFile, primary: PixelSize, exif: [UInt8]? = nil) -> Probe {
        guard file.rewind() else { return .none }
        let head = file.read(upTo: headLimit)
        guard let segments = JPEGSegments(head) else { return .none }
        let mpfSignature = Array("MPF\0".utf8)
        guard let mpf = segments.payloads(0xE2, signature: mpfSignature, in: head).first else { return .none }
        let index: MPFIndex
        do {
            index = try MPFIndex(parsing: head[mpf])
        } catch {
            guard case .malformed(let why) = error else { return .none }
            return .malformed(why)
        }
        guard index.entries.count >= 2 else { return .none }
        let fileLength = file.length ?? Int.max
        var problem: String?
        let makerNote = exif.flatMap(AppleMakerNote.headroom)
        for (k, entry) in index.entries.enumerated().dropFirst() {
            let start = mpf.lowerBound + entry.offset
            guard entry.offset > 0, entry.size > 0, start < fileLength, entry.size <= fileLength - start else {
                problem = "MPF image \(k + 1) lies past the end of the file"
                continue
            }
            guard file.seek(to: start) else { continue }
            let bytes = file.read(upTo: min(entry.size, headLimit))
            guard let s = JPEGSegments(bytes) else {
                problem = "MPF image \(k + 1) is not a JPEG"
                continue
            }
            guard let xmp = s.xmp(in: bytes) else { continue }  // a depth map, a second view: no gain map
            let parameters: GainMapParameters
            do {
                parameters = try GainMapParameters(xmp: xmp, makerNoteHeadroom: makerNote)
            } catch {
                if case .malformed(let why) = error { problem = why }
                continue
            }
            guard let f = s.frame, f.width > 0, f.height > 0 else {
                problem = "the gain map (MPF image \(k + 1)) has no pixels"
                continue
            }
            guard f.width <= primary.width, f.height <= primary.height else {
                problem = "the gain map (\(f.width)x\(f.height)) is larger than the image (\(primary))"
                continue
            }
            guard f.components == 1 || f.components == 3 else {
                problem = "the gain map has \(f.components) channels (1 or 3 expected)"
                continue
            }
            return .found(
                GainMap(
                    container: .mpf, offset: start, length: entry.size, item: nil,
                    size: PixelSize(width: f.width, height: f.height), channels: f.components, parameters: parameters))
        }
        return problem.map { .malformed($0) } ?? .none
    }
}
