import FZCodecs
import FZImage
import Testing

@testable import FZOperations

/// `HeldWarnings`: warnings said while held come out later, in their order and each the way
/// it was said (`say` or `once`), and only when taken out and said.
@Suite("Held warnings")
struct HeldWarningsTests {
    /// What reached the real warnings, each marked with the way it was said.
    final class Said {
        var lines: [String] = []
    }

    @Test func heldWarningsComeOutLaterInOrder() {
        let said = Said()
        let settings = RenderSettings(
            decode: DecodeOptions(), color: ColorPolicy(mode: .keep, intent: .relative), lenient: false,
            png: .compression(1),
            warnings: Warnings(say: { said.lines.append("say \($0)") }, once: { said.lines.append("once \($0)") }))
        let (ahead, held) = HeldWarnings.holding(settings)
        ahead.warnings.once("first")
        ahead.warnings.say("second")
        let early = held.take()
        ahead.warnings.once("third")
        let late = held.take()
        #expect(said.lines.isEmpty, "nothing is said while held")
        settings.warnings.say("between")
        early.say(to: settings.warnings)
        #expect(said.lines == ["say between", "once first", "say second"])
        late.say(to: settings.warnings)
        #expect(said.lines.last == "once third")
        held.take().say(to: settings.warnings)
        #expect(said.lines.count == 4, "a take after the last is empty")
    }
}
