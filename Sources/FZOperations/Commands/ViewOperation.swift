import FZCodecs
import FZFormat
import FZImage
import FZMetadata
import FZRender
import FZSystem
import FZTerminal
import Geometry

/// `forcezoom view`: each file decoded straight to the size the terminal shows it at (DCT
/// scaling, then Lanczos), converted to sRGB, printed with a caption. A file that fails is
/// reported and the others are still shown.
public struct ViewOperation {
    public var files: [String]
    public var decode: DecodeOptions
    /// What transparent pixels are shown over (nil: the protocol's own).
    public var background: Color?
    /// Enlarge images smaller than the room to fill it.
    public var enlarge: Bool
    public var display: InlineDisplay
    /// Outline the regions of each file's metadata (`RegionOutline`), numbered as `info` lists them.
    public var outlineRegions = false

    public init(
        files: [String], decode: DecodeOptions, background: Color?, enlarge: Bool, display: InlineDisplay
    ) {
        self.files = files
        self.decode = decode
        self.background = background
        self.enlarge = enlarge
        self.display = display
    }

    public func run(_ report: Report) -> Outcome {
        let target = display.target()
        var failed = false
        for file in files {
            do {
                try show(file, target: target, report.warnings)
            } catch {
                failed = true
                report.error("\(error)")
            }
        }
        return Outcome(failed: failed)
    }

    /// Decodes `file` straight to its shown size and prints it.
    private func show(_ file: String, target: InlineImage.Target, _ warnings: Warnings) throws {
        let reader = try ImageReader(path: file, options: decode)
        let header = reader.header
        let upright = header.uprightSize
        var size = InlineImage.shownSize(upright, limit: target.limit)
        if enlarge, let limit = target.limit, size == upright {
            let s = min(Double(limit.width) / Double(upright.width), Double(limit.height) / Double(upright.height))
            size = PixelSize(
                width: max(1, Int(Double(upright.width) * s)), height: max(1, Int(Double(upright.height) * s)))
        }
        let regions =
            outlineRegions ? reader.uprightRegions() : nil
        for w in regions?.warnings ?? [] { warnings.say("\(reader.path): \(w)") }
        var (image, _) = try ReductionPipeline(target: size, filter: .lanczos, threads: Threads.perImage).run(reader)
        if let warning = try ColorPolicy(mode: .srgb).convert(
            &image, from: header.color, path: reader.path, lenient: true)
        {
            warnings.once("\(reader.path): \(warning)")
        }
        for w in reader.warnings { warnings.say("\(reader.path): \(w)") }
        if let regions {
            RegionOutline.draw(
                regions.outlines, on: &image,
                transform: .scale(
                    Double(image.width) / Double(upright.width), Double(image.height) / Double(upright.height)))
        }
        var bytes = try InlineImage.encode(image, for: target, background: background)
        bytes += Array("\(Echo.path(file))  \(upright.width)x\(upright.height)  \(header.format.rawValue)\n".utf8)
        if !TerminalScreen.write(bytes) { throw ToolFailure("standard output: the picture could not be written") }
    }
}
