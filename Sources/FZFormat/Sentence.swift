/// "a, b and c": a list of names as a message or a help text says it. Here, below every
/// format, so that a format's own messages (`FormatLibrary`) and the registry's
/// (`FormatRegistry.sentence`) join words one way.
package func sentence(_ words: [String], _ conjunction: String) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
}
