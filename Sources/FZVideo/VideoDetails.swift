import CFZVideo
import FZFormat
import FZSystem
import Geometry

/// What a video's container and stream parameters say, for `info` (text and `--json`) and for
/// a caller that wants a clip's facts without its pixels (nothing is decoded to get them).
public struct VideoDetails: Hashable, Sendable {
    /// The transfer function, as `info` names it.
    public enum Transfer: String, Sendable {
        case sdr
        /// SMPTE ST 2084 (H.273 transfer 16).
        case pq
        /// ARIB STD-B67 hybrid log-gamma (H.273 transfer 18).
        case hlg
    }

    /// The size as coded.
    public var codedSize: PixelSize
    /// The sample aspect ratio (1:1 for square pixels).
    public var sampleAspect: (Int, Int) { (sarNum, sarDen) }
    var sarNum: Int
    var sarDen: Int
    /// The display matrix as an EXIF orientation (1 when none or not a right angle).
    public var orientation: Int
    /// Clockwise degrees the display matrix turns the picture (0, 90, 180, 270).
    public var rotation: Int
    public var mirrored: Bool
    /// Seconds; negative when the container does not say.
    public var duration: Double
    /// Frames a second; 0 when unknown.
    public var frameRate: Double
    /// The frames the container claims (0 when it does not say).
    public var frames: Int64
    /// Bits a luma sample (8, 10, 12).
    public var bitDepth: Int
    public var transfer: Transfer
    /// H.273 colour primaries, transfer, matrix, and whether the range is full.
    public var primaries: Int
    public var transferCode: Int
    public var matrix: Int
    public var fullRange: Bool
    /// FFmpeg's codec name: "h264", "hevc", "vp9", "av1"...
    public var codec: String
    /// "yuv420p", "yuv420p10le"...
    public var pixelFormat: String
    /// The container as users name it: "MP4" (every ISO media file: MP4, MOV, M4V, 3GP),
    /// "Matroska", "WebM" (Matroska of VP8, VP9 or AV1), "AVI" (`containerNames`).
    public var container: String
    public var audioStreams: Int
    public var videoStreams: Int

    /// The names `info` reports for videos (the JSON schema lists them).
    static let containerNames = ["MP4", "Matroska", "WebM", "AVI", "video"]

    init(facts f: fz_video_facts) {
        codedSize = PixelSize(width: Int(f.width), height: Int(f.height))
        sarNum = Int(max(1, f.sar_num))
        sarDen = Int(max(1, f.sar_den))
        orientation = f.orientation >= 1 && f.orientation <= 8 ? Int(f.orientation) : 1
        rotation = Int(f.rotation.rounded()) % 360
        mirrored = f.mirrored != 0
        duration = f.duration
        frameRate = f.frame_rate
        frames = f.frames
        bitDepth = Int(f.bit_depth)
        primaries = Int(f.color_primaries)
        transferCode = Int(f.color_trc)
        matrix = Int(f.color_space)
        fullRange = f.color_range == 2
        transfer = transferCode == 16 ? .pq : transferCode == 18 ? .hlg : .sdr
        codec = FFmpegVideo.text(tuple: f.codec)
        pixelFormat = FFmpegVideo.text(tuple: f.pixel_format)
        audioStreams = Int(f.audio_streams)
        videoStreams = Int(f.video_streams)
        container = Self.containerName(FFmpegVideo.text(tuple: f.container), codec: codec)
    }

    /// The coded size with the sample aspect ratio applied to the width.
    public var displaySize: PixelSize {
        guard sarNum != sarDen else { return codedSize }
        let w = (Double(codedSize.width) * Double(sarNum) / Double(sarDen)).rounded()
        return PixelSize(width: max(1, Int(min(w, 1_048_576.0))), height: codedSize.height)
    }

    /// FFmpeg's demuxer name as users name the container.
    static func containerName(_ demuxer: String, codec: String) -> String {
        if demuxer.hasPrefix("mov") { return "MP4" }
        if demuxer.hasPrefix("matroska") { return ["vp8", "vp9", "av1"].contains(codec) ? "WebM" : "Matroska" }
        if demuxer == "avi" { return "AVI" }
        return "video"
    }

    /// "12.5" (seconds, at most 3 decimals).
    static func seconds(_ s: Double) -> String {
        let ms = (s * 1000).rounded()
        return ms.truncatingRemainder(dividingBy: 1000) == 0 ? "\(Int(ms / 1000))" : "\(ms / 1000)"
    }

    public static func == (a: Self, b: Self) -> Bool { a.summary == b.summary && a.codedSize == b.codedSize }
    public func hash(into hasher: inout Hasher) { hasher.combine(summary) }
}

extension VideoDetails: CodecDetails {
    public var formatName: String? { container }

    public var summary: [String] {
        var parts = [pixelFormat == "unknown" ? codec : "\(codec) \(bitDepth)-bit \(pixelFormat)"]
        if duration >= 0 { parts.append("\(Self.seconds(duration)) s") }
        if frameRate > 0 { parts.append("\(Self.seconds(frameRate)) fps") }
        if rotation != 0 || mirrored { parts.append("rotated \(rotation)°\(mirrored ? ", mirrored" : "")") }
        if sarNum != sarDen { parts.append("pixels \(sarNum):\(sarDen)") }
        if transfer != .sdr { parts.append("HDR \(transfer.rawValue.uppercased())") }
        if audioStreams > 0 { parts.append("audio") }
        return parts
    }

    /// Keys of their own beside `info`'s (whose `bitDepth` and `pixelFormat` are the decoded
    /// picture's, and whose `format` is the container).
    public var jsonMembers: [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("codec", .string(codec)), ("duration", duration >= 0 ? .number(duration) : .null),
            ("frameRate", frameRate > 0 ? .number(frameRate) : .null),
        ]
        if frames > 0 { members.append(("frames", .int(frames))) }
        members += [
            ("codedWidth", .int(codedSize.width)), ("codedHeight", .int(codedSize.height)),
            ("sampleAspectRatio", .string("\(sarNum):\(sarDen)")), ("rotation", .int(rotation)),
            ("mirrored", .bool(mirrored)), ("sampleBits", .int(bitDepth)), ("codedPixelFormat", .string(pixelFormat)),
            ("transfer", .string(transfer.rawValue)), ("audio", .bool(audioStreams > 0)),
        ]
        return members
    }
}
