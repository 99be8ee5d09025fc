import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// The ```console examples of README.md, CONTRIBUTING.md and every docs/*.md, run with the
/// built binary: every `$ forcezoom ...` line (and the shell around it: pipes, `echo $?`) in a
/// temporary folder holding the files the examples name (a fresh one per document), its output
/// compared with the document's, volatile fields masked (`ReadmeDoc.masked`). Blocks marked
/// `<!-- doctest: skip -->` are left out.
@Suite("README doc test")
struct ReadmeDocTests {
    static let readme = CLI.read(FileSystem.join(CLI.root, "README.md"))
    /// The documents whose examples run: README.md, CONTRIBUTING.md and docs/*.md, so a new
    /// guide is tested without being listed here.
    static let documents: [String] = {
        let docs = (try? FileSystem.list(FileSystem.join(CLI.root, "docs"))) ?? []
        return ["README.md", "CONTRIBUTING.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()
    /// The thumb example's portrait photo (`make photos` fetches it into .cache).
    static let wine = FileSystem.join(CLI.root, ".cache/photos/batch/Wine_by_Jakkub_Mede.jpg")

    /// A folder with what the examples read: peek.jpg and photo.jpg (the repository's photo),
    /// photos/ for thumb (peek.jpg, 2024/wine.jpg, 2024/broken.jpg cut short), docs/; and
    /// bin/forcezoom, the binary under test, to put first on PATH.
    static func prepare() -> (dir: String, bin: String) {
        let dir = CLI.scratch()
        let bin = CLI.scratch()
        let peek = CLI.bytes(FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg"))
        CLI.write(FileSystem.join(dir, "peek.jpg"), peek)
        CLI.write(FileSystem.join(dir, "photo.jpg"), peek)
        _ = CLI.shell("mkdir -p \(CLI.quote(dir))/photos/2024 \(CLI.quote(dir))/docs")
        CLI.write(FileSystem.join(dir, "photos/peek.jpg"), peek)
        CLI.write(FileSystem.join(dir, "photos/2024/broken.jpg"), Array(peek.prefix(peek.count / 2)))
        if FileSystem.size(of: wine) != nil { CLI.write(FileSystem.join(dir, "photos/2024/wine.jpg"), CLI.bytes(wine)) }
        _ = CLI.shell("ln -s \(CLI.quote(CLI.binary)) \(CLI.quote(bin))/forcezoom")
        return (dir, bin)
    }

    /// Runs a block's commands in one shell (so `echo $?` sees the command before it) and
    /// returns what each printed, stdout and stderr together.
    static func run(_ block: ReadmeDoc.Block, in dir: String, bin: String, environment: [String] = []) -> [String] {
        let marker = "@@forcezoom-doctest@@"
        var script = "exec 2>&1\ncd \(CLI.quote(dir)) || exit 99\nexport PATH=\(CLI.quote(bin)):\"$PATH\"\ns=0\n"
        for variable in environment { script += "export \(CLI.quote(variable))\n" }
        for command in block.commands {
            script += "printf '\\n\(marker)\\n'; (exit $s); \(command.text)\ns=$?\n"
        }
        let file = FileSystem.join(bin, "block.sh")
        let out = FileSystem.join(bin, "block.out")
        CLI.write(file, Array(script.utf8))
        _ = CLI.shell("bash \(CLI.quote(file)) > \(CLI.quote(out)) < /dev/null")
        let parts = CLI.read(out).split(separator: "\(marker)\n", omittingEmptySubsequences: false).dropFirst()
        return parts.map(String.init)
    }

    @Test func everyConsoleExampleRuns() throws {
        try #require(Self.documents.count >= 10, "README.md, CONTRIBUTING.md and the guides in docs/")
        let hasWine = FileSystem.size(of: Self.wine) != nil
        var ran = 0
        for document in Self.documents {
            let doc = ReadmeDoc(CLI.read(FileSystem.join(CLI.root, document)))
            let (dir, bin) = Self.prepare()
            defer { _ = CLI.shell("rm -rf \(CLI.quote(dir)) \(CLI.quote(bin))") }
            // `<!-- doctest: file NAME -->` blocks (a pytest file, a CI step's script) go into
            // the examples' folder first, so console blocks can run them.
            for file in doc.files { CLI.write(FileSystem.join(dir, file.name), Array(file.content.utf8)) }
            for block in doc.blocks where !block.skip && !block.s3 {
                // needs `make photos`
                if !hasWine, block.commands.contains(where: { $0.text.contains("thumb photos") }) { continue }
                ran += Self.check(block, of: document, in: dir, bin: bin)
            }
        }
        #expect(ran >= 20)
    }

    /// The `<!-- doctest: s3 -->` blocks (bucket to bucket, issue 52) against moto on
    /// 127.0.0.1 with SigV4 checked: the examples' photos/ uploaded to s3://photos/library/
    /// (the same files the folder examples read), the server's keys in the environment.
    @Test(.enabled(if: LocalMoto.shared != nil, "needs moto[server] (make deps)"))
    func everyS3ExampleRuns() throws {
        let moto = try #require(LocalMoto.shared)
        var ran = 0
        for document in Self.documents {
            for block in ReadmeDoc(CLI.read(FileSystem.join(CLI.root, document))).blocks where block.s3 {
                let (dir, bin) = Self.prepare()
                defer { _ = CLI.shell("rm -rf \(CLI.quote(dir)) \(CLI.quote(bin))") }
                let photos = ["peek.jpg", "2024/broken.jpg", "2024/wine.jpg"].filter {
                    FileSystem.size(of: FileSystem.join(dir, "photos/" + $0)) != nil
                }
                let put = moto.objects(["put", "photos"] + photos.map { "library/\($0)=\(dir)/photos/\($0)" })
                try #require(put != nil, "\(document):\(block.line): could not upload the examples' photos")
                ran += Self.check(block, of: document, in: dir, bin: bin, environment: moto.environment())
                let made = moto.objects(["list", "photos", "thumbs/"]) ?? ""
                #expect(made.split(separator: "\n").count >= photos.count - 1, "\(document):\(block.line): \(made)")
            }
        }
        #expect(ran >= 2, "the README's and docs/clusters.md's bucket examples")
    }

    @Test func theReadmeHasExamplesOfItsOwn() {
        #expect(ReadmeDoc(Self.readme).blocks.filter { !$0.skip }.count >= 3)
    }

    /// Runs one block and records each command whose output differs from the document's.
    /// - Returns: 1 (the block ran).
    static func check(
        _ block: ReadmeDoc.Block, of document: String, in dir: String, bin: String, environment: [String] = []
    ) -> Int {
        let outputs = run(block, in: dir, bin: bin, environment: environment)
        #expect(outputs.count == block.commands.count, "\(document):\(block.line): the block did not run to its end")
        for (command, output) in zip(block.commands, outputs) {
            var got = ReadmeDoc.masked(output)
            var want = ReadmeDoc.masked(command.expected.joined(separator: "\n"))
            if block.unordered {
                got.sort()
                want.sort()
            }
            if got != want {
                Issue.record(
                    "\(document):\(block.line): $ \(command.text)\n--- \(document)\n\(want.joined(separator: "\n"))\n--- forcezoom\n\(got.joined(separator: "\n"))"
                )
            }
        }
        return 1
    }

    @Test func parsesCommandsOutputsAndMarkers() {
        let doc = ReadmeDoc(
            """
            Text.

            ```console
            $ forcezoom info a.png
            a.png: PNG 1x1
            $ forcezoom fit a.png \\
                --screen 10x20 | sed -n 1p
            {"bytes":12}
            ```

            <!-- doctest: skip (needs a terminal) -->
            ```console
            $ forcezoom thumb x
            ```
            <!-- doctest: unordered -->

            ```console
            $ forcezoom thumb y
            ```
            ```sh
            $ not a console block
            ```
            <!-- doctest: file t.py -->
            ```python
            def test_x():
                assert True
            ```
            """)
        #expect(doc.blocks.count == 3)
        #expect(doc.blocks[0].line == 3 && !doc.blocks[0].skip && !doc.blocks[0].unordered)
        #expect(
            doc.blocks[0].commands == [
                .init(text: "forcezoom info a.png", expected: ["a.png: PNG 1x1"]),
                .init(text: "forcezoom fit a.png  --screen 10x20 | sed -n 1p", expected: ["{\"bytes\":12}"]),
            ])
        #expect(doc.blocks[1].skip && doc.blocks[2].unordered && !doc.blocks[2].skip)
        #expect(doc.files == [.init(line: 24, name: "t.py", content: "def test_x():\n    assert True\n")])
    }

    @Test func masksWhatVaries() {
        #expect(
            ReadmeDoc.mask("{\"output\":\"a.png\",\"bytes\":179144,\"x\":1}")
                == "{\"output\":\"a.png\",\"bytes\":#,\"x\":1}")
        #expect(
            ReadmeDoc.mask("{\"milliseconds\":7.734,\"diffBytes\":161690}") == "{\"milliseconds\":#,\"diffBytes\":#}")
        #expect(ReadmeDoc.mask("forcezoom: 2 thumbnails, 1 failed, 0.1 s") == "forcezoom: 2 thumbnails, 1 failed, # s")
        #expect(ReadmeDoc.mask("{\"width\":400,\"bytes\":null}") == "{\"width\":400,\"bytes\":null}")
        #expect(ReadmeDoc.masked("a\n\n") == ["a"])
    }
}
