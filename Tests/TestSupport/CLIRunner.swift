import FZSystem

// Testing exists in the toolchain's test builds only; `swift build -c release` builds this
// target too (it is a regular one), where the check below is never run.
#if canImport(Testing)
import Testing
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `forcezoom` binary and captures what it did.
package struct CLIResult {
    package let status: Int32
    package let stdout: String
    package let stderr: String

    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

package enum CLI {
    package static let root: String = {
        var p = #filePath
        for _ in 0..<3 { p = FileSystem.directory(of: p) }
        return p
    }()

    /// Whether the binary runs under ASan/UBSan (`make test-sanitize` sets FORCEZOOM_SANITIZED):
    /// its shadow memory and slower code widen memory and time bounds, and `ulimit -v`
    /// cannot be used (ASan reserves terabytes of address space).
    package static let sanitized = getenv("FORCEZOOM_SANITIZED") != nil

    /// A bound on a run's peak memory in KiB: `mib` MiB, or 768 MiB under the sanitizers.
    package static func rssBoundKiB(_ mib: Int) -> Int { (sanitized ? max(mib, 768) : mib) << 10 }

    /// $FORCEZOOM_BIN, else the debug build.
    package static let binary: String = {
        if let env = getenv("FORCEZOOM_BIN") { return String(cString: env) }
        return FileSystem.join(root, ".build/debug/forcezoom")
    }()

    package static func quote(_ s: String) -> String { "'" + s.replacing("'", with: "'\\''") + "'" }

    /// Runs forcezoom with `arguments` (in `directory`), optional stdin from a file.
    package static func run(_ arguments: [String], in directory: String? = nil, stdin: String? = nil) -> CLIResult {
        let dir = scratch()
        let out = FileSystem.join(dir, "stdout")
        let err = FileSystem.join(dir, "stderr")
        var command = ""
        if let directory { command += "cd \(quote(directory)) && " }
        command += ([binary] + arguments).map(quote).joined(separator: " ")
        command += " > \(quote(out)) 2> \(quote(err))"
        command += stdin.map { " < \(quote($0))" } ?? " < /dev/null"
        let raw = system(command)
        let status = (raw >> 8) & 0xFF
        checkJSON(arguments, stdout: out)
        return CLIResult(status: status, stdout: read(out), stderr: read(err))
    }

    /// Debian's Python, where `make deps` installs python3-jsonschema, Pillow and numpy. Not
    /// whatever `python3` comes first on PATH: a pyenv or venv one without jsonschema made
    /// every schema check skip silently.
    package static let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"

    /// Whether python3-jsonschema is there to check JSON output against docs/json.
    package static let canCheckJSON = shell("\(python) -c 'import jsonschema' 2>/dev/null") == 0

    /// Every JSON output a test sees is checked (Tools/testkit/check_json.py): each line
    /// one object, no duplicate key, valid against docs/json/<command>.schema.json.
    /// A failure is an issue of the test that ran the command.
    package static func checkJSON(_ arguments: [String], stdout: String) {
        let json =
            arguments.contains("--json") || arguments.contains("--geometry-only")
            || (arguments.first == "fixture" && arguments.contains("--decode"))
        guard json, canCheckJSON, var command = arguments.first, !bytes(stdout).isEmpty else { return }
        // compare on two folders prints the folder report (docs/json/compare-folder.schema.json).
        if command == "compare" && read(stdout).hasPrefix("{\"schemaVersion\":1,\"mode\":\"folders\"") {
            command = "compare-folder"
        }
        // info --formats lists formats, not files (docs/json/info-formats.schema.json).
        if command == "info" && arguments.contains("--formats") { command = "info-formats" }
        if let problem = jsonProblem(file: stdout, command: command) {
            #if canImport(Testing)
            Issue.record("forcezoom \(arguments.joined(separator: " ")): \(problem)")
            #else
            preconditionFailure("forcezoom \(arguments.joined(separator: " ")): \(problem)")
            #endif
        }
    }

    /// Why the JSON Lines in `file` fail `command`'s schema (or hold a duplicate key), or nil.
    package static func jsonProblem(file: String, command: String) -> String? {
        let schema = FileSystem.join(root, "docs/json/\(command).schema.json")
        guard access(schema, F_OK) == 0 else { return "no schema at docs/json/\(command).schema.json" }
        let checker = FileSystem.join(root, "Tools/testkit/check_json.py")
        let problem = file + ".check"
        let check = "\(python) \(quote(checker)) \(quote(schema)) < \(quote(file)) 2> \(quote(problem))"
        if shell(check) == 0 { return nil }
        return "JSON output fails docs/json/\(command).schema.json: \(read(problem))"
    }

    package static func read(_ path: String) -> String { String(decoding: bytes(path), as: UTF8.self) }

    /// A file's raw bytes (never through String: binary is not UTF-8).
    package static func bytes(_ path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else { return [] }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    package static func write(_ path: String, _ bytes: [UInt8]) {
        let f = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
    }

    package static func scratch() -> String {
        var template = Array("/tmp/fz-cli-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    package static func shell(_ command: String) -> Int32 { (system(command) >> 8) & 0xFF }
}

extension String {
    package func replacing(_ a: String, with b: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: a) {
            result += rest[..<r.lowerBound] + b
            rest = rest[r.upperBound...]
        }
        return result + rest
    }

    /// Without leading and trailing whitespace.
    package var trimmingCharacters: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
