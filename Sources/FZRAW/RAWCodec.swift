// Length: just over 300 lines on purpose: the one Swift file that owns libraw's pointers (the handle,
// its callbacks, the developed image).

import CFZRaw
import CRaw
import FZFormat
import FZSystem
import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// How a camera RAW is developed: libraw's `dcraw_emu -w` (as-shot white balance, libraw's
/// default AHD demosaic (`-q 3`), sRGB output, BT.709 gamma with auto-brightness, the
/// camera's `flip` applied), 8 bits or (`-6`) 16 bits a sample, `half` as `-h`.
struct RAWDevelopSettings: Hashable {
    var half = false
    var bits = 8
    /// Apply the camera's orientation (`-t` unset); `--no-auto-orient` keeps the sensor's.
    var flip = true
    /// The `dcraw_emu` flags that develop the same image (for tests and the bench).
    var dcrawEmuFlags: [String] {
        ["-w", "-q", "3"] + (bits == 16 ? ["-6"] : []) + (half ? ["-h"] : []) + (flip ? [] : ["-t", "0"])
    }
}

/// What libraw's header parse says about a file (`libraw_open_buffer`).
struct RAWFacts: Hashable {
    var make: String
    var model: String
    /// The sensor's stored size (`raw_width` x `raw_height`, masked borders included).
    var rawSize: PixelSize
    /// The visible area libraw develops (`width` x `height`).
    var visibleSize: PixelSize
    /// libraw's (dcraw's) orientation code: 0 none, 3 180°, 5 90° CCW, 6 90° CW...
    var flip: Int
    /// Colour filter pattern (0: no mosaic: a linear DNG, Foveon...).
    var filters: UInt32
    var colors: Int
    /// The DNG version (0 for a maker's own format).
    var dngVersion: UInt32
    /// The embedded preview libraw picked: a JPEG (or of a coding libraw tells only once
    /// unpacked, `LibRawHandle.previewJPEG`), its size and byte count.
    var previewIsJPEG: Bool
    var previewSize: PixelSize
    var previewBytes: Int

    /// The EXIF orientation of libraw's `flip` (dcraw maps EXIF o to "50132467"[o & 7]).
    var orientation: Orientation {
        let exif = [0: 1, 1: 2, 2: 4, 3: 3, 4: 5, 5: 8, 6: 6, 7: 7][flip & 7] ?? 1
        return Orientation(rawValue: exif) ?? .up
    }
}

/// One libraw handle over a file held in memory (every libraw pointer lives in this file).
/// libraw is C++ inside: its C entry points catch its exceptions and return codes, so
/// nothing unwinds through a Swift frame. Its data-error and memory-error callbacks, which
/// print to stderr by default, are ours: they record, and the caller turns the record into
/// one line.
final class LibRawHandle {
    /// What libraw's callbacks reported during the last call.
    final class Events {
        var dataErrors: [String] = []
        var memoryError: String?
    }

    private let raw: UnsafeMutablePointer<libraw_data_t>
    /// Where libraw reads (`RAWInput`: the file mapped, a descriptor of its own, or bytes held).
    private let input: RAWInput
    /// The file's size in bytes.
    var fileSize: Int { input.fileSize }
    private let path: String
    private let events = Events()

    /// Opens `source`: libraw identifies the camera and reads the header only. Bytes held in
    /// memory count against `memoryLimit`.
    convenience init(source: ImageSource, path: String, memoryLimit: Int64) throws(DecodeError) {
        try self.init(
            input: RAWInput(source: source, path: path, memoryLimit: memoryLimit), path: path,
            memoryLimit: memoryLimit)
    }

