import Testing

@testable import FZOperations
@testable import FZSystem

/// The words an operation says: records on standard output one line each, notes on standard
/// error as one line that a file name cannot break or turn into terminal commands.
@Suite("Report")
struct ReportTests {
    @Test func aRecordIsOneLineOfJSON() {
        let said = Said()
        said.report.record(JSON.record([("input", .string("a\nb.png")), ("bytes", .int(3))]))
        #expect(said.lines.count == 1)
        #expect(!said.lines[0].contains("\n"))
        #expect(said.lines[0].hasPrefix("{") && said.lines[0].hasSuffix("}"))
    }

    @Test func aNoteIsOneEscapedLineAfterTheProgramsName() {
        let said = Said()
        said.report.note("x\u{1B}]0;title\u{07}\nforged line")
        #expect(said.stderr.count == 1)
        let note = said.stderr[0]
        #expect(note.hasPrefix("forcezoom: x") && note.hasSuffix("forged line\n"))
        #expect(note.dropLast().allSatisfy { $0 != "\n" && $0 != "\u{1B}" && $0 != "\u{07}" })
    }
}
