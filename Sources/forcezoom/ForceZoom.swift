import ArgumentParser
import ForceZoomCore

#if canImport(Glibc)
import Glibc
#endif

/// The `forcezoom` command: peek and zoom into images from the shell.
@main
struct ForceZoom: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "forcezoom",
        abstract: "Peek and zoom into PNG and JPEG images: 1:1 detail crops, device-shaped fits, thumbnails.",
        discussion: """
            Coordinates always refer to the upright image: the EXIF orientation is applied
            unless --no-auto-orient. Outputs are PNG, written to a temporary file and renamed,
            so a failure never leaves a partial file; an input is never overwritten.

            Exit codes: 0 success, 1 an input or output failed, 2 bad usage.

            Devices (--screen NAME), in portrait. `crop` and `frame` use the points (the peek's side is min of the bounds in points, as ForceZoom sizes it); `fit` and `animate` render at the pixels (--scale 1 for a point-sized preview).
            \(Size.deviceTable)

            Examples:
              forcezoom crop photo.jpg --at 1200,800 -o detail.png
              forcezoom crop photo.jpg --at 50%,50% --size 256 --zoom 2
              forcezoom crop photo.jpg --view 390x844 --at 195,300 --json
              forcezoom info *.jpg --json
            """,
        version: version,
        subcommands: [Crop.self, Fit.self, Frame.self, Transform.self, Animate.self, Thumb.self, Info.self, Fixture.self]
    )

    /// Runs the command with forcezoom's exit codes: usage errors exit 2 (as scripts
    /// expect of command-line tools), tool failures 1.
    static func main() {
        fz_install_cleanup()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as ToolFailure {
            Terminal.error(failure.message)
            Glibc.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            if code.rawValue == 1 {  // ExitCode(1) thrown after reporting per-file errors
                Glibc.exit(1)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.writeError(message + "\n") }
            Glibc.exit(2)
        }
    }
}
