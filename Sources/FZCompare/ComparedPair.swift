import FZCodecs
import FZFormat
import FZImage
import FZSystem
import Geometry

/// The two images `compare` measures, read the same way: upright (the EXIF orientation
/// applied, so a file and its correctly rotated copy compare equal), converted to sRGB or
/// both left as stored, of one size and one pixel format (RGBA when either has alpha, else
/// RGB: every measure reads them alike).
public struct ComparedPair {
    public let first: Image
    public let second: Image
    /// The upright sizes as read, before any cut to the smaller.
    public let sizes: (first: PixelSize, second: PixelSize)
    /// The inputs as named in messages.
    public let paths: (first: String, second: String)

    /// Why a pair could not be compared.
    public enum Failure: Error, CustomStringConvertible {
        /// An input is missing, not an image, corrupt or over a limit.
        case unreadable(path: String, DecodeError)
        /// An embedded profile cannot be used for the conversion to sRGB.
        case color(path: String, ColorError)
        /// The upright sizes differ and no cut to the smaller was asked for.
        case sizesDiffer(first: String, PixelSize, second: String, PixelSize)
        /// The images held together (and the difference image) are over the budget.
        case overBudget(path: String, BudgetError)

        public var description: String {
            switch self {
            case .unreadable(_, let e): return e.description
            case .color(_, let e): return e.description
            case .overBudget(let path, let e): return "\(path): \(e)"
            case .sizesDiffer(let a, let sa, let b, let sb):
                return
                    "\(a) is \(sa) and \(b) is \(sb); sizes must match (give --crop-to-smaller to compare the top-left \(PixelSize(width: min(sa.width, sb.width), height: min(sa.height, sb.height))))"
            }
        }
    }

    /// Reads both images.
    /// - Parameters:
    ///   - policy: `srgb` converts both through their profiles (untagged ones are sRGB
    ///     already); any other mode compares the decoded samples unconverted.
    ///   - cropToSmaller: compare the top-left rectangle both images have instead of
    ///     failing on different sizes; only those rows and columns are decoded.
    ///   - decoding: the limits (`--max-pixels`, `--max-memory`) and how files are read.
    ///   - withDifference: a difference image of the same size is made while both are held
    ///     (`--diff`), so it meets the budget with them.
    /// - Throws: `Failure`.
    public static func read(
        _ a: String, _ b: String, policy: ColorPolicy, cropToSmaller: Bool, decoding: DecodeOptions = DecodeOptions(),
        withDifference: Bool = false
    ) throws(Failure) -> ComparedPair {
        var options = decoding
        options.intent = policy.intent
        options.strictProfiles = policy.mode == .srgb && !decoding.lenient
        var readers: [ImageReader] = []
        for path in [a, b] {
            do throws(DecodeError) { readers.append(try ImageReader(path: path, options: options)) } catch {
                throw .unreadable(path: StandardStream.inputName(path), error)
            }
        }
        let (sa, sb) = (readers[0].header.uprightSize, readers[1].header.uprightSize)
        if sa != sb && !cropToSmaller { throw .sizesDiffer(first: readers[0].path, sa, second: readers[1].path, sb) }
        let common = PixelRect(x: 0, y: 0, width: min(sa.width, sb.width), height: min(sa.height, sb.height))
        // Both images are held at once (the second decodes while the first waits), and the
        // difference image beside them: all of it meets the budget before either decodes.
        let count = withDifference ? 3 : 2
        do throws(BudgetError) {
            try options.budget.check(
                withDifference ? "the two decoded images and --diff's" : "the two decoded images", size: common.size,
                count: count)
        } catch { throw .overBudget(path: readers[0].path, error) }
        // One format for both, chosen from the headers; each image is converted as it is
        // decoded, so the decoded form and its copy are held together once, not twice.
        var format: PixelFormat = readers.contains { $0.header.pixelFormat.hasAlpha } ? .rgba : .rgb
        var images: [Image] = []
        for reader in readers {
            var image: Image
            do throws(DecodeError) { image = try reader.readUpright([common])[0] } catch {
                throw .unreadable(path: reader.path, error)
            }
            do throws(ColorError) {
                _ = try policy.convert(&image, from: reader.header.color, path: reader.path, lenient: false)
            } catch { throw .color(path: reader.path, error) }
            if image.format.hasAlpha && format == .rgb { format = .rgba }  // a header that said no alpha
            images.append(image.format == format ? image : image.converted(to: format))
        }
        images = images.map { $0.format == format ? $0 : $0.converted(to: format) }
        return ComparedPair(
            first: images[0], second: images[1], sizes: (sa, sb), paths: (readers[0].path, readers[1].path))
    }
}
