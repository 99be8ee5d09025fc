import FZFormat
import FZSystem
import Geometry

/// Draws GIF frames onto an RGBA canvas the size of the logical screen.
struct GIFComposer {
    let canvas: UnsafeMutableRawBufferPointer
    let screen: PixelSize
    let path: String
    let options: DecodeOptions

    private var pixels: UnsafeMutablePointer<UInt8> { canvas.baseAddress!.assumingMemoryBound(to: UInt8.self) }

    /// The LZW work spent on pixels off the screen that all frames together may cost: rows
    /// are decoded whole, so a frame far wider than the screen costs its width on every row
    /// that shows (a 65535x4096 frame on a 1x4096 screen: 268 M pixels decoded, 4096 shown,
    /// seconds each). Frames inside the screen, as encoders write them, cost nothing here.
    static let offScreenAllowance: Int64 = 1 << 24

    /// Where a walk over the frames is: the control for the next frame, the frames drawn,
    /// the off-screen work so far and the frame drawn last (its rectangle, disposal and,
    /// for restore-to-previous, what it covered).
    struct Walk {
        var control = GIFControl()
        var index = 0
        var offScreen: Int64 = 0
        var last: (rect: PixelRect, disposal: Int, saved: [UInt8]?)?
    }

    /// Decodes frames 1...`number`, disposing of each before the next as it asks. A frame is
    /// clipped to the screen (as Firefox does): the rows below it are not decoded, interlaced
    /// or not; the columns beside it must be (LZW codes rows whole) and count against
    /// `offScreenAllowance` (or the screen's area, if larger), checked before the frame is
    /// decoded.
    func compose(_ stream: GIFStream, upTo number: Int) throws(DecodeError) {
        var walk = Walk()
        while walk.index < number, try step(stream, &walk, keepsCovered: walk.index + 1 < number) != nil {}
    }

    /// Disposes of the frame drawn last and draws the next one; its control (delay,
    /// disposal), nil at the end of the file. `keepsCovered`: a restore-to-previous frame
    /// saves what it covers (not needed for the last frame wanted).
    func step(_ stream: GIFStream, _ walk: inout Walk, keepsCovered: Bool = true) throws(DecodeError) -> GIFControl? {
        let allowance = max(Self.offScreenAllowance, Int64(screen.width) * Int64(screen.height))
        while true {
            switch try stream.next() {
            case .control(let c): walk.control = c
            case .end: return nil
            case .frame(let d):
                walk.index += 1
                let index = walk.index
                if let previous = walk.last {
                    dispose(previous.rect, previous.disposal, saved: previous.saved)
                }
                // Its saved region goes before the next one is copied: one is held at a time,
                // as the decoder's memory check counts (two were, and a third for a moment).
                walk.last = nil
                let rect = try GIFDecoderRects.visible(d, screen: screen, number: index, path: path, header: false)
                try options.checkPixels(PixelSize(width: d.width, height: d.height), path: path)
                let rows = GIFRowOrder.rowsDecoded(d, bottom: rect.y + rect.height)
                walk.offScreen += Int64(rows) * Int64(d.width) - Int64(rect.width) * Int64(rect.height)
                if walk.offScreen > allowance {
                    throw .corrupt(
                        path: path,
                        detail:
                            "frame \(index) (\(d.width)x\(d.height) at \(d.left),\(d.top)) reaches far past the \(screen) screen: "
                            + "\(walk.offScreen) pixels decoded off the screen so far, over the limit of \(allowance)")
                }
                let control = walk.control
                let saved = keepsCovered && control.disposal == 3 ? copy(rect) : nil
                try draw(d, visible: rect, rows: rows, control: control, stream: stream)
                walk.last = (rect, control.disposal, saved)
                walk.control = GIFControl()
                return control
            }
        }
    }

    /// Decodes the first `rows` stored rows of a frame (those that reach the screen), puts
    /// their visible pixels on the canvas and passes over the rest of its data undecoded.
    private func draw(
        _ d: GIFFrameDescriptor, visible: PixelRect, rows: Int, control: GIFControl, stream: GIFStream
    ) throws(DecodeError) {
        let table = GIFPalette(d.palette ?? stream.globalPalette)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: d.width)
        defer { row.deallocate() }
        let transparent = control.transparentIndex ?? -1
        let x0 = visible.x
        let x1 = visible.x + visible.width
        let bottom = visible.y + visible.height
        for k in 0..<rows {
            let y = d.top + (d.interlaced ? GIFRowOrder.interlacedRow(k, height: d.height) : k)
            try stream.readRow(into: row, width: d.width, last: k == d.height - 1)
            guard y < bottom else { continue }
            table.put(
                row + (x0 - d.left), count: x1 - x0, at: pixels + (y * screen.width + x0) * 4, skipping: transparent)
        }
        if rows < d.height { try stream.skipData() }
    }

    private func copy(_ r: PixelRect) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: r.width * r.height * 4)
        for y in 0..<r.height {
            let src = pixels + ((r.y + y) * screen.width + r.x) * 4
            out.withUnsafeMutableBufferPointer {
                $0.baseAddress!.advanced(by: y * r.width * 4).update(from: src, count: r.width * 4)
            }
        }
        return out
    }

    /// Disposes of a drawn frame: 2 clears its rectangle to transparent (as browsers do;
    /// Pillow fills it with the background colour when the file has no transparency), 3
    /// puts back what it covered.
    private func dispose(_ r: PixelRect, _ disposal: Int, saved: [UInt8]?) {
        for y in 0..<r.height {
            let dst = pixels + ((r.y + y) * screen.width + r.x) * 4
            if disposal == 2 {
                dst.update(repeating: 0, count: r.width * 4)
            } else if disposal == 3, let saved {
                saved.withUnsafeBufferPointer {
                    dst.update(from: $0.baseAddress! + y * r.width * 4, count: r.width * 4)
                }
            }
        }
    }
}

