// Decoder conformance against third-party test images and independent references.
//
// The data is not in the repository: `make conformance` (Tools/conformance/README.md)
// fetches libpng's PngSuite + testpngs and libjpeg-turbo's testimages into
// .cache/conformance/, writes pypng-made `.rgba` references and the manifests, and
// djpeg-made PPM references. Without it every test here FAILS (never skips silently).

import Foundation
import Testing

@testable import FZImage
@testable import Geometry

// MARK: - Data location and manifests

enum ConformanceData {
    /// The repository root: this file is Tests/FZCodecsTests/<file>.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let dir = root.appendingPathComponent(".cache/conformance")
    static let pngDir = dir.appendingPathComponent("png")
    static let jpegDir = dir.appendingPathComponent("jpeg")

    /// Stands in for the file list when the data is missing, so each group fails.
    static let missing = "<conformance data missing: run `make conformance`>"
    static func missingMessage(_ what: String) -> Comment {
        Comment(
            rawValue: "conformance data missing (\(what) under \(dir.path)): run `make conformance` "
                + "(Tools/conformance/fetch.sh && python3 Tools/conformance/pngref.py && Tools/conformance/jpegref.sh)")
    }

    /// The rows of a tab-separated manifest after its header line, or nil if it is absent.
    static func rows(_ manifest: URL) -> [[String]]? {
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").dropFirst()
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { !$0.isEmpty && !$0[0].isEmpty }
    }

    struct PNGRow: Sendable {
        let path: String, width: Int, height: Int, interlaced: Bool, status: String
        var ok: Bool { status == "ok" }
    }

    static let pngRows: [PNGRow]? = rows(pngDir.appendingPathComponent("manifest.tsv")).map { rows in
        rows.filter { $0.count >= 5 }.map {
            PNGRow(
                path: $0[0], width: Int($0[1]) ?? -1, height: Int($0[2]) ?? -1, interlaced: $0[3] == "1",
                status: $0[4])
        }
    }

    struct JPEGRow: Sendable {
        let jpg: String, reference: String, status: String
        var verified: Bool { status.hasPrefix("verified") }
    }

    static let jpegRows: [JPEGRow]? = rows(jpegDir.appendingPathComponent("manifest.tsv")).map { rows in
        rows.filter { $0.count >= 4 }.map { JPEGRow(jpg: $0[0], reference: $0[1], status: $0[3]) }
    }

    /// libpng decodes these although pypng refuses them (README: with warnings).
    static let libpngDecodes: Set<String> = ["testpngs/crashers/empty_ancillary_chunks.png"]

    // Argument lists (relative paths), each [missing] when the data is absent.
    static let pngOK: [String] = pngRows.map { $0.filter(\.ok).map(\.path) } ?? [missing]
    static let pngRefused: [String] = pngRows.map { $0.filter { !$0.ok }.map(\.path) } ?? [missing]
    static let jpegVerified: [String] = jpegRows.map { $0.filter(\.verified).map(\.jpg) } ?? [missing]

    /// A few PngSuite files for region decoding: bit depths 1-16, palette, alpha, tRNS,
    /// interlaced and not, odd sizes.
    static let pngRegionFiles: [String] = [
        "pngsuite/basn0g01.png", "pngsuite/basn2c16.png", "pngsuite/basn3p04.png",
        "pngsuite/basn6a08.png", "pngsuite/ftbrn2c08.png", "testpngs/rgb-alpha-16.png",
        "pngsuite/ibasn0g08.png", "pngsuite/ibasn3p08.png", "pngsuite/ibasn6a16.png",
        "pngsuite/interlaced/ibasn0g04.png", "pngsuite/iftbbn3p08.png",
    ]

    static func pngRow(_ path: String) throws -> PNGRow {
        let rows = try #require(pngRows, missingMessage("png/manifest.tsv"))
        return try #require(rows.first { $0.path == path }, "\(path) not in png/manifest.tsv")
    }

    static func jpegRow(_ jpg: String) throws -> JPEGRow {
        let rows = try #require(jpegRows, missingMessage("jpeg/manifest.tsv"))
        return try #require(rows.first { $0.jpg == jpg }, "\(jpg) not in jpeg/manifest.tsv")
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}

// MARK: - Tiny file parsers (independent of the decoder under test)

/// The layout the decoder should pick, from IHDR and the presence of tRNS.
struct PNGChunkFacts {
    var bitDepth = 0, colorType = 0, hasTRNS = false

    init(_ data: [UInt8]) throws {
        let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        try #require(data.count >= 8 && Array(data[0..<8]) == signature, "not a PNG signature")
        var i = 8
        while i + 8 <= data.count {
            let length = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = i + 8
            if type == "IHDR", body + 13 <= data.count {
                bitDepth = Int(data[body + 8])
                colorType = Int(data[body + 9])
            }
            if type == "tRNS" { hasTRNS = true }
            if type == "IDAT" || type == "IEND" { break }
            i = body + length + 4
        }
    }

