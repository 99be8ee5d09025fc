/// A command line read the plain way, for `Crop.quick(_:)`: one positional value and long
/// options (`--name value`, `--name=value`) and `-o value`, each at most once unless it
/// repeats in swift-argument-parser too. Anything else (`--`, short flags run together, a
/// value that looks like an option, an empty argument, a name used twice) is refused, and
/// the caller leaves the whole line to the parser, whose errors and rules it is.
///
/// Why: parsing a command with swift-argument-parser builds every option's definition by
/// reflection, and the Swift runtime answers each new generic type and cast it meets with
/// a search of every protocol conformance in the binary (4,294 records, about 100 times):
/// 6-8 ms, a third of a one-tile crop (`crop --at X,Y --size 16` of a phone HEIC).
struct QuickArguments {
    /// One argument as read: a positional value, or an option's name.
    enum Item {
        case value(String)
        case option(String)
    }

    private let arguments: [String]
    private var index = 0
    /// The value written after `=` in the option just read.
    private var attached: String?
    /// The options read so far, by the name their property goes by (`once`); a few, so an
    /// array (a first Set<String> would cost a search of the binary's conformances).
    private var seen: [String] = []
    /// Whether something was refused: the caller returns nil.
    private(set) var refused = false

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, or nil at the end (or once something was refused).
    mutating func next() -> Item? {
        guard !refused, attached == nil, index < arguments.count else {
            // An option that took no value left its `=value` unread: the parser's error.
            if attached != nil { refused = true }
            return nil
        }
        let argument = arguments[index]
        index += 1
        if argument == "-" { return .value(argument) }
        if argument.isEmpty || argument == "--" { return refuse() }
        if argument.hasPrefix("--") {
            guard let equals = argument.firstIndex(of: "=") else { return .option(argument) }
            attached = String(argument[argument.index(after: equals)...])
            return .option(String(argument[..<equals]))
        }
        if argument == "-o" { return .option(argument) }
        return argument.hasPrefix("-") ? refuse() : .value(argument)
    }

    /// The value of the option just read (`key` names its property): after `=`, else the
    /// next argument, which must not look like an option; nil (and refused) without one or
    /// with an empty one.
    mutating func value(_ key: String, repeats: Bool = false) -> String? {
        guard once(key, repeats: repeats) else { return nil }
        if let value = attached {
            attached = nil
            // `--marker=`: the parser says "Missing value"; an empty value is never taken here.
            return value.isEmpty ? refuse() : value
        }
        guard index < arguments.count else { return refuse() }
        let value = arguments[index]
        guard value == "-" || (!value.hasPrefix("-") && !value.isEmpty) else { return refuse() }
        index += 1
        return value
    }

    /// The value of the option just read, converted; nil (and refused) if it does not convert.
    mutating func value<T>(_ key: String, repeats: Bool = false, as convert: (String) -> T?) -> T? {
        guard let text = value(key, repeats: repeats) else { return nil }
        guard let converted = convert(text) else { return refuse() }
        return converted
    }

    /// A flag just read: true, unless a value was attached to it or it came before.
    mutating func flag(_ key: String) -> Bool {
        guard attached == nil else {
            refused = true
            return false
        }
        return once(key, repeats: false)
    }

    /// Marks the reading refused, for what the caller itself cannot take.
    @discardableResult
    mutating func refuse<T>() -> T? {
        refused = true
        return nil
    }

    private mutating func once(_ key: String, repeats: Bool) -> Bool {
        if repeats { return true }
        guard !seen.contains(key) else { return refuse() ?? false }
        seen.append(key)
        return true
    }
}
