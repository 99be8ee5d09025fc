import FZSystem
import TestSupport
import Testing

/// Issue 48: a library opened on first use (libjxl, libtiff, libraw, libheif) that is missing
/// fails only its format's files. Each test runs the binary in a mount namespace of its own
/// with /dev/null bound over the library's file (`unshare -m`, root only: skipped where that
/// is refused), over a folder with one file of each of those formats among a JPEG and a PNG.
@Suite("A missing library fails only its files")
struct MissingLibraryCLITests {
    /// One library to hide and the file of the folder that needs it.
    struct Case: Sendable, CustomStringConvertible {
        let soname: String
        let file: String
        let format: String
        var description: String { soname }
    }

    static let cases = [
        Case(soname: "libjxl.so.0.7", file: "x.jxl", format: "JPEG XL"),
        Case(soname: "libtiff.so.6", file: "f.tif", format: "TIFF"),
        Case(soname: "libraw_r.so.20", file: "r.dng", format: "camera RAW/DNG"),
        Case(soname: "libheif.so.1", file: "h.heic", format: "HEIF/HEIC"),
    ]
    static let files = ["a.jpg", "b.png", "x.jxl", "f.tif", "r.dng", "h.heic"]

    /// Where the loader finds `soname` (ldconfig's cache), or nil.
    static func path(of soname: String) -> String? {
        let out = FileSystem.join(CLI.scratch(), "path")
        _ = CLI.shell("ldconfig -p | awk '$1 == \"\(soname)\" { print $NF; exit }' > \(CLI.quote(out))")
        let path = String(CLI.read(out).split(separator: "\n").first ?? "")
        return path.isEmpty ? nil : path
    }

    /// Whether this process may make a mount namespace and bind over a library (root, and
    /// unshare permitted: containers without CAP_SYS_ADMIN refuse it).
    static let canHide: Bool = {
        guard let path = path(of: "libtiff.so.6") else { return false }
        return CLI.shell("unshare -m sh -c 'mount --bind /dev/null \"$0\"' \(CLI.quote(path)) 2>/dev/null") == 0
    }()

    /// The Debian package that holds `soname`, as dpkg says (not as forcezoom does).
    static func package(of soname: String) -> String {
        let out = FileSystem.join(CLI.scratch(), "package")
        _ = CLI.shell("dpkg -S \(CLI.quote("*/" + soname)) 2>/dev/null | head -1 | cut -d: -f1 > \(CLI.quote(out))")
        return String(CLI.read(out).split(separator: "\n").first ?? "")
    }

    /// The folder `in`: a JPEG and a PNG (forcezoom's fixtures), and one file each needing
    /// libjxl, libtiff (Pillow), libraw (Tools/raw/make-dng.py) and libheif.
    static let folder: String = {
        let dir = CLI.scratch()
        let input = FileSystem.join(dir, "in")
        precondition(CLI.shell("mkdir -p \(CLI.quote(input))") == 0)
        for name in ["a.jpg", "b.png", "x.jxl", "h.heic"] {
            let made = CLI.run(
                ["fixture", "orientation", "--size", "120x80", "-o", FileSystem.join(input, name)])
            precondition(made.status == 0, made.stderr)
        }
        let pillow = "from PIL import Image; Image.new('RGB', (64, 48), (200, 30, 30)).save('f.tif')"
        precondition(CLI.shell("cd \(CLI.quote(input)) && /usr/bin/python3 -c \(CLI.quote(pillow))") == 0)
        let dng = FileSystem.join(CLI.root, "Tools/raw/make-dng.py")
        precondition(
            CLI.shell("cd \(CLI.quote(input)) && /usr/bin/python3 \(CLI.quote(dng)) r.dng --size 320x240") == 0)
        return dir
    }()

