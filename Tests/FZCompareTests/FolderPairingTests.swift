import Testing

@testable import FZCompare

/// The pairing rule of `compare EXPECTED_DIR ACTUAL_DIR` on lists of relative paths, and the
/// escaping every report writer uses.
@Suite("folder pairing")
struct FolderPairingTests {
    typealias Pair = FolderPairing.Pair

    @Test func samePathPairsFirst() {
        let pairs = FolderPairing.pair(expected: ["a.png", "d/b.jpg"], actual: ["d/b.jpg", "a.png", "c.png"])
        #expect(
            pairs == [
                Pair(key: "a.png", expected: "a.png", actual: "a.png"),
                Pair(key: "c.png", expected: nil, actual: "c.png"),
                Pair(key: "d/b.jpg", expected: "d/b.jpg", actual: "d/b.jpg"),
            ])
    }

    @Test func stemPairsAcrossFormatsOnlyWhenUnambiguous() {
        // home: one image on each side, formats differ -> paired.
        #expect(
            FolderPairing.pair(expected: ["home.png"], actual: ["home.webp"])
                == [Pair(key: "home.png", expected: "home.png", actual: "home.webp")])
        // Two expected images of one stem: neither pairs by stem.
        #expect(
            FolderPairing.pair(expected: ["a.jpg", "a.png"], actual: ["a.webp"])
                == [
                    Pair(key: "a.jpg", expected: "a.jpg", actual: nil),
                    Pair(key: "a.png", expected: "a.png", actual: nil),
                    Pair(key: "a.webp", expected: nil, actual: "a.webp"),
                ])
        // a.png pairs by path; the other actual a.webp is not taken by stem (two actual a.*).
        #expect(
            FolderPairing.pair(expected: ["a.png"], actual: ["a.png", "a.webp"])
                == [
                    Pair(key: "a.png", expected: "a.png", actual: "a.png"),
                    Pair(key: "a.webp", expected: nil, actual: "a.webp"),
                ])
        // The stem is the whole relative path: x/a.png and y/a.webp do not pair.
        #expect(
            FolderPairing.pair(expected: ["x/a.png"], actual: ["y/a.webp"]).allSatisfy {
                $0.expected == nil || $0.actual == nil
            })
    }

    @Test func xmlEscapingKeepsNamesText() {
        #expect(JUnitReport.escape("a<b>&\"c'.png") == "a&lt;b&gt;&amp;&quot;c&apos;.png")
        #expect(JUnitReport.escape("x\u{1B}y\u{0}z") == "x\u{FFFD}y\u{FFFD}z")
        #expect(JUnitReport.escape("tab\there") == "tab&#9;here")
    }
}
