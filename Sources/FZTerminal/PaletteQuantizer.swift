import FZImage

/// Reduces an RGB image to at most 256 colours for sixel. Exact when the image has 256 or
/// fewer distinct colours (each becomes a palette entry, so nothing is approximated); else
/// median cut (Heckbert) over a 5-5-5 histogram: the box with the most pixels is split at the
/// median of its longest axis until there are 256, each entry the mean of its pixels. No
/// error diffusion: dithering would change exact colours and flicker as `peek` moves.
public struct PaletteQuantizer {
    /// The palette, RGB triples.
    public var palette: [SIMD3<UInt8>] = []
    /// One palette index per pixel, row by row.
    public var indices: [UInt8] = []
    /// Whether every pixel kept its exact colour.
    public var exact = false

    public static let maxColors = 256

    /// - Parameter image: RGB pixels (`PixelFormat.rgb`).
    public init(rgb image: Image) {
        precondition(image.format == .rgb, "PaletteQuantizer takes RGB")
        let n = image.width * image.height
        indices = [UInt8](repeating: 0, count: n)
        if quantizeExactly(image, count: n) { return }
        medianCut(image, count: n)
    }

    private mutating func quantizeExactly(_ image: Image, count n: Int) -> Bool {
        var index: [UInt32: UInt8] = [:]
        let px = image.pixels
        for i in 0..<n {
            let key = UInt32(px[3 * i]) << 16 | UInt32(px[3 * i + 1]) << 8 | UInt32(px[3 * i + 2])
            if let k = index[key] {
                indices[i] = k
                continue
            }
            if index.count == Self.maxColors { return false }
            let k = UInt8(index.count)
            index[key] = k
            palette.append(SIMD3(px[3 * i], px[3 * i + 1], px[3 * i + 2]))
            indices[i] = k
        }
        exact = true
        return true
    }

    /// A box of the 5-5-5 cube: its bins (keys) and their pixel count.
    private struct Box {
        var keys: [Int]
        var population: Int
    }

    private mutating func medianCut(_ image: Image, count n: Int) {
        palette = []
        let px = image.pixels
        var histogram = [Int](repeating: 0, count: 1 << 15)
        @inline(__always) func key(_ i: Int) -> Int {
            Int(px[3 * i] >> 3) << 10 | Int(px[3 * i + 1] >> 3) << 5 | Int(px[3 * i + 2] >> 3)
        }
        for i in 0..<n { histogram[key(i)] += 1 }
        let used = (0..<(1 << 15)).filter { histogram[$0] > 0 }
        var boxes = [Box(keys: used, population: n)]
        func channel(_ k: Int, _ c: Int) -> Int { k >> (10 - 5 * c) & 31 }
        while boxes.count < Self.maxColors {
            // The most populous box that can still be split.
            guard
                let pick = boxes.indices.filter({ boxes[$0].keys.count > 1 }).max(by: {
                    boxes[$0].population < boxes[$1].population
                })
            else { break }
            let box = boxes[pick]
            var ranges = [(Int, Int)](repeating: (31, 0), count: 3)
            for k in box.keys {
                for c in 0..<3 { ranges[c] = (min(ranges[c].0, channel(k, c)), max(ranges[c].1, channel(k, c))) }
            }
            let axis = (0..<3).max { ranges[$0].1 - ranges[$0].0 < ranges[$1].1 - ranges[$1].0 }!
            let sorted = box.keys.sorted { channel($0, axis) < channel($1, axis) }
            var half = 0
            var cut = 0
            while cut < sorted.count - 1 && half + histogram[sorted[cut]] <= box.population / 2 {
                half += histogram[sorted[cut]]
                cut += 1
            }
            cut = max(1, cut)
            let low = Array(sorted[..<cut])
            let high = Array(sorted[cut...])
            boxes[pick] = Box(keys: low, population: low.reduce(0) { $0 + histogram[$1] })
            boxes.append(Box(keys: high, population: high.reduce(0) { $0 + histogram[$1] }))
        }
        // Each entry is the mean of the pixels in its box; every bin points at its box.
        var binToBox = [UInt8](repeating: 0, count: 1 << 15)
        for (b, box) in boxes.enumerated() { for k in box.keys { binToBox[k] = UInt8(b) } }
        var sums = [SIMD3<Int>](repeating: .zero, count: boxes.count)
        var counts = [Int](repeating: 0, count: boxes.count)
        for i in 0..<n {
            let b = Int(binToBox[key(i)])
            indices[i] = UInt8(b)
            sums[b] &+= SIMD3(Int(px[3 * i]), Int(px[3 * i + 1]), Int(px[3 * i + 2]))
            counts[b] += 1
        }
        palette = (0..<boxes.count).map { b in
            let c = max(1, counts[b])
            return SIMD3(UInt8((sums[b].x + c / 2) / c), UInt8((sums[b].y + c / 2) / c), UInt8((sums[b].z + c / 2) / c))
        }
    }
}
