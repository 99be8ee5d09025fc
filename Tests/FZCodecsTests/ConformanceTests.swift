// Decoder conformance against third-party test images and independent references.
//
// The data is not in the repository: `make conformance` (Tools/conformance/README.md)
// fetches libpng's PngSuite + testpngs and libjpeg-turbo's testimages into
// .cache/conformance/, writes pypng-made `.rgba` references and the manifests, and
// djpeg-made PPM references. Without it every test here FAILS (never skips silently).

import Foundation
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZImage
@testable import FZJPEG
@testable import FZPNG
@testable import Geometry

// MARK: - Tests

@Suite("Conformance")
struct ConformanceTests {
    @Test("conformance data is present")
    func dataPresent() {
        #expect(ConformanceData.pngRows != nil, ConformanceData.missingMessage("png/manifest.tsv"))
        #expect(ConformanceData.jpegRows != nil, ConformanceData.missingMessage("jpeg/manifest.tsv"))
        if let rows = ConformanceData.pngRows {
            #expect(rows.filter(\.ok).count > 100, "png/manifest.tsv has too few ok rows: rerun `make conformance`")
        }
        if let rows = ConformanceData.jpegRows {
            #expect(rows.filter(\.verified).count >= 1, "jpeg/manifest.tsv has no verified rows")
        }
    }

    // 1. Every PNG pypng decoded: same pixels, minimal layout, same interlacing.
    @Test("PNG decodes to the pypng reference", arguments: ConformanceData.pngOK)
    func pngMatchesReference(_ path: String) throws {
        let row = try ConformanceData.pngRow(path)
        let url = ConformanceData.pngDir.appendingPathComponent(path)
        let facts = try PNGChunkFacts(try ConformanceData.bytes(url))
        let reader = try ImageReader(path: url.path, options: DecodeOptions())
        let header = reader.header
        #expect(header.format == .png)
        #expect(header.storedSize == PixelSize(width: row.width, height: row.height))
        #expect(header.orientation == .up)
        guard let details = header.details as? PNGDetails else {
            Issue.record("header details are not PNG: \(header.details)")
            return
        }
        #expect(details.interlaced == row.interlaced, "interlaced flag")
        #expect(details.bitDepth == facts.bitDepth && details.colorType == facts.colorType, "IHDR facts")
        #expect(
            header.pixelFormat == facts.minimalFormat,
            "color type \(facts.colorType), tRNS \(facts.hasTRNS): want \(facts.minimalFormat)")

