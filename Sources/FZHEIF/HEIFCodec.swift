// Length: over 300 lines on purpose: the one Swift file that owns libheif's pointers (context,
// handles, decoded images, the encoder): decoding, thumbnails, deep planes and writing.

import CFZHeif
import CFZProcess
import CHeif
import FZFormat
import FZImage
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// HEIF, HEIC and AVIF through libheif (every libheif pointer lives in this file): the
/// primary image, with its alpha, decoded whole to 8-bit interleaved RGB(A) (10- and 12-bit
/// rounded by libheif) with `irot`, `imir` and `clap` applied, then served row by row.
///
/// libheif 1.15 decodes a grid image whole (it has no call to decode one tile of the primary
/// image): a grid forcezoom can read itself goes through its tiles instead (`HEIFTileDecoder`),
/// crops decoding only the tiles they touch and whole reads streamed a band of tiles at a
/// time, at 8 bits or (`beginDeep`, `readDeepRegions`) 16. The EXIF orientation is NOT
/// applied: the HEIF and MIAF specifications make the transformation properties the orientation.
package final class HEIFDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .heif, names: ["HEIF/HEIC", "AVIF"], extensions: ["heic", "heif", "hif", "avif"],
        capabilities: [.alpha, .deepSamples, .embeddedThumbnails, .exif, .icc, .gainMaps],
        reportedNames: ["HEIC", "AVIF"], library: .heif)
    static let brands: Set<String> = [
        "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis", "miaf",
    ]
    /// HEIC's tiles go to libde265, whose tables take about 5 ms to build (AVIF's do not).
    package static func warmUp(forExtension fileExtension: String) {
        if fileExtension != "avif" { HEIFTileDecoder.warmUpDe265() }
    }
    package static func sniff(_ head: [UInt8]) -> Bool {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return false }
        var i = 8
        while i + 4 <= head.count {
            if brands.contains(String(decoding: head[i..<(i + 4)], as: UTF8.self)) { return true }
            i += i == 8 ? 8 : 4  // the major brand, the minor version, then compatible brands
        }
        return false
    }

    package let storedSize: PixelSize
    package let pixelFormat: PixelFormat
    package var bitDepth: Int { heif.bitDepth }
    package let exif: [UInt8]?
    /// The XMP item (a `mime` item of type application/rdf+xml).
    package let xmp: [UInt8]?
    package var exifOrientationApplies: Bool { false }
    private let heif: HEIFDetails
    /// The `colr` ICC profile.
    private let icc: [UInt8]?
    /// Whether libheif has read the file (tests: the box facts were not taken, or were).
    var openedLibheif: Bool { libheif != nil }
    package var details: any CodecDetails { heif }
    package var color: ColorDescription {
        var c = ColorDescription()
        c.hasICC = heif.colorType == "prof" || heif.colorType == "rICC"
        c.icc = icc
        return c
    }
    package var warnings: [String] { [] }

    /// The primary image's XMP packet, if it has one (at most 16 MiB read).
    private static func readXMP(of h: OpaquePointer) -> [UInt8]? {
        var ids = [heif_item_id](repeating: 0, count: 8)
        let n = Int(fz_heif_image_handle_get_list_of_metadata_block_IDs(h, "mime", &ids, Int32(ids.count)))
        for id in ids.prefix(max(0, min(n, ids.count))) {
            guard let type = fz_heif_image_handle_get_metadata_content_type(h, id),
                String(cString: type) == "application/rdf+xml"
            else { continue }
            let size = fz_heif_image_handle_get_metadata_size(h, id)
            guard size > 0 && size < 1 << 24 else { continue }
            var block = [UInt8](repeating: 0, count: size)
            if fz_heif_image_handle_get_metadata(h, id, &block).code == heif_error_Ok { return block }
        }
        return nil
    }

    private let path: String
    private let options: DecodeOptions
    /// The file's bytes: libheif reads them in place for as long as the context lives.
    private let file: HEIFFileBytes
    /// libheif's context and primary handle, opened only when something needs them: never
    /// for a grid libde265 decodes whole (`boxFacts`), unless its embedded thumbnail is decoded.
    private var libheif: Libheif?
    /// The decoded image and its interleaved plane (after `begin`).
    private var image: OpaquePointer?
    private var plane: UnsafePointer<UInt8>?
    private var stride = 0
    private var next = 0
    /// A grid's tiles, decoded one by one for crops (`HEIFTileDecoder`); nil: whole decodes only.
    private var tiles: HEIFTileDecoder?
    /// What a whole decode needs, checked when one starts (not on open) for a grid whose
    /// crops need only a few tiles.
    private var wholeDecodeMemory: Int64 = 0
    /// Why the grid cannot be decoded (tiles not covering it, missing...), said on decoding.
    private var gridProblem: String?
    /// The rows of a grid decoded a band of tiles at a time (`begin` of a grid), and the
    /// same at 16 bits a sample (`beginDeep` of a grid). Held by reference (`TileStreamBox`):
    /// the decoder's deinit destroying an `Optional<HEIFTileStream<Image16>>` made the Swift
    /// runtime build that type's metadata, a search of every protocol conformance in the
    /// binary (0.2 ms at the end of every HEIC crop, which never streams); a nil reference
    /// is released without it.
    private var stream: TileStreamBox<Image>?
    private var deepStream: TileStreamBox<Image16>?
    /// The rows of a grid averaged over whole blocks in Y'CbCr (`beginBlocks`).
    private var blockStream: HEIFBlockStream?
    /// The image at 16 bits a sample (`beginDeep`), instead of `plane`.
    private var deep: [UInt8]?

    package convenience init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        try self.init(source: source, options: options, boxFacts: true)
    }

    /// - Parameter boxFacts: false reads the facts through libheif even where the boxes
    ///   would do (the tests' second opinion on `HEIFBoxFacts`).
    init(source: ImageSource, options: DecodeOptions, boxFacts: Bool) throws(DecodeError) {
        path = source.name
        self.options = options
        ProcessSetup.keepFreedPages()  // libde265's tiles and libheif's planes (ProcessSetup says why)
        try Self.checkThreadStart(path: path)
        let limit = options.maxMemory > 0 ? Int(min(options.maxMemory, Int64(Int.max - 1))) : Int.max - 1
        guard let file = try HEIFFileBytes.load(source, limit: limit, path: path) else {
            throw .overMemoryLimit(path: path, needed: Int64(limit) + 1, limit: options.maxMemory)
        }
        let header = try Self.readHeader(file, options: options, path: path)
        let boxes = header.boxes
        let grid = header.grid
        // A broken grid fails its decodes, not `info` (its header facts still stand).
        gridProblem = header.gridProblem
        self.file = file
        let coded: PixelSize
        let alpha: Bool
        let depth: Int
        let thumbnails: [PixelSize]
        let colour: (type: String, nclx: [Int]?)
        if boxFacts, let grid, let facts = Self.boxFacts(header, grid: grid, file: file, path: path, options: options) {
            // A grid libde265 decodes whole: libheif is not loaded (issue 38).
            coded = facts.coded
            storedSize = grid.canvas.displayedSize
            alpha = grid.alphaTiles != nil
            depth = 8
            thumbnails = facts.box.thumbnails
            icc = facts.box.icc
            colour = (facts.box.colorType, facts.box.nclx)
            exif = facts.box.exif
            xmp = facts.box.xmp
        } else {
            let lib = try Libheif(file, path: path)
            libheif = lib
            let h = lib.handle
            // The coded size (ispe) is what the codec decodes: check it, then the size after the transformations.
            coded = PixelSize(
                width: Int(fz_heif_image_handle_get_ispe_width(h)), height: Int(fz_heif_image_handle_get_ispe_height(h))
            )
            storedSize = PixelSize(
                width: Int(fz_heif_image_handle_get_width(h)), height: Int(fz_heif_image_handle_get_height(h)))
            alpha = fz_heif_image_handle_has_alpha_channel(h) != 0
            depth = Int(fz_heif_image_handle_get_luma_bits_per_pixel(h))
            thumbnails = Self.thumbnailSizes(of: h)
            let profile = fz_heif_image_handle_get_color_profile_type(h)
            icc = Self.readICC(of: h, profile: profile, limit: options.chunkLimit)
            colour = Self.readColorBox(of: h, profile: profile)
            exif = Self.readEXIF(of: h)
            xmp = Self.readXMP(of: h)
        }
        pixelFormat = alpha ? .rgba : .rgb
        let codec = boxes.primaryType == "grid" ? HEIFBoxes.codec(boxes.tileType) : HEIFBoxes.codec(boxes.primaryType)
        var facts = HEIFDetails(
            brand: boxes.majorBrand, compatibleBrands: boxes.compatibleBrands, codec: codec,
            gridTiles: boxes.gridTiles, bitDepth: depth, hasAlpha: alpha,
            transformations: boxes.transformations, codedSize: coded, thumbnails: thumbnails,
            colorType: colour.type, nclx: colour.nclx)
        facts.display = Self.display(boxes, coded: coded, decoded: storedSize)
        if let grid {
            facts.gridColumns = grid.canvas.columns
            facts.gridRows = grid.canvas.rows
            facts.tileSize = grid.canvas.tile
        }
        heif = facts

        try options.checkPixels(coded, path: path)
        try options.checkPixels(storedSize, path: path)
        // libheif holds the decoded planes (Y'CbCr, up to 3 samples a pixel, 2 bytes above 8 bits),
        // the converted interleaved image (and the same again while turning it), plus the file.
        let bytesPerSample: Int64 = depth > 8 ? 2 : 1
        let area = Int64(coded.width) * Int64(coded.height)
        let planes = area * (3 + (alpha ? 1 : 0)) * bytesPerSample
        let interleaved = area * Int64(pixelFormat.channels) * 2
        wholeDecodeMemory = max(header.wholeMemory, planes + interleaved + Int64(file.count))
        if let grid, grid.canvas.displayedSize == storedSize, (grid.alphaTiles != nil) == alpha {
            tiles = HEIFTileDecoder(grid: grid, file: file, path: path)
        } else {
            try options.checkMemory(wholeDecodeMemory, path: path)
        }
    }

    /// libde265 starts a worker thread and waits for it: where none can start (ulimit -u)
    /// it would wait forever. Finds out first, with a thread of our own.
    private static func checkThreadStart(path: String) throws(DecodeError) {
        let threadError = fz_can_start_thread()
        if threadError != 0 {
            throw .readFailed(
                path: path,
                reason:
                    "cannot start a thread for the HEVC decoder (\(Errno(threadError)); is the process limit, ulimit -u, reached?)"
            )
        }
    }

    /// What the boxes say before libheif sees the file (`readHeader`).
    private struct Header {
        var boxes: HEIFBoxes
        var grid: HEIFGrid?
        /// Why the grid cannot be decoded, said on decoding (`gridProblem`).
        var gridProblem: String?
        /// The memory libheif's canvas for a grid takes (0: not a grid).
        var wholeMemory: Int64
        /// The file through `meta` at least (all of it when something past `meta` was needed).
        var bytes: [UInt8]
    }

    /// Reads the boxes first, without libheif: a reference loop would make libheif 1.15
    /// recurse until its stack overflows, and the primary item's ispe is checked against the
    /// pixel limit before libheif allocates anything for it. Throws what the boxes alone
    /// show is wrong or over the limits, in the order the checks matter.
    private static func readHeader(_ file: HEIFFileBytes, options: DecodeOptions, path: String) throws(DecodeError)
        -> Header
    {
        var bytes = file.head
        var boxes = HEIFBoxes(bytes)
        var grid: HEIFGrid?
        var gridError: HEIFGrid.Invalid?
        do { grid = try HEIFGrid.read(bytes, fileSize: file.count) } catch { gridError = error }
        // Something past `meta` is needed (a grid descriptor in mdat): read it all.
        if bytes.count < file.count && (boxes.unreadableDerived != nil || gridError != nil) {
            bytes = file.whole
            boxes = HEIFBoxes(bytes)
            gridError = nil
            do { grid = try HEIFGrid.read(bytes, fileSize: file.count) } catch { gridError = error }
        }
        if let parent = boxes.tooManyChildren {
            throw .unsupportedVariant(
                path: path,
                what:
                    "HEIF structure: its \(parent) box has more than \(HEIFBoxes.maxChildren) entries, more than forcezoom checks before libheif reads the file"
            )
        }
        if boxes.referenceLoop {
            throw .corruptHeader(path: path, detail: "the image's derivation references (dimg) form a loop")
        }
        if let item = boxes.missingReference {
            throw .corruptHeader(
                path: path, detail: "the image derives from item \(item), which the file does not have")
        }
        // What else libheif 1.15 follows unchecked (asserts, endless recursion): issue 53.
        if let problem = HEIFReferences.problem(bytes) { throw .corruptHeader(path: path, detail: problem) }
        if let size = boxes.primarySize { try options.checkPixels(size, path: path) }
        var wholeMemory: Int64 = 0
        // libde265 allocates for the size its parameter sets declare (up to 16 bits a
        // sample, three planes, and libheif's converted copy): check that too.
        if let grid = boxes.gridSize {
            // The canvas libheif makes for a grid (and its converted copy).
            try options.checkPixels(grid, path: path)
            wholeMemory = grid.area.multipliedReportingOverflow(by: 8).partialValue
        }
        if let item = boxes.unreadableDerived {
            throw .corruptHeader(path: path, detail: "the grid or overlay descriptor of item \(item) cannot be read")
        }
        if let mismatch = boxes.parameterMismatch { throw .corruptHeader(path: path, detail: mismatch) }
        if let coded = boxes.largestCodedSize {
            try options.checkPixels(coded, path: path)
            try options.checkMemory(coded.area.multipliedReportingOverflow(by: 12).partialValue, path: path)
        }
        try file.fetchAllButTiles(of: grid, path: path)  // a URL: each tile when decoded (issue 52)
        return Header(
            boxes: boxes, grid: grid, gridProblem: gridError?.detail, wholeMemory: wholeMemory, bytes: bytes)
    }

    /// The sizes of the primary image's embedded thumbnails (none when it claims 64 or more).
    private static func thumbnailSizes(of h: OpaquePointer) -> [PixelSize] {
        var thumbnails: [PixelSize] = []
        let count = Int(fz_heif_image_handle_get_number_of_thumbnails(h))
        if count > 0 && count < 64 {
            var ids = [heif_item_id](repeating: 0, count: count)
            let n = Int(fz_heif_image_handle_get_list_of_thumbnail_IDs(h, &ids, Int32(count)))
            for id in ids.prefix(n) {
                var t: OpaquePointer?
                if fz_heif_image_handle_get_thumbnail(h, id, &t).code == heif_error_Ok, let t {
                    thumbnails.append(
                        PixelSize(
                            width: Int(fz_heif_image_handle_get_width(t)),
                            height: Int(fz_heif_image_handle_get_height(t))))
                    fz_heif_image_handle_release(t)
                }
            }
        }
        return thumbnails
    }

    /// An ICC profile (`colr` prof/rICC), at most `limit` bytes (the chunk limit).
    private static func readICC(of h: OpaquePointer, profile: heif_color_profile_type, limit: Int) -> [UInt8]? {
        let iccSize = fz_heif_image_handle_get_raw_color_profile_size(h)
        if profile == heif_color_profile_type_prof || profile == heif_color_profile_type_rICC, iccSize > 0,
            iccSize <= limit
        {
            var bytes = [UInt8](repeating: 0, count: iccSize)
            if fz_heif_image_handle_get_raw_color_profile(h, &bytes).code == heif_error_Ok { return bytes }
        }
        return nil
    }

    /// The `colr` box's type ("nclx", "prof", "rICC" or "") and, for nclx, its values
    /// (`HEIFDetails.colorType`, `HEIFDetails.nclx`).
    private static func readColorBox(of h: OpaquePointer, profile: heif_color_profile_type) -> (
        type: String, nclx: [Int]?
    ) {
        var colorType = ""
        var nclxValues: [Int]?
        switch profile {
        case heif_color_profile_type_nclx: colorType = "nclx"
        case heif_color_profile_type_prof: colorType = "prof"
        case heif_color_profile_type_rICC: colorType = "rICC"
        default: break
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let nclxStatus = fz_heif_image_handle_get_nclx_color_profile(h, &nclx).code
        // libheif 1.15 allocates the profile before it validates it: on an error it may
        // still hand one back, which is ours to free (found by `make fuzz`).
        if nclxStatus != heif_error_Ok, let nclx { fz_heif_nclx_color_profile_free(nclx) }
        if nclxStatus == heif_error_Ok, let nclx {
            if colorType.isEmpty || colorType == "nclx" {
                colorType = "nclx"
                let p = nclx.pointee
                nclxValues = [
                    Int(p.color_primaries.rawValue), Int(p.transfer_characteristics.rawValue),
                    Int(p.matrix_coefficients.rawValue), Int(p.full_range_flag),
                ]
            }
            fz_heif_nclx_color_profile_free(nclx)
        }
        return (colorType, nclxValues)
    }

    /// The EXIF block from its TIFF header on (read for `info`, never applied): the block
    /// starts with a 4-byte offset to the TIFF header. nil when absent or 16 MiB or more.
    private static func readEXIF(of h: OpaquePointer) -> [UInt8]? {
        var exifID: heif_item_id = 0
        if fz_heif_image_handle_get_list_of_metadata_block_IDs(h, "Exif", &exifID, 1) == 1 {
            let size = fz_heif_image_handle_get_metadata_size(h, exifID)
            if size > 4 && size < 1 << 24 {
                var block = [UInt8](repeating: 0, count: size)
                if fz_heif_image_handle_get_metadata(h, exifID, &block).code == heif_error_Ok {
                    let skip =
                        4
                        + Int(
                            UInt32(block[0]) << 24 | UInt32(block[1]) << 16 | UInt32(block[2]) << 8 | UInt32(block[3]))
                    if skip < size { return Array(block[skip...]) }
                }
            }
        }
        return nil
    }

    deinit {
        if let image { fz_heif_image_release(image) }
    }

    /// The primary image's libheif handle, the file opened by libheif on first use.
    private func handle() throws(DecodeError) -> OpaquePointer {
        if let libheif { return libheif.handle }
        let lib = try Libheif(file, path: path)
        libheif = lib
        return lib.handle
    }

    /// A libheif context reading the file in place and its primary image's handle.
    private final class Libheif {
        let reader: UnsafeMutablePointer<fz_heif_memory_reader>
        let context: OpaquePointer
        let handle: OpaquePointer

        init(_ file: HEIFFileBytes, path: String) throws(DecodeError) {
            // libheif is opened here, not for every HEIF file: grids go to libde265 (issue 38).
            try HEIFDecoder.registration.requireLibrary(path: path)
            try file.fetchWhole(path: path)  // libheif reads a URL's bytes in place: all of them
            guard let ctx = fz_heif_context_alloc() else {
                throw .readFailed(path: path, reason: "libheif could not allocate a context")
            }
            let reader = UnsafeMutablePointer<fz_heif_memory_reader>.allocate(capacity: 1)
            func fail(_ error: DecodeError) -> DecodeError {
                fz_heif_context_free(ctx)
                reader.deallocate()
                return error
            }
            fz_heif_context_set_max_decoding_threads(ctx, 0)
            var err = fz_heif_context_read_memory(
                ctx, reader, file.buffer.baseAddress, file.count, file.mapped ? 1 : 0)
            if err.code != heif_error_Ok { throw fail(HEIFDecoder.error(err, path: path, header: true)) }
            var h: OpaquePointer?
            err = fz_heif_context_get_primary_image_handle(ctx, &h)
            guard err.code == heif_error_Ok, let h else {
                throw fail(HEIFDecoder.error(err, path: path, header: true))
            }
            self.reader = reader
            context = ctx
            handle = h
        }

        deinit {
            fz_heif_image_handle_release(handle)
            fz_heif_context_free(context)
            reader.deallocate()
        }
    }

    /// The facts of a grid whose tiles all go to libde265, read from the boxes
    /// (`HEIFBoxFacts`); nil when libheif must read the file.
    private static func boxFacts(
        _ header: Header, grid: HEIFGrid, file: HEIFFileBytes, path: String, options: DecodeOptions
    ) -> (coded: PixelSize, box: HEIFBoxFacts)? {
        guard header.gridProblem == nil, let coded = header.boxes.primarySize,
            HEIFTileDecoder(grid: grid, file: file, path: path).decodesWithDe265,
            let single = TiledCanvas(columns: 1, rows: 1, tile: coded, canvas: coded),
            let shown = HEIFGrid.transformed(
                single, by: header.boxes.transformProperties.map { ($0.type, $0.body[...]) }),
            shown.displayedSize == grid.canvas.displayedSize,
            let box = HEIFBoxFacts.read(
                header.bytes, file: file.buffer, iccLimit: options.chunkLimit, alphaItem: grid.alphaTiles != nil)
        else { return nil }
        return (coded, box)
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        if let gridProblem { throw .corrupt(path: path, detail: gridProblem) }
        if let tiles {
            let s: HEIFTileStream<Image> = try tileStream(tiles, columns: columns)
            stream = TileStreamBox(s)
            return RowLayout(firstColumn: s.columns.lowerBound, width: s.columns.count, height: storedSize.height)
        }
        try options.checkMemory(wholeDecodeMemory, path: path)
        try Self.registration.requireLibrary(path: path)
        guard let decodeOptions = fz_heif_decoding_options_alloc() else {
            throw .readFailed(path: path, reason: "libheif could not allocate decoding options")
        }
        defer { fz_heif_decoding_options_free(decodeOptions) }
        decodeOptions.pointee.convert_hdr_to_8bit = 1
        var img: OpaquePointer?
        let chroma = pixelFormat == .rgba ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        let err = fz_heif_decode_image(try handle(), &img, heif_colorspace_RGB, chroma, decodeOptions)
        guard err.code == heif_error_Ok, let img else { throw Self.error(err, path: path, header: false) }
        image = img
        var s: Int32 = 0
        guard let p = fz_heif_image_get_plane_readonly(img, heif_channel_interleaved, &s),
            Int(fz_heif_image_get_width(img, heif_channel_interleaved)) == storedSize.width,
            Int(fz_heif_image_get_height(img, heif_channel_interleaved)) == storedSize.height,
            fz_heif_image_get_bits_per_pixel_range(img, heif_channel_interleaved) == 8,
            Int(s) >= storedSize.width * pixelFormat.channels
        else {
            throw .corrupt(path: path, detail: "libheif's decoded image does not match its header (\(storedSize))")
        }
        plane = p
        stride = Int(s)
        return RowLayout(firstColumn: 0, width: storedSize.width, height: storedSize.height)
    }

    /// A grid averaged over whole blocks before its conversion to RGB (`HEIFBlockStream`),
    /// with as many rows of tiles summed ahead as the memory budget allows; nil for anything
    /// else (not a grid, turned, alpha).
    package func beginBlocks(factorX: Int, factorY: Int) throws(DecodeError) -> RowLayout? {
        if let gridProblem { throw .corrupt(path: path, detail: gridProblem) }
        guard let tiles, var s = HEIFBlockStream(tiles: tiles, fx: factorX, fy: factorY, threads: options.threads)
        else { return nil }
        while s.ahead > 0 && options.maxMemory > 0 && s.memory > options.maxMemory {
            s = HEIFBlockStream(tiles: tiles, fx: factorX, fy: factorY, threads: options.threads, ahead: s.ahead - 1)!
        }
        try options.checkMemory(s.memory, path: path)
        blockStream = s
        return RowLayout(firstColumn: 0, width: s.output.width, height: s.output.height)
    }

    /// The image at 16 bits a sample (`--depth 16` of a 10- or 12-bit HEIF), served by `read`
    /// as the 8-bit rows are: a grid streamed a band of tiles at a time (`HEIFTileStream` of
    /// `Image16`), anything else decoded whole (`decodeWhole16`).
    package func beginDeep(columns: Range<Int>?) throws(DecodeError) -> RowLayout? {
        guard bitDepth > 8 else { return nil }
        if let gridProblem { throw .corrupt(path: path, detail: gridProblem) }
        if let tiles {
            let s: HEIFTileStream<Image16> = try tileStream(tiles, columns: columns)
            deepStream = TileStreamBox(s)
            return RowLayout(firstColumn: s.columns.lowerBound, width: s.columns.count, height: storedSize.height)
        }
        deep = try decodeWhole16().bytes
        return RowLayout(firstColumn: 0, width: storedSize.width, height: storedSize.height)
    }

    /// The whole image decoded by libheif at once and widened to 16 bits a sample
    /// (`decodeInterleaved`): what `beginDeep` does for all but grids, and what the tests
    /// compare the grid's 16-bit tiles with.
    func decodeWhole16() throws(DecodeError) -> Image16 {
        try options.checkMemory(wholeDecodeMemory, path: path)
        // libheif's 16-bit plane and the widened copy are held together.
        let samples = Int64(storedSize.width) * Int64(storedSize.height) * Int64(pixelFormat.channels)
        try options.checkMemory(samples * 4, path: path)
        return try Self.decodeInterleaved(
            try handle(), alpha: pixelFormat == .rgba, size: storedSize, as: Image16.self, path: path,
            mismatch: "libheif's decoded image does not match its header (\(storedSize))"
        ) { Self.error($0, path: path, header: false) }
    }

    /// The rows of the grid's `columns`, a band of tiles at a time, with as many bands decoded
    /// ahead (to keep the cores busy) as the memory budget allows, down to none.
    private func tileStream<P: HEIFTilePixels>(
        _ tiles: HEIFTileDecoder, columns: Range<Int>?
    ) throws(DecodeError) -> HEIFTileStream<P> {
        let window = columns.map { $0.clamped(to: 0..<storedSize.width) } ?? 0..<storedSize.width
        let columns = window.isEmpty ? 0..<storedSize.width : window
        var s = HEIFTileStream<P>(tiles: tiles, columns: columns, threads: options.threads)
        while s.ahead > 0 && options.maxMemory > 0 && s.memory > options.maxMemory {
            s = HEIFTileStream<P>(tiles: tiles, columns: columns, threads: options.threads, ahead: s.ahead - 1)
        }
        try options.checkMemory(s.memory, path: path)
        return s
    }

    /// A grid's rectangles from the tiles they touch, when that is fewer than all of them and
    /// they fit the memory budget (otherwise nil: the rows are streamed, a band of tiles at a time).
    package func readRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image]? {
        try regions(rects, as: Image.self)
    }

    /// The same at 16 bits a sample, for a grid of 10- or 12-bit tiles.
    package func readDeepRegions(_ rects: [PixelRect]) throws(DecodeError) -> [Image16]? {
        guard bitDepth > 8 else { return nil }
        return try regions(rects, as: Image16.self)
    }

    private func regions<P: HEIFTilePixels>(_ rects: [PixelRect], as type: P.Type) throws(DecodeError) -> [P]? {
        if let gridProblem { throw .corrupt(path: path, detail: gridProblem) }
        guard let tiles, tiles.tileCount(for: rects) < tiles.grid.tiles.count else { return nil }
        // Over the budget, the rows are streamed instead (a band of tiles at a time, the
        // stream checking what it holds): all the tiles the rectangles touch are held here.
        let memory = tiles.memory(for: rects, sampleBytes: P.sampleBytes)
        guard options.maxMemory <= 0 || memory <= options.maxMemory else { return nil }
        return try tiles.read(rects, threads: options.threads, as: P.self)
    }

    package func skip(rows: Int) throws(DecodeError) {
        if let stream { return stream.value.skip(rows: rows) }
        if blockStream != nil { return blockStream!.skip(rows: rows) }
        if let deepStream { return deepStream.value.skip(rows: rows) }
        next = min(storedSize.height, next + max(0, rows))
    }

    package var embeddedThumbnails: [PixelSize] { heif.thumbnails }

    /// Decodes a `thmb` item (libheif applies its own transformations) to the main image's
    /// pixel format.
    package func decodeEmbeddedThumbnail(_ index: Int) throws(DecodeError) -> Image {
        let handle = try handle()
        var ids = [heif_item_id](repeating: 0, count: heif.thumbnails.count)
        let n = Int(fz_heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(ids.count)))
        guard index < n else { throw .corrupt(path: path, detail: "thumbnail \(index) is missing") }
        var t: OpaquePointer?
        let err = fz_heif_image_handle_get_thumbnail(handle, ids[index], &t)
        guard err.code == heif_error_Ok, let t else { throw Self.error(err, path: path, header: false) }
        defer { fz_heif_image_handle_release(t) }
        let alpha = fz_heif_image_handle_has_alpha_channel(t) != 0
        let size = PixelSize(
            width: Int(fz_heif_image_handle_get_width(t)), height: Int(fz_heif_image_handle_get_height(t)))
        try options.checkPixels(size, path: path)
        let image = try Self.decodeInterleaved(
            t, alpha: alpha, size: size, as: Image.self, path: path,
            mismatch: "libheif's decoded thumbnail does not match its header (\(size))"
        ) { Self.error($0, path: path, header: false) }
        return image.converted(to: pixelFormat)
    }

    /// Decodes the auxiliary image `item` of the primary (Apple's gain map, `HEIFGainMap`)
    /// through libheif's auxiliary-image API, its own transformations applied as libheif
    /// applies them, as gray (its one channel); nil when libheif lists no such auxiliary image.
    package func decodeGainMap(item: UInt32?) throws(DecodeError) -> Image? {
        guard let item else { return nil }
        let handle = try handle()
        var ids = [heif_item_id](repeating: 0, count: 16)
        let n = Int(fz_heif_image_handle_get_list_of_auxiliary_image_IDs(handle, 0, &ids, Int32(ids.count)))
        guard ids.prefix(max(0, n)).contains(item) else { return nil }
        var aux: OpaquePointer?
        let err = fz_heif_image_handle_get_auxiliary_image_handle(handle, item, &aux)
        guard err.code == heif_error_Ok, let aux else { throw Self.error(err, path: path, header: false) }
        defer { fz_heif_image_handle_release(aux) }
        let size = PixelSize(
            width: Int(fz_heif_image_handle_get_width(aux)), height: Int(fz_heif_image_handle_get_height(aux)))
        try options.checkPixels(size, path: path)
        let image = try Self.decodeInterleaved(
            aux, alpha: false, size: size, as: Image.self, path: path,
            mismatch: "libheif's decoded gain map does not match its header (\(size))"
        ) { Self.error($0, path: path, header: false) }
        return image.converted(to: .gray)
    }

    /// The primary item of a whole HEIF file held in `bytes` (a grid's tile as a one-item file,
    /// `HEIFTileDecoder.file(forTile:)`), decoded as `decodeInterleaved` does; its context and
    /// handle live inside this call.
    static func decodeSingleItem<P: HEIFTilePixels>(
        _ bytes: [UInt8], alpha: Bool, size: PixelSize, as type: P.Type, path: String, mismatch: String,
        error: (heif_error) -> DecodeError
    ) throws(DecodeError) -> P {
        try registration.requireLibrary(path: path)
        guard let ctx = fz_heif_context_alloc() else {
            throw .readFailed(path: path, reason: "libheif could not allocate a context")
        }
        defer { fz_heif_context_free(ctx) }
        // withUnsafeBytes rethrows untyped errors: the closure hands back a Result.
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(DecodeError) -> P in
                var err = fz_heif_context_read_from_memory_without_copy(ctx, raw.baseAddress, raw.count, nil)
                guard err.code == heif_error_Ok else { throw error(err) }
                var handle: OpaquePointer?
                err = fz_heif_context_get_primary_image_handle(ctx, &handle)
                guard err.code == heif_error_Ok, let handle else { throw error(err) }
                defer { fz_heif_image_handle_release(handle) }
                return try decodeInterleaved(
                    handle, alpha: alpha, size: size, as: P.self, path: path, mismatch: mismatch, error: error)
            }
        }.get()
    }

    /// Decodes `handle` to interleaved RGB (RGBA with `alpha`) of `size`, copied out of
    /// libheif's plane: at 8 bits (`Image`; 10 and 12 bits rounded by libheif) or at 16
    /// (`Image16`: libheif's big-endian RRGGBB(AA) with `convert_hdr_to_8bit` off, widened by
    /// `widened`); a plane of another size or depth is `.corrupt` with `mismatch`. The
    /// embedded thumbnail, the grid tiles and the whole 16-bit decode share it.
    static func decodeInterleaved<P: HEIFTilePixels>(
        _ handle: OpaquePointer, alpha: Bool, size: PixelSize, as type: P.Type, path: String, mismatch: String,
        error: (heif_error) -> DecodeError
    ) throws(DecodeError) -> P {
        guard let options = fz_heif_decoding_options_alloc() else {
            throw .readFailed(path: path, reason: "libheif could not allocate decoding options")
        }
        defer { fz_heif_decoding_options_free(options) }
        let deep = P.sampleBytes == 2
        options.pointee.convert_hdr_to_8bit = deep ? 0 : 1
        let chroma =
            deep
            ? (alpha ? heif_chroma_interleaved_RRGGBBAA_BE : heif_chroma_interleaved_RRGGBB_BE)
            : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var img: OpaquePointer?
        let err = fz_heif_decode_image(handle, &img, heif_colorspace_RGB, chroma, options)
        guard err.code == heif_error_Ok, let img else { throw error(err) }
        defer { fz_heif_image_release(img) }
        let format: PixelFormat = alpha ? .rgba : .rgb
        let rowBytes = size.width * format.channels * P.sampleBytes
        var stride: Int32 = 0
        let bits = Int(fz_heif_image_get_bits_per_pixel_range(img, heif_channel_interleaved))
        guard let p = fz_heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride),
            Int(fz_heif_image_get_width(img, heif_channel_interleaved)) == size.width,
            Int(fz_heif_image_get_height(img, heif_channel_interleaved)) == size.height,
            deep ? (9...16).contains(bits) : bits == 8,
            Int(stride) >= rowBytes
        else { throw .corrupt(path: path, detail: mismatch) }
        if deep {
            let samples = widened(p, stride: Int(stride), size: size, channels: format.channels, bits: bits)
            return P(width: size.width, height: size.height, format: format, samples: samples)
        }
        var pixels = [UInt8](repeating: 0, count: rowBytes * size.height)
        pixels.withUnsafeMutableBytes { out in
            for y in 0..<size.height {
                out.baseAddress!.advanced(by: y * rowBytes).copyMemory(from: p + y * Int(stride), byteCount: rowBytes)
            }
        }
        return P(width: size.width, height: size.height, format: format, samples: pixels)
    }

    /// libheif's big-endian samples of `bits` bits (0...2^bits-1; larger values clamped)
    /// scaled to 0...65535 with rounding, `(v * 65535 + max / 2) / max`, rows packed: the
    /// one widening of the whole 16-bit decode and the 16-bit tiles.
    static func widened(
        _ plane: UnsafePointer<UInt8>, stride: Int, size: PixelSize, channels c: Int, bits: Int
    ) -> [UInt8] {
        let maximum = (1 << bits) - 1
        let rowSamples = size.width * c
        var out = [UInt8](repeating: 0, count: rowSamples * size.height * 2)
        out.withUnsafeMutableBufferPointer { o in
            for y in 0..<size.height {
                let row = plane + y * stride
                let d = y * rowSamples * 2
                for i in 0..<rowSamples {
                    let v = min(maximum, Int(row[2 * i]) << 8 | Int(row[2 * i + 1]))
                    let wide = (v * 65535 + maximum / 2) / maximum
                    o[d + 2 * i] = UInt8(wide >> 8)
                    o[d + 2 * i + 1] = UInt8(wide & 0xFF)
                }
            }
        }
        return out
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        if let stream { return try stream.value.read(into: buffer, rows: rows) }
        if blockStream != nil { return try blockStream!.read(into: buffer, rows: rows) }
        if let deepStream { return try deepStream.value.read(into: buffer, rows: rows) }
        if let deep {
            let n = max(0, min(rows, storedSize.height - next))
            let rowBytes = storedSize.width * pixelFormat.channels * 2
            deep.withUnsafeBytes { d in
                buffer.baseAddress!.copyMemory(from: d.baseAddress! + next * rowBytes, byteCount: n * rowBytes)
            }
            next += n
            return n
        }
        guard let plane else { return 0 }
        let n = min(rows, storedSize.height - next)
        let rowBytes = storedSize.width * pixelFormat.channels
        for k in 0..<max(0, n) {
            buffer.baseAddress!.advanced(by: k * rowBytes).copyMemory(
                from: plane + (next + k) * stride, byteCount: rowBytes)
        }
        next += max(0, n)
        return max(0, n)
    }

    /// The primary image's transformations as one crop and orientation of its coded size;
    /// nil when there are none, or they cannot be read or disagree with what libheif decodes.
    private static func display(_ boxes: HEIFBoxes, coded: PixelSize, decoded: PixelSize) -> TiledCanvas? {
        guard !boxes.transformProperties.isEmpty,
            let single = TiledCanvas(columns: 1, rows: 1, tile: coded, canvas: coded),
            let shown = HEIFGrid.transformed(single, by: boxes.transformProperties.map { ($0.type, $0.body[...]) }),
            shown.displayedSize == decoded
        else { return nil }
        return shown
    }

    /// A libheif error as a `DecodeError` naming the file.
    fileprivate static func error(_ e: heif_error, path: String, header: Bool) -> DecodeError {
        // libheif's messages may end in or contain a newline: the error stays one line.
        let text = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
        let message = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        switch e.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            return .unsupportedVariant(path: path, what: "HEIF content: \(message)")
        case heif_error_Memory_allocation_error:
            return .readFailed(path: path, reason: "libheif: \(message)")
        default:
            if e.subcode == heif_suberror_End_of_data {
                return header
                    ? .truncatedHeader(path: path, detail: "libheif: \(message)")
                    : .truncated(path: path, detail: "libheif: \(message)")
            }
            return header
                ? .corruptHeader(path: path, detail: "libheif: \(message)")
                : .corrupt(path: path, detail: "libheif: \(message)")
        }
    }
}

