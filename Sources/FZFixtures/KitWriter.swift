import FZCodecs
import FZFormat
import FZImage
import FZSystem
import Geometry

/// Writes a fixture kit: the files of `KitPlan`, their reference PNGs and MANIFEST.json
/// (docs/json/fixture-kit.schema.json), each through OutputFile into the kit's folder.
public enum KitWriter {
    /// What was written.
    public struct Summary: Sendable {
        public var files = 0
        public var references = 0
        public var manifest = ""
    }

    /// Writes `entries` (and the references they name) into the folder `dir`, made if missing.
    /// - Throws: `FixtureError` (an output failed: nothing half-written stays, files finished
    ///   before it do).
    public static func write(_ entries: [KitEntry], sets: [KitSet], to dir: String) throws(FixtureError) -> Summary {
        var summary = Summary()
        do {
            let root = try OutputFolder.make(dir)
            var done = Set<String>()
            for entry in entries where done.insert(entry.reference.path).inserted {
                let out = try output(entry.reference.path, in: root, dir: dir)
                do {
                    try ImageWriter.encode(render(entry.reference), into: out, encoding: .png(.default), threads: 1)
                    try out.commit()
                } catch {
                    out.discard()
                    throw error
                }
                summary.references += 1
            }
            for entry in entries {
                if entry.encoding.heic || entry.encoding.avif,
                    !FixtureWriter.heifEncoderAvailable(avif: entry.encoding.avif)
                {
                    throw OutputError.writeFailed(
                        path: FileSystem.join(dir, entry.path),
                        reason:
                            "libheif has no \(entry.encoding.avif ? "AV1" : "HEVC") encoder here (Debian's libheif1 brings x265 and aom)"
                    )
                }
                if let map = entry.gainMap {
                    try map.writeUltraHDR(
                        entry.pattern, encoding: entry.encoding, into: output(entry.path, in: root, dir: dir))
                } else {
                    try FixtureWriter.write(
                        entry.pattern, encoding: entry.encoding, into: output(entry.path, in: root, dir: dir))
                }
                summary.files += 1
            }
            for (name, text) in [("MANIFEST.json", manifest(entries, sets: sets)), ("MANIFEST.tsv", table(entries))] {
                let out = try output(name, in: root, dir: dir)
                do {
                    try ImageWriter.writeBytes(Array(text.utf8), into: out)
                    try out.commit()
                } catch {
                    out.discard()
                    throw error
                }
            }
            summary.manifest = FileSystem.join(dir, "MANIFEST.json")
        } catch let e as FixtureError {
            throw e
        } catch let e as OutputError {
            throw .output(e)
        } catch {
            throw .output(.writeFailed(path: dir, reason: "\(error)"))
        }
        return summary
    }

    package static func output(_ relative: String, in root: OutputFolder, dir: String) throws(OutputError) -> OutputFile
    {
        let folder = try root.subfolder(FileSystem.directory(of: relative), create: true)
        return try OutputFile(in: folder, name: FileSystem.basename(relative), path: FileSystem.join(dir, relative))
    }

    /// The reference's pixels: the pattern at 8 bits (libpng's rounding), converted from its
    /// profile to sRGB through lcms2 (relative colorimetric with black-point compensation, as
    /// `--icc srgb`), then turned as a tag-honouring reader turns it.
    public static func render(_ r: KitReference) -> Image {
        let p = r.pattern
        var image = Image(width: p.size.width, height: p.size.height, format: r.gray ? .gray : r.alpha ? .rgba : .rgb)
        let c = image.format.channels
        image.pixels.withUnsafeMutableBufferPointer { px in
            var i = 0
            for y in 0..<p.size.height {
                for x in 0..<p.size.width {
                    let s = p.sample(x: x, y: y)
                    if r.gray {
                        px[i] = FixtureWriter.to8(s.luma)
                    } else {
                        px[i] = FixtureWriter.to8(s.r)
                        px[i + 1] = FixtureWriter.to8(s.g)
                        px[i + 2] = FixtureWriter.to8(s.b)
                        if r.alpha { px[i + 3] = FixtureWriter.to8(s.a) }
                    }
                    i += c
                }
            }
        }
        if let profile = r.profile,
            case .success(let t) = ColorTransform.toSRGB(
                icc: profile.bytes, channels: c, intent: .relative, blackPointCompensation: true)
        {
            let n = image.width * image.height
            image.pixels.withMutableBytes { t.apply($0, pixels: n) }
        }
        return image.oriented(r.turn)
    }

