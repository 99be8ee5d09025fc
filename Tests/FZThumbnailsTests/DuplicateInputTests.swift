import Testing

@testable import FZThumbnails

/// The summary's words for inputs taken once (`DuplicateInput`), and `BatchProgress` adding them.
struct DuplicateInputTests {
    static func dup(_ path: String, _ sameAs: String) -> DuplicateInput {
        DuplicateInput(input: ThumbnailPlan.Input(path: path, folder: ""), sameAs: sameAs)
    }

    @Test func namesTheFileAndWhatItIsTheSameAs() {
        #expect(DuplicateInput.summary([]) == nil)
        #expect(
            DuplicateInput.summary([Self.dup("dir/a.jpg", "link.jpg"), Self.dup("b.jpg", "b.jpg")])
                == "taken once: dir/a.jpg (the same file as link.jpg), b.jpg (given twice)")
        let many = (1...5).map { Self.dup("\($0).jpg", "\($0).jpg") }
        #expect(
            DuplicateInput.summary(many)
                == "taken once: 1.jpg (given twice), 2.jpg (given twice), 3.jpg (given twice), and 2 more")
    }

    @Test func theSummaryEndsWithThem() {
        var p = BatchProgress(total: 1)
        p.record(.made)
        p.duplicates = [Self.dup("x.jpg", "x.jpg")]
        #expect(p.summary(elapsed: 0.2) == "1 thumbnail, 0 failed, 0.2 s; taken once: x.jpg (given twice)")
    }
}
