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
        try validateComparison()
        return true
    }

    /// What is asked of each pair of folders: the pair options, except that without a
    /// --threshold a measure (psnr, the default, pae, mae, ssim), which alone gives no
    /// verdict, becomes `ae` with 0 pixels: an unchanged baseline passes and any differing
    /// pixel fails (ae and pixelmatch fail on any differing pixel by default already).
    var folderComparison: PairComparison {
        var c = comparison
        if threshold == nil && !metric.counts {
            c.metric = .ae
            c.threshold = .value(0)
        }
        return c
    }

    func runFolders() throws {
        let operation = FolderCompareOperation(
            expected: first, actual: second, comparison: folderComparison, json: json,
            jobs: jobs ?? ThumbOperation.processorCount, update: update, prune: prune, reportFolder: report)
        if try operation.run(Report.terminal).failed { throw ExitCode(1) }
    }
}
