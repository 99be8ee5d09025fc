import CFZVideo
import FZFormat

/// The libraries this target opens on first use (`FormatLibrary`), from its shim's loader.
extension FormatLibrary {
    /// FFmpeg's libavformat, libavcodec, libswscale and libavutil: one package each, named by
    /// the major version of its soname ("libavformat59" for libavformat.so.59).
    package static let ffmpeg = FormatLibrary(
        name: "FFmpeg", sonames: sonames(fz_video_soname), package: packages(sonames(fz_video_soname)),
        minimumVersion: nil, probe: fz_video_available)

    /// "libavformat59 libavcodec59 libswscale6 libavutil57" from the sonames ("libavformat.so.59").
    static func packages(_ sonames: [String]) -> String {
        sonames.map { soname in
            let parts = soname.split(separator: ".")
            return String(parts.first ?? "") + String(parts.count > 1 ? parts.last! : "")
        }
        .joined(separator: " ")
    }
}