    /// forcezoom `arguments` in `dir` with /dev/null over `soname`'s file.
    static func run(hiding soname: String, _ arguments: [String], in dir: String = folder) -> CLIResult {
        let path = path(of: soname)!
        let scratch = CLI.scratch()
        let out = FileSystem.join(scratch, "stdout")
        let err = FileSystem.join(scratch, "stderr")
        let command =
            "cd \(CLI.quote(dir)) && unshare -m sh -c 'mount --bind /dev/null \"$0\" && exec \"$@\"' "
            + ([path, CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + " > \(CLI.quote(out)) 2> \(CLI.quote(err)) < /dev/null"
        let status = CLI.shell(command)
        CLI.checkJSON(arguments, stdout: out)
        return CLIResult(status: status, stdout: CLI.read(out), stderr: CLI.read(err))
    }

    /// Names in `folder` that are not outputs: a temporary (`.NAME.fz-XXXXXX`) or any dot file.
    static func leftovers(_ folder: String) -> [String] {
        ((try? FileSystem.list(folder)) ?? []).filter { $0.hasPrefix(".") }
    }

    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"), arguments: cases)
    func thumbMakesEveryOtherFile(_ c: Case) throws {
        let out = "out-\(c.file.prefix(1))"
        let result = Self.run(hiding: c.soname, ["thumb", "in", "--out", out])
        #expect(result.status == 1, "\(result.stderr)")
        let made = try FileSystem.list(FileSystem.join(Self.folder, out)).sorted()
        let stem = String(c.file.split(separator: ".")[0])
        let expected = Self.files.filter { $0 != c.file }.map { String($0.split(separator: ".")[0]) + ".thumb.png" }
        #expect(made == expected.sorted(), "made \(made); \(result.stderr)")
        #expect(!made.contains("\(stem).thumb.png"))
        #expect(Self.leftovers(FileSystem.join(Self.folder, out)).isEmpty)
        // One line names the file, the library, dlopen's reason for /dev/null and dpkg's package.
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("in/\(c.file)") }
        #expect(lines.count == 1, "\(result.stderr)")
        let line = String(lines.first ?? "")
        #expect(line.contains(c.format) && line.contains(" needs \(c.soname)"), "\(line)")
        #expect(line.contains("file too short"), "\(line)")
        #expect(line.hasSuffix("apt-get install \(Self.package(of: c.soname))"), "\(line)")
        #expect(!result.stderr.contains("internal error"))
    }

    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"), arguments: cases)
    func thumbJSONSaysFailed(_ c: Case) throws {
        let result = Self.run(hiding: c.soname, ["thumb", "in", "--out", "json-\(c.file.prefix(1))", "--json"])
        #expect(result.status == 1)
        let records = result.stdout.split(separator: "\n").map(String.init)
        #expect(records.count == Self.files.count, "\(result.stdout)")
        let failed = records.filter { $0.contains("\"status\":\"failed\"") }
        #expect(failed.count == 1, "\(result.stdout)")
        #expect(failed.first?.contains("\"input\":\"in/\(c.file)\"") == true)
        #expect(failed.first?.contains("needs \(c.soname)") == true, "\(failed)")
        #expect(records.filter { $0.contains("\"status\":\"made\"") }.count == Self.files.count - 1)
    }

    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"), arguments: cases)
    func infoFormatsSaysUnavailable(_ c: Case) {
        let result = Self.run(hiding: c.soname, ["info", "--formats", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = result.stdout.split(separator: "\n").map(String.init)
        let mentioning = records.filter { $0.contains("\"\(c.soname)\"") }
        #expect(!mentioning.isEmpty, "\(result.stdout)")
        for record in mentioning {
            #expect(record.contains("\"loaded\":false") && record.contains("file too short"), "\(record)")
        }
        // The other libraries still load, but for those that link the hidden one themselves
        // (Debian's libavcodec59 links libjxl: FFmpeg's error then names it).
        let others = records.filter {
            $0.contains("\"loaded\"") && !$0.contains("\"\(c.soname)\"") && !$0.contains("\(c.soname): ")
        }
        #expect(!others.isEmpty && others.allSatisfy { $0.contains("\"loaded\":true") }, "\(others)")
        let text = Self.run(hiding: c.soname, ["info", "--formats"])
        let line = text.stdout.split(separator: "\n").first { $0.hasPrefix(c.format) }
        #expect(line?.contains("unavailable: ") == true, "\(text.stdout)")
    }

    /// A HEIC grid whose tiles go to libde265 never needs libheif (issue 38): without libheif
    /// it is still made, while a single-image HEIC, which libheif decodes, fails.
    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"))
    func aGridNeedsNoLibheif() throws {
        let grid = FileSystem.join(CLI.root, ".cache/heicgrid/p3.heic")
        try #require(FileSystem.kind(of: grid) == .regular, "make heicgrids first")
        let dir = CLI.scratch()
        #expect(CLI.shell("cp \(CLI.quote(grid)) \(CLI.quote(dir))/grid.heic") == 0)
        let single = FileSystem.join(Self.folder, "in/h.heic")
        #expect(CLI.shell("cp \(CLI.quote(single)) \(CLI.quote(dir))/single.heic") == 0)
        let result = Self.run(hiding: "libheif.so.1", ["thumb", "grid.heic", "single.heic", "--out", "out"], in: dir)
        #expect(result.status == 1)
        #expect(try FileSystem.list(FileSystem.join(dir, "out")) == ["grid.thumb.png"], "\(result.stderr)")
        #expect(result.stderr.contains("single.heic: HEIF/HEIC/AVIF needs libheif.so.1"), "\(result.stderr)")
    }

    /// An output in a hidden library's format fails, each output once, and leaves nothing.
    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"))
    func outputsFailEachAlone() throws {
        let result = Self.run(
            hiding: "libjxl.so.0.7", ["thumb", "in/a.jpg", "in/b.png", "--out", "jxl-out", "--format", "jxl"])
        #expect(result.status == 1)
        #expect(try FileSystem.list(FileSystem.join(Self.folder, "jxl-out")).isEmpty)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("needs libjxl.so.0.7") }
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.contains(".thumb.jxl: JPEG XL needs") && $0.hasSuffix("no file was written") })
    }

    /// A library that opens but lacks a function forcezoom calls (an empty stub bound over
    /// libtiff.so.6) fails the same way, naming the function, instead of ending the run.
    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"))
    func missingSymbolFailsTheFile() throws {
        let dir = CLI.scratch()
        let stub = FileSystem.join(dir, "stub.so")
        try #require(CLI.shell("echo 'int fz_stub;' | cc -shared -x c -o \(CLI.quote(stub)) - 2>/dev/null") == 0)
        let path = try #require(Self.path(of: "libtiff.so.6"))
        let out = FileSystem.join(dir, "stderr")
        let command =
            "cd \(CLI.quote(Self.folder)) && unshare -m sh -c 'mount --bind \"$0\" \"$1\" && shift && exec \"$@\"' "
            + [stub, path, CLI.binary, "thumb", "in", "--out", FileSystem.join(dir, "out")].map(CLI.quote)
            .joined(separator: " ") + " > /dev/null 2> \(CLI.quote(out))"
        #expect(CLI.shell(command) == 1)
        let stderr = CLI.read(out)
        #expect(stderr.contains("in/f.tif: TIFF needs libtiff.so.6: "), "\(stderr)")
        #expect(stderr.contains("lacks TIFF") && stderr.contains("undefined symbol"), "\(stderr)")
        #expect(try FileSystem.list(FileSystem.join(dir, "out")).count == Self.files.count - 1)
    }

    /// A thumbnail of a plain DNG from its JPEG preview never opens libraw (DNGHeader, issue
    /// 51): without libraw it is made, the same bytes as with it, while `info` and a thumbnail
    /// larger than the preview (a develop) still fail in one line naming the library.
    @Test(.enabled(if: canHide, "unshare -m with mount --bind is refused here (needs root)"))
    func aDNGPreviewNeedsNoLibraw() throws {
        let dir = CLI.scratch()
        let tool = FileSystem.join(CLI.root, "Tools/raw/make-dng.py")
        #expect(CLI.shell("cd \(CLI.quote(dir)) && /usr/bin/python3 \(CLI.quote(tool)) p.dng --size 600x400") == 0)
        let soname = "libraw_r.so.20"
        let hidden = Self.run(hiding: soname, ["thumb", "p.dng", "--size", "200", "--out", "hidden"], in: dir)
        #expect(hidden.status == 0, "\(hidden.stderr)")
        let seen = CLI.run(["thumb", "p.dng", "--size", "200", "--out", "seen"], in: dir)
        #expect(seen.status == 0, "\(seen.stderr)")
        let made = CLI.bytes(FileSystem.join(dir, "hidden/p.thumb.png"))
        #expect(!made.isEmpty && made == CLI.bytes(FileSystem.join(dir, "seen/p.thumb.png")))
        for arguments in [["info", "p.dng"], ["thumb", "p.dng", "--size", "500", "--out", "big"]] {
            let failed = Self.run(hiding: soname, arguments, in: dir)
            #expect(failed.status == 1, "\(arguments)")
            let lines = failed.stderr.split(separator: "\n").filter { $0.contains("p.dng") }
            #expect(lines.count == 1 && lines[0].contains(" needs \(soname)"), "\(failed.stderr)")
        }
    }
}
