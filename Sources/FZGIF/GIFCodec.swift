import CGIF
import FZFormat
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// giflib reads through this callback from the source's stream: giflib's own file handle
/// (`DGifOpenFileHandle`) would close our descriptor when it closes. giflib reports failures
/// by return codes, never by longjmp, so no C shim is needed.
private func fzGIFRead(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ bytes: UnsafeMutablePointer<GifByteType>?, _ count: Int32
)
    -> Int32
{
    guard let gif, let bytes, count > 0, let user = gif.pointee.UserData else { return 0 }
    return Int32(fread(bytes, 1, Int(count), user.assumingMemoryBound(to: FILE.self)))
}

/// One image descriptor: where a frame sits on the logical screen, and its own palette.
struct GIFFrameDescriptor: Equatable, Sendable {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var interlaced: Bool
    /// The local colour table (RGB triples), nil when the frame uses the global one.
    var palette: [UInt8]?
}

/// A Graphic Control Extension: how the next frame is drawn and disposed of.
struct GIFControl: Equatable, Sendable {
    /// 0-1: leave, 2: restore to background (transparent), 3: restore to previous.
    var disposal = 0
    var transparentIndex: Int?
    /// How long the frame shows, in hundredths of a second (as stored; 0 often means "fast").
    var delay = 0
}

/// The records of a GIF stream, one at a time, through giflib's record API
/// (`DGifGetRecordType`...): memory stays one frame row, never the whole file
/// (`DGifSlurp` would hold every frame). Every giflib pointer lives in this file.
final class GIFStream {
    enum Record: Equatable {
        case frame(GIFFrameDescriptor)
        case control(GIFControl)
        case end
    }

    let path: String
    let screen: PixelSize
    /// The global colour table (RGB triples), nil when there is none.
    let globalPalette: [UInt8]?
    /// "GIF87a" or "GIF89a".
    let version: String
    /// The NETSCAPE2.0 (or ANIMEXTS1.0) application extension's loop count once it has been
    /// read (0: forever); nil while none has been.
    private(set) var loopCount: Int?
    private let gif: UnsafeMutablePointer<GifFileType>
    /// Where the stream is in the current frame's data: none left, all of it ahead, or
    /// inside it (rows were decoded).
    private enum DataState { case none, pending, started }
    private var data = DataState.none

    /// Opens the stream at the source's first byte and reads the screen descriptor.
    init(source: ImageSource) throws(DecodeError) {
        path = source.name
        guard source.file.rewind() else { throw .readFailed(path: path, reason: "cannot seek back to the start") }
        let stream = source.file.withStream { $0 }
        var error: Int32 = 0
        guard let gif = DGifOpen(UnsafeMutableRawPointer(stream), fzGIFRead, &error) else {
            throw Self.headerError(error, path: path)
        }
        self.gif = gif
        screen = PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
        globalPalette = Self.palette(gif.pointee.SColorMap)
        version = source.head.count >= 6 ? String(decoding: source.head[0..<6], as: UTF8.self) : "GIF"
    }

    deinit {
        var error: Int32 = 0
        _ = DGifCloseFile(gif, &error)
    }

    /// The next frame descriptor, graphic control or the end; other extensions are passed
    /// over, as is the data of a frame `readRow` was not asked for.
    func next() throws(DecodeError) -> Record {
        try skipData()
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { throw error("reading a record") }
            switch type {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw error("reading a frame descriptor") }
                // giflib keeps a copy of every descriptor (for DGifSlurp): dropped at once,
                // so a file of a million tiny frames does not grow memory.
                GifFreeSavedImages(gif)
                gif.pointee.ImageCount = 0
                let d = gif.pointee.Image
                data = .pending
                return .frame(
                    GIFFrameDescriptor(
                        left: Int(d.Left), top: Int(d.Top), width: Int(d.Width), height: Int(d.Height),
                        interlaced: d.Interlace, palette: Self.palette(d.ColorMap)))
            case EXTENSION_RECORD_TYPE:
                if let control = try readExtension() { return .control(control) }
            case TERMINATE_RECORD_TYPE:
                return .end
            default:
                throw .corrupt(path: path, detail: "giflib: unknown record type")
            }
        }
    }

    /// Decodes the next row of the current frame (its width in palette indices). After
    /// the last row giflib has read the frame's block terminator itself.
    func readRow(into row: UnsafeMutablePointer<UInt8>, width: Int, last: Bool) throws(DecodeError) {
        data = .started
        guard DGifGetLine(gif, row, Int32(width)) == GIF_OK else { throw error("decoding the frame's LZW data") }
        if last { data = .none }
    }

    /// Passes over what is left of the current frame's data (all of it, or the rows after
    /// those read): the compressed blocks are skipped without decoding.
    func skipData() throws(DecodeError) {
        var block: UnsafeMutablePointer<GifByteType>?
        switch data {
        case .none: return
        case .pending:
            var size: Int32 = 0
            guard DGifGetCode(gif, &size, &block) == GIF_OK else { throw error("skipping a frame's data") }
        case .started:
            block = UnsafeMutablePointer(bitPattern: 1)
        }
        data = .none
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw error("skipping a frame's data") }
        }
    }

    /// Reads one extension: a Graphic Control Extension is returned, others skipped.
    private func readExtension() throws(DecodeError) -> GIFControl? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw error("reading an extension") }
        var control: GIFControl?
        if code == GRAPHICS_EXT_FUNC_CODE, let b = block, b[0] >= 4 {
            let packed = Int(b[1])
            control = GIFControl(
                disposal: packed >> 2 & 7, transparentIndex: packed & 1 != 0 ? Int(b[4]) : nil,
                delay: Int(b[2]) | Int(b[3]) << 8)
        }
        // The looping extension: an 11-byte identifier block, then [1, count lo, count hi].
        var looping = false
        if code == APPLICATION_EXT_FUNC_CODE, let b = block, b[0] == 11 {
            let id = String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
            looping = id == "NETSCAPE2.0" || id == "ANIMEXTS1.0"
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw error("reading an extension") }
            if looping, let b = block, b[0] >= 3, b[1] == 1 {
                loopCount = Int(b[2]) | Int(b[3]) << 8
                looping = false
            }
        }
        return control
    }

    /// giflib's error code for the last failure as a decode error.
    private func error(_ doing: String) -> DecodeError {
        let code = gif.pointee.Error
        let what = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED: return .truncated(path: path, detail: "the file ends while \(doing)")
        default: return .corrupt(path: path, detail: "giflib: \(what) while \(doing)")
        }
    }

    private static func headerError(_ code: Int32, path: String) -> DecodeError {
        let what = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_NO_SCRN_DSCR:
            return .truncatedHeader(path: path, detail: "the GIF screen descriptor is cut short")
        case D_GIF_ERR_NOT_ENOUGH_MEM: return .readFailed(path: path, reason: "out of memory opening the GIF")
        default: return .corruptHeader(path: path, detail: "giflib: \(what)")
        }
    }

    private static func palette(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt8]? {
        guard let map, let colors = map.pointee.Colors, map.pointee.ColorCount > 0 else { return nil }
        let n = min(256, Int(map.pointee.ColorCount))
        var rgb = [UInt8](repeating: 0, count: n * 3)
        for i in 0..<n {
            rgb[i * 3] = colors[i].Red
            rgb[i * 3 + 1] = colors[i].Green
            rgb[i * 3 + 2] = colors[i].Blue
        }
        return rgb
    }
}
