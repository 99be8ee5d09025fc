import FZCodecs
import FZSystem
import Geometry

extension CropOperation {
    /// `--lossless` with a JPEG output: reads the JPEG once, cuts every square on the block
    /// grid in one pass (widened to the 8/16-pixel grid), writes the blocks as they are.
    func runLossless(_ reader: ImageReader, _ geometries: [PeekGeometry], _ report: Report) throws {
        let header = reader.header
        guard header.format == .jpeg else {
            throw ToolFailure(
                "\(reader.path): --lossless crops JPEG files only; this is \(header.format.rawValue) (drop --lossless)",
                exitCode: 2)
        }
        let cropper = try LosslessJPEGCrop(
            source: reader.source, limit: settings.decode.stdinLimit, options: settings.decode)
        let plans = geometries.map { cropper.delivered(forUpright: $0.coveredRect, orientation: header.orientation) }
        var files: [[UInt8]] = []
        if !geometryOnly {
            try target.checkNotInputs([input] + alsoRead)
            files = try cropper.crop(plans.map(\.stored), lenient: settings.lenient)
        }
        for (i, g) in geometries.enumerated() {
            var bytes: Int64?
            if !geometryOnly {
                bytes = try ImageWriter.write(encoded: files[i], to: target.path(i), protecting: [input])
            }
            guard json || geometryOnly else { continue }
            let output = geometryOnly ? nil : target.path(i)
            guard case .object(var members) = record(g, header, i, path: reader.path, output: output, bytes: bytes)
            else { continue }
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
            report.record(JSON.object(members).versioned)
        }
    }
}
