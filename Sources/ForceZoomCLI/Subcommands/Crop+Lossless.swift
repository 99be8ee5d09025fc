import ArgumentParser
import FZCodecs
import FZCompare
import FZFixtures
import FZImage
import FZOperations
import FZRender
import FZSystem
import FZTerminal
import FZThumbnails
import Geometry

/// `crop --lossless`: the squares cut from a JPEG's coefficients (`LosslessJPEGCrop`),
/// not decoded and re-encoded. Kept apart from the rendering path in Crop.swift: it shares
/// only the point resolution and the geometry record.
extension Crop {
    /// Whether --lossless asks a WebP, HEIC or AVIF output (by -o's extension or --format)
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
        if meta.strip || meta.noLocation {
            let flag = meta.strip ? "--strip" : "--no-location"
            throw ValidationError(
                "--lossless copies the JPEG's markers as they are; \(flag) would change them (drop one)")
        }
        if sample.depth == .sixteen {
            throw ValidationError("--lossless writes the JPEG's own 8-bit blocks; --depth 16 does not apply")
        }
        if let output, output != "-", !geometryOnly {
            let ext = FileSystem.fileExtension(output).lowercased()
            if ext != "jpg" && ext != "jpeg" {
                throw ValidationError(
                    "--lossless copies JPEG blocks into a .jpg, or encodes .webp, .heic or .avif lossless "
                        + "(PNG always is); -o \(Echo.value(output)) is none of them")
            }
        }
    }

    /// The output path for point `index` (1-based) of a lossless crop.
    func losslessOutputPath(_ index: Int) -> String {
        if output != nil { return outputPath(index) }
        let stem = input == "-" ? "stdin" : FileSystem.stem(input)
        return at.count > 1 ? "\(stem).crop-\(index).jpg" : "\(stem).crop.jpg"
    }

    /// Reads the JPEG once, cuts every square on the block grid in one pass, writes them.
    func runLossless(_ reader: ImageReader, _ geometries: [PeekGeometry]) throws {
        let header = reader.header
        guard header.format == .jpeg else {
            throw ToolFailure(
                "\(reader.path): --lossless crops JPEG files only; this is \(header.format.rawValue) (drop --lossless)",
                exitCode: 2)
        }
        let cropper: LosslessJPEGCrop
        cropper = try LosslessJPEGCrop(source: reader.source, limit: decode.options.stdinLimit)
        let plans = geometries.map { cropper.delivered(forUpright: $0.coveredRect, orientation: header.orientation) }
        let paths = at.indices.map { losslessOutputPath($0 + 1) }
        var files: [[UInt8]] = []
        if !geometryOnly {
            try Outputs.checkNotInputs(paths, inputs: [input] + (atFrom.map { [$0] } ?? []))
            files = try cropper.crop(plans.map(\.stored), lenient: decode.lenient)
        }
        for (i, g) in geometries.enumerated() {
            var bytes: Int64?
            if !geometryOnly {
                bytes = try ImageWriter.write(encoded: files[i], to: paths[i], protecting: [input])
            }
            guard json || geometryOnly else { continue }
            let record = geometryJSON(
                g, header: header, requested: at[i], output: geometryOnly ? nil : paths[i], bytes: bytes,
                path: reader.path)
            guard case .object(var members) = record else { continue }
            let (stored, upright) = plans[i]
            members += [
                ("lossless", .bool(true)),
                ("deliveredRect", upright.json),
                ("storedDeliveredRect", stored.json),
                (
                    "pointInDelivered",
                    .object([("x", .int(g.point.x - upright.x)), ("y", .int(g.point.y - upright.y))])
                ),
                ("block", cropper.block.json),
                // The tag is copied, never applied: the stored blocks are cut as they are.
                ("outputOrientation", header.exifOrientationValue.map { .int($0) } ?? .null),
            ]
            print(JSON.object(members).versioned)
        }
    }
}
