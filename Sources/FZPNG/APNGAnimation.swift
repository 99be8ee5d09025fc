// Length: about 300 lines: the APNG frame walker in one place (its chunk scan, each frame's
// decode through our PNG reader, and the composition browsers do: blend, dispose).

import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// An APNG's frames one at a time (`thumb --animated`, issue 50). The chunks are walked in
/// order: acTL gives the frame count and plays, each fcTL a frame's rectangle, delay,
/// disposal and blending, and the IDAT (when an fcTL comes before it) or fdAT chunks after
/// it its compressed rows. Each frame is decoded by our own PNG reader (`PNGDecoder`, ISA-L's
/// inflate) from an in-memory PNG of its own size (the file's IHDR fields, PLTE and tRNS, its
/// data as IDAT), then composited as browsers do: blended over the canvas or replacing it,
/// and disposed of before the next one (none, cleared to transparent, or the region it
/// covered restored; a first frame's "previous" counts as "background", as the specification
/// says). A frame reaching past the canvas is an error (the specification forbids it).
///
/// Memory: the file's bytes (compressed), the canvas, the frame's pixels and, for
/// dispose-to-previous, the region it covers: checked before the first frame.
final class APNGAnimation: AnimationSource {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    private let bytes: [UInt8]
    private let path: String
    private let options: DecodeOptions
    /// IHDR's depth, colour type and interlace method, and PLTE and tRNS as stored.
    private let ihdr: (depth: UInt8, colorType: UInt8, interlace: UInt8)
    private let paletteChunks: [UInt8]
    private var canvas: [UInt8]
    /// Where the chunk walk is, and the fcTL read last (the next frame's).
    private var at: Int
    private var pending: Control?
    private var index = 0
    /// The frame drawn last, to dispose of before the next: its control and what it covered.
    private var last: (control: Control, saved: [UInt8]?)?

    /// One fcTL.
    struct Control {
        var rect: PixelRect
        var delay: Int
        var dispose: UInt8
        var blend: UInt8
    }

    /// acTL's frame count and plays, read from the chunks before IDAT without moving the
    /// file's position; nil for a still PNG.
    static func control(of file: CFile) -> (frames: Int, plays: Int)? {
        file.withStream { stream -> (Int, Int)? in
            let saved = ftello(stream)
            defer { fseeko(stream, saved, SEEK_SET) }
            guard fseeko(stream, 8, SEEK_SET) == 0 else { return nil }
            var header = [UInt8](repeating: 0, count: 16)
            while fread(&header, 1, 8, stream) == 8 {
                let length = be32(header, 0)
                let type = String(decoding: header[4..<8], as: UTF8.self)
                if type == "IDAT" || type == "IEND" { return nil }
                if type == "acTL" {
                    guard length == 8, fread(&header, 1, 8, stream) == 8 else { return nil }
                    return (be32(header, 0), be32(header, 4))
                }
                guard fseeko(stream, off_t(length) + 4, SEEK_CUR) == 0 else { return nil }
            }
            return nil
        }
    }

    init(source: ImageSource, size: PixelSize, frames: Int, plays: Int, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        canvasSize = size
        frameCount = frames
        loopCount = plays
        let area = Int64(size.width) * Int64(size.height)
        let fileBytes = Int64(source.file.length ?? 0)
        try options.checkMemory(fileBytes + area * 12, path: path)
        guard source.file.rewind(), let all = source.file.readAll(limit: Int(min(Int64(Int.max), fileBytes + 1)))
        else { throw .readFailed(path: path, reason: "cannot read the file again for its frames") }
        bytes = all
        guard bytes.count >= 33 else { throw .truncatedHeader(path: path, detail: "no IHDR") }
        ihdr = (bytes[24], bytes[25], bytes[28])
        var palette: [UInt8] = []
        var i = 8
        while i + 12 <= bytes.count {
            let length = Self.be32(bytes, i)
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + length <= bytes.count else { break }
            if type == "PLTE" || type == "tRNS" { palette += bytes[i..<(i + 12 + length)] }
            if type == "IDAT" || type == "fcTL" { break }
            i += 12 + length
        }
        paletteChunks = palette
        at = 8
        canvas = [UInt8](repeating: 0, count: Int(area) * 4)
    }

