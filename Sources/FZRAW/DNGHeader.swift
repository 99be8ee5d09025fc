import Geometry

/// What libraw would find in a DNG's header for a thumbnail from its JPEG preview, read
/// without libraw (issue 51): opening libraw_r (its dlopen alone 1.6-2 ms, then its header
/// parse) was a sixth of a DNG thumbnail's time. Only the plain case is read here: IFD0
/// (DNGVersion, Make, Orientation), its chain and their SubIFDs, one raw image (NewSubFileType
/// 0, a 2x2 colour filter array or 3-sample linear raw of 8 to 16 bits, uncompressed, lossless
/// or lossy JPEG), every other IFD an 8-bit, 3-sample preview (NewSubFileType 1), the largest
/// of them a JPEG in one piece. Anything else is nil, and libraw reads the file as before: no
/// JPEG preview, two largest alike, DefaultScale other than 1, orientations that differ
/// between IFDs, SubIFDs of SubIFDs, an offset outside the file, a maker note in the EXIF IFD
/// (libraw's maker-note parsers find previews and orientations of their own there), and the
/// makers whose DNG sizes libraw adjusts (Fujifilm, Pentax, Samsung, Olympus).
///
/// The rules are libraw 0.20's (apply_tiff, identify): the raw image is the first IFD of
/// NewSubFileType 0 holding a CFA or linear raw, its size ImageWidth x ImageLength, the
/// visible area its ActiveArea (DefaultCrop applies only under an option we do not set); the
/// preview the IFD of the greatest width x height / (bits² + 1), the first of equals; the
/// flip dcraw's "50132467"[Orientation & 7] of the first IFD whose flip is not 0. RAWDecoder
/// checks them against libraw's when it opens libraw to develop, and DNGHeaderTests over
/// every DNG the tests have.
struct DNGHeader {
    /// libraw's facts as its open would give them.
    var facts: RAWFacts
    /// Where the preview libraw's unpack_thumb picks is in the file.
    var previewOffset: Int

    /// The IFDs read at the most (IFD0's chain and their SubIFDs): libraw 0.20 keeps 10
    /// (LIBRAW_IFD_MAXCOUNT) and stops reading at the 11th, or at an IFD of over 512 entries.
    static let maxIFDs = 10
    static let maxEntries = 512

    /// One IFD's tags this reads.
    private struct IFD {
        var subfile = 0, width = 0, height = 0, bits = 0, samples = 1, compression = 0, photometric = 0
        var orientation: Int?
        var offset: Int?, length: Int?, strips = 1, tiled = false
        var activeArea: [Int]?, defaultScale: [(Int, Int)]?, subIFDs: [Int] = []
        var dngVersion: [Int]?, make = "", model = ""
        var cfaDims: [Int]?, cfaPattern: [Int]?, exifIFD: Int?
        /// libraw's weight when it picks the raw image and the preview (apply_tiff).
        var weight: Int { width * height / (bits * bits + 1) }
    }

    static func read(_ bytes: UnsafeRawBufferPointer) -> DNGHeader? {
        guard let tiff = TIFFWalk(bytes), let ifds = walk(tiff), let ifd0 = ifds.first,
            let version = ifd0.dngVersion, version.count == 4, !ifd0.make.lowercased().contains("fuji"),
            let orientation = ifd0.orientation, (1...8).contains(orientation),
            ifds.allSatisfy({ $0.orientation == nil || $0.orientation == orientation }),
            !ifd0.make.isEmpty,
            !["fuji", "pentax", "samsung", "olympus"].contains(where: ifd0.make.lowercased().contains),
            // libraw reads a head with these in its first 32 bytes as another format (IIQ).
            !has(bytes, "MMMM"), !has(bytes, "IIII"), !exifMakerNote(tiff, ifd0)
        else { return nil }
        let raws = ifds.filter { $0.subfile == 0 && [32803, 34892].contains($0.photometric) }
        guard raws.count == 1, let raw = raws.first, [1, 7, 34892].contains(raw.compression),
            (8...16).contains(raw.bits),
            raw.samples == (raw.photometric == 32803 ? 1 : 3), (22..<65536).contains(raw.width),
            (22..<65536).contains(raw.height)
        else { return nil }
        // A mosaic's pattern, 2x2 of red, green and blue (without one libraw takes no mosaic).
        if raw.photometric == 32803 {
            guard raw.cfaDims == [2, 2], let p = raw.cfaPattern, p.count == 4, Set(p) == [0, 1, 2] else { return nil }
        }
        let others = ifds.filter { !($0.subfile == 0 && [32803, 34892].contains($0.photometric)) }
        guard
            others.allSatisfy({
                $0.subfile == 1 && $0.bits == 8 && $0.samples == 3 && $0.width > 0 && $0.height > 0
                    && $0.width < 65536 && $0.height < 65536 && ![32803, 34892].contains($0.photometric)
            })
        else { return nil }
        // libraw's preview: the greatest weight, the first of equals; a tie is left to libraw.
        guard let best = others.max(by: { $0.weight < $1.weight }),
            others.filter({ $0.weight == best.weight }).count == 1, [6, 7].contains(best.compression),
            [2, 6].contains(best.photometric), best.strips == 1, !best.tiled,
            let offset = best.offset, let length = best.length, offset >= 8, length > 2,
            length <= RAWPreviewDecoder.previewLimit, offset <= bytes.count - length,
            bytes[offset] == 0xFF, bytes[offset + 1] == 0xD8
        else { return nil }
        var visible = PixelSize(width: raw.width, height: raw.height)
        if let area = raw.activeArea {
            // top, left, bottom, right
            guard area.count == 4, area[0] < area[2], area[1] < area[3], area[2] <= raw.height, area[3] <= raw.width,
                area[2] - area[0] >= 22, area[3] - area[1] >= 22
            else { return nil }
            visible = PixelSize(width: area[3] - area[1], height: area[2] - area[0])
        }
        // libraw's pixel aspect, from a DefaultScale in any IFD.
        for scale in ifds.compactMap(\.defaultScale) {
            guard scale.count == 2, scale.allSatisfy({ $0.0 > 0 && $0.0 == $0.1 }) else { return nil }
        }
        let flip = Int(Array("50132467".utf8)[orientation & 7] - 0x30)
        let facts = RAWFacts(
            make: ifd0.make, model: ifd0.model,
            rawSize: PixelSize(width: raw.width, height: raw.height), visibleSize: visible,
            flip: flip, filters: raw.photometric == 32803 ? 1 : 0, colors: 3,
            dngVersion: UInt32(version[0] << 24 | version[1] << 16 | version[2] << 8 | version[3]),
            previewIsJPEG: true, previewSize: PixelSize(width: best.width, height: best.height), previewBytes: length)
        return DNGHeader(facts: facts, previewOffset: offset)
    }

