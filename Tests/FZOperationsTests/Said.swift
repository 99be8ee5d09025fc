import FZFormat
import FZImage
import FZOperations

/// What an operation said through its `Report`, collected in order instead of printed.
final class Said: @unchecked Sendable {
    var lines: [String] = []
    var warnings: [String] = []
    var errors: [String] = []
    var stderr: [String] = []

    var report: Report {
        Report(
            line: { self.lines.append($0) },
            warnings: Warnings(say: { self.warnings.append($0) }, once: { self.warnings.append($0) }),
            error: { self.errors.append($0) }, stderr: { self.stderr.append($0) })
    }

    /// Settings as the command line makes them with no flags: keep the colour, default PNG.
    var settings: RenderSettings {
        RenderSettings(
            decode: DecodeOptions(), color: ColorPolicy(), lenient: false, png: .compression(6),
            warnings: report.warnings)
    }
}
