#if canImport(Glibc)
import Glibc
#endif
import ForceZoomCore

/// Runs the built `forcezoom` binary and captures what it did.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLI {
    static let root: String = {
        var p = #filePath
        for _ in 0..<3 { p = FileSystem.directory(of: p) }
        return p
    }()

    /// $FORCEZOOM_BIN, else the debug build.
    static let binary: String = {
        if let env = getenv("FORCEZOOM_BIN") { return String(cString: env) }
        return FileSystem.join(root, ".build/debug/forcezoom")
    }()

    static func quote(_ s: String) -> String { "'" + s.replacing("'", with: "'\\''") + "'" }

    /// Runs forcezoom with `arguments` (in `directory`), optional stdin from a file.
    static func run(_ arguments: [String], in directory: String? = nil, stdin: String? = nil) -> CLIResult {
        let dir = scratch()
        let out = FileSystem.join(dir, "stdout"), err = FileSystem.join(dir, "stderr")
        var command = ""
        if let directory { command += "cd \(quote(directory)) && " }
        command += ([binary] + arguments).map(quote).joined(separator: " ")
        command += " > \(quote(out)) 2> \(quote(err))"
        command += stdin.map { " < \(quote($0))" } ?? " < /dev/null"
        let raw = system(command)
        let status = (raw >> 8) & 0xFF
        return CLIResult(status: status, stdout: read(out), stderr: read(err))
    }

    static func read(_ path: String) -> String { String(decoding: bytes(path), as: UTF8.self) }

    /// A file's raw bytes (never through String: binary is not UTF-8).
    static func bytes(_ path: String) -> [UInt8] {
        guard let f = fopen(path, "rb") else { return [] }
        defer { fclose(f) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        let f = fopen(path, "wb")!
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, f) }
        fclose(f)
    }

    static func scratch() -> String {
        var template = Array("/tmp/fz-cli-XXXXXX".utf8CString)
        _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static func shell(_ command: String) -> Int32 { (system(command) >> 8) & 0xFF }
}

extension String {
    func replacing(_ a: String, with b: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let r = rest.firstRange(of: a) {
            result += rest[..<r.lowerBound] + b
            rest = rest[r.upperBound...]
        }
        return result + rest
    }
}
