import ArgumentParser
import FZOperations

/// `thumb --animated` (issue 50): its limits are checked here, and so is an output format
/// that holds no animation when the command names one (--format, or -o's extension).
extension Thumb {
    func validateAnimated() throws {
        if let maxFrames { try Check.integer(maxFrames, "--max-frames", in: 1...100_000) }
        if let maxDuration, !(maxDuration > 0 && maxDuration <= 86_400) {
            throw ValidationError("--max-duration \(maxDuration): give seconds, more than 0 and at most 86400")
        }
        if !animated && (maxFrames != nil || maxDuration != nil) {
            throw ValidationError("--max-frames and --max-duration shape --animated thumbnails; add --animated")
        }
        if animated, let format, format.format.rawValue != "WebP" && format.format.rawValue != "PNG" {
            throw ValidationError(
                "--animated writes animated WebP or APNG; --format \(format.extensions[0]) holds no animation (give webp or png)"
            )
        }
    }
}
