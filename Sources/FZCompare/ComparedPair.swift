import FZCodecs
import FZImage
import FZSystem
import Geometry

/// The two images `compare` measures, read the same way: upright (the EXIF orientation
/// applied, so a file and its correctly rotated copy compare equal), converted to sRGB or
/// both left as stored, and of one size.
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
        case unreadable(DecodeError)
        /// An embedded profile cannot be used for the conversion to sRGB.
        case color(ColorError)
        /// The upright sizes differ and no cut to the smaller was asked for.
        case sizesDiffer(first: String, PixelSize, second: String, PixelSize)
        /// The images held together (and the difference image) are over the budget.
        case overBudget(path: String, BudgetError)

        public var description: String {
            switch self {
            case .unreadable(let e): return e.description
            case .color(let e): return e.description
            case .overBudget(let path, let e): return "\(path): \(e)"
            case .sizesDiffer(let a, let sa, let b, let sb):
                return
                    "\(a) is \(sa) and \(b) is \(sb) upright; sizes must match (give --crop-to-smaller to compare the top-left \(PixelSize(width: min(sa.width, sb.width), height: min(sa.height, sb.height))))"
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
        let readers: [ImageReader]
        do throws(DecodeError) {
            readers = [try ImageReader(path: a, options: options), try ImageReader(path: b, options: options)]
        } catch { throw .unreadable(error) }
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
        var images: [Image] = []
        for reader in readers {
            var image: Image
            do throws(DecodeError) { image = try reader.readUpright([common])[0] } catch { throw .unreadable(error) }
            do throws(ColorError) {
                _ = try policy.convert(&image, from: reader.header.color, path: reader.path, lenient: false)
            } catch { throw .color(error) }
            images.append(image)
        }
        return ComparedPair(
            first: images[0], second: images[1], sizes: (sa, sb), paths: (readers[0].path, readers[1].path))
    }
}
