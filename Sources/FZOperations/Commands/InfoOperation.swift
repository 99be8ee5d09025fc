import FZCodecs
import FZFormat
import FZGainMap
import FZMetadata
import FZSystem
import Geometry

/// `forcezoom info`: each file's header, as a line of text or a JSON record. A file that
/// cannot be read is reported and the others still are.
public struct InfoOperation {
    public var files: [String]
    public var decode: DecodeOptions
    public var json: Bool

    public init(files: [String], decode: DecodeOptions, json: Bool) {
        self.files = files
        self.decode = decode
        self.json = json
    }

    public func run(_ report: Report) -> Outcome {
        // All of them temporary (a busy store): the exit is 75, as crop's and thumb's (issue 52).
        var failures = Outcome.Failures()
        for file in files {
            do {
                // Headers only: a file whose decoding the limits refuse is still described.
                let (reader, refused) = try ImageReader.header(path: file, options: decode)
                let h = reader.header
                let m = reader.metadata
                let regions = reader.uprightRegions()
                for w in regions.warnings { report.warnings.say("\(reader.path): \(w)") }
                let gain = reader.probeGainMap()
                var motion = Self.motion(path: reader.path, metadata: m, budget: decode.budget)
                // A video read by FZVideo may be a Live Photo's movie: its record says so too.
                if reader.isVideo, let member = Self.livePhotoMember(path: file, budget: decode.budget) {
                    motion.json.append(member)
                    if case .object(let fields) = member.1,
                        let id = fields.first(where: { $0.0 == "contentIdentifier" }),
                        case .string(let text) = id.1
                    {
                        motion.text.append("Live Photo motion part, content identifier \(text)")
                    }
                }
                for w in motion.warnings { report.warnings.say("\(reader.path): \(w)") }
                if case .malformed(let why) = gain {
                    report.warnings.say("\(reader.path): gain map ignored, the image reads as SDR: \(why)")
                }
                report.line(
                    json
                        ? Self.json(
                            h, path: reader.path, metadata: m, regions: regions.regions, decodingRefused: refused,
                            gainMap: gain, motion: motion.json
                        )
                        .description
                        : Echo.line(
                            Self.text(
                                h, path: reader.path, metadata: m, regions: regions.regions, decodingRefused: refused,
                                gainMap: gain, motion: motion.text)))
            } catch {
                // A Live Photo's movie is described (the pair's still is what forcezoom reads).
                if let movie = Self.livePhotoMovie(path: file, budget: decode.budget) {
                    report.line(json ? movie.json.description : Echo.line(movie.text))
                    continue
                }
                failures.count(temporary: error.exitCode == RemoteFailure.retryExitCode)
                report.error(error.description)
                if json {
                    report.record(JSON.record([("file", .string(error.path)), ("error", .string(error.reason))]))
                }
            }
        }
        var outcome = Outcome(failed: failures.all > 0)
        outcome.retryLater = failures.allTemporary
        return outcome
    }