    private static func has(_ bytes: UnsafeRawBufferPointer, _ mark: String) -> Bool {
        let m = Array(mark.utf8)
        return (0...(min(32, bytes.count) - m.count)).contains { i in
            (0..<m.count).allSatisfy { bytes[i + $0] == m[$0] }
        }
    }

    /// Whether IFD0's EXIF IFD holds a MakerNote (37500), or cannot be read.
    private static func exifMakerNote(_ tiff: TIFFWalk, _ ifd0: IFD) -> Bool {
        guard let at = ifd0.exifIFD else { return false }
        guard let (entries, _) = tiff.ifd(at: at) else { return true }
        return entries.contains { $0.tag == 37500 }
    }

    /// IFD0's chain and each one's SubIFDs, in libraw's order (an IFD, then its SubIFDs); nil
    /// on a loop, an IFD outside the file, more than `maxIFDs`, or SubIFDs below a SubIFD.
    private static func walk(_ tiff: TIFFWalk) -> [IFD]? {
        var out: [IFD] = []
        var seen: Set<Int> = []
        var next = tiff.firstIFD
        while next != 0 {
            guard out.count < maxIFDs, seen.insert(next).inserted, let (ifd, following) = read(tiff, at: next)
            else { return nil }
            out.append(ifd)
            for sub in ifd.subIFDs {
                guard out.count < maxIFDs, seen.insert(sub).inserted, let (child, _) = read(tiff, at: sub),
                    child.subIFDs.isEmpty
                else { return nil }
                out.append(child)
            }
            next = following
        }
        return out
    }

    private static func read(_ tiff: TIFFWalk, at offset: Int) -> (IFD, Int)? {
        guard let (entries, next) = tiff.ifd(at: offset), entries.count <= maxEntries else { return nil }
        var d = IFD()
        for e in entries {
            // libraw reads offsets and lengths as LONGs whatever their type, and tags below
            // NewSubFileType as Panasonic's or EXIF's: such IFDs are left to it.
            if e.tag < 254 || ([273, 279, 513, 514].contains(e.tag) && e.type != 4) { return nil }
            switch e.tag {
            case 254: d.subfile = tiff.integer(e) ?? -1
            case 256: d.width = tiff.integer(e) ?? 0
            case 257: d.height = tiff.integer(e) ?? 0
            // As libraw: the samples BitsPerSample counts, unless SamplesPerPixel (after it) says.
            case 258:
                d.bits = tiff.integer(e) ?? 0
                d.samples = e.count & 7
            case 259: d.compression = tiff.integer(e) ?? 0
            case 262: d.photometric = tiff.integer(e) ?? 0
            case 274: d.orientation = tiff.integer(e) ?? -1
            case 277: d.samples = (tiff.integer(e) ?? 0) & 7
            // libraw takes the later of StripOffsets and JPEGInterchangeFormat (tag order).
            case 273, 513:
                d.offset = tiff.integer(e)
                d.strips = e.count
            case 279, 514:
                d.length = tiff.integer(e)
                if e.count != 1 { d.strips = e.count }
            case 322, 323, 324, 325: d.tiled = true
            case 330:
                guard let subs = tiff.integers(e, limit: maxIFDs) else { return nil }
                d.subIFDs = subs
            case 271: d.make = tiff.text(e) ?? ""
            case 272: d.model = tiff.text(e) ?? ""
            case 50706: d.dngVersion = tiff.integers(e, limit: 4)
            case 33421: d.cfaDims = tiff.integers(e, limit: 2)
            case 33422: d.cfaPattern = tiff.integers(e, limit: 4)
            case 34665: d.exifIFD = tiff.integer(e) ?? -1
            case 50718: d.defaultScale = tiff.rationals(e) ?? []
            case 50829: d.activeArea = tiff.integers(e, limit: 4) ?? []
            default: break
            }
        }
        return (d, next)
    }
}