    static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }

    func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
        guard let (control, data) = try nextFrame() else { return false }
        index += 1
        if let previous = last { dispose(previous.control, saved: previous.saved) }
        last = nil
        let rect = control.rect
        let dispose = index == 1 && control.dispose == 2 ? 1 : control.dispose
        let saved = dispose == 2 ? copy(rect) : nil
        let frame = try decode(data, size: PixelSize(width: rect.width, height: rect.height))
        draw(frame, control)
        var kept = control
        kept.dispose = dispose
        last = (kept, saved)
        try canvas.withUnsafeBytes { try body($0, control.delay) }
        return true
    }

    /// The next frame's control and compressed rows, nil after the last.
    private func nextFrame() throws(DecodeError) -> (Control, [UInt8])? {
        var data: [UInt8] = []
        while at + 12 <= bytes.count {
            let length = Self.be32(bytes, at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            guard at + 12 + length <= bytes.count else {
                throw .truncated(path: path, detail: "the \(type) chunk at byte \(at) is cut short")
            }
            let body = (at + 8)..<(at + 8 + length)
            switch type {
            case "fcTL":
                let control = try parse(Array(bytes[body]))
                if let current = pending {
                    pending = control
                    at += 12 + length
                    return (current, data)
                }
                pending = control
            case "IDAT" where pending != nil: data += bytes[body]
            case "fdAT" where pending != nil && length > 4: data += bytes[(body.lowerBound + 4)..<body.upperBound]
            case "IEND":
                at = bytes.count
                if let current = pending {
                    pending = nil
                    return (current, data)
                }
                return nil
            default: break
            }
            at += 12 + length
        }
        if let current = pending, !data.isEmpty {
            pending = nil
            return (current, data)
        }
        return nil
    }

    private func parse(_ f: [UInt8]) throws(DecodeError) -> Control {
        guard f.count >= 26 else { throw .corrupt(path: path, detail: "an fcTL chunk of \(f.count) bytes, not 26") }
        let (w, h, x, y) = (Self.be32(f, 4), Self.be32(f, 8), Self.be32(f, 12), Self.be32(f, 16))
        let number = index + (pending == nil ? 1 : 2)
        guard w > 0, h > 0, x + w <= canvasSize.width, y + h <= canvasSize.height else {
            throw .corrupt(
                path: path, detail: "frame \(number) (\(w)x\(h) at \(x),\(y)) lies outside the \(canvasSize) canvas")
        }
        let num = Self.be16(f, 20)
        let den = Self.be16(f, 22)
        // A denominator of 0 means 1/100 s (the specification).
        let delay = num * 1000 / (den == 0 ? 100 : den)
        return Control(
            rect: PixelRect(x: x, y: y, width: w, height: h), delay: delay, dispose: min(f[24], 2), blend: min(f[25], 1)
        )
    }

    /// One frame's pixels, RGBA, through our PNG reader.
    private func decode(_ data: [UInt8], size: PixelSize) throws(DecodeError) -> [UInt8] {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let tagged = Array(type.utf8) + body
            let c = CRC32.checksum(tagged)
            let n = body.count
            return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + tagged
                + [UInt8(c >> 24), UInt8(c >> 16 & 255), UInt8(c >> 8 & 255), UInt8(c & 255)]
        }
        func be(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be(size.width) + be(size.height) + [ihdr.depth, ihdr.colorType, 0, 0, ihdr.interlace])
        png += paletteChunks + chunk("IDAT", data) + chunk("IEND", [])
        let decoder = try PNGDecoder(source: try ImageSource(bytes: png, name: path), options: options)
        let layout = try decoder.begin(denominator: 1, columns: nil)
        let c = decoder.pixelFormat.channels
        var rows = [UInt8](repeating: 0, count: layout.width * layout.height * c)
        let got = try rows.withMutableBytes { b throws(DecodeError) in try decoder.read(into: b, rows: layout.height) }
        if got < layout.height {
            throw .truncated(path: path, detail: "frame \(index) ends at row \(got) of \(layout.height)")
        }
        if c == 4 { return rows }
        var rgba = [UInt8](repeating: 255, count: layout.width * layout.height * 4)
        for p in 0..<(layout.width * layout.height) {
            switch c {
            case 1: (rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]) = (rows[p], rows[p], rows[p])
            case 2:
                (rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2], rgba[p * 4 + 3]) = (
                    rows[p * 2], rows[p * 2], rows[p * 2], rows[p * 2 + 1]
                )
            default: (rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]) = (rows[p * 3], rows[p * 3 + 1], rows[p * 3 + 2])
            }
        }
        return rgba
    }

    /// Puts the frame on the canvas: replacing what is there (APNG_BLEND_OP_SOURCE) or
    /// over it (OVER, straight alpha).
    private func draw(_ frame: [UInt8], _ control: Control) {
        let r = control.rect
        let w = canvasSize.width
        for y in 0..<r.height {
            for x in 0..<r.width {
                let s = (y * r.width + x) * 4
                let d = ((r.y + y) * w + r.x + x) * 4
                let sa = Int(frame[s + 3])
                if control.blend == 0 || sa == 255 {
                    for k in 0..<4 { canvas[d + k] = frame[s + k] }
                } else if sa > 0 {
                    let da = Int(canvas[d + 3])
                    let outA = sa * 255 + da * (255 - sa)  // alpha x 255
                    for k in 0..<3 {
                        let v = (Int(frame[s + k]) * sa * 255 + Int(canvas[d + k]) * da * (255 - sa) + outA / 2) / outA
                        canvas[d + k] = UInt8(min(255, v))
                    }
                    canvas[d + 3] = UInt8((outA + 127) / 255)
                }
            }
        }
    }

    private func copy(_ r: PixelRect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(r.width * r.height * 4)
        for y in 0..<r.height {
            let start = ((r.y + y) * canvasSize.width + r.x) * 4
            out += canvas[start..<(start + r.width * 4)]
        }
        return out
    }

    private func dispose(_ control: Control, saved: [UInt8]?) {
        let r = control.rect
        guard control.dispose != 0 else { return }
        for y in 0..<r.height {
            let start = ((r.y + y) * canvasSize.width + r.x) * 4
            if control.dispose == 1 {
                for i in start..<(start + r.width * 4) { canvas[i] = 0 }
            } else if let saved {
                canvas.replaceSubrange(
                    start..<(start + r.width * 4), with: saved[(y * r.width * 4)..<((y + 1) * r.width * 4)])
            }
        }
    }
}

extension PNGDecoder: AnimatedDecoder {
    package var animationFrameCount: Int { animationControl?.frames ?? 1 }

    package func animation() throws(DecodeError) -> (any AnimationSource)? {
        guard let control = animationControl, control.frames > 1 else { return nil }
        return try APNGAnimation(
            source: source, size: storedSize, frames: control.frames, plays: control.plays, options: options)
    }
}
