import Testing

@testable import FZSystem
@testable import FZThumbnails

/// `--name` patterns and the checks a plan makes before any work starts.
struct ThumbnailPlanTests {
    typealias Input = ThumbnailPlan.Input

    @Test(arguments: [
        ("%s.thumb.png", "2024/IMG_1.JPG", "2024", 7, "IMG_1.thumb.png"),
        ("%d/%s.jpg", "photos/2024/IMG_1.JPG", "2024", 7, "2024/IMG_1.jpg"),
        ("%d/%s.jpg", "IMG_1.JPG", "", 7, "IMG_1.jpg"),  // at the walk root %d vanishes, slash too
        ("%s.%e.png", "a/b.c/IMG_1.JPG", "", 1, "IMG_1.JPG.png"),
        ("t-%i.png", "x.png", "", 42, "t-42.png"),
        ("100%%-%s.png", "x.png", "", 1, "100%-x.png"),
        ("./small/%s.png", ".hidden", "", 1, "small/.hidden.png"),
        ("%s.png", "noext", "", 1, "noext.png"),
        ("%d//%s.png", "a/b/c.jpg", "a/b", 1, "a/b/c.png"),
    ])
    func expands(_ pattern: String, _ input: String, _ folder: String, _ index: Int, _ expected: String) throws {
        #expect(try ThumbnailName(pattern).expand(input: input, folder: folder, index: index) == expected)
    }