        let image = try reader.readImage()
        #expect(image.width == row.width && image.height == row.height)
        #expect(image.format == header.pixelFormat)
        let reference = try ConformanceData.bytes(url.deletingPathExtension().appendingPathExtension("rgba"))
        let got = image.converted(to: .rgba).pixels
        let diff = firstDifference(got, reference, width: row.width, channels: 4)
        #expect(diff == nil, "\(path): \(diff ?? "")")
    }

    // 2. Files pypng refused: a DecodeError naming the file (empty_ancillary_chunks.png:
    // libpng decodes it with warnings, so success is allowed too).
    @Test("PNG that pypng refuses is rejected", arguments: ConformanceData.pngRefused)
    func pngRefused(_ path: String) throws {
        _ = try ConformanceData.pngRow(path)
        let full = ConformanceData.pngDir.appendingPathComponent(path).path
        if ConformanceData.libpngDecodes.contains(path) {
            do {
                let reader = try ImageReader(path: full, options: DecodeOptions())
                let image = try reader.readImage()
                #expect(image.pixels.count == image.width * image.height * image.format.channels)
                print(
                    "conformance: \(path): decoded \(image.size) \(image.format), \(reader.warnings.count) warning(s)")
            } catch {
                print("conformance: \(path): refused: \(error.description)")
                #expect(error.description.hasPrefix(full + ": "), "\(error.description)")
            }
            return
        }
        let error = #expect(throws: DecodeError.self, "\(path) must be refused") {
            let reader = try ImageReader(path: full, options: DecodeOptions())
            _ = try reader.readImage()
        }
        if let error {
            #expect(error.description.hasPrefix(full + ": "), "message must name the file: \(error.description)")
            #expect(error.path == full)
        }
    }

    // 3a. PNG regions decoded in one pass equal the full decode, cropped (exact).
    @Test(
        "PNG region decode equals full decode",
        arguments: ConformanceData.pngRows == nil
            ? [ConformanceData.missing] : ConformanceData.pngRegionFiles)
    func pngRegions(_ path: String) throws {
        let row = try ConformanceData.pngRow(path)
        let full = ConformanceData.pngDir.appendingPathComponent(path).path
        let whole = try ImageReader(path: full).readImage()
        for (name, rects) in regionPairs(PixelSize(width: row.width, height: row.height)) {
            let reader = try ImageReader(path: full)
            #expect(reader.header.orientation == .up)
            let parts = try reader.readStored(rects)
            try #require(parts.count == rects.count)
            for (rect, part) in zip(rects, parts) {
                let want = whole.cropped(to: rect)
                #expect(part.width == rect.width && part.height == rect.height && part.format == want.format)
                let diff = firstDifference(part.pixels, want.pixels, width: rect.width, channels: want.format.channels)
                #expect(diff == nil, "\(path) \(name) \(rect) (interlaced \(row.interlaced)): \(diff ?? "")")
            }
        }
    }

    // 3b. JPEG regions (jpeg_crop_scanline + jpeg_skip_scanlines) equal the full decode,
    // exactly except in the crop's edge columns (see jpegCropEdgeColumns).
    @Test("JPEG region decode equals full decode", arguments: ConformanceData.jpegVerified)
    func jpegRegions(_ jpg: String) throws {
        _ = try ConformanceData.jpegRow(jpg)
        let full = ConformanceData.jpegDir.appendingPathComponent(jpg).path
        let whole = try ImageReader(path: full).readImage()
        for (name, rects) in regionPairs(whole.size) {
            let reader = try ImageReader(path: full)
            #expect(reader.header.orientation == .up)
            guard let details = reader.header.details as? JPEGDetails else {
                Issue.record("header details are not JPEG")
                return
            }
            let maxH =
                details.samplingFactors.split(separator: ",")
                .compactMap { $0.split(separator: "x").first.flatMap { Int($0) } }.max() ?? 1
            let iMCUWidth = details.components == 1 ? 8 : 8 * maxH
            let union = rects.dropFirst().reduce(rects[0]) { $0.union($1) }
            let edges = jpegCropEdgeColumns(union: union, imageWidth: whole.width, iMCUWidth: iMCUWidth)
            let parts = try reader.readStored(rects)
            try #require(parts.count == rects.count)
            for (rect, part) in zip(rects, parts) {
                let want = whole.cropped(to: rect)
                try #require(part.width == rect.width && part.height == rect.height && part.format == want.format)
                let c = want.format.channels
                var inside = 0
                var atEdge = 0
                var first: String?
                for y in 0..<rect.height {
                    for x in 0..<rect.width {
                        for k in 0..<c {
                            let i = (y * rect.width + x) * c + k
                            let d = abs(Int(part.pixels[i]) - Int(want.pixels[i]))
                            guard d > 0 else { continue }
                            if edges.contains(rect.x + x) {
                                atEdge = max(atEdge, d)
                            } else {
                                inside = max(inside, d)
                                if first == nil {
                                    first =
                                        "first at image (x \(rect.x + x), y \(rect.y + y)): decoded "
                                        + "\(Array(part[x, y])), full decode \(Array(want[x, y]))"
                                }
                            }
                        }
                    }
                }
                let maxDiff = max(inside, atEdge)
                print(
                    "conformance: \(jpg) \(name) \(rect): region vs full decode max difference \(maxDiff) "
                        + "(crop edge columns \(edges.sorted()): \(atEdge); elsewhere: \(inside))")
                #expect(
                    inside == 0, "\(jpg) \(name) \(rect): max difference \(inside) off the crop edges; \(first ?? "")")
                #expect(
                    atEdge <= jpegCropEdgeBound,
                    "\(jpg) \(name) \(rect): max difference \(atEdge) in crop edge columns \(edges.sorted())")
            }
        }
    }

    // 4. JPEG full decode equals djpeg's (islow DCT, fancy upsampling) exactly.
    @Test("JPEG decodes to the djpeg reference", arguments: ConformanceData.jpegVerified)
    func jpegMatchesReference(_ jpg: String) throws {
        let row = try ConformanceData.jpegRow(jpg)
        let ppm = try PPM(try ConformanceData.bytes(ConformanceData.jpegDir.appendingPathComponent(row.reference)))
        let reader = try ImageReader(path: ConformanceData.jpegDir.appendingPathComponent(jpg).path)
        #expect(reader.header.format == .jpeg)
        #expect(reader.header.storedSize == PixelSize(width: ppm.width, height: ppm.height))
        #expect(reader.header.pixelFormat == .rgb)
        let image = try reader.readImage()
        #expect(image.width == ppm.width && image.height == ppm.height)
        let got = image.converted(to: .rgb).pixels
        let diff = firstDifference(got, ppm.pixels, width: ppm.width, channels: 3)
        #expect(diff == nil, "\(jpg): max difference \(maxDifference(got, ppm.pixels)); \(diff ?? "")")
    }

    @Test("12-bit JPEG is refused as unsupported precision")
    func jpeg12BitRefused() throws {
        let rows = try #require(ConformanceData.jpegRows, ConformanceData.missingMessage("jpeg/manifest.tsv"))
        try #require(
            rows.contains { $0.jpg == "testorig12.jpg" && $0.status == "unsupported-12bit" },
            "jpeg/manifest.tsv lacks the testorig12.jpg row")
        let full = ConformanceData.jpegDir.appendingPathComponent("testorig12.jpg").path
        let error = #expect(throws: DecodeError.self) {
            _ = try ImageReader(path: full).readImage()
        }
        if let error {
            let text = error.description
            #expect(text.hasPrefix(full + ": "), "\(text)")
            #expect(text.contains("12"), "\(text)")
            #expect(text.contains("12-bit") || text.lowercased().contains("precision"), "\(text)")
            if case .unsupportedVariant = error {} else { Issue.record("want .unsupportedVariant, got \(error)") }
        }
    }
}