    /// One file's record. Every format has the same common fields with one meaning each
    /// (`width`/`height` as stored or coded, `uprightWidth`/`uprightHeight` as displayed,
    /// `icc` whether a profile is embedded), then its codec's own (`CodecDetails`); a codec
    /// field is never a second copy of a common one.
    static func json(
        _ h: ImageHeader, path: String, metadata: ImageMetadata = ImageMetadata(), regions: [ImageRegion] = [],
        decodingRefused: DecodeError? = nil, gainMap: GainMap.Probe = .none, motion: [(String, JSON)] = []
    ) -> JSON {
        var m: [(String, JSON)] = [
            ("file", .string(path)),
            ("format", .string(h.formatName)),
            ("width", .int(h.codedSize.width)),
            ("height", .int(h.codedSize.height)),
            ("uprightWidth", .int(h.uprightSize.width)),
            ("uprightHeight", .int(h.uprightSize.height)),
            ("orientation", h.exifOrientationValue.map { .int($0) } ?? .null),
            ("orientationApplied", .int(h.orientation.rawValue)),
            ("pixelFormat", .string(h.pixelFormat.description)),
            ("bitDepth", .int(h.bitDepth)),
            ("icc", .bool(h.color.hasICC)),
        ]
        if let p = h.color.profile {
            m.append(
                (
                    "iccProfile",
                    .object([
                        ("description", p.description.map { .string($0) } ?? .null),
                        ("colorSpace", .string(p.colorSpace)),
                        ("class", .string(p.deviceClass)), ("version", .string(p.version)), ("bytes", .int(p.size)),
                    ])
                ))
        }
        if let c = h.color.madeFromCMYK {
            // The RGB pixels are sRGB: outputs are tagged sRGB (a CMYK profile cannot describe them).
            m.append(("cmykToSRGB", .string(c)))
        }
        if let i = h.color.sRGBIntent { m.append(("srgbIntent", .int(i))) }
        if let c = h.color.chromaticities { m.append(("chromaticities", .array(c.map { .number($0) }))) }
        if let c = h.color.cicp { m.append(("cicp", .array(c.map { .int($0) }))) }
        func block(_ s: ImageMetadata.Summary?) -> JSON {
            guard let s else { return .null }
            return .object([("bytes", .int(s.bytes)), ("valid", .bool(s.valid)), ("location", .bool(s.location))])
        }
        m.append(
            (
                "metadata",
                .object([
                    ("exif", block(metadata.exifSummary)), ("xmp", block(metadata.xmpSummary)),
                    ("iptc", block(metadata.iptcSummary)),
                ])
            ))
        m.append(("regions", .array(regions.map(\.json))))
        switch gainMap {
        case .found(let g): m.append(("gainMap", Self.json(g)))
        case .none: m.append(("gainMap", .null))
        case .malformed(let why): m += [("gainMap", .null), ("gainMapIgnored", .string(why))]
        }
        m += motion
        // The codec's facts after the common ones; a key already given (bitDepth, icc) is not repeated.
        let common = Set(m.map(\.0))
        m += h.details.jsonMembers.filter { !common.contains($0.0) }
        if let decodingRefused { m.append(("decodingRefused", .string(decodingRefused.reason))) }
        return JSON.record(m)
    }

    static func text(
        _ h: ImageHeader, path: String, metadata: ImageMetadata = ImageMetadata(), regions: [ImageRegion] = [],
        decodingRefused: DecodeError? = nil, gainMap: GainMap.Probe = .none, motion: [String] = []
    ) -> String {
        // Led by the stored size (HEIF: coded, before irot/imir/clap), as info --json's width/height.
        var parts = ["\(h.formatName) \(h.codedSize)"]
        if let v = h.exifOrientationValue {
            if let o = Orientation(rawValue: v) {
                parts.append(
                    h.orientation == .up && o != .up
                        ? "EXIF orientation \(o) (not applied)"
                        : "EXIF orientation \(o), upright \(h.uprightSize)")
            } else {
                parts.append("EXIF orientation \(v) (invalid, ignored)")
            }
        }
        // The profile's own line replaces the codec's "ICC profile" note when it could be read.
        parts += h.details.summary.filter { h.color.profile == nil || !$0.hasPrefix("ICC profile") }
        if let p = h.color.profile {
            let fate =
                h.color.madeFromCMYK != nil
                ? "not written: the RGB result is tagged sRGB" : "kept in outputs unless --icc strip"
            parts.append(
                "ICC \"\(p.description ?? "no description")\" (\(p.colorSpace), v\(p.version), \(p.size) bytes; \(fate))"
            )
        }
        if let c = h.color.madeFromCMYK { parts.append("CMYK to sRGB through the \(c)") }
        if let c = h.color.cicp { parts.append("cICP \(c.map(String.init).joined(separator: "/"))") }
        let blocks = [("EXIF", metadata.exifSummary), ("XMP", metadata.xmpSummary), ("IPTC", metadata.iptcSummary)]
        for (name, s) in blocks {
            guard let s else { continue }
            let notes = (s.location ? ["location"] : []) + (s.valid ? [] : ["malformed: not copied to outputs"])
            let note = notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"
            parts.append("\(name) block \(s.bytes) bytes" + note)
        }
        if !regions.isEmpty {
            parts.append(
                "\(regions.count) region\(regions.count == 1 ? "" : "s") ("
                    + regions.prefix(10).map(\.summary).joined(separator: "; ")
                    + (regions.count > 10 ? "; \(regions.count - 10) more: info --json lists them" : "") + ")")
        }
        switch gainMap {
        case .found(let g): parts.append(Self.text(g))
        case .malformed: parts.append("gain map ignored (read as SDR)")
        case .none: break
        }
        parts += motion
        parts.append("-> \(h.pixelFormat)")
        if let decodingRefused { parts.append("decoding would be refused: \(decodingRefused.reason)") }
        return "\(path): " + parts.joined(separator: ", ")
    }
}
