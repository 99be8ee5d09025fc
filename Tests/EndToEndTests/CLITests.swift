import TestSupport
import Testing

@testable import FZSystem

/// The built binary end to end: stdout, stderr and exit codes, for good and bad input.
@Suite(.serialized)
struct CLITests {
    static let dir = CLI.scratch()
    static let coords: String = {
        let p = FileSystem.join(dir, "coords.png")
        _ = CLI.run(["fixture", "coords", "--size", "800x600", "-o", p])
        return p
    }()
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    @Test func cropWritesTheTracedRectangle() throws {
        let out = FileSystem.join(Self.dir, "peek.png")
        let r = CLI.run(["crop", Self.coords, "--at", "790,10", "--size", "64", "-o", out])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let trace = CLI.run(["fixture", "--decode", out])
        #expect(trace.status == 0)
        #expect(trace.stdout.contains(#""sourceRect":{"x":736,"y":0,"width":64,"height":64}"#))
    }

    @Test func jsonDescribesTheGeometry() {
        let r = CLI.run([
            "crop", Self.photo, "--view", "390x844", "--at", "195,422", "--size", "300", "--geometry-only",
        ])
        #expect(r.status == 0)
        // peek.jpg is stored 900x1600 with EXIF orientation 6: upright 1600x900.
        #expect(r.stdout.contains(#""storedSize":{"width":900,"height":1600}"#))
        #expect(r.stdout.contains(#""uprightSize":{"width":1600,"height":900}"#))
        #expect(r.stdout.contains(#""orientation":6"#))
        // s = 390/1600 = 0.24375, by = (844 - 219.375)/2 = 312.3125;
        // x = floor(195/0.24375) = 800, y = floor((422 - 312.3125)/0.24375) = floor(450.0) = 450.
        #expect(r.stdout.contains(#""point":{"x":800,"y":450}"#))
        #expect(r.stdout.contains(#""cropRect":{"x":650,"y":300,"width":300,"height":300}"#))
        // The preview box is the crop window in view points: 650 * s, by + 300 * s, 300 * s.
        #expect(r.stdout.contains(#""previewBox":{"x":158.4375,"y":385.4375,"width":73.125,"height":73.125}"#))
        #expect(r.stdout.contains(#""previewBox""#))
        #expect(!r.stdout.contains(#""output":"#))
    }

    @Test func defaultOutputNameAndSize() {
        let work = CLI.scratch()
        let r = CLI.run(["crop", Self.photo, "--at", "50%,50%"], in: work)
        #expect(r.status == 0)
        let info = CLI.run(["info", "--json", FileSystem.join(work, "peek.crop.png")])
        // Default screen 390x844: N = 390.
        #expect(info.stdout.contains(#""width":390,"height":390"#))
    }

