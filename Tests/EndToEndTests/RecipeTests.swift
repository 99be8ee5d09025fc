import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// The photo-library recipes of the docs (issue 37), run as written on a messy folder: a
/// broken file, upper-case extensions (.JPG), a .jpeg, an HEIC, a name and a folder with a
/// space, a text file. Each recipe is a file in Tools/recipes/ that the docs hold word for word.
@Suite(.serialized)
struct RecipeTests {
    static let recipes = FileSystem.join(CLI.root, "Tools/recipes")
    static let photo = FileSystem.join(CLI.root, "Fixtures/photos/peek.jpg")

    /// dir/photos/ as a real library is, and dir/bin/forcezoom (the binary under test) for PATH.
    static func library() -> String {
        let dir = CLI.scratch()
        let photos = FileSystem.join(dir, "photos")
        #expect(
            CLI.shell("mkdir -p \(CLI.quote(photos))/2024 \(CLI.quote(photos))/'sub dir' \(CLI.quote(dir))/bin") == 0)
        let jpeg = CLI.bytes(photo)
        CLI.write(FileSystem.join(photos, "2024/IMG_0001.JPG"), jpeg)
        CLI.write(FileSystem.join(photos, "2024/b.jpeg"), jpeg)
        CLI.write(FileSystem.join(photos, "sub dir/IMG 2.jpg"), jpeg)
        CLI.write(FileSystem.join(photos, "broken.jpg"), Array(jpeg.prefix(jpeg.count / 2)))
        CLI.write(FileSystem.join(photos, "notes.txt"), Array("not a photo\n".utf8))
        let heic = CLI.run(["thumb", photo, "-o", FileSystem.join(photos, "c.HEIC"), "--size", "400"])
        #expect(heic.status == 0, "\(heic.stderr)")
        #expect(CLI.shell("ln -s \(CLI.quote(CLI.binary)) \(CLI.quote(dir))/bin/forcezoom") == 0)
        return dir
    }

    /// Runs `command` with bash in `dir`, the binary first on PATH; its exit status and output.
    static func sh(_ command: String, in dir: String, env: String = "") -> (status: Int32, output: String) {
        let log = FileSystem.join(dir, "log.txt")
        let status = CLI.shell(
            "cd \(CLI.quote(dir)) && env PATH=\(CLI.quote(dir))/bin:\"$PATH\" \(env) bash -c \(CLI.quote(command)) > \(CLI.quote(log)) 2>&1 < /dev/null"
        )
        return (status, CLI.read(log))
    }

    static func mtime(_ path: String) -> Int? { FileSystem.status(path).map { Int($0.st_mtim.tv_sec) } }

    static let madeThumbs = ["2024/IMG_0001.jpg", "2024/b.jpg", "sub dir/IMG 2.jpg", "c.jpg"]

    @Test func theDocsHoldTheRecipesWordForWord() throws {
        var docs = CLI.read(FileSystem.join(CLI.root, "README.md"))
        if let names = try? FileSystem.list(FileSystem.join(CLI.root, "docs")) {
            for name in names where name.hasSuffix(".md") {
                docs += CLI.read(FileSystem.join(CLI.root, "docs/" + name))
            }
        }
        for recipe in ["thumbs-since.sh", "Makefile.thumbs"] {
            let text = CLI.read(FileSystem.join(Self.recipes, recipe))
            #expect(!text.isEmpty && docs.contains(text), "docs do not hold Tools/recipes/\(recipe) as it is")
        }
    }

    /// The incremental find recipe: the stamp stays while a failure is new, moves on once the
    /// only inputs left are those left last time (the broken file), and then only new photos
    /// are listed.
    @Test func theIncrementalRecipeMovesItsStampPastABrokenFile() throws {
        let dir = Self.library()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let env = "PHOTOS=photos THUMBS=thumbs"
        let script = FileSystem.join(Self.recipes, "thumbs-since.sh")
        let stamp = FileSystem.join(dir, "thumbs/.since/stamp")

        let first = Self.sh("sh \(CLI.quote(script))", in: dir, env: env)
        #expect(first.status == 1, "\(first.output)")
        #expect(first.output.contains("broken.jpg: file is truncated"), "\(first.output)")
        for t in Self.madeThumbs {
            #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs/" + t)) == .regular, "\(t) made")
        }
        #expect(Self.mtime(stamp) == 0, "a new failure keeps the stamp")
        let made = Self.mtime(FileSystem.join(dir, "thumbs/2024/IMG_0001.jpg"))

        let second = Self.sh("sh \(CLI.quote(script))", in: dir, env: env)
        #expect(second.status == 1, "\(second.output)")
        #expect((Self.mtime(stamp) ?? 0) > 0, "only the file that failed before is left: the stamp moves")
        #expect(Self.mtime(FileSystem.join(dir, "thumbs/2024/IMG_0001.jpg")) == made, "kept, not redone")

        let third = Self.sh("sh \(CLI.quote(script))", in: dir, env: env)
        #expect(third.status == 0, "\(third.output)")
        #expect(CLI.read(FileSystem.join(dir, "thumbs/.since/list")).isEmpty, "nothing new, nothing listed")

        CLI.write(FileSystem.join(dir, "photos/sub dir/new one.JPG"), CLI.bytes(Self.photo))
        #expect(CLI.shell("touch -d '+1 minute' \(CLI.quote(dir))/photos/'sub dir/new one.JPG'") == 0)
        let fourth = Self.sh("sh \(CLI.quote(script))", in: dir, env: env)
        #expect(fourth.status == 0, "\(fourth.output)")
        #expect(CLI.read(FileSystem.join(dir, "thumbs/.since/list")) == "./sub dir/new one.JPG\0")
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs/sub dir/new one.jpg")) == .regular)
    }

    /// The Makefile recipe: every extension's rule, the spaced names through forcezoom, the
    /// broken file failing only its own target; a second run makes nothing.
    @Test func theMakefileRecipeBuildsEveryPhotoAndThenNothing() throws {
        let dir = Self.library()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        #expect(CLI.shell("cp \(CLI.quote(Self.recipes))/Makefile.thumbs \(CLI.quote(dir))/Makefile") == 0)
        let first = Self.sh("make -k -j2", in: dir)
        #expect(first.status == 2, "make -k fails for broken.jpg only: \(first.output)")
        #expect(first.output.contains("broken.jpg: file is truncated"), "\(first.output)")
        for t in Self.madeThumbs {
            #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs/" + t)) == .regular, "\(t) made")
        }
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs/broken.jpg")) == .missing)
        #expect(FileSystem.kind(of: FileSystem.join(dir, "thumbs/notes.jpg")) == .missing)
        let times = Self.madeThumbs.map { Self.mtime(FileSystem.join(dir, "thumbs/" + $0)) }
        let upToDate = Self.sh("make -q thumbs/2024/IMG_0001.jpg thumbs/2024/b.jpg thumbs/c.jpg", in: dir)
        #expect(upToDate.status == 0, "make sees the thumbnails up to date: \(upToDate.output)")
        let second = Self.sh("make -k -j2", in: dir)
        #expect(second.status == 2 && !second.output.contains("IMG_0001"), "\(second.output)")
        #expect(Self.madeThumbs.map { Self.mtime(FileSystem.join(dir, "thumbs/" + $0)) } == times)
    }
}
