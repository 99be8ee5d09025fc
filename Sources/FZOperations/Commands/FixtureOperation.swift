import FZCodecs
import FZFixtures
import FZFormat
import FZImage
import FZSystem

/// `forcezoom fixture PATTERN`: a test image with known answers, written in the encoding
/// asked for, and with `json` its decoded pixels' digest.
public struct FixtureOperation {
    public var pattern: Pattern
    public var encoding: FixtureEncoding
    public var output: String
    /// `--embed-icc`: a profile file the output carries.
    public var embedICC: String?
    public var json = false

    public init(pattern: Pattern, encoding: FixtureEncoding, output: String) {
        self.pattern = pattern
        self.encoding = encoding
        self.output = output
    }

    public func run(_ report: Report) throws {
        var e = encoding
        if e.heic || e.avif, !FixtureWriter.heifEncoderAvailable(avif: e.avif) {
            throw ToolFailure(
                "\(output): libheif has no \(e.avif ? "AV1" : "HEVC") encoder here (Debian's libheif1 brings x265 and aom)"
            )
        }
        if let embedICC { e.icc = try Self.profile(embedICC) }
        do { try FixtureWriter.write(pattern, encoding: e, to: output) } catch {
            // An output error names its path already; the others are about this output.
            if case .output(let e) = error { throw e }
            throw ToolFailure("\(Echo.value(output)): \(error)")
        }
        guard json else { return }
        let image = try ImageReader(path: output, options: DecodeOptions()).readImage()
        report.record(
            JSON.record([
                ("file", .string(output)), ("bytes", .int(FileSystem.size(of: output) ?? 0)),
                ("width", .int(image.width)), ("height", .int(image.height)),
                ("pixelFormat", .string(image.format.description)),
                ("sha256", .string(SHA256.hex(image.pixels))),
            ]))
    }

    /// The bytes of the profile at `path`, refused when they are no ICC profile.
    private static func profile(_ path: String) throws -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readBytes(path, limit: CMYKProfile.sizeLimit) } catch {
            throw ToolFailure(
                "--embed-icc \(Echo.value(path)): \(FileSystem.readFailure(error, limit: CMYKProfile.sizeLimit))")
        }
        if ICCProfile(bytes) == nil { throw ToolFailure("--embed-icc \(Echo.value(path)): not an ICC profile") }
        return bytes
    }
}

/// `forcezoom fixture --decode FILE`: where a piece of a coords fixture came from — exactly
/// (a crop at a whole-number zoom, padded or not, in any orientation) or fitted (lossy or
/// resampled).
public struct FixtureTraceOperation {
    public var path: String

    public init(path: String) { self.path = path }

    public func run(_ report: Report) throws {
        let image = try ImageReader(path: path, options: DecodeOptions()).readImage()
        guard let t = CoordinateTrace.trace(image) else { return report.record(try fitted(image)) }
        let p = t.padding
        report.record(
            JSON.record([
                ("file", .string(path)),
                ("sourceRect", t.sourceRect.json),
                ("orientation", .int(t.orientation.rawValue)),
                ("transform", .string(t.orientation.description)),
                ("zoom", .int(t.zoom)),
                ("window", t.window.json),
                ("pieceRect", t.piece.json),
                (
                    "padding",
                    .object([
                        ("left", .int(p.left)), ("top", .int(p.top)), ("right", .int(p.right)),
                        ("bottom", .int(p.bottom)),
                    ])
                ),
            ]))
    }

    /// Not exact: lossy or resampled, fitted (`FittedTrace`).
    private func fitted(_ image: Image) throws -> JSON {
        guard let f = FittedTrace.fit(image) else {
            throw ToolFailure(
                "\(StandardStream.inputName(path)): not a piece of a coords fixture: neither exact (1:1 or a whole-number zoom, padded or not) nor fitted within \(Int(FittedTrace.tolerance)) pixels over half its pixels (recoloured, or too damaged?)"
            )
        }
        return JSON.record([
            ("file", .string(path)), ("exact", .bool(false)), ("window", f.window.json),
            ("orientation", .int(f.orientation.rawValue)), ("transform", .string(f.orientation.description)),
            ("scale", .object([("x", .number(f.scaleX)), ("y", .number(f.scaleY))])),
            ("residual", .number(f.residual)), ("inliers", .number(f.inliers)),
        ])
    }
}