    /// Gray stays gray, alpha only when the file has an alpha channel or tRNS.
    var minimalFormat: PixelFormat {
        switch colorType {
        case 0: return hasTRNS ? .grayAlpha : .gray
        case 4: return .grayAlpha
        case 6: return .rgba
        default: return hasTRNS ? .rgba : .rgb  // 2 (RGB) and 3 (palette)
        }
    }
}

/// A binary PPM (P6, maxval 255): header tokens separated by whitespace, '#' comments.
struct PPM {
    let width: Int, height: Int, pixels: [UInt8]

    init(_ data: [UInt8]) throws {
        var i = 0
        func token() throws -> String {
            while i < data.count {
                if data[i] == UInt8(ascii: "#") {
                    while i < data.count && data[i] != 10 { i += 1 }
                } else if [9, 10, 13, 32].contains(data[i]) {
                    i += 1
                } else {
                    break
                }
            }
            let start = i
            while i < data.count && ![9, 10, 13, 32].contains(data[i]) { i += 1 }
            try #require(i > start, "PPM header ends early")
            return String(decoding: data[start..<i], as: UTF8.self)
        }
        try #require(try token() == "P6", "not a binary PPM (P6)")
        let w = try #require(Int(try token()))
        let h = try #require(Int(try token()))
        let maxval = try #require(Int(try token()))
        try #require(maxval == 255, "PPM maxval \(maxval), expected 255")
        i += 1  // the single whitespace byte before the samples
        try #require(data.count - i == w * h * 3, "PPM has \(data.count - i) sample bytes, expected \(w * h * 3)")
        width = w
        height = h
        pixels = Array(data[i...])
    }
}

// MARK: - Comparison helpers

/// nil when equal; otherwise the first differing pixel and both values.
func firstDifference(_ got: [UInt8], _ want: [UInt8], width: Int, channels: Int) -> String? {
    if got == want { return nil }
    if got.count != want.count { return "\(got.count) bytes decoded, \(want.count) expected" }
    let i = got.indices.first { got[$0] != want[$0] }!
    let p = i / channels
    let start = p * channels
    let a = got[start..<(start + channels)].map(String.init).joined(separator: ",")
    let b = want[start..<(start + channels)].map(String.init).joined(separator: ",")
    let count = zip(got, want).lazy.filter { $0 != $1 }.count
    return
        "first differing pixel (x \(p % width), y \(p / width)): decoded (\(a)), expected (\(b)); \(count) bytes differ"
}

func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

/// Region sets per image: a corner rectangle with an odd-sized one in the middle, twice.
/// Top-left keeps the union at column/row 0; bottom-right makes it start mid-image (JPEG:
/// horizontal crop at a non-iMCU column and skipped rows). A third set starts exactly on a
/// 16-pixel (iMCU) column and row, where a JPEG crop's first delivered column is the rect's.
func regionPairs(_ size: PixelSize) -> [(String, [PixelRect])] {
    let w = size.width
    let h = size.height
    let middle = PixelRect(x: (w / 3) | 1, y: (h / 3) | 1, width: (w / 3) | 1, height: (h / 4) | 1)
    let cw = min(w, 7)
    let ch = min(h, 5)
    let topLeft = PixelRect(x: 0, y: 0, width: max(1, w / 4), height: max(1, h / 5))
    let bottomRight = PixelRect(x: w - cw, y: h - ch, width: cw, height: ch)
    let ax = w / 2 / 16 * 16
    let ay = h / 2 / 16 * 16
    let aligned = PixelRect(x: ax, y: ay, width: min(31, w - ax), height: min(20, h - ay))
    return [
        ("top-left corner + middle", [topLeft, middle]), ("bottom-right corner + middle", [bottomRight, middle]),
        ("iMCU-aligned", [aligned]),
    ]
}

/// The columns where libjpeg-turbo 2.1.5's jpeg_crop_scanline output is known to differ
/// from the full decode: h2 fancy upsampling treats the cropped output's first column (the
/// union's x rounded down to the iMCU, when > 0) and last column (when < image width) as
/// image edges and replicates the chroma sample there instead of interpolating with its
/// neighbour outside the crop. Shown with djpeg alone: `djpeg -crop 150x37+0+49` differs
/// from the full decode in column 149 only; `-crop 20x20+64+49` in columns 64 and 83.
func jpegCropEdgeColumns(union: PixelRect, imageWidth: Int, iMCUWidth: Int) -> Set<Int> {
    guard union.x > 0 || union.maxX < imageWidth else { return [] }  // no crop
    var columns = Set<Int>()
    let left = union.x / iMCUWidth * iMCUWidth
    if left > 0 { columns.insert(left) }
    if union.maxX < imageWidth { columns.insert(union.maxX - 1) }
    return columns
}

/// ImageReader asks libjpeg for one spare column left and two right of the union and
/// discards them, so even those edge columns must match the full decode exactly (before
/// that fix they were off by up to 9 here, 27 elsewhere). Kept as a named bound so a
/// regression reports which columns broke.
let jpegCropEdgeBound = 0