    /// libraw over `input`: it identifies the camera and reads the header only.
    init(input: RAWInput, path: String, memoryLimit: Int64) throws(DecodeError) {
        self.path = path
        self.input = input
        // What libraw 0.20 would loop on for minutes (PhaseOneDirectory), refused first.
        if let b = input.bytes, let problem = PhaseOneDirectory.problem(b) {
            throw .corruptHeader(path: path, detail: problem)
        }
        guard
            let r = fz_libraw_init(
                UInt32(LIBRAW_OPIONS_NO_MEMERR_CALLBACK.rawValue | LIBRAW_OPIONS_NO_DATAERR_CALLBACK.rawValue))
        else {
            throw .readFailed(path: path, reason: "libraw could not allocate its decoder")
        }
        raw = r
        // The handle lives no longer than `events`: both are this object's.
        let context = Unmanaged.passUnretained(events).toOpaque()
        fz_libraw_set_dataerror_handler(
            r,
            { data, _, offset in
                guard let data else { return }
                let events = Unmanaged<Events>.fromOpaque(data).takeUnretainedValue()
                events.dataErrors.append(
                    offset < 0 ? "the raw data ends early" : "the raw data is corrupt at byte \(offset)")
            }, context)
        fz_libraw_set_memerror_handler(
            r,
            { data, _, place in
                guard let data else { return }
                let events = Unmanaged<Events>.fromOpaque(data).takeUnretainedValue()
                events.memoryError = place.map { String(cString: $0) } ?? "libraw"
            }, context)
        // libraw's own cap on the raw buffer it allocates (0.20: `max_raw_memory_mb`), from
        // our budget; ours is checked first, this guards what the header hides.
        if memoryLimit > 0 {
            r.pointee.params.max_raw_memory_mb = UInt32(clamping: max(1, memoryLimit >> 20))
        }
        try reopen(RAWDevelopSettings())
    }

    deinit { fz_libraw_close(raw) }

    /// Whether the handle holds a header just read, nothing run on it since: settings can be
    /// changed without reading it again (each read of a DNG's header walks its IFDs; a
    /// thumbnail read it six times, about a tenth of its time).
    private var fresh = false
    /// Whether `libraw_unpack_thumb` may run on the header read last: true from a read until a
    /// thumbnail or a develop ran. `adjust_sizes_info_only` (`developedSize`) keeps it: it
    /// sets only libraw's size and flip steps, which unpack_thumb does not check (unpack
    /// does), so a RAW thumbnail reads its header once, not twice (a DNG's open and the
    /// recycles around it: 3.5 M of a 96 M-instruction thumbnail; issue 51).
    private var thumbnailReadable = false
    /// Whether libraw has opened the input before (`reopen` recycles only then).
    private var opened = false

