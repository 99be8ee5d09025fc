import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// `thumb --size 256x256 --crop-at attention` keeps the subject: on 100 generated cases
/// (Tools/interest/make-cases.py: scikit-image's coffee cup placed at random over low-detail
/// and busy but uniform backgrounds, landscape 1600x600 and portrait 600x1600, so the kept
/// 600x600 window holds the cup only when placed well), the window forcezoom reports holds
/// the whole cup in at least 90 (Tools/interest/score.py checks each against the cases'
/// table). vipsthumbnail's rate on the same cases is in docs/regions.md (score.py --vips).
@Suite("Attention quality")
struct AttentionQualityCLITests {
    static let photos = FileSystem.join(CLI.root, ".cache/photos")
    static let coffee = FileSystem.join(photos, "png/coffee.png")
    static let texture = FileSystem.join(photos, "batch/Dragonfly_by_Bolly.jpg")

    @Test("The 256x256 attention crop holds the object in at least 90 of 100 cases")
    func keepsTheSubject() throws {
        try #require(access(Self.coffee, R_OK) == 0 && access(Self.texture, R_OK) == 0, "no .cache/photos: make photos")
        let dir = CLI.scratch()
        let tools = FileSystem.join(CLI.root, "Tools/interest")
        #expect(
            CLI.shell(
                "\(CLI.python) \(CLI.quote(tools + "/make-cases.py")) \(CLI.quote(Self.coffee)) \(CLI.quote(Self.texture)) \(CLI.quote(dir)) 100 49"
            ) == 0)
        let out = FileSystem.join(dir, "score.txt")
        #expect(
            CLI.shell(
                "\(CLI.python) \(CLI.quote(tools + "/score.py")) \(CLI.quote(CLI.binary)) \(CLI.quote(dir)) > \(CLI.quote(out))"
            ) == 0)
        let words = CLI.read(out).split(separator: " ")
        let score = try #require(words.count > 1 ? words[1].split(separator: "/").compactMap { Int($0) } : nil)
        try #require(score.count == 2, "score.py said \(CLI.read(out))")
        #expect(score[1] == 100)
        #expect(score[0] >= 90, "attention kept the object in \(score[0]) of 100: \(CLI.read(out))")
    }
}
