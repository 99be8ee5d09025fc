import ArgumentParser
import FZOperations

/// `crop --animated` (issue 50): the options that cannot shape an animated crop, and an
/// output format that holds no animation when the command names one (-o's extension or
/// --format), are usage errors here, before anything is read.
extension Crop {
    func validateAnimated() throws {
        guard animated else { return }
        if copiesBlocks {
            throw ValidationError("--animated crops every frame; --lossless copies one JPEG's blocks (drop one)")
        }
        if geometryOnly { throw ValidationError("--geometry-only writes nothing; drop it or --animated") }
        if sample.depth == .sixteen {
            throw ValidationError("--animated writes 8-bit WebP or APNG frames; --depth 16 does not apply")
        }
        let named = output.flatMap { try? OutputFormat.chosen(forPath: $0, requested: formats.format).get() }
        // Thumb's rule (Thumb+Animated): the two writers of animations, by the registry's names.
        if let format = named ?? formats.format, format.format.rawValue != "WebP" && format.format.rawValue != "PNG" {
            throw ValidationError(
                "--animated writes animated WebP or APNG; \(format.extensions[0]) holds no animation (name the output .png or .webp)"
            )
        }
    }
}