/// HEIC (x265) and AVIF (aom) encoding through libheif (its pointers stay in this file), for
/// `fixture`: 8-bit RGB(A), an EXIF block as libheif stores it, and an `irot` added to the
/// written boxes (libheif 1.15 has no call for it; `HEIFBoxes.addingRotation`).
package enum HEIFEncoder {
    /// Whether libheif has an encoder for the format on this machine.
    package static func available(avif: Bool) -> Bool {
        guard FormatLibrary.heif.loadProblem == nil, let ctx = fz_heif_context_alloc() else { return false }
        defer { fz_heif_context_free(ctx) }
        var enc: OpaquePointer?
        let err = fz_heif_context_get_encoder_for_format(ctx, avif ? heif_compression_AV1 : heif_compression_HEVC, &enc)
        if let enc { fz_heif_encoder_release(enc) }
        return err.code == heif_error_Ok
    }

    /// Collects what libheif writes.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// Encodes `image` (gray widened to RGB).
    /// - Parameters:
    ///   - quality: 1-100 (libheif's lossy quality); `lossless` for the encoder's lossless mode.
    ///   - exif: a TIFF block; `rotation`: 0, 90, 180 or 270 (anticlockwise, as irot says).
    ///   - mirror: an `imir` axis (0 top-bottom, 1 left-right, as libheif reads it) after the irot.
    ///   - tenBit: 10-bit samples (0-1023, interleaved as `image`'s format, RGB or RGBA) coded
    ///     instead of `image`'s 8-bit pixels (which then give only the size and format): a
    ///     Main 10 HEIC or a 10-bit AVIF.
    ///   - icc: an RGB ICC profile for the `colr` box (`prof`).
    ///   - bits: the significant bits of `tenBit`'s samples (10 or 12).
    ///   - nclx: coded colour (`colr` `nclx`, and libheif's RGB to YCbCr matrix) instead.
    package static func encode(
        _ image: Image, avif: Bool, quality: Int, lossless: Bool, exif: [UInt8]?, rotation: Int,
        mirror: Int? = nil, tenBit: [UInt16]? = nil, bits: Int = 10, xmp: [UInt8]? = nil, path: String,
        icc: [UInt8]? = nil, nclx: NCLX? = nil
    ) throws(OutputError) -> [UInt8] {
        try FormatLibrary.heif.require(avif ? "AVIF" : "HEIC", output: path)
        let source = image.format.isGray ? image.converted(to: image.format.hasAlpha ? .rgba : .rgb) : image
        func fail(_ what: String, _ e: heif_error? = nil) -> OutputError { failure(what, e, path: path) }
        guard let ctx = fz_heif_context_alloc() else { throw fail("no context") }
        defer { fz_heif_context_free(ctx) }
        var enc: OpaquePointer?
        let err = fz_heif_context_get_encoder_for_format(ctx, avif ? heif_compression_AV1 : heif_compression_HEVC, &enc)
        guard err.code == heif_error_Ok, let enc else { throw fail("no \(avif ? "AV1" : "HEVC") encoder", err) }
        defer { fz_heif_encoder_release(enc) }
        _ = fz_heif_encoder_set_lossy_quality(enc, Int32(quality))
        _ = fz_heif_encoder_set_lossless(enc, lossless ? 1 : 0)
        let img = try makeImage(source, tenBit: tenBit, bits: bits, icc: icc, path: path)
        defer { fz_heif_image_release(img) }
        let handle = try encodeImage(ctx, img, enc, nclx: nclx, path: path)
        defer { fz_heif_image_handle_release(handle) }
        try addMetadata(ctx, handle, exif: exif, xmp: xmp, path: path)
        var bytes = try write(ctx, path: path)
        if rotation != 0 {
            guard let rotated = HEIFBoxes.addingRotation(bytes, degrees: rotation) else {
                throw fail("cannot add the irot box to what libheif wrote")
            }
            bytes = rotated
        }
        if let mirror {
            guard let mirrored = HEIFBoxes.addingMirror(bytes, axis: mirror) else {
                throw fail("cannot add the imir box to what libheif wrote")
            }
            bytes = mirrored
        }
        return bytes
    }

    /// A gray image as a monochrome (4:0:0) HEVC still, as Apple codes its HDR gain maps: the
    /// file libheif writes for it alone, in a context of its own, with no metadata (one `hvc1`
    /// item; libheif 1.15 makes an odd-sized image a grid of one padded tile).
    package static func encodeMonochrome(_ image: Image, quality: Int, lossless: Bool, path: String)
        throws(OutputError) -> [UInt8]
    {
        precondition(image.format == .gray, "a monochrome HEVC image is gray")
        try FormatLibrary.heif.require("HEIC", output: path)
        func fail(_ what: String, _ e: heif_error? = nil) -> OutputError { failure(what, e, path: path) }
        guard let ctx = fz_heif_context_alloc() else { throw fail("no context") }
        defer { fz_heif_context_free(ctx) }
        var enc: OpaquePointer?
        var err = fz_heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &enc)
        guard err.code == heif_error_Ok, let enc else { throw fail("no HEVC encoder", err) }
        defer { fz_heif_encoder_release(enc) }
        _ = fz_heif_encoder_set_lossy_quality(enc, Int32(quality))
        _ = fz_heif_encoder_set_lossless(enc, lossless ? 1 : 0)
        var made: OpaquePointer?
        let (w, h) = (Int32(image.width), Int32(image.height))
        err = fz_heif_image_create(w, h, heif_colorspace_monochrome, heif_chroma_monochrome, &made)
        guard err.code == heif_error_Ok, let img = made else { throw fail("cannot make the gray image", err) }
        defer { fz_heif_image_release(img) }
        err = fz_heif_image_add_plane(img, heif_channel_Y, w, h, 8)
        guard err.code == heif_error_Ok else { throw fail("cannot add the gray plane", err) }
        var stride: Int32 = 0
        guard let plane = fz_heif_image_get_plane(img, heif_channel_Y, &stride) else { throw fail("no gray plane") }
        image.pixels.withUnsafeBytes { p in
            for y in 0..<image.height {
                (plane + y * Int(stride)).update(
                    from: p.baseAddress!.advanced(by: y * image.stride).assumingMemoryBound(to: UInt8.self),
                    count: image.width)
            }
        }
        var handle: OpaquePointer?
        err = fz_heif_context_encode_image(ctx, img, enc, nil, &handle)
        guard err.code == heif_error_Ok, let handle else { throw fail("encoding the gray image failed", err) }
        fz_heif_image_handle_release(handle)
        return try write(ctx, path: path)
    }

    /// The error for a libheif step `what` that failed (with libheif's message, if any).
    private static func failure(_ what: String, _ e: heif_error? = nil, path: String) -> OutputError {
        let message = e.flatMap { $0.message.map { String(cString: $0) } } ?? ""
        return .writeFailed(path: path, reason: "libheif: \(what)\(message.isEmpty ? "" : ": " + message)")
    }

    /// A libheif image of `source` (RGB or RGBA) with its pixels, or `tenBit`'s samples, in
    /// one interleaved plane (`bits` significant bits), and `icc` attached; the caller releases it.
    private static func makeImage(
        _ source: Image, tenBit: [UInt16]?, bits: Int = 10, icc: [UInt8]?, path: String
    ) throws(OutputError) -> OpaquePointer {
        var img: OpaquePointer?
        let alpha = source.format.hasAlpha
        let chroma =
            tenBit == nil
            ? (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            : (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
        var err = fz_heif_image_create(Int32(source.width), Int32(source.height), heif_colorspace_RGB, chroma, &img)
        guard err.code == heif_error_Ok, let img else { throw failure("cannot make the image", err, path: path) }
        // Released here on a failure below; on success the caller's.
        var done = false
        defer { if !done { fz_heif_image_release(img) } }
        err = fz_heif_image_add_plane(
            img, heif_channel_interleaved, Int32(source.width), Int32(source.height), tenBit == nil ? 8 : Int32(bits))
        guard err.code == heif_error_Ok else { throw failure("cannot add the plane", err, path: path) }
        var stride: Int32 = 0
        guard let plane = fz_heif_image_get_plane(img, heif_channel_interleaved, &stride) else {
            throw failure("no plane", path: path)
        }
        copyPixels(source, tenBit: tenBit, to: plane, stride: Int(stride))
        if let icc {
            err = icc.withUnsafeBytes { fz_heif_image_set_raw_color_profile(img, "prof", $0.baseAddress, icc.count) }
            guard err.code == heif_error_Ok else { throw failure("cannot attach the ICC profile", err, path: path) }
        }
        done = true
        return img
    }

    /// Codes `img` into `ctx`, with `nclx` (given both to the image and as the output's, so
    /// libheif converts to YCbCr by its matrix and writes its `colr` box: libheif 1.15 leaves
    /// that box out of HEIC unless told, `macOS_compatibility_workaround_no_nclx_profile`).
    private static func encodeImage(
        _ ctx: OpaquePointer, _ img: OpaquePointer, _ enc: OpaquePointer, nclx: NCLX?, path: String
    ) throws(OutputError) -> OpaquePointer {
        var handle: OpaquePointer?
        var err: heif_error
        if let nclx {
            guard let profile = fz_heif_nclx_color_profile_alloc() else { throw failure("no nclx profile", path: path) }
            defer { fz_heif_nclx_color_profile_free(profile) }
            profile.pointee.color_primaries = heif_color_primaries(rawValue: UInt32(nclx.primaries))
            profile.pointee.transfer_characteristics = heif_transfer_characteristics(rawValue: UInt32(nclx.transfer))
            profile.pointee.matrix_coefficients = heif_matrix_coefficients(rawValue: UInt32(nclx.matrix))
            profile.pointee.full_range_flag = nclx.fullRange ? 1 : 0
            err = fz_heif_image_set_nclx_color_profile(img, profile)
            guard err.code == heif_error_Ok else { throw failure("cannot attach the nclx profile", err, path: path) }
            guard let options = fz_heif_encoding_options_alloc() else {
                throw failure("no encoding options", path: path)
            }
            options.pointee.output_nclx_profile = profile
            options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
            err = fz_heif_context_encode_image(ctx, img, enc, options, &handle)
            // The profile is ours to free (above), not the options'.
            options.pointee.output_nclx_profile = nil
            fz_heif_encoding_options_free(options)
        } else {
            err = fz_heif_context_encode_image(ctx, img, enc, nil, &handle)
        }
        guard err.code == heif_error_Ok, let handle else { throw failure("encoding failed", err, path: path) }
        return handle
    }

    /// Copies `source`'s rows (or `tenBit`'s samples as little-endian 16-bit words) into
    /// libheif's plane, `stride` bytes a row.
    private static func copyPixels(
        _ source: Image, tenBit: [UInt16]?, to plane: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let rowBytes = source.width * source.format.channels
        if let tenBit {
            // Little-endian 16-bit words, 10 significant bits, as RRGGBB_LE says.
            for y in 0..<source.height {
                let row = plane + y * stride
                for k in 0..<rowBytes {
                    let v = tenBit[y * rowBytes + k]
                    row[2 * k] = UInt8(v & 0xFF)
                    row[2 * k + 1] = UInt8(v >> 8)
                }
            }
        } else {
            source.pixels.withUnsafeBytes { p in
                for y in 0..<source.height {
                    (plane + y * stride).update(
                        from: p.baseAddress!.advanced(by: y * rowBytes).assumingMemoryBound(to: UInt8.self),
                        count: rowBytes)
                }
            }
        }
    }

    /// Adds the EXIF and XMP blocks to the encoded image's item.
    private static func addMetadata(
        _ ctx: OpaquePointer, _ handle: OpaquePointer, exif: [UInt8]?, xmp: [UInt8]?, path: String
    ) throws(OutputError) {
        if let exif {
            let err = exif.withUnsafeBytes {
                fz_heif_context_add_exif_metadata(ctx, handle, $0.baseAddress, Int32(exif.count))
            }
            guard err.code == heif_error_Ok else { throw failure("cannot add EXIF", err, path: path) }
        }
        if let xmp {
            let err = xmp.withUnsafeBytes {
                fz_heif_context_add_XMP_metadata(ctx, handle, $0.baseAddress, Int32(xmp.count))
            }
            guard err.code == heif_error_Ok else { throw failure("cannot add XMP", err, path: path) }
        }
    }

    /// The file libheif writes for the context.
    private static func write(_ ctx: OpaquePointer, path: String) throws(OutputError) -> [UInt8] {
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.bytes += UnsafeRawBufferPointer(start: data, count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        let err = withExtendedLifetime(sink) {
            fz_heif_context_write(ctx, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard err.code == heif_error_Ok else { throw failure("writing failed", err, path: path) }
        return sink.bytes
    }
}
