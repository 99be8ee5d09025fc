import TestSupport
import Testing

@testable import FZSystem

/// The HEIF files libheif 1.15 asserts on or recurses through without end, and the BMP masks
/// that trapped (issue 53, issue 51 item 1; Tools/hostile/hostile_heif_refs.py and
/// hostile_bmp_masks.py). Each HEIF one is refused before libheif reads it, under every
/// command, `info --json` too, with one line naming the file (before: exit 134, SIGABRT, or
/// 139, SIGSEGV); a batch goes on past it; a BMP one decodes, and `thumb` and `compare` finish
/// (before: exit 132, SIGILL). HostileInputTests runs info, crop, fit and thumb on the same
/// files; this adds `info --json`, the batch, compare and the exact sentence of each check.
@Suite("libheif asserts and BMP masks")
struct LibheifAssertCLITests {
    static let dir = FileSystem.join(CLI.root, "Fixtures/hostile")

    /// Each reproducer and the words its one line must hold.
    static let refused: [(file: String, words: String)] = [
        ("heif-iden-ref-box-size-5.heic", "derived image 2 refers to item 24934, which the file does not declare"),
        ("heif-iden-source-not-image.heic", "derived image 2 refers to item 1, an item of type 'Exif'"),
        ("heif-iovl-missing-source.heic", "the image derives from item 24934, which the file does not have"),
        ("heif-idat-extent-wraps.heic", "item 2's data lies outside the idat box"),
        ("heif-alpha-loop.heic", "the derivation and alpha references (dimg, auxl) of item 1 come back to it (a loop)"),
        ("heif-iden-two-item-loop.heic", "the image's derivation references (dimg) form a loop"),
        ("heif-thumbnail-missing-master.heic", "thumbnail 3 refers to item 24934, which the file does not declare"),
        ("heif-auxl-to-itself.heic", "auxiliary image 3 refers to itself"),
        ("heif-cdsc-missing-image.heic", "metadata item 3 describes item 24934, which the file does not declare"),
        ("heif-iloc-method-2.heic", "item 2 is stored with construction method 2"),
        ("heif-idat-missing.heic", "item 2 is stored in an idat box (construction method 1) the file does not have"),
        ("heif-ref-box-past-iref.heic", "reference box 1 in iref (dimg from item 2) declares 256 bytes, past the end"),
        ("heif-ref-box-holds-less.heic", "reference box 1 in iref (dimg from item 2) declares 16 bytes but holds 14"),
    ]

    static let commands: [[String]] = [
        ["info"], ["info", "--json"], ["crop", "--at", "50%,50%", "-o", "{out}/c.png"],
        ["fit", "--screen", "390x844", "-o", "{out}/f.png"], ["thumb", "--quiet", "--size", "64", "--out", "{out}"],
    ]

    @Test(arguments: refused.map(\.file))
    func refusedInOneLineByEveryCommand(_ file: String) throws {
        let words = try #require(Self.refused.first { $0.file == file }).words
        for command in Self.commands {
            let out = CLI.scratch()
            let r = CLI.measure(command.map { $0.replacing("{out}", with: out) } + ["--", file], in: Self.dir)
            let label = "\(command.joined(separator: " ")) \(file)"
            #expect(r.signal == nil && r.exitCode == 1, "\(label): \(r)")
            #expect(
                r.stderr.hasPrefix("forcezoom: error: \(file): corrupt image header (\(words)"), "\(label): \(r.stderr)"
            )
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(words), "\(label): \(r.stderr)")
            if command == ["info", "--json"] {
                #expect(r.stdout.contains("\"file\":\"\(file)\"") && r.stdout.contains(words), "\(label): \(r.stdout)")
            }
            #expect(((try? FileSystem.list(out)) ?? []).isEmpty, "\(label): output left")
            _ = CLI.shell("rm -rf \(CLI.quote(out))")
        }
    }

    /// A thumbnail batch goes on past each of them, and reads the BMPs that trapped.
    @Test func aBatchGoesOnPastThem() throws {
        let out = CLI.scratch()
        let bmps = ["bmp-mask-80000001.bmp", "bmp-mask16-8001.bmp", "bmp-v5-alpha-81000000.bmp", "bmp-v3-mask-b00.bmp"]
        let files = Self.refused.map(\.file) + ["good.png"] + bmps
        let r = CLI.measure(["thumb", "--size", "64", "--out", out, "--"] + files, in: Self.dir)
        #expect(r.signal == nil && r.exitCode == 1, "\(r)")
        #expect(r.stderr.contains("\(1 + bmps.count) thumbnails, \(Self.refused.count) failed"), "\(r.stderr)")
        #expect(try FileSystem.list(out).count == 1 + bmps.count)
        _ = CLI.shell("rm -rf \(CLI.quote(out))")
    }

    /// compare decodes both sides: a BMP with such masks against itself is identical.
    @Test(arguments: ["bmp-mask-80000001.bmp", "bmp-v4-overlap-f000000f.bmp", "bmp-v3-mask-b00.bmp"])
    func compareReadsThem(_ file: String) {
        let r = CLI.measure(["compare", file, file], in: Self.dir)
        #expect(r.signal == nil && r.exitCode == 0, "\(r)")
    }
}
