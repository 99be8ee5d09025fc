import FZBMP
import FZFormat
import FZGIF
import FZHEIF
import FZJPEG
import FZJXL
import FZPNG
import FZRAW
import FZTIFF
import FZVideo
import FZWebP

/// The decoders forcezoom has, in the order the sniffer asks them: the registry's one line
/// per decoder.
package enum ImageDecoders {
    package static var all: [any ImageDecoder.Type] {
        [
            PNGDecoder.self, JPEGDecoder.self, WebPDecoder.self, HEIFDecoder.self,
            RAWDecoder.self,  // before any TIFF decoder: DNG, NEF, CR2, ARW... are TIFFs inside
            GIFDecoder.self,
            BMPDecoder.self,
            TIFFDecoder.self,
            JXLDecoder.self,
            VideoDecoder.self,
        ]
    }

    /// The decoder for a file's first bytes, if any reads it.
    package static func decoder(for head: [UInt8]) -> (any ImageDecoder.Type)? {
        all.first { $0.sniff(head) }
    }
}
