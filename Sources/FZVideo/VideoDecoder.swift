import CFZVideo
import FZFormat
import FZImage
import FZSystem
import Geometry

/// Videos through FFmpeg (`FFmpegVideo` owns its pointer): MP4, MOV, M4V and 3GP (ISO media),
/// Matroska and WebM, and AVI; H.264, HEVC (8 and 10-bit), VP9, AV1 and whatever Debian's
/// libavcodec decodes. One picture per video: the poster (`VideoPoster` says how it is chosen)
/// or the frame at `DecodeOptions.videoTime` (`--time`).
///
/// The header (`init`) opens the container and reads the stream's parameters only, nothing
/// decoded: `info` and a caller that wants only the facts (a motion photo's clip: build one on
/// `ImageSource(bytes:name:)` and read `details`) stop there.
///
/// Geometry: `storedSize` is the coded size with the sample aspect ratio applied to the width
/// (720x480 at 32:27 is 853x480), as FFmpeg's `scale=iw*sar:ih` shows it; the display matrix's
/// rotation and mirroring are `orientationValue`, an EXIF orientation that `ImageReader`
/// applies as a JPEG's, so `--no-auto-orient` shows the stored frame. Reductions: any 1/d, as
/// swscale scales straight to the size the output needs (the reader picks the smallest at
/// least that size), from the decoded frame through the stream's matrix and range.
/// HDR (PQ or HLG transfer) is mapped to SDR 8-bit (`VideoTone`).
package final class VideoDecoder: ImageDecoder {
    package static let registration = InputFormatInfo(
        format: .video, names: ["MP4/MOV/MKV/WebM/AVI video"],
        extensions: ["mp4", "m4v", "mov", "qt", "3gp", "3g2", "mkv", "webm", "avi"], capabilities: [.movingPictures],
        reportedNames: VideoDetails.containerNames, library: .ffmpeg)

    /// ISO media with a video brand (`ftyp` at 4), an old QuickTime movie that starts with one
    /// of its atoms, Matroska/WebM's EBML magic, RIFF AVI.
    package static func sniff(_ head: [UInt8]) -> Bool {
        func ascii(_ s: String, at offset: Int) -> Bool {
            let m = Array(s.utf8)
            return head.count >= offset + m.count && Array(head[offset..<(offset + m.count)]) == m
        }
        if ascii("ftyp", at: 4) && head.count >= 12 {
            return videoBrands.contains(String(decoding: head[8..<12], as: UTF8.self))
        }
        if ["moov", "mdat", "wide", "pnot"].contains(where: { ascii($0, at: 4) }) && head[0] == 0 { return true }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }
        return ascii("RIFF", at: 0) && ascii("AVI ", at: 8)
    }

    /// ISO media major brands of video files (phones write `qt  `, `isom`, `mp42`, `3gp4`...);
    /// HEIF's image brands are the HEIF decoder's, audio brands (M4A) stay audio.
    static let videoBrands: Set<String> = [
        "qt  ", "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V ", "M4VH", "M4VP", "MSNV",
        "XAVC", "3gp4", "3gp5", "3gp6", "3gp7", "3g2a", "f4v ",
    ]

    private let video: FFmpegVideo
    private let path: String
    private let options: DecodeOptions
    private let info: VideoDetails
    private var output: ZeroedBuffer?
    private var layout = RowLayout(firstColumn: 0, width: 0, height: 0)
    private var next = 0
    package private(set) var warnings: [String] = []

    package init(source: ImageSource, options: DecodeOptions) throws(DecodeError) {
        path = source.name
        self.options = options
        try Self.registration.requireLibrary(path: path)
        var limits = VideoLimits(maxPixels: options.maxPixels, threads: max(1, options.threads))
        limits.frameThreads = options.videoTime != nil
        limits.keyframeProbe = options.videoTime == nil && !options.headerOnly
        video = try FFmpegVideo(source: source, limits: limits)
        info = VideoDetails(facts: video.facts)
        // Every size from the container against the budget before anything is decoded.
        try options.checkPixels(info.codedSize, path: path)
        try options.checkPixels(storedSize, path: path)
        // And the decoder's frames against the memory budget, from the header as every decoder
        // does, before a frame is decoded (`begin` adds the output's rows).
        try options.checkMemory(Self.decoderBytes(info, threads: options.threads), path: path)
        if let t = options.videoTime, info.duration > 0, t > info.duration {
            throw .unsupportedVariant(
                path: path, what: "--time \(t): the video lasts \(VideoDetails.seconds(info.duration)) s")
        }
    }

    /// The decoder's frames: a reference set of up to 16, and one a thread.
    static func decoderBytes(_ info: VideoDetails, threads: Int) -> Int64 {
        let sample = info.bitDepth > 8 ? 2 : 1
        return Int64(info.codedSize.area) * Int64(sample) * 3 * Int64(18 + threads)
    }

    /// The coded size with the sample aspect ratio applied to the width.
    package var storedSize: PixelSize { info.displaySize }
    package var pixelFormat: PixelFormat { .rgb }
    package var bitDepth: Int { 8 }
    package var exif: [UInt8]? { nil }
    package var orientationValue: Int? { info.orientation > 1 ? info.orientation : nil }
    package var color: ColorDescription { ColorDescription() }
    package var details: any CodecDetails { info }
    /// Any 1/d up to 1/64: swscale scales to any size.
    package var denominators: [Int] { Array(1...64) }
    package func scaledSize(denominator: Int) -> PixelSize {
        let s = storedSize
        return PixelSize(
            width: (s.width + denominator - 1) / denominator, height: (s.height + denominator - 1) / denominator)
    }

    package func begin(denominator: Int, columns: Range<Int>?) throws(DecodeError) -> RowLayout {
        let size = scaledSize(denominator: denominator)
        let hdr = info.transfer != .sdr
        let rows = Int64(size.area) * (hdr ? 9 : 3)
        try options.checkMemory(Self.decoderBytes(info, threads: options.threads) + rows, path: path)
        if let t = options.videoTime {
            _ = try video.frame(at: t, keyframe: false, path: path)
        } else {
            // A poster at a quarter of the frame or less: the loop filters' edge pixels average out.
            video.setFast(denominator >= 4)
            let poster = try VideoPoster.choose(video, duration: info.duration, path: path)
            if let note = poster.note { warnings.append(note) }
        }
        guard let out = ZeroedBuffer(count: Int(size.area) * 3) else {
            throw .readFailed(path: path, reason: "out of memory for the \(size.width)x\(size.height) frame")
        }
        if hdr {
            guard let deep = ZeroedBuffer(count: Int(size.area) * 6) else {
                throw .readFailed(path: path, reason: "out of memory for the \(size.width)x\(size.height) frame")
            }
            try video.render(width: size.width, height: size.height, deep: true, into: deep.bytes, path: path)
            VideoTone(transfer: info.transfer, primaries: info.primaries).map(deep.bytes, into: out.bytes)
        } else {
            try video.render(width: size.width, height: size.height, deep: false, into: out.bytes, path: path)
        }
        output = out
        layout = RowLayout(firstColumn: 0, width: size.width, height: size.height)
        return layout
    }

    package func skip(rows: Int) throws(DecodeError) { next = min(layout.height, next + max(0, rows)) }

    package func read(into buffer: UnsafeMutableRawBufferPointer, rows: Int) throws(DecodeError) -> Int {
        let n = min(rows, layout.height - next)
        guard n > 0, let output else { return 0 }
        let rowBytes = layout.width * 3
        buffer.baseAddress!.copyMemory(
            from: output.bytes.baseAddress!.advanced(by: next * rowBytes), byteCount: n * rowBytes)
        next += n
        return n
    }
}

extension ImageFormat {
    public static let video = ImageFormat(rawValue: "video")
}
