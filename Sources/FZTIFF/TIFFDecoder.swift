import CFZTIFF
import FZFormat
import FZImage
import FZSystem
import Geometry

/// TIFF through libtiff (`TIFFFile` owns its pointers): strips and tiles, every compression
/// Debian's libtiff decodes, 1/2/4/8/16-bit gray, RGB(A), palette, CMYK (to sRGB through
/// its profile), YCbCr (libjpeg's RGB for JPEG-in-TIFF, TIFFRGBAImage otherwise), planes
/// contiguous or separate. Pages are `DecodeOptions.frame` (`--page`); a pyramid's reduced
/// copies (NewSubfileType 1 pages after a page, or its SubIFDs) are the decoding
/// reductions `thumb` picks from. Only the strips or tiles a crop touches are decoded.
package final class TIFFDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .tiff, names: ["TIFF"], extensions: ["tif", "tiff"],
        capabilities: [.alpha, .deepSamples, .frames, .exif, .icc], library: .tiff)
    package static func sniff(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
    }

    /// The most directories looked at (pages and reduced copies).
    static let directoryLimit = 1024

    private let tiff: TIFFFile
    private let path: String
    private let options: DecodeOptions
    private let page: TIFFPage
    private let layout: TIFFLayout
    package private(set) var warnings: [String] = []
    package let exif: [UInt8]?
    package let xmp: [UInt8]?
    package let color: ColorDescription
    let tiffDetails: TIFFDetails

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        try Self.registration.requireLibrary(path: path)
        let metadata = TIFFMetadata(file: source.file)
        if metadata.isDNG {
            throw .unsupportedVariant(
                path: path, what: "DNG (camera raw) file: its IFD0 has DNGVersion; it is not read as a plain TIFF")
        }
        // libtiff's own cap on one allocation: the budget, but never so low that the
        // directory itself cannot be read (the budget is then checked against the header).
        let budget = options.budget.maxBytes
        tiff = try TIFFFile(file: source.file, path: path, maxAlloc: budget > 0 ? max(budget, 16 << 20) : 0)
        let (pages, capped) = try TIFFPage.scan(tiff, limit: Self.directoryLimit)
        guard options.frame <= pages.count else {
            throw .noSuchFrame(
                path: path, frame: options.frame, frames: pages.count, option: options.frameOption, atLeast: capped)
        }
        page = try TIFFPage.withSubIFDLevels(pages[options.frame - 1], tiff)
        let info = try tiff.select(page.index)
        try options.checkPixels(PixelSize(width: Int(info.width), height: Int(info.height)), path: path)
        layout = try TIFFLayout(info, tiff: tiff, path: path)
        var c = ColorDescription()
        let icc = tiff.icc(limit: 16 << 20)
        c.hasICC = icc != nil
        c.icc = icc
        var cmykWarnings: [String] = []
        if layout.mode == FZ_TIFF_CMYK {
            c.madeFromCMYK = try Self.chooseCMYK(tiff, icc: icc, options: options, path: path, warnings: &cmykWarnings)
        }
        color = c
        warnings = cmykWarnings
        xmp = tiff.xmp(limit: 16 << 20)
        let orientation = info.orientation != 1 || metadata.hasOrientationTag ? Int(info.orientation) : nil
        exif = metadata.block(orientation: orientation)
        tiffDetails = TIFFDetails(
            info, layout: layout, pages: pages.count, pagesCapped: capped, page: options.frame, levels: page.levels)
        let full = layout.plan(columns: 0..<Int(info.width), deep: false)
        try options.checkMemory(tiff.memoryNeeded(full), path: path)
    }

    package var storedSize: PixelSize { page.size }
    package var pixelFormat: PixelFormat { layout.pixelFormat }
    package var bitDepth: Int { layout.bitDepth }
    package var details: any CodecDetails { tiffDetails }

    package var denominators: [Int] { [1] + page.levels.map(\.denominator) }

    package func scaledSize(denominator: Int) -> PixelSize {
        page.levels.first { $0.denominator == denominator }?.size ?? storedSize
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        try start(denominator: denominator, columns: columns, deep: false)
    }

    /// 16-bit gray or RGB(A) samples as stored; nil for everything else.
    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? {
        guard layout.deepSamples else { return nil }
        return try start(denominator: 1, columns: columns, deep: true)
    }

    private func start(denominator: Int, columns: Range<Int>?, deep: Bool) throws(DecodeError) -> RowLayout {
        var current = layout
        if denominator > 1, let level = page.levels.first(where: { $0.denominator == denominator }) {
            let info = try tiff.select(level.index, subIFD: level.subIFD)
            current = try TIFFLayout(info, tiff: tiff, path: path)
            guard current.pixelFormat == layout.pixelFormat else {
                throw .corrupt(path: path, detail: "a reduced copy's samples differ from the page's")
            }
        }
        let size = denominator > 1 ? scaledSize(denominator: denominator) : storedSize
        let wanted = columns.map { max(0, $0.lowerBound)..<min(size.width, $0.upperBound) } ?? 0..<size.width
        let plan = current.plan(columns: wanted, deep: deep)
        try options.checkMemory(tiff.memoryNeeded(plan), path: path)
        try tiff.start(plan)
        return RowLayout(firstColumn: wanted.lowerBound, width: wanted.count, height: size.height)
    }

    package func skip(rows: Int) throws(DecodeError) { tiff.skip(rows: rows) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        guard rows > 0 else { return 0 }
        let rowBytes = buffer.count / rows
        for r in 0..<rows {
            try tiff.readRow(into: buffer.baseAddress! + r * rowBytes, lenient: options.lenient, warnings: &warnings)
        }
        return rows
    }

    /// What CMYK samples become sRGB through, as for CMYK JPEGs: the file's CMYK profile,
    /// else `--cmyk-profile` or the system's, else the formula.
    private static func chooseCMYK(
        _ tiff: TIFFFile, icc: [UInt8]?, options: DecodeOptions, path: String, warnings: inout [String]
    ) throws(DecodeError) -> String {
        if let icc {
            let problem: String
            if let profile = ICCProfile(icc), profile.colorSpace != "CMYK" {
                problem = "a \(profile.colorSpace) profile on CMYK pixels"
            } else if let reason = tiff.useCMYKProfile(icc, intent: options.intent) {
                problem = reason
            } else {
                return "embedded profile"
            }
            if options.strictProfiles { throw .unusableProfile(path: path, reason: problem) }
            warnings.append("the embedded ICC profile is not used (\(problem))")
        }
        if let fallback = options.cmykProfile ?? CMYKProfile.system,
            tiff.useCMYKProfile(fallback.bytes, intent: options.intent) == nil
        {
            return "profile \(fallback.path)"
        }
        return "formula (no CMYK profile; give one with --cmyk-profile)"
    }
}

extension ImageFormat {
    public static let tiff = ImageFormat(rawValue: "TIFF")
}
