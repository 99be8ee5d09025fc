import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import Geometry

/// `thumb`'s arguments as people type them (issue 37): `thumb one.jpg -o small.jpg` writes
/// that file; a name like that with several inputs is a usage error pointing at --name; a
/// folder that exists under such a name stays a folder; an input dropped as the same file as
/// another is named in the summary.
@Suite
struct ThumbOutputCLITests {
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// A scratch folder holding `one.jpg` and `two.jpg` (the repository's 1600x900 upright photo).
    static func folder() -> String {
        let dir = CLI.scratch()
        CLI.write(FileSystem.join(dir, "one.jpg"), CLI.bytes(photo))
        CLI.write(FileSystem.join(dir, "two.jpg"), CLI.bytes(photo))
        return dir
    }

    static func header(_ path: String) throws -> ImageHeader { try ImageReader(path: path).header }

    @Test func oneInputAndAnImageNameWritesThatFile() throws {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg", "-o", "small.jpg"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = FileSystem.join(dir, "small.jpg")
        #expect(FileSystem.kind(of: out) == .regular)
        let h = try Self.header(out)
        #expect(h.formatName == "JPEG" && h.storedSize == PixelSize(width: 256, height: 144))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs")) == .missing)
        #expect(r.stderr.contains("1 thumbnail, 0 failed"))
    }

    @Test func theNameCanHaveAFolderAnUpperCaseExtensionAndAPercentSign() throws {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg", "--out", "new dir/100% small.WEBP", "--size", "64"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let h = try Self.header(FileSystem.join(dir, "new dir/100% small.WEBP"))
        #expect(h.formatName == "WebP" && h.storedSize == PixelSize(width: 64, height: 36))
    }

    @Test func aFolderThatExistsUnderSuchANameStaysAFolder() throws {
        let dir = Self.folder()
        #expect(CLI.shell("mkdir \(CLI.quote(FileSystem.join(dir, "2024.jpg")))") == 0)
        let r = CLI.run(["thumb", "one.jpg", "-o", "2024.jpg"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "2024.jpg/one.thumb.png")) == .regular)
    }

    @Test(arguments: [
        ["one.jpg", "two.jpg", "-o", "small.jpg"],
        [".", "-o", "small.jpg"],
        ["--from", "list.txt", "-o", "small.jpg"],
    ])
    func severalInputsAndAnImageNameIsAUsageError(_ arguments: [String]) {
        let dir = Self.folder()
        CLI.write(FileSystem.join(dir, "list.txt"), Array("one.jpg\n".utf8))
        let r = CLI.run(["thumb"] + arguments, in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--out small.jpg is the folder thumbnails go in"), "\(r.stderr)")
        #expect(r.stderr.contains("--name '%s.jpg'"))
        #expect(FileSystem.kind(of: FileSystem.join(dir, "small.jpg")) == .missing)
    }

    @Test func aFileNameAndNameContradict() {
        let dir = Self.folder()
        let r = CLI.run(["thumb", "one.jpg", "-o", "small.jpg", "--name", "%s.png"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("drop --name"), "\(r.stderr)")
    }

    @Test func theFileIsNeverTheInput() {
        let dir = Self.folder()
        let before = CLI.bytes(FileSystem.join(dir, "one.jpg"))
        let r = CLI.run(["thumb", "one.jpg", "-o", "one.jpg"], in: dir)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(CLI.bytes(FileSystem.join(dir, "one.jpg")) == before)
    }

    @Test func aFileGivenWithItsFolderIsNamedInTheSummary() {
        let dir = Self.folder()
        let photos = FileSystem.join(dir, "photos")
        #expect(CLI.shell("mkdir \(CLI.quote(photos)) && mv \(CLI.quote(dir))/one.jpg \(CLI.quote(photos))/") == 0)
        #expect(CLI.shell("ln -s photos/one.jpg \(CLI.quote(FileSystem.join(dir, "link.jpg")))") == 0)
        let r = CLI.run(["thumb", "link.jpg", "photos", "--out", "t"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains("1 thumbnail, 0 failed")
                && r.stderr.hasSuffix(
                    "s; taken once: photos/one.jpg (the same file as link.jpg)\n"),
            "\(r.stderr)")
        let dry = CLI.run(["thumb", "link.jpg", "photos", "--out", "t", "--dry-run"], in: dir)
        #expect(
            dry.status == 0
                && dry.stderr.contains(
                    "dry run: 1 of 1 input to do; taken once: photos/one.jpg (the same file as link.jpg)"),
            "\(dry.stderr)")
        let twice = CLI.run(["thumb", "two.jpg", "two.jpg", "--out", "t"], in: dir)
        #expect(twice.status == 0 && twice.stderr.contains("; taken once: two.jpg (given twice)"), "\(twice.stderr)")
    }
}
