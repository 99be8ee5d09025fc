import ArgumentParser
import FZOperations

/// `compare EXPECTED_DIR ACTUAL_DIR` (issue 36): the options only folders take, checked
/// here, and the folder operation run.
extension Compare {
    /// Whether both arguments are folders.
    var isFolders: Bool {
        !StandardStream.isNamed(first) && FileSystem.kind(of: first) == .directory
            && FileSystem.kind(of: second) == .directory
    }

    /// Checks the folder options; true when both arguments are folders (the pair checks that
    /// apply to folders too are made here), false for two images.
    func validateFolders() throws -> Bool {
        guard isFolders else {
            if FileSystem.kind(of: first) == .directory || FileSystem.kind(of: second) == .directory {
                throw ValidationError(
                    "give two images or two folders (one of '\(Echo.value(first))' and '\(Echo.value(second))' is a folder)"
                )
            }
            for (given, flag) in [
                (jobs != nil, "--jobs"), (update, "--update"), (prune, "--prune"), (report != nil, "--report"),
            ]
            where given {
                throw ValidationError("\(flag) is for folders (compare EXPECTED_DIR ACTUAL_DIR)")
            }
            return false
        }
        if diff != nil {
            throw ValidationError("--diff is for two images; with folders --report DIR writes every difference picture")
        }
        if prune && !update { throw ValidationError("--prune deletes baselines with --update; give both") }
        if let jobs { try Check.integer(jobs, "--jobs", in: 1...1024) }
        try Outputs.checkNotEmpty(report, "--report")
        if let report, StandardStream.isNamed(report) { throw ValidationError("--report needs a folder name") }
        if icc == .strip { throw ValidationError("--icc takes keep or srgb here (strip writes nothing to compare)") }
        if let threshold {
            let range: ClosedRange<Double> =
                switch metric {
                case .pae, .mae: 0...255
                case .psnr: 0...1000
                case .ssim: -1...1
                }
            try Check.number(threshold, "--threshold", in: range, unit: " for --metric \(metric.rawValue)")
        }
        return true
    }

    func runFolders() throws {
        let operation = FolderCompareOperation(
            expected: first, actual: second, metric: metric, threshold: threshold, cropToSmaller: cropToSmaller,
            icc: icc, json: json, jobs: jobs ?? ThumbOperation.processorCount, update: update, prune: prune,
            reportFolder: report, decoding: decode.options)
        if try operation.run(Report.terminal).failed { throw ExitCode(1) }
    }
}
