import FZCodecs
import FZFormat
import FZImage
import Geometry

/// `thumb --show`: the written thumbnails read back and laid side by side on black, in the
/// order they were made, tops aligned, 4 pixels apart. At most `limit` of them (a batch of a million
/// is not a picture), and the strip's pixels are checked against the budget first.
public enum ThumbnailStrip {
    public static let limit = 64
    package static let gap = 4

    /// - Parameters:
    ///   - paths: thumbnails written, in order.
    ///   - options: how they are read (their budget).
    public static func make(_ paths: [String], options: DecodeOptions) throws -> Image? {
        var images: [Image] = []
        for path in paths.prefix(limit) {
            let reader = try ImageReader(path: path, options: options)
            images.append(try reader.readImage().converted(to: .rgba))
        }
        guard !images.isEmpty else { return nil }
        let width = images.reduce(0) { $0 + $1.width } + gap * (images.count - 1)
        let height = images.map(\.height).max() ?? 1
        try options.budget.check("the strip of thumbnails (--show)", size: PixelSize(width: width, height: height))
        var strip = Image(width: width, height: height, format: .rgba, fill: .black)
        var x = 0
        for image in images {
            strip.blend(image, at: PixelPoint(x: x, y: 0))
            x += image.width + gap
        }
        return strip
    }
}
