import Geometry

/// What a JPEG's markers say before any decoder reads it: the frame (SOFn: size, sampling
/// factors) and how many scans follow. TurboJPEG's `tjTransform` (the lossless crop) takes
/// neither a scan limit nor a memory limit, so both are measured here first: a walk over
/// the marker segments and the entropy-coded data, no allocation beyond the bytes held.
package struct JPEGFrame: Equatable, Sendable {
    /// The SOFn marker's code (0xC0 baseline, 0xC1 extended sequential, 0xC2 progressive, ...).
    package var marker: UInt8
    package var size: PixelSize
    /// Each component's horizontal and vertical sampling factors (1-4), in frame order.
    package var horizontal: [Int]
    package var vertical: [Int]
    /// The SOS markers seen (every scan, to the end of the bytes or EOI).
    package var scans: Int

    /// Progressive coding (SOF2, SOF6, SOF10, SOF14): each scan revisits the whole image.
    package var progressive: Bool { [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }

    /// The sampling factors as written ("2x2,1x1,1x1").
    package var samplingFactors: String {
        zip(horizontal, vertical).map { "\($0)x\($1)" }.joined(separator: ",")
    }

    /// What libjpeg's `jpeg_read_coefficients` holds: every component's DCT blocks (64
    /// 16-bit coefficients each), its block rows and columns rounded up to its sampling
    /// factors as libjpeg allocates them. Overflow-free: sides are at most 65535.
    package var coefficientBytes: Int64 {
        let hMax = horizontal.max() ?? 1
        let vMax = vertical.max() ?? 1
        var total: Int64 = 0
        for (h, v) in zip(horizontal, vertical) {
            let columns = Self.roundUp(Self.ceilDiv(size.width * h, hMax * 8), h)
            let rows = Self.roundUp(Self.ceilDiv(size.height * v, vMax * 8), v)
            total += Int64(columns) * Int64(rows) * 128
        }
        return total
    }

    private init(marker: UInt8, size: PixelSize, horizontal: [Int], vertical: [Int], scans: Int) {
        self.marker = marker
        self.size = size
        self.horizontal = horizontal
        self.vertical = vertical
        self.scans = scans
    }

    /// Reads the markers of `bytes`; nil when there is no SOI or no frame header before the
    /// bytes end (TurboJPEG then says what is wrong).
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var frame: JPEGFrame?
        var scans = 0
        var i = 2
        let n = bytes.count
        while i + 1 < n {
            guard bytes[i] == 0xFF else { return nil }  // a segment must start on a marker
            var m = bytes[i + 1]
            i += 2
            while m == 0xFF, i < n {  // fill bytes before the marker code
                m = bytes[i]
                i += 1
            }
            if m == 0xD9 { break }  // EOI
            if m == 0x01 || (0xD0...0xD7).contains(m) { continue }  // no length
            guard i + 1 < n else { break }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= n else { break }
            if Self.isFrameMarker(m), frame == nil {
                frame = Self.frame(m, bytes[i + 2..<i + length])
                if frame == nil { return nil }
            }
            i += length
            if m == 0xDA {
                scans += 1
                i = Self.endOfEntropyData(bytes, from: i)
            }
        }
        guard var frame else { return nil }
        frame.scans = scans
        self = frame
    }

    /// SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    private static func isFrameMarker(_ m: UInt8) -> Bool {
        (0xC0...0xCF).contains(m) && m != 0xC4 && m != 0xC8 && m != 0xCC
    }

    /// P, Y, X, Nf, then Nf times (C, HV, Tq).
    private static func frame(_ m: UInt8, _ body: ArraySlice<UInt8>) -> JPEGFrame? {
        let b = Array(body)
        guard b.count >= 6 else { return nil }
        let height = Int(b[1]) << 8 | Int(b[2])
        let width = Int(b[3]) << 8 | Int(b[4])
        let count = Int(b[5])
        guard count >= 1, b.count >= 6 + 3 * count else { return nil }
        var h: [Int] = []
        var v: [Int] = []
        for c in 0..<count {
            let hv = b[6 + 3 * c + 1]
            h.append(Int(hv >> 4))
            v.append(Int(hv & 0x0F))
        }
        guard h.allSatisfy({ (1...4).contains($0) }), v.allSatisfy({ (1...4).contains($0) }) else { return nil }
        return JPEGFrame(
            marker: m, size: PixelSize(width: width, height: height), horizontal: h, vertical: v, scans: 0)
    }

    /// The first marker after a scan's entropy-coded data: 0xFF followed by neither a
    /// stuffed 0x00 nor a restart marker (RSTn sits inside the data).
    private static func endOfEntropyData(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        let n = bytes.count
        while i + 1 < n {
            if bytes[i] == 0xFF {
                let next = bytes[i + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) || next == 0xFF {
                    i += next == 0xFF ? 1 : 2
                    continue
                }
                return i
            }
            i += 1
        }
        return n
    }

    private static func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }
    private static func roundUp(_ a: Int, _ to: Int) -> Int { ceilDiv(a, to) * to }
}