/// Where an interlaced frame's rows go.
enum GIFRowOrder {
    /// How many of frame `d`'s stored rows must be decoded to draw every one of its rows above
    /// canvas row `bottom`: up to the last such row in storage order (interlaced rows below
    /// the screen come between rows on it, and LZW cannot skip them).
    static func rowsDecoded(_ d: GIFFrameDescriptor, bottom: Int) -> Int {
        guard d.interlaced else { return max(0, min(d.height, bottom - d.top)) }
        var k = d.height
        while k > 0 && d.top + interlacedRow(k - 1, height: d.height) >= bottom { k -= 1 }
        return k
    }

    /// The canvas row the `k`-th stored row of an interlaced frame belongs on: rows
    /// 0, 8, 16... first, then 4, 12..., then 2, 6..., then the odd ones.
    static func interlacedRow(_ k: Int, height h: Int) -> Int {
        let pass1 = (h + 7) / 8
        let pass2 = (h + 3) / 8
        let pass3 = (h + 1) / 4
        if k < pass1 { return k * 8 }
        if k < pass1 + pass2 { return (k - pass1) * 8 + 4 }
        if k < pass1 + pass2 + pass3 { return (k - pass1 - pass2) * 4 + 2 }
        return (k - pass1 - pass2 - pass3) * 2 + 1
    }
}

/// The shared rectangle check for `GIFDecoder.scan` and `GIFComposer`.
enum GIFDecoderRects {
    /// The part of frame `d` on the screen; throws (a header error for the first frame,
    /// found before decoding) when there is none.
    static func visible(_ d: GIFFrameDescriptor, screen: PixelSize, number: Int, path: String, header: Bool)
        throws(DecodeError) -> PixelRect
    {
        let x1 = min(screen.width, d.left + d.width)
        let y1 = min(screen.height, d.top + d.height)
        guard d.width > 0, d.height > 0, d.left < x1, d.top < y1 else {
            let detail =
                "frame \(number) (\(d.width)x\(d.height) at \(d.left),\(d.top)) has no pixel on the \(screen) screen"
            throw header ? .corruptHeader(path: path, detail: detail) : .corrupt(path: path, detail: detail)
        }
        return PixelRect(x: d.left, y: d.top, width: x1 - d.left, height: y1 - d.top)
    }
}

/// A colour table as 256 RGBA entries: the table's own, then (past its end, or for a file
/// without one) the gray ramp Pillow shows there.
private struct GIFPalette {
    /// Each entry's four bytes (R, G, B, 255) as one word in memory order, so that a pixel is
    /// one store: drawing was a third of an animated GIF's decode with a byte at a time.
    private var rgba = [UInt32](repeating: 0, count: 256)

    init(_ table: [UInt8]?) {
        let colours = table ?? []
        for i in 0..<256 {
            // Byte by byte, as a table cut inside an entry was read: its bytes, then the ramp's.
            func byte(_ k: Int) -> UInt32 { UInt32(i * 3 + k < colours.count ? colours[i * 3 + k] : UInt8(i)) }
            rgba[i] = (byte(0) | byte(1) << 8 | byte(2) << 16 | 0xFF00_0000).littleEndian
        }
    }

    /// Puts the colours of `count` indices from `indices` at `p` (4 bytes a pixel), leaving the
    /// pixels of index `transparent` as they are. The caller gives `count` pixels of both.
    func put(
        _ indices: UnsafePointer<UInt8>, count: Int, at p: UnsafeMutablePointer<UInt8>, skipping transparent: Int
    ) {
        let dst = UnsafeMutableRawPointer(p)
        rgba.withUnsafeBufferPointer { t in
            // Raw: a UInt8 index is always inside the 256 entries, and the row's bounds are the
            // caller's, checked once per frame (the visible rectangle), not per pixel.
            let words = t.baseAddress!
            for j in 0..<count {
                let i = Int(indices[j])
                if i == transparent { continue }
                dst.storeBytes(of: words[i], toByteOffset: j &* 4, as: UInt32.self)
            }
        }
    }
}