    @Test func severalPointsNeedAPatternAndMakeOneFileEach() {
        let work = CLI.scratch()
        let bad = CLI.run(["crop", Self.coords, "--at", "1,1", "--at", "5,5", "-o", "x.png"], in: work)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("%d"))
        let good = CLI.run(
            ["crop", Self.coords, "--at", "1,1", "--at", "799,599", "--size", "16", "-o", "p-%d.png"], in: work)
        #expect(good.status == 0)
        let second = CLI.run(["fixture", "--decode", FileSystem.join(work, "p-2.png")])
        #expect(second.stdout.contains(#""sourceRect":{"x":784,"y":584,"width":16,"height":16}"#))
    }

    @Test func stdinAndStdout() {
        let out = FileSystem.join(Self.dir, "piped.png")
        #expect(
            CLI.shell(
                "\(CLI.quote(CLI.binary)) crop - --at 10,10 --size 8 -o - < \(CLI.quote(Self.coords)) > \(CLI.quote(out))"
            ) == 0)
        let trace = CLI.run(["fixture", "--decode", out])
        #expect(trace.stdout.contains(#""sourceRect":{"x":6,"y":6,"width":8,"height":8}"#))
    }

    @Test func infoTextAndJSON() {
        let r = CLI.run(["info", Self.photo])
        #expect(r.status == 0)
        #expect(r.stdout.contains("JPEG 900x1600"))
        #expect(r.stdout.contains("upright 1600x900"))
        #expect(r.stdout.contains("4:2:0"))
        let missing = FileSystem.join(Self.dir, "missing.png")
        let j = CLI.run(["info", "--json", Self.coords, missing, Self.photo])
        #expect(j.status == 1)
        let lines = j.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains(#""error""#))
        #expect(lines[2].contains(#""orientation":6"#))
        #expect(j.stderr == "forcezoom: error: \(missing): cannot open: no such file or directory\n")
    }

    // MARK: Bad input: one line naming the file and the reason, exit 1, nothing left behind.

    struct BadInput: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]?
        let reason: String
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = {
        let jpeg = CLI.bytes(photo)
        let png = CLI.bytes(coords)
        var corrupt = png
        for i in 200..<260 { corrupt[i] ^= 0x5A }
        return [
            BadInput(name: "missing", bytes: nil, reason: "no such file"),
            BadInput(name: "empty", bytes: [], reason: "empty"),
            BadInput(name: "text", bytes: Array("hello, this is not an image\n".utf8), reason: "not an image"),
            BadInput(name: "gif", bytes: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0], reason: "truncated"),
            BadInput(
                name: "webp", bytes: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
                reason: "RIFF size 0 is too small"),
            BadInput(name: "tiff", bytes: Array("II*".utf8) + [0, 8, 0, 0, 0], reason: "Failed to read directory"),
            BadInput(name: "truncated jpeg", bytes: Array(jpeg[0..<(jpeg.count / 2)]), reason: "truncated"),
            BadInput(name: "truncated png", bytes: Array(png[0..<(png.count / 2)]), reason: "truncated"),
            BadInput(name: "corrupt png", bytes: corrupt, reason: "corrupt"),
            BadInput(name: "header only jpeg", bytes: Array(jpeg[0..<300]), reason: "inside its header"),
        ]
    }()

    @Test(arguments: badInputs)
    func badInputFailsCleanly(_ bad: BadInput) {
        let work = CLI.scratch()
        let input = FileSystem.join(work, "in put.png")
        if let bytes = bad.bytes { CLI.write(input, bytes) }
        // A square larger than the image: every row is decoded, so damage anywhere is met.
        let r = CLI.run(["crop", input, "--at", "1,1", "--size", "4000", "-o", "out.png"], in: work)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("forcezoom: error: \(input): "))
        #expect(r.stderr.contains(bad.reason))
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(
            CLI.shell("test -z \"$(ls -A \(CLI.quote(work)) | grep -v '^in put.png$')\"") == 0,
            "output or temp file left behind")
    }

    @Test func directoryInput() {
        let r = CLI.run(["crop", Self.dir, "--at", "1,1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is a directory"))
    }

    @Test func pointOutsideNamesTheImageSize() {
        let r = CLI.run(["crop", Self.coords, "--at", "800,10"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("800x600"))
    }

    @Test(arguments: [
        ["--size", "0"], ["--size", "-3"], ["--at", "12"], ["--at", "a,b"], ["--zoom", "0"],
        ["--screen", "10"], ["--background", "nocolour"], ["--size", "5", "--screen", "10x10"],
    ])
    func usageErrorsExitTwo(_ extra: [String]) {
        var args = ["crop", Self.coords]
        if !extra.contains("--at") { args += ["--at", "1,1"] }
        let r = CLI.run(args + extra)
        #expect(r.status == 2, "\(extra): \(r.stderr)")
        #expect(r.stderr.contains("Error") || r.stderr.contains("error"))
    }

    @Test func outputNamingTheInputIsRefusedAndTheInputKept() {
        let work = CLI.scratch()
        let input = FileSystem.join(work, "keep.png")
        CLI.write(input, CLI.bytes(Self.coords))
        let before = CLI.bytes(input)
        let r = CLI.run(["crop", input, "--at", "1,1", "-o", input])
        #expect(r.status == 1)
        #expect(r.stderr.contains("never overwrites an input"))
        let link = FileSystem.join(work, "link.png")
        #expect(CLI.shell("ln -s keep.png \(CLI.quote(link))") == 0)
        let viaLink = CLI.run(["crop", input, "--at", "1,1", "-o", link])
        #expect(viaLink.status == 1)
        #expect(CLI.bytes(input) == before)
    }

    @Test func unwritableFolderIsAClearError() {
        let r = CLI.run(["crop", Self.coords, "--at", "1,1", "-o", "/nonexistent-dir/x.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent-dir/x.png"))
        #expect(r.stderr.contains("cannot create output"))
    }

    @Test func helpAndVersion() {
        let h = CLI.run(["crop", "--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("Examples:"))
        #expect(h.stdout.contains("16-bit"))
        let v = CLI.run(["--version"])
        #expect(v.status == 0)
        #expect(!v.stdout.isEmpty)
        // `--version` alone skips the parser (parseLinear); with a second word it is the
        // parser's: the two say the same.
        let parsed = CLI.run(["--version", "--version"])
        #expect(parsed.status == 0 && parsed.stdout == v.stdout && v.stderr.isEmpty)
    }
}

/// Fixtures/generated is exactly what `make fixtures` makes: nobody edits a fixture.
struct FixtureRegenerationTests {
    @Test func regenerationIsByteIdentical() {
        let out = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/fixtures/make-fixtures.sh")
        #expect(CLI.shell("FZ=\(CLI.quote(CLI.binary)) \(CLI.quote(script)) \(CLI.quote(out)) > /dev/null") == 0)
        let committed = FileSystem.join(CLI.root, "Fixtures/generated")
        let names = (try? FileSystem.list(committed)) ?? []
        #expect(names.count >= 40)
        #expect(((try? FileSystem.list(out)) ?? []) == names)
        for name in names {
            #expect(
                CLI.bytes(FileSystem.join(out, name)) == CLI.bytes(FileSystem.join(committed, name)),
                "\(name) differs: run `make fixtures`")
        }
    }

    @Test func issueFiveExampleTracesTheCrop() {
        let dir = CLI.scratch()
        let a = FileSystem.join(dir, "a.png")
        let b = FileSystem.join(dir, "b.png")
        #expect(CLI.run(["fixture", "coords", "--size", "4000x3000", "-o", a]).status == 0)
        #expect(CLI.run(["crop", a, "--at", "3990,10", "--size", "64", "-o", b]).status == 0)
        let r = CLI.run(["fixture", "--decode", b])
        #expect(
            r.stdout
                == #"{"schemaVersion":2,"file":"\#(b)","sourceRect":{"x":3936,"y":0,"width":64,"height":64},"orientation":1,"transform":"1 (upright)","zoom":1,"window":{"x":3936,"y":0,"width":64,"height":64},"pieceRect":{"x":0,"y":0,"width":64,"height":64},"padding":{"left":0,"top":0,"right":0,"bottom":0}}"#
                + "\n")
    }

    @Test func jsonReportsSizeAndPixelDigest() {
        let dir = CLI.scratch()
        let a = FileSystem.join(dir, "n.png")
        let r = CLI.run(["fixture", "noise", "--size", "32x32", "--seed", "5", "-o", a, "--json"])
        let again = CLI.run(["fixture", "noise", "--size", "32x32", "--seed", "5", "-o", a, "--json"])
        let other = CLI.run(["fixture", "noise", "--size", "32x32", "--seed", "6", "-o", a, "--json"])
        #expect(r.status == 0 && r.stdout == again.stdout)
        #expect(r.stdout.contains(#""sha256":""#))
        #expect(r.stdout != other.stdout)
    }
}

