import FZCodecs
import FZFormat
import FZGainMap
import FZJPEG
import FZMetadata
import FZSystem
import Geometry

extension CropOperation {
    /// `--lossless` with a JPEG output: reads the JPEG once, cuts every square on the block
    /// grid in one pass (widened to the 8/16-pixel grid), writes the blocks as they are. A gain
    /// map (issue 39) is cut losslessly too, the grid widened so both rectangles fall on their
    /// own blocks (`LosslessGainMapCrop`), or dropped with one warning where none can.
    func runLossless(_ reader: ImageReader, _ geometries: [PeekGeometry], _ report: Report) throws {
        let header = reader.header
        guard header.format == .jpeg else {
            throw ToolFailure(
                "\(reader.path): --lossless crops JPEG files only; this is \(header.format.rawValue) (drop --lossless)",
                exitCode: 2)
        }
        let probe = reader.probeGainMap()
        var cropper = try LosslessJPEGCrop(
            source: reader.source, limit: settings.decode.stdinLimit, options: settings.decode)
        let gainMap = losslessGainMap(probe, &cropper, path: reader.path)
        let plans = geometries.map { cropper.delivered(forUpright: $0.coveredRect, orientation: header.orientation) }
        let motion = settings.motionClipDropped(reader, lossless: true)
        var files: [[UInt8]] = []
        if !geometryOnly {
            try target.checkNotInputs([input] + alsoRead)
            files = try cropper.crop(plans.map(\.stored), lenient: settings.lenient)
            // The markers are copied, the XMP with them: its regions are moved into each square
            // (before the gain map's container is assembled, whose offsets follow the primary).
            files = try movingRegions(files, reader, plans.map(\.stored))
            // The clip after the end is not copied: the XMP must not announce it.
            files = try joined(
                files, gainMap, plans.map(\.stored), hadMap: probe != .none || motion != nil, path: reader.path)
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
                ("grid", cropper.grid.json),
                // The tag is copied, never applied: the stored blocks are cut as they are.
                ("outputOrientation", header.exifOrientationValue.map { .int($0) } ?? .null),
            ]
            if let motion, !geometryOnly {
                members += [("motionPhoto", .string("dropped")), ("motionPhotoNote", .string(motion))]
            }
            if let gainMap {
                members.append(
                    (
                        "gainMapCrop",
                        .object([
                            ("storedRect", gainMap.rect(forStored: stored).json), ("block", gainMap.block.json),
                            ("scale", gainMap.scale.json), ("scheme", .string(gainMap.map.parameters.scheme.rawValue)),
                        ])
                    ))
            } else if probe != .none {
                members.append(("gainMapCrop", .null))
            }
            report.record(JSON.object(members).versioned)
        }
    }

    /// The gain map cut with the image, or nil (with one warning when there was one to keep).
    private func losslessGainMap(_ probe: GainMap.Probe, _ cropper: inout LosslessJPEGCrop, path: String)
        -> LosslessGainMapCrop?
    {
        switch probe {
        case .none: return nil
        case .malformed(let why):
            settings.warnings.say("\(path): gain map ignored, the lossless crop is SDR: \(why)")
            return nil
        case .found(let map):
            do {
                return try LosslessGainMapCrop(map, primary: &cropper)
            } catch {
                settings.warnings.say("\(path): gain map dropped from the lossless crop (SDR only): \(error.reason)")
                return nil
            }
        }
    }

    /// Each cut primary with its cut map as one Ultra HDR file; without a map, a primary whose
    /// source had one loses the MPF index and hdrgm XMP that would announce it.
    private func joined(
        _ files: [[UInt8]], _ gainMap: LosslessGainMapCrop?, _ rects: [PixelRect], hadMap: Bool, path: String
    ) throws -> [[UInt8]] {
        guard hadMap else { return files }
        // Plain loops, not map closures: Swift 6.3's optimizer crashed (CopyPropagation,
        // "Found ownership error") on the throwing two-argument closure in a release build.
        var joined: [[UInt8]] = []
        do {
            guard let gainMap else {
                for file in files { joined.append(try UltraHDRContainer.withoutGainMap(file)) }
                return joined
            }
            let maps = try gainMap.crop(forStored: rects, lenient: settings.lenient)
            for (file, map) in zip(files, maps) { joined.append(try gainMap.assemble(primary: file, map: map)) }
            return joined
        } catch let failure as UltraHDRContainer.Failure {
            throw ToolFailure("\(path): the lossless crop's Ultra HDR container cannot be written: \(failure)")
        }
    }

    /// Each square with the XMP's regions moved into it (`ImageMetadata.losslessCropXMP`):
    /// the rest of the markers as they are.
    private func movingRegions(_ files: [[UInt8]], _ reader: ImageReader, _ rects: [PixelRect]) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (file, rect) in zip(files, rects) {
            let size = PixelSize(width: rect.width, height: rect.height)
            guard
                let xmp = reader.metadata.losslessCropXMP(
                    frame: reader.regionFrame, origin: PixelPoint(x: rect.x, y: rect.y), output: size)
            else {
                out.append(file)
                continue
            }
            do { out.append(try UltraHDRContainer.replacingXMP(file, with: xmp)) } catch {
                throw ToolFailure(
                    "\(reader.path): the lossless crop's XMP with its moved regions cannot be written (\(error)); drop --lossless to re-encode"
                )
            }
        }
        return out
    }
}
