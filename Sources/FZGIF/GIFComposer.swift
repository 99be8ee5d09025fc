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

    /// Decodes frames 1...`number`, disposing of each before the next as it asks.
    func compose(_ stream: GIFStream, upTo number: Int) throws(DecodeError) {
        var control = GIFControl()
        var index = 0
        // The frame drawn last: its rectangle, disposal and (restore-to-previous) what it covered.
        var last: (rect: PixelRect, disposal: Int, saved: [UInt8]?)?
        while true {
            switch try stream.next() {
            case .control(let c): control = c
            case .end: return
            case .frame(let d):
                index += 1
                if let last { dispose(last.rect, last.disposal, saved: last.saved) }
                let rect = try GIFDecoderRects.visible(d, screen: screen, number: index, path: path, header: false)
                try options.checkPixels(PixelSize(width: d.width, height: d.height), path: path)
                let saved = index < number && control.disposal == 3 ? copy(rect) : nil
                try draw(d, visible: rect, control: control, stream: stream)
                if index == number { return }
                last = (rect, control.disposal, saved)
                control = GIFControl()
            }
        }
    }

    /// Decodes one frame's rows and puts its visible pixels on the canvas.
    private func draw(_ d: GIFFrameDescriptor, visible: PixelRect, control: GIFControl, stream: GIFStream)
        throws(DecodeError)
    {
        let table = GIFPalette(d.palette ?? stream.globalPalette)
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: d.width)
        defer { row.deallocate() }
        let transparent = control.transparentIndex ?? -1
        let x0 = visible.x
        let x1 = visible.x + visible.width
        let bottom = visible.y + visible.height
        for k in 0..<d.height {
            let y = d.top + (d.interlaced ? GIFRowOrder.interlacedRow(k, height: d.height) : k)
            // A plain frame's rows below the screen are not decoded at all.
            if !d.interlaced && y >= bottom {
                try stream.skipData()
                return
            }
            try stream.readRow(into: row, width: d.width, last: k == d.height - 1)
            guard y < bottom else { continue }
            let line = pixels + y * screen.width * 4
            for x in x0..<x1 {
                let i = Int(row[x - d.left])
                if i == transparent { continue }
                table.put(i, at: line + x * 4)
            }
        }
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

/// A colour table as 256 RGB entries: the table's own, then (past its end, or for a file
/// without one) the gray ramp Pillow shows there.
private struct GIFPalette {
    private var rgb = [UInt8](repeating: 0, count: 768)
    init(_ table: [UInt8]?) {
        for i in 0..<256 {
            rgb[i * 3] = UInt8(i)
            rgb[i * 3 + 1] = UInt8(i)
            rgb[i * 3 + 2] = UInt8(i)
        }
        if let table { rgb.replaceSubrange(0..<min(768, table.count), with: table.prefix(768)) }
    }
    func put(_ i: Int, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = rgb[i * 3]
        p[1] = rgb[i * 3 + 1]
        p[2] = rgb[i * 3 + 2]
        p[3] = 255
    }
}