/// Leniency and limits through the binary.
struct DecodeFlagTests {
    @Test func lenientKeepsWhatDecodedWithAWarning() {
        let dir = CLI.scratch()
        let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let bytes = CLI.bytes(photo)
        let cut = FileSystem.join(dir, "cut.jpg")
        CLI.write(cut, Array(bytes[0..<(bytes.count * 2 / 3)]))
        let strict = CLI.run(["crop", cut, "--at", "1,1", "--size", "2000", "-o", FileSystem.join(dir, "s.png")])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("truncated"))
        let lenient = CLI.run([
            "crop", cut, "--at", "1,1", "--size", "2000", "--lenient", "-o", FileSystem.join(dir, "l.png"),
        ])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.hasPrefix("forcezoom: warning: \(cut): "))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "l.png")) == .regular)
    }

    @Test func pixelLimitIsCheckedFromTheHeader() {
        let dir = CLI.scratch()
        let big = FileSystem.join(dir, "big.png")
        #expect(CLI.run(["fixture", "solid", "--size", "300x200", "-o", big]).status == 0)
        let r = CLI.run(["info", big, "--max-pixels", "50000"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "forcezoom: error: \(big): image is 300x200 (60000 pixels), over the limit of 50000; raise it with --max-pixels N (0 = no limit)\n"
        )
        #expect(CLI.run(["info", big, "--max-pixels", "0"]).status == 0)
        #expect(CLI.run(["info", big, "--max-pixels", "-1"]).status == 2)
    }

    @Test func noAutoOrientUsesStoredPixels() {
        let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")
        let r = CLI.run(["crop", photo, "--at", "899,1599", "--size", "8", "--no-auto-orient", "--geometry-only"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""uprightSize":{"width":900,"height":1600}"#))
        #expect(r.stdout.contains(#""orientation":1"#))
    }
}
