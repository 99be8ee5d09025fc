import FZFormat
import FZHEIF
import FZJPEG
import FZSystem
import Geometry

/// A decoder whose format carries an HDR gain map beside its image: `ImageReader` asks the
/// decoder it opened whether it conforms, never the format's name. Its registration says
/// `.gainMaps` (DecoderRegistryTests holds the two to each other).
package protocol GainMapProbing: ImageDecoder {
    /// The gain map stored beside a primary image of `primary` stored pixels, read from
    /// `file`'s start (the reader decodes nothing after this).
    static func probeGainMap(_ file: CFile, primary: PixelSize, exif: [UInt8]?) -> GainMap.Probe
}

/// JPEG: an MPF image with Ultra HDR / Adobe (`hdrgm`) or Apple gain-map XMP.
extension JPEGDecoder: GainMapProbing {
    package static func probeGainMap(_ file: CFile, primary: PixelSize, exif: [UInt8]?) -> GainMap.Probe {
        GainMap.probeJPEG(file, primary: primary, exif: exif)
    }
}

/// The decoders that conform, looked up by identity: a dynamic cast (`as? any
/// GainMapProbing.Type`) makes the Swift runtime search every conformance record of the
/// binary on each new type, about 0.5 ms of a small crop's start-up; this does not.
package enum GainMapProbers {
    package static let all: [any GainMapProbing.Type] = [JPEGDecoder.self, HEIFDecoder.self]

    /// The prober for `decoder`, nil when its format carries no gain map.
    package static func prober(for decoder: any ImageDecoder) -> (any GainMapProbing.Type)? {
        let id = ObjectIdentifier(type(of: decoder))
        return all.first { ObjectIdentifier($0) == id }
    }
}

/// HEIF: Apple's `urn:com:apple:photo:2020:aux:hdrgainmap` auxiliary image.
extension HEIFDecoder: GainMapProbing {
    package static func probeGainMap(_ file: CFile, primary: PixelSize, exif: [UInt8]?) -> GainMap.Probe {
        HEIFGainMap.probe(file, primary: primary, exif: exif)
    }
}
