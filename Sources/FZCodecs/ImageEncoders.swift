import FZFormat
import FZHEIF
import FZJPEG
import FZJXL
import FZPNG
import FZWebP

/// Every format forcezoom writes, in the order help texts and messages list them.
///
/// Adding an encoder: one file plus one line in `ImageEncoders.all`. The file declares a
/// type conforming to `ImageEncoder` whose `registration` (an `OutputFormat`) states its
/// name, extensions, the `ImageFormat` a reader sniffs from it, whether it keeps alpha and
/// writes 16-bit samples, which metadata containers it writes and how large a block each
/// holds, and which options (`EncoderOption`: quality, lossless, compression) apply; its
/// `encode` writes an image into an open output. Everything else follows from the line
/// here: `ImageWriter.encode` dispatches through it, `--format`'s values, the extensions an
/// output name may end in, help texts and errors list it, `CarriedMetadata.fitting` keeps
/// what its containers hold, and JPEG-style flattening happens where it keeps no alpha.
/// (`OutputFormat.png` and the like are conveniences for the call sites that name a format;
/// a new encoder needs none.)
package enum ImageEncoders {
    /// One line per encoder.
    package static let all: [any ImageEncoder.Type] = [
        PNGImageEncoder.self,
        JPEGImageEncoder.self,
        WebPImageEncoder.self,
        HEICImageEncoder.self,
        AVIFImageEncoder.self,
        JXLImageEncoder.self,
    ]
}
