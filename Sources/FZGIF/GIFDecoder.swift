import FZFormat
import FZImage
import FZSystem
import Geometry

/// What a GIF's header and records say, for `info`.
public struct GIFDetails: Hashable, Sendable {
    /// "GIF87a" or "GIF89a".
    public var version: String
    public var frameCount: Int
    /// The first frame is stored interlaced.
    public var interlaced: Bool
    /// The first frame has a transparent colour index.
    public var transparency: Bool
    /// Entries in the global colour table (0: none).
    public var paletteColors: Int
}

/// GIF through giflib (GIFCodec.swift holds its pointers): the first frame, or
/// `DecodeOptions.frame`, composited as browsers show it. The canvas is the logical screen,
/// transparent at first; each frame is drawn at its offset with its own or the global colour
/// table, its transparent index left see-through, interlaced rows put in their place, and the
/// frames before the one asked for disposed of as their Graphic Control Extension says
/// (1: kept, 2: cleared to transparent, 3: restored to what was there before).
///
/// Frames reaching past the screen are clipped to it (as Firefox does; Pillow would widen the
/// screen instead), their rows below it not decoded and the LZW work beside it bounded
/// (`GIFComposer.offScreenAllowance`); a frame with no pixel on the screen, or none at all,
/// is an error. Colour
/// indices past the colour table are shown as Pillow does (the gray ramp: index i as i,i,i),
/// and so is a file with no colour table at all.
///
/// `init` walks every record once without decoding (the frame count for `info` and
/// `--frame`, whether the result can be transparent); `begin` reads the file again and
/// decodes the frames up to the one asked for onto one canvas. Memory: the canvas (4 bytes a
/// pixel), the region a restore-to-previous frame covers (one at a time), one frame row.
package final class GIFDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .gif, names: ["GIF"], extensions: ["gif"], capabilities: [.alpha, .frames])
    package static func sniff(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
    }

    package let storedSize: PixelSize
    package let pixelFormat: PixelFormat
    package var bitDepth: Int { 8 }
    package var exif: [UInt8]? { nil }
    package var color: ColorDescription { ColorDescription() }
    private let gif: GIFDetails
    package var details: any CodecDetails { gif }
    package private(set) var warnings: [String] = []

    private let source: ImageSource
    private let options: DecodeOptions
    private let path: String
    /// What the walk found that an animation needs: a second region, the loop count, and
    /// why the walk stopped early (the frames before it are still shown).
    private let restoresAny: Bool
    private let loop: Int?
    private let scanError: DecodeError?
    /// The composited frame, RGBA, the whole screen.
    private var canvas: ZeroedBuffer?
    private var layout = RowLayout(firstColumn: 0, width: 0, height: 0)
    private var next = 0
    /// Rows of the canvas composited (all, unless a lenient decode broke off).
    private var available = 0

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        self.source = source
        self.options = options
        path = source.name
        let stream = try GIFStream(source: source)
        let screen = stream.screen
        guard screen.width > 0 && screen.height > 0 else {
            throw .corruptHeader(path: path, detail: "the logical screen is \(screen)")
        }
        try options.checkPixels(screen, path: path)
        let scan = try Self.scan(stream, frame: options.frame, path: path)
        storedSize = screen
        (restoresAny, loop, scanError) = (scan.anyRestores, scan.loop, scan.error)
        pixelFormat = scan.opaque ? .rgb : .rgba
        gif = GIFDetails(
            version: stream.version, frameCount: scan.frames, interlaced: scan.first.interlaced,
            transparency: scan.firstTransparent, paletteColors: (stream.globalPalette?.count ?? 0) / 3)
        if options.frame > scan.frames {
            throw scan.error
                ?? .noSuchFrame(path: path, frame: options.frame, frames: scan.frames, option: options.frameOption)
        }
        // The canvas, a copy of it for restore-to-previous, one row of the widest frame.
        let area = Int64(screen.width) * Int64(screen.height)
        try options.checkMemory(area * 4 * (scan.restoresPrevious ? 2 : 1) + 65536, path: path)
    }

    /// What one pass over the records (no decoding) finds.
    private struct Scan {
        var frames = 0
        var first = GIFFrameDescriptor(left: 0, top: 0, width: 0, height: 0, interlaced: false, palette: nil)
        var firstTransparent = false
        /// Whether frames 1...`frame` composite to an image without transparent pixels.
        var opaque = true
        var restoresPrevious = false
        /// Any frame restores to previous (an animation keeps a second region then).
        var anyRestores = false
        /// The looping extension's count (nil: the file has none and plays once).
        var loop: Int?
        /// Why the walk stopped before the end of the file.
        var error: DecodeError?
    }

    private static func scan(_ stream: GIFStream, frame: Int, path: String) throws(DecodeError) -> Scan {
        var scan = Scan()
        var control = GIFControl()
        walk: while true {
            let record: GIFStream.Record
            do { record = try stream.next() } catch {
                scan.error = error
                break
            }
            switch record {
            case .control(let c): control = c
            case .frame(let d):
                scan.frames += 1
                if scan.frames == 1 {
                    scan.first = d
                    scan.firstTransparent = control.transparentIndex != nil
                    _ = try GIFDecoderRects.visible(d, screen: stream.screen, number: 1, path: path, header: true)
                    scan.opaque =
                        d.left == 0 && d.top == 0 && d.width >= stream.screen.width
                        && d.height >= stream.screen.height
                }
                if scan.frames <= frame {
                    if control.transparentIndex != nil { scan.opaque = false }
                    if scan.frames < frame && control.disposal >= 2 { scan.opaque = false }
                    if scan.frames < frame && control.disposal == 3 { scan.restoresPrevious = true }
                }
                if control.disposal == 3 { scan.anyRestores = true }
                control = GIFControl()  // a control applies to the frame after it only
            case .end: break walk
            }
        }
        if scan.frames == 0 {
            throw scan.error ?? .corruptHeader(path: path, detail: "the GIF holds no image")
        }
        // Plays, as browsers and gif2webp count them: NETSCAPE2.0's count is repetitions after
        // the first play (0: forever), and a file without it plays once.
        scan.loop = stream.loopCount.map { $0 == 0 ? 0 : min(65535, $0 + 1) }
        return scan
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        let area = storedSize.width * storedSize.height
        guard let out = ZeroedBuffer(count: area * 4) else {
            throw .readFailed(path: path, reason: "out of memory for the \(storedSize) canvas")
        }
        canvas = out
        layout = RowLayout(firstColumn: 0, width: storedSize.width, height: storedSize.height)
        let composer = GIFComposer(canvas: out.bytes, screen: storedSize, path: path, options: options)
        do {
            try composer.compose(try GIFStream(source: source), upTo: options.frame)
        } catch {
            guard options.lenient else { throw error }
            warnings.append(error.keptReason)
        }
        available = storedSize.height
        if gif.frameCount > 1 {
            warnings.append(
                options.frame == 1
                    ? "animated GIF with \(gif.frameCount) frames: the first frame is used (--frame N picks another)"
                    : "animated GIF: frame \(options.frame) of \(gif.frameCount) is used")
        }
        return layout
    }

    package func skip(rows: Int) throws(DecodeError) { next = min(layout.height, next + max(0, rows)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let n = min(rows, available - next)
        guard n > 0, let canvas else { return 0 }
        let w = storedSize.width
        let src = canvas.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + next * w * 4
        let dst = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if pixelFormat == .rgba {
            dst.update(from: src, count: n * w * 4)
        } else {
            for i in 0..<(n * w) {
                dst[i * 3] = src[i * 4]
                dst[i * 3 + 1] = src[i * 4 + 1]
                dst[i * 3 + 2] = src[i * 4 + 2]
            }
        }
        next += n
        return n
    }
}

