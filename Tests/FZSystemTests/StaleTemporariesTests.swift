import Testing

@testable import FZSystem

/// Which names `StaleTemporaries` takes for a killed run's temporaries: exactly the pattern
/// `OutputFile` makes (`.NAME.fz-` and six letters or digits), nothing else.
struct StaleTemporariesTests {
    @Test func onlyOurPatternNamesATarget() {
        #expect(StaleTemporaries.target(ofTemporary: ".p_3.jpg.fz-Ab12Cd") == "p_3.jpg")
        #expect(StaleTemporaries.target(ofTemporary: "..hidden.fz-000000") == ".hidden")
        for other in [
            "p_3.jpg.fz-Ab12Cd", ".p_3.jpg.fz-Ab12C", ".p_3.jpg.fz-Ab12Cde", ".p_3.jpg.fz-Ab12C-", ".fz-Ab12Cd",
            ".p.jpg.fy-Ab12Cd", ".p.jpg", "",
        ] {
            #expect(StaleTemporaries.target(ofTemporary: other) == nil, "\(other)")
        }
    }
}
