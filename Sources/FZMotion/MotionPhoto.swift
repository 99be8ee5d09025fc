import FZSystem

/// A motion photo's clip: the MP4 a Google or Samsung camera stores inside the photo, found
/// where the photo's metadata says it is and checked to be an MP4 (`ftyp`) there.
///
/// The four forms, in the order looked for:
/// - Google's Motion Photo XMP: `Container:Directory`, an `Item:Semantic="MotionPhoto"` item
///   with `Item:Length` (and `Item:Padding`); items after the primary are laid end to end at
///   the end of the file, so the clip starts at the file's size minus its length and the
///   lengths (and paddings) of the items after it.
/// - Google's older `GCamera:MicroVideo="1"` with `GCamera:MicroVideoOffset`: the clip is the
///   file's last MicroVideoOffset bytes.
/// - Samsung's trailer: a directory ending the file with "SEFT", whose `MotionPhoto_Data`
///   entry (type 0x0a30) holds the clip after its name (as exiftool's EmbeddedVideoFile).
/// - HEIF: a top-level `mpvd` box (Samsung, and Google's HEIC form), the clip its payload.
package struct MotionClip: Equatable, Sendable {
    package enum Source: String, Sendable {
        case googleContainer = "Google motion photo XMP"
        case microVideo = "Google MicroVideo XMP"
        case samsungTrailer = "Samsung trailer"
        case heifBox = "HEIF mpvd box"
    }

    package var source: Source
    /// Where the clip's first byte is in the photo's file.
    package var offset: Int
    package var length: Int
    /// What the clip's MP4 says of itself (nil when it has no readable `moov`).
    package var movie: MovieFacts?
}

package enum MotionPhoto {
    /// What a photo says of its clip.
    package enum Probe: Equatable, Sendable {
        case none
        case found(MotionClip)
        /// The photo announces a clip that is not where it says (a length that lies, an
        /// offset past the end, no MP4 there): why.
        case malformed(String)
    }

    /// The clip of the photo in `window`, whose XMP packet is `xmp`.
    package static func probe(xmp: [UInt8]?, window: ByteWindow, budget: Budget) -> Probe {
        var problem: String?
        if let xmp, let said = MotionXMP.clip(xmp, fileLength: window.length) {
            switch said {
            case .success(let c):
                switch checked(c, window, budget) {
                case .success(let clip): return .found(clip)
                case .failure(let why): problem = why.description
                }
            case .failure(let why): problem = why.description
            }
        }
        if let c = samsungTrailer(window) ?? heifBox(window), case .success(let clip) = checked(c, window, budget) {
            return .found(clip)
        }
        return problem.map { .malformed($0) } ?? .none
    }

    /// The clip if an MP4 starts where it is said to: within the file, `ftyp` first.
    static func checked(_ c: MotionClip, _ w: ByteWindow, _ budget: Budget) -> Result<MotionClip, MotionXMP.Failure> {
        guard c.offset >= 0, c.length >= 8, c.offset <= w.length - c.length else {
            return .failure(
                MotionXMP.Failure(
                    "the \(c.source.rawValue) puts the clip at \(c.offset), \(c.length) bytes, outside the file's \(w.length)"
                ))
        }
        guard let head = w.bytes(at: c.offset, count: 8), head.fourCC(at: 4) == "ftyp",
            let clipWindow = w.window(c.offset..<(c.offset + c.length))
        else {
            return .failure(MotionXMP.Failure("the \(c.source.rawValue) points at \(c.offset), where no MP4 starts"))
        }
        var clip = c
        clip.movie = MovieFacts.read(clipWindow, budget: budget)
        return .success(clip)
    }

    /// The Samsung trailer's motion clip: the file ends with a 32-bit little-endian length
    /// and "SEFT"; that many bytes before them are the directory ("SEFH", version, count,
    /// then 12 bytes an entry: type, distance back from the directory, size).
    static func samsungTrailer(_ w: ByteWindow) -> MotionClip? {
        let end = w.length
        guard end >= 8, let tail = w.bytes(at: end - 8, count: 8), tail.fourCC(at: 4) == "SEFT",
            let len = tail.uint32LE(at: 0), len >= 12, len < 0x10000, len <= end - 8,
            let dir = w.bytes(at: end - 8 - len, count: len), dir.fourCC(at: 0) == "SEFH",
            let count = dir.uint32LE(at: 8), count <= (len - 12) / 12
        else { return nil }
        let dirPos = end - 8 - len
        for k in 0..<count {
            let e = 12 + 12 * k
            guard let word = dir.uint32LE(at: e), let back = dir.uint32LE(at: e + 4),
                let size = dir.uint32LE(at: e + 8),
                back <= dirPos, size <= back, size >= 8
            else { return nil }
            let start = dirPos - back
            guard let head = w.bytes(at: start, count: 8), let nameLength = head.uint32LE(at: 4), nameLength <= 256,
                nameLength + 8 <= size
            else { continue }
            let name = w.bytes(at: start + 8, count: nameLength).map { String(decoding: $0, as: UTF8.self) }
            if word >> 16 == 0x0A30 || name == "MotionPhoto_Data" {
                return MotionClip(
                    source: .samsungTrailer, offset: start + 8 + nameLength, length: size - 8 - nameLength)
            }
        }
        return nil
    }

    /// A HEIF's top-level `mpvd` box.
    static func heifBox(_ w: ByteWindow) -> MotionClip? {
        guard let head = w.bytes(at: 0, count: min(8, w.length)), head.fourCC(at: 4) == "ftyp",
            let box = ISOBox.first("mpvd", in: 0..<w.length, of: w)
        else { return nil }
        return MotionClip(source: .heifBox, offset: box.payload.lowerBound, length: box.payload.count)
    }
}

extension MotionPhoto {
    /// The clip of the photo at `path` (nil when none is found, or the file cannot be opened
    /// by name, as standard input): what an output says it dropped.
    package static func clip(path: String, xmp: [UInt8]?, budget: Budget) -> MotionClip? {
        guard case .success(let file) = CFile.open(readingFrom: path), let window = ByteWindow(file: file),
            case .found(let clip) = probe(xmp: xmp, window: window, budget: budget)
        else { return nil }
        return clip
    }

    /// Why every output drops the clip: what `--json` says beside `"motionPhoto":"dropped"`.
    package static func droppedNote(_ clip: MotionClip, lossless: Bool = false) -> String {
        let what = "the \(clip.length)-byte clip (\(clip.source.rawValue))"
        return lossless
            ? "\(what) is not copied: crop --lossless copies the JPEG's blocks and markers, not what follows its end"
            : "\(what) is not in the output: an output is a new still, and its XMP no longer announces a clip"
    }
}