extension GIFDecoder: AnimatedDecoder {
    package var animationFrameCount: Int { gif.frameCount }

    /// The frames one by one on one canvas (`GIFAnimation`); nil for a single frame. Memory:
    /// the canvas and, when any frame restores to previous, the region it covers.
    package func animation() throws(DecodeError) -> (any AnimationSource)? {
        guard gif.frameCount > 1 else { return nil }
        let area = Int64(storedSize.width) * Int64(storedSize.height)
        try options.checkMemory(area * 4 * (restoresAny ? 2 : 1) + 65536, path: path)
        guard let canvas = ZeroedBuffer(count: Int(area) * 4) else {
            throw .readFailed(path: path, reason: "out of memory for the \(storedSize) canvas")
        }
        return GIFAnimation(
            stream: try GIFStream(source: source),
            composer: GIFComposer(canvas: canvas.bytes, screen: storedSize, path: path, options: options),
            canvas: canvas, frameCount: gif.frameCount, loopCount: loop ?? 1, lenient: options.lenient)
    }
}

extension ImageFormat {
    public static let gif = ImageFormat(rawValue: "GIF")
}

extension GIFDetails: CodecDetails {
    public var summary: [String] {
        var parts = [version]
        if paletteColors > 0 { parts.append("\(paletteColors)-colour palette") }
        if interlaced { parts.append("interlaced") }
        if transparency { parts.append("transparency") }
        if frameCount > 1 { parts.append("animated, \(frameCount) frames") }
        return parts
    }

    public var jsonMembers: [(String, JSON)] {
        [
            ("bitDepth", .int(8)), ("gifVersion", .string(version)), ("interlaced", .bool(interlaced)),
            ("transparency", .bool(transparency)), ("paletteColors", .int(paletteColors)),
            ("animated", .bool(frameCount > 1)), ("frames", .int(frameCount)),
        ]
    }
}