    /// (Re)reads the header with `settings`: libraw forgets any earlier decode first. A
    /// header just read is kept, only the settings set.
    func reopen(_ settings: RAWDevelopSettings) throws(DecodeError) {
        events.dataErrors = []
        events.memoryError = nil
        if fresh {
            apply(settings)
            return
        }
        // An open's data stream is libraw's (`new`ed in open_file); a second open without
        // recycle leaks the first (LeakSanitizer: 64 bytes and a 4 KB buffer per reopen).
        // The first open has none to free, and libraw_init left nothing to clear: a recycle
        // there only cleared libraw's large state once more (0.4 M of a 90 M-instruction
        // DNG thumbnail; issue 51).
        if opened { fz_libraw_recycle(raw) }
        opened = true
        let status: Int32
        switch input.storage {
        case .descriptor(let fd): status = fz_libraw_open_file(raw, "/proc/self/fd/\(fd)")
        // libraw's buffer stream only reads: the mapping is PROT_READ.
        case .mapped(let b), .bytes(let b): status = fz_libraw_open_buffer(raw, b.baseAddress, b.count)
        }
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(status, doing: "read the header", header: true) }
        fresh = true
        thumbnailReadable = true
        apply(settings)
    }

    /// libraw's parameters for `settings`, read when it unpacks and develops.
    private func apply(_ settings: RAWDevelopSettings) {
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.user_qual = 3
        raw.pointee.params.output_color = 1  // sRGB
        raw.pointee.params.output_bps = Int32(settings.bits)
        raw.pointee.params.half_size = settings.half ? 1 : 0
        raw.pointee.params.user_flip = settings.flip ? -1 : 0
    }

    /// The header's facts (after `reopen`).
    var facts: RAWFacts {
        let p = raw.pointee
        func text<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { b in
                var s = Substring(String(decoding: b.prefix { $0 != 0 }, as: UTF8.self))
                while s.last == " " { s = s.dropLast() }
                return String(s)
            }
        }
        return RAWFacts(
            make: text(p.idata.make), model: text(p.idata.model),
            rawSize: PixelSize(width: Int(p.sizes.raw_width), height: Int(p.sizes.raw_height)),
            visibleSize: PixelSize(width: Int(p.sizes.width), height: Int(p.sizes.height)),
            flip: Int(p.sizes.flip), filters: p.idata.filters, colors: Int(p.idata.colors),
            dngVersion: p.idata.dng_version,
            // libraw learns the preview's coding only in unpack_thumb: a candidate here.
            previewIsJPEG: p.thumbnail.tlength > 0 && p.thumbnail.tformat != LIBRAW_THUMBNAIL_BITMAP
                && p.thumbnail.tformat != LIBRAW_THUMBNAIL_BITMAP16,
            previewSize: PixelSize(width: Int(p.thumbnail.twidth), height: Int(p.thumbnail.theight)),
            previewBytes: Int(p.thumbnail.tlength))
    }

    /// The size the developed image will have with `settings` (libraw's own sums: half size,
    /// pixel aspect, Fuji's rotation, the flip). Leaves the handle for information only: the next call reads the header again.
    func developedSize(_ settings: RAWDevelopSettings) throws(DecodeError) -> PixelSize {
        try reopen(settings)
        fresh = false  // adjust_sizes_info_only leaves the handle for information only
        let status = fz_libraw_adjust_sizes_info_only(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(status, doing: "size the image", header: true) }
        return PixelSize(width: Int(raw.pointee.sizes.iwidth), height: Int(raw.pointee.sizes.iheight))
    }

    /// The half-size develop's size, given the full one's (`developedSize` of the same
    /// flip, just before): each side halved, rounded up, as libraw shrinks a mosaic, where
    /// no pixel aspect or Fuji rotation stretches it; else libraw's own sums. After a
    /// half-size `adjust_sizes_info_only`, libraw 0.20-0.21 keeps the shrink for one more
    /// call (a recycle does not reset it): a Kodak C330's full develop came out 2334x1742
    /// against the 2335x1743 sized; a full-size sizing after it takes that call.
    func halfDevelopedSize(full: PixelSize, flip: Bool) throws(DecodeError) -> PixelSize {
        let p = raw.pointee
        if abs(p.sizes.pixel_aspect - 1) < 0.005, !facts.make.lowercased().hasPrefix("fuji") {
            return PixelSize(width: (full.width + 1) >> 1, height: (full.height + 1) >> 1)
        }
        let half = try developedSize(RAWDevelopSettings(half: true, flip: flip))
        _ = try developedSize(RAWDevelopSettings(flip: flip))
        return half
    }

    /// Unpacks and develops the image with `settings` (the handle re-opened first); libraw's
    /// own buffers (raw samples, its 4-channel image) are freed before this returns, so only
    /// the developed pixels stay.
    func develop(_ settings: RAWDevelopSettings, lenient: Bool) throws(DecodeError) -> (
        RAWDevelopedImage, warnings: [String]
    ) {
        try reopen(settings)
        fresh = false
        thumbnailReadable = false
        defer { fz_libraw_recycle(raw) }
        var status = fz_libraw_unpack(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(status, doing: "unpack", header: false) }
        var warnings: [String] = []
        if let stub = stubReason() {
            guard lenient else { throw .corrupt(path: path, detail: stub) }
            warnings.append(stub)
        }
        status = fz_libraw_dcraw_process(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(status, doing: "develop", header: false) }
        if let first = events.dataErrors.first {
            let detail = "libraw: \(first); what it developed is not the photo"
            guard lenient else { throw .corrupt(path: path, detail: detail) }
            warnings.append(detail)
        }
        var code: Int32 = 0
        guard let image = fz_libraw_dcraw_make_mem_image(raw, &code) else {
            throw error(code == 0 ? LIBRAW_UNSUFFICIENT_MEMORY.rawValue : code, doing: "make the image", header: false)
        }
        let developed = RAWDevelopedImage(image)
        let p = image.pointee
        guard p.type == LIBRAW_IMAGE_BITMAP, p.colors == 3, Int(p.bits) == settings.bits,
            Int(p.data_size) >= developed.pixels.count
        else {
            throw .corrupt(path: path, detail: "libraw developed \(p.colors) channels of \(p.bits) bits, not RGB")
        }
        if settings.bits == 16 {  // libraw's 16-bit samples are host-endian; our deep rows big-endian
            let s = developed.pixels.bindMemory(to: UInt16.self)
            for i in s.indices { s[i] = s[i].bigEndian }
        }
        return (developed, warnings)
    }

    /// Why the unpacked raw data cannot be a photo: a stub whose image data was removed
    /// (libraw develops those to black or noise without an error), found as every sensor
    /// value alike; nil when it varies.
    private func stubReason() -> String? {
        let p = raw.pointee
        let count = Int(p.sizes.raw_width) * Int(p.sizes.raw_height)
        guard count > 0, let samples = p.rawdata.raw_image else { return nil }
        let first = samples[0]
        for i in 0..<count where samples[i] != first { return nil }
        return "every raw sample is \(first): the file holds no image data (a stub, or the data was cut)"
    }

    /// The embedded preview's bytes (`libraw_unpack_thumb`): a JPEG, or nil when the file
    /// has none libraw can give.
    func previewJPEG() throws(DecodeError) -> [UInt8]? {
        guard facts.previewIsJPEG else { return nil }
        if !thumbnailReadable { try reopen(RAWDevelopSettings()) }  // a develop before recycles the handle
        fresh = false
        thumbnailReadable = false
        defer { fz_libraw_recycle(raw) }
        let status = fz_libraw_unpack_thumb(raw)
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(status, doing: "read the preview", header: false) }
        let t = raw.pointee.thumbnail
        guard t.tformat == LIBRAW_THUMBNAIL_JPEG, let data = t.thumb, t.tlength > 0 else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: Int(t.tlength)))
    }

    /// A libraw status as one of our errors naming the file.
    private func error(_ status: Int32, doing: String, header: Bool) -> DecodeError {
        let what = String(cString: fz_libraw_strerror(status))
        if let memory = events.memoryError {
            return .corrupt(
                path: path, detail: "libraw ran out of memory in \(memory) (sizes beyond what it allocates)")
        }
        switch status {
        case LIBRAW_FILE_UNSUPPORTED.rawValue:
            return .unsupportedVariant(path: path, what: "camera RAW: libraw cannot \(doing) (\(what))")
        case LIBRAW_TOO_BIG.rawValue, LIBRAW_UNSUFFICIENT_MEMORY.rawValue:
            return .corrupt(path: path, detail: "libraw cannot \(doing): \(what) (sizes beyond what it allocates)")
        case LIBRAW_IO_ERROR.rawValue:
            return header
                ? .truncatedHeader(path: path, detail: "libraw cannot \(doing): \(what)")
                : .truncated(path: path, detail: "libraw cannot \(doing): the raw data ends early")
        default:
            return header
                ? .corruptHeader(path: path, detail: "libraw cannot \(doing): \(what)")
                : .corrupt(path: path, detail: "libraw cannot \(doing): \(what)")
        }
    }
}

/// A developed image as libraw made it (`libraw_dcraw_make_mem_image`), rows read in place
/// and freed with it.
final class RAWDevelopedImage {
    private let image: UnsafeMutablePointer<libraw_processed_image_t>
    let size: PixelSize
    /// The samples, rows packed: 3 a pixel, 1 or 2 bytes each.
    let pixels: UnsafeMutableRawBufferPointer

    fileprivate init(_ image: UnsafeMutablePointer<libraw_processed_image_t>) {
        self.image = image
        let p = image.pointee
        size = PixelSize(width: Int(p.width), height: Int(p.height))
        // libraw's data[1] is the start of data_size bytes (a C flexible array).
        let start = UnsafeMutableRawPointer(image).advanced(
            by: MemoryLayout<libraw_processed_image_t>.offset(of: \.data)!)
        let count = min(Int(p.data_size), Int(p.width) * Int(p.height) * Int(p.colors) * Int(p.bits) / 8)
        pixels = UnsafeMutableRawBufferPointer(start: start, count: count)
    }

    deinit { fz_libraw_dcraw_clear_mem(image) }
}