    @Test(arguments: [
        ("%x.png", "unknown code %x"), ("%s.png%", "lone %"), ("/abs/%s.png", "absolute"),
        ("", "names no file"), ("dir/", "names no file"), ("../%s.png", "'..'"),
    ])
    func rejectsPatterns(_ pattern: String, _ reason: String) {
        #expect {
            try ThumbnailName(pattern)
        } throws: { error in
            guard let e = error as? ThumbnailError, case .invalidPattern(let p, let r) = e else { return false }
            return p == pattern && r.contains(reason)
        }
    }

    /// No file exists: identities are all absent.
    static func none(_: String) -> FileIdentity? { nil }

    @Test func plansPathsIndicesAndFormats() throws {
        let inputs = [Input(path: "a/x.jpg", folder: "a"), Input(path: "b/x.png", folder: "b"), Input(path: "y.jpeg")]
        let plan = try ThumbnailPlan(
            inputs: inputs, folder: "out", name: ThumbnailName("%d/%s-%i.JPG"), identity: Self.none)
        #expect(plan.jobs.map(\.output) == ["out/a/x-1.JPG", "out/b/x-2.JPG", "out/y-3.JPG"])
        #expect(plan.jobs.map(\.index) == [1, 2, 3])
        #expect(plan.jobs.allSatisfy { $0.format == .jpeg })
        #expect(plan.folders == ["a", "b", "."])
        let png = try ThumbnailPlan(inputs: inputs, folder: ".", name: ThumbnailName("%d/%s.png"), identity: Self.none)
        #expect(png.jobs.map(\.output) == ["a/x.png", "b/x.png", "y.png"])
        #expect(png.jobs.allSatisfy { $0.format == .png })
    }

    @Test func twoInputsOnOneNameIsAnErrorNamingBoth() throws {
        let inputs = [
            Input(path: "a/x.jpg", folder: "a"), Input(path: "q.png"), Input(path: "b/x.png", folder: "b"),
            Input(path: "c/x.jpg", folder: "c"),
        ]
        #expect(throws: ThumbnailError.collision(output: "thumbs/x.thumb.png", inputs: ["a/x.jpg", "b/x.png"])) {
            try ThumbnailPlan(inputs: inputs, folder: "thumbs", name: ThumbnailName(), identity: Self.none)
        }
        // The message says how to fix it.
        let e = ThumbnailError.collision(output: "thumbs/x.thumb.png", inputs: ["a/x.jpg", "b/x.png"])
        #expect(
            e.description
                == "thumbs/x.thumb.png: a/x.jpg, b/x.png would both be written here; add %d (mirror folders), %e or %i to --name"
        )
        // %d, %e or %i separate them.
        #expect(
            try ThumbnailPlan(inputs: inputs, folder: "thumbs", name: ThumbnailName("%d/%s.png"), identity: Self.none)
                .jobs.count == 4)
        #expect(
            try ThumbnailPlan(inputs: inputs, folder: "thumbs", name: ThumbnailName("%s-%i.png"), identity: Self.none)
                .jobs.count == 4)
        #expect(throws: ThumbnailError.self) {  // %e alone: a/x.jpg and c/x.jpg still meet
            try ThumbnailPlan(inputs: inputs, folder: "thumbs", name: ThumbnailName("%s.%e.png"), identity: Self.none)
        }
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        // "./p.png" and "p.png" are one file: the identity says so, not the spelling.
        let ids: [String: FileIdentity] = [
            "./p.png": FileIdentity(device: 1, inode: 10), "p.png": FileIdentity(device: 1, inode: 10),
            "q.jpg": FileIdentity(device: 1, inode: 11),
        ]
        #expect(throws: ThumbnailError.wouldOverwriteInput(input: "./p.png", output: "p.png")) {
            try ThumbnailPlan(
                inputs: [Input(path: "./p.png"), Input(path: "q.jpg")], folder: ".", name: ThumbnailName("%s.%e"),
                identity: { ids[$0] })
        }
    }

    @Test func outputsMustSayPNGOrJPEG() throws {
        #expect(throws: ThumbnailError.unsupportedOutputFormat(output: "t/x.gif")) {
            try ThumbnailPlan(
                inputs: [Input(path: "x.png")], folder: "t", name: ThumbnailName("%s.gif"), identity: Self.none)
        }
        // %e decides per input: a .JPG input makes a JPEG, a .webp one a WebP, a .heic one a HEIC.
        let ok = try ThumbnailPlan(
            inputs: [Input(path: "x.JPG")], folder: "t", name: ThumbnailName("%s.small.%e"), identity: Self.none)
        #expect(ok.jobs[0].format == .jpeg)
        let webp = try ThumbnailPlan(
            inputs: [Input(path: "y.webp")], folder: "t", name: ThumbnailName("%s.small.%e"), identity: Self.none)
        #expect(webp.jobs[0].format == .webp)
        let heic = try ThumbnailPlan(
            inputs: [Input(path: "y.heic")], folder: "t", name: ThumbnailName("%s.small.%e"), identity: Self.none)
        #expect(heic.jobs[0].format == .heic)
        #expect(throws: ThumbnailError.unsupportedOutputFormat(output: "t/y.small.gif")) {
            try ThumbnailPlan(
                inputs: [Input(path: "y.gif")], folder: "t", name: ThumbnailName("%s.small.%e"), identity: Self.none)
        }
        // --format names the format where the extension names none, and must agree where it does.
        let named = try ThumbnailPlan(
            inputs: [Input(path: "x.png")], folder: "t", name: ThumbnailName("%s.thumb"), identity: Self.none,
            requested: .avif)
        #expect(named.jobs[0].format == .avif)
        #expect(throws: ThumbnailError.unsupportedOutputFormat(output: "t/x.png")) {
            try ThumbnailPlan(
                inputs: [Input(path: "x.png")], folder: "t", name: ThumbnailName("%s.png"), identity: Self.none,
                requested: .jpeg)
        }
    }

    @Test func aFolderWithDotDotCannotLeaveTheOutputFolder() throws {
        #expect(throws: ThumbnailError.outsideOutputFolder(input: "../x.jpg", output: "t/../x.png")) {
            try ThumbnailPlan(
                inputs: [Input(path: "../x.jpg", folder: "..")], folder: "t", name: ThumbnailName("%d/%s.png"),
                identity: Self.none)
        }
    }
}
