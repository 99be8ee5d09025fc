import ArgumentParser
import FZOperations
import Geometry

/// `crop --lossless`: the squares cut from a JPEG's coefficients (`LosslessJPEGCrop`),
/// not decoded and re-encoded. Kept apart from the rendering path in Crop.swift: it shares
/// only the point resolution and the geometry record.
extension Crop {
    /// Whether --lossless asks an output whose encoder has a lossless mode (WebP, JPEG XL...) (by -o's extension or --format)
    /// for its lossless mode: the rendering path, not a copy of JPEG blocks.
    var encodesLossless: Bool {
        guard lossless else { return false }
        let named = output.flatMap { try? OutputFormat.chosen(forPath: $0, requested: formats.format).get() }
        let format = named ?? formats.format
        return format.map { $0.encoderOptions.contains(.lossless) } ?? false
    }

    /// --lossless (`EncoderFlags`).
    var lossless: Bool { encoder.lossless }

    /// --lossless as a copy of the JPEG's blocks (a JPEG output, or none named).
    var copiesBlocks: Bool { lossless && !encodesLossless }

    /// The options that would change pixels a lossless crop copies: usage errors.
    func validateLossless() throws {
        guard copiesBlocks else { return }
        if zoom != 1 {
            throw ValidationError(
                "--lossless copies the JPEG's blocks 1:1; --zoom \(Echo.number(zoom)) would resample them (drop one)")
        }
        if !pins.marker.isEmpty || pins.markers != nil {
            throw ValidationError(
                "--lossless copies the JPEG's blocks; pins cannot be drawn on them (drop --marker/--markers)")
        }
        if encode.icc != .keep {
            throw ValidationError(
                "--lossless copies the JPEG's blocks and metadata; --icc \(encode.icc.rawValue) would change them")
        }
        if meta.strip || meta.noLocation || meta.noNames {
            let flag = meta.strip ? "--strip" : meta.noLocation ? "--no-location" : "--no-names"
            throw ValidationError(
                "--lossless copies the JPEG's markers as they are; \(flag) would change them (drop one)")
        }
        if sample.depth == .sixteen {
            throw ValidationError("--lossless writes the JPEG's own 8-bit blocks; --depth 16 does not apply")
        }
        if let output, !StandardStream.isNamed(output), !geometryOnly {
            let ext = FileSystem.fileExtension(output).lowercased()
            if ext != "jpg" && ext != "jpeg" {
                throw ValidationError(
                    "--lossless copies JPEG blocks into a .jpg, or encodes \(FormatNames.extensions(taking: .lossless)) lossless "
                        + "(PNG always is); -o \(Echo.value(output)) is none of them")
            }
        }
    }
}