    /// MANIFEST.tsv: the manifest's checks as `forcezoom compare` takes them, for a shell loop
    /// (`while IFS=$'\t' read -r path reference metric threshold icc why`) with no JSON tool:
    /// a header line, then per file its path, reference, metric (pae or psnr), threshold,
    /// `--icc` (srgb where the file carries a profile, else keep) and why.
    public static func table(_ entries: [KitEntry]) -> String {
        var out = "path\treference\tmetric\tthreshold\ticc\twhy\n"
        for e in entries {
            let (metric, threshold) =
                switch e.tolerance {
                case .pae(let n): ("pae", String(n))
                case .psnr(let db): ("psnr", JSON.format(db))
                }
            out +=
                [e.path, e.reference.path, metric, threshold, e.profile == nil ? "keep" : "srgb", e.why].joined(
                    separator: "\t") + "\n"
        }
        return out
    }

    /// MANIFEST.json: one file per line, so a diff shows what changed.
    public static func manifest(_ entries: [KitEntry], sets: [KitSet]) -> String {
        let files = entries.map { e -> String in
            let shown = e.reference.turn.uprightSize(ofStored: e.pattern.size)
            let enc = e.encoding
            let heif = enc.heic || enc.avif
            let tags = JSON.object([
                ("exifOrientation", enc.exifOrientation.map { .int($0.rawValue) } ?? .null),
                ("exifApplies", .bool(enc.exifOrientation != nil && !heif)),
                ("xmpOrientation", enc.xmpOrientation.map { .int($0) } ?? .null),
                ("irot", heif ? .int(enc.heifRotation) : .null),
                ("imir", enc.heifMirror.map { .int($0) } ?? .null),
                ("icc", e.profile.map { .string($0.rawValue) } ?? .null),
                ("bitDepth", .int(enc.depth)),
                ("alpha", .bool(enc.color == .rgba || enc.color == .grayAlpha)),
                ("gray", .bool(enc.color == .gray || enc.color == .grayAlpha)),
            ])
            let tolerance: JSON =
                switch e.tolerance {
                case .pae(let n): .object([("pae", .int(n))])
                case .psnr(let db): .object([("psnr", .number(db))])
                }
            var members: [(String, JSON)] = [
                ("path", .string(e.path)), ("set", .string(e.set.rawValue)), ("format", .string(e.format)),
                ("width", .int(e.storedSize.width)), ("height", .int(e.storedSize.height)),
                ("uprightWidth", .int(shown.width)), ("uprightHeight", .int(shown.height)),
                ("tags", tags), ("lossless", .bool(e.lossless)), ("deterministic", .bool(e.deterministic)),
                ("reference", .string(e.reference.path)), ("tolerance", tolerance),
                ("measuredWith", .array(e.measuredWith.map { .string($0) })), ("why", .string(e.why)),
            ]
            if let map = e.gainMap { members.append(("gainMap", map.json(image: e.pattern.size))) }
            return JSON.object(members).description
        }
        let head = JSON.object([
            ("schemaVersion", .int(1)), ("generator", .string("forcezoom fixture kit")),
            ("sets", .array(sets.map { .string($0.rawValue) })),
        ]).description.dropLast()
        return head + ",\"files\":[\n" + files.joined(separator: ",\n") + "\n]}\n"
    }
}
