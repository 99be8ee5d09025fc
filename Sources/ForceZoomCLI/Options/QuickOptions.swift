import ArgumentParser
import FZOperations

/// An option group that `QuickArguments` can fill without swift-argument-parser, read from
/// one table (`quickTable`): each option's names, the property it sets, its conversion (the
/// parser's own: `init?(argument:)`, or the option's transform) and its default (the constant
/// its declaration uses). The value with every option at its default and the reading of each
/// option by name both come from the table, so neither is written out a second time;
/// `QuickParsingTests` compares the outcome with the parser's, value for value, for every
/// option the command has.
protocol QuickOptions {
    init()
    /// One row per option, nested groups included (`QuickOption.group`).
    static var quickTable: [QuickOption<Self>] { get }
    /// Every option at the default its declaration gives.
    static var quickDefault: Self { get }
}

extension QuickOptions {
    static var quickDefault: Self { tableDefault }

    /// `init()`, then every row's default.
    static var tableDefault: Self {
        var value = Self()
        for option in quickTable { option.reset(&value) }
        return value
    }

    /// Reads option `name` if it is one of this group's; false if it is not.
    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        guard let option = Self.quickTable.first(where: { $0.names.contains(name) }) else { return false }
        option.take(&self, &arguments)
        return true
    }
}

/// One option of a group `Root`: the names it is typed as (the first is the one the parser
/// counts repeats by), how its value is read into `Root`, and how its default is set.
///
/// Why setters and not key paths: a key path's write through a computed property reads it
/// first, and a parser's property wrapper that holds no value yet (`Self()`, before any
/// default is set) stops the process when read.
struct QuickOption<Root> {
    let names: [String]
    let take: (inout Root, inout QuickArguments) -> Void
    let reset: (inout Root) -> Void

    /// An option with a default: `--zoom 2`.
    static func value<T>(
        _ names: String..., default value: T, as convert: @escaping (String) -> T?,
        set: @escaping (inout Root, T) -> Void
    ) -> Self {
        let key = names[0]
        return Self(
            names: names, take: { root, arguments in set(&root, arguments.value(key, as: convert) ?? value) },
            reset: { set(&$0, value) })
    }

    /// An optional option, nil by default: `--size 64`.
    static func optional<T>(
        _ names: String..., as convert: @escaping (String) -> T?, set: @escaping (inout Root, T?) -> Void
    ) -> Self {
        let key = names[0]
        return Self(
            names: names, take: { root, arguments in set(&root, arguments.value(key, as: convert)) },
            reset: { set(&$0, nil) })
    }

    /// An option that repeats, empty by default: `--at 1,2 --at 3,4`.
    static func repeating<T>(
        _ names: String..., as convert: @escaping (String) -> T?, at path: WritableKeyPath<Root, [T]>,
        set: @escaping (inout Root, [T]) -> Void
    ) -> Self {
        let key = names[0]
        return Self(
            names: names,
            take: { root, arguments in
                arguments.value(key, repeats: true, as: convert).map { set(&root, root[keyPath: path] + [$0]) }
            },
            reset: { set(&$0, []) })
    }

    /// A flag, false by default: `--json`.
    static func flag(_ names: String..., set: @escaping (inout Root, Bool) -> Void) -> Self {
        let key = names[0]
        return Self(
            names: names, take: { root, arguments in set(&root, arguments.flag(key)) }, reset: { set(&$0, false) })
    }

    /// Every row of the group at `path` (an `@OptionGroup`, stored by `set`), read into it;
    /// its reset makes the group (`init()`, every default) and stores it whole.
    static func group<Group: QuickOptions>(
        _ path: KeyPath<Root, Group>, set: @escaping (inout Root, Group) -> Void
    ) -> [Self] {
        let made = Self(names: [], take: { _, _ in }, reset: { set(&$0, Group.tableDefault) })
        return [made]
            + Group.quickTable.compactMap { option in
                guard !option.names.isEmpty else { return nil }  // the group's own `made` rows: done above
                return Self(
                    names: option.names,
                    take: { root, arguments in
                        var group = root[keyPath: path]
                        option.take(&group, &arguments)
                        set(&root, group)
                    }, reset: { _ in })
            }
    }
}

extension BackgroundFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .value("--background", default: ColorArgument(Help.defaultColor), as: ColorArgument.init(argument:)) {
                $0.background = $1
            }
        ]
    }
}

extension EncoderFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .value("--quality", default: Help.defaultQuality, as: Int.init(argument:)) { $0.quality = $1 },
            .flag("--lossless") { $0.lossless = $1 },
        ]
    }
}

extension FormatFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [.optional("--format", as: OutputFormat.init(argument:)) { $0.format = $1 }]
    }
}

extension MarkerFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .repeating("--marker", as: String.init(argument:), at: \.marker) { $0.marker = $1 },
            .optional("--markers", as: String.init(argument:)) { $0.markers = $1 },
        ]
    }
}

extension DecodeFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .flag("--no-auto-orient") { $0.noAutoOrient = $1 }, .flag("--lenient") { $0.lenient = $1 },
            .value("--max-pixels", default: defaultMaxPixels, as: Int64.init(argument:)) { $0.maxPixels = $1 },
            .value("--max-memory", default: defaultMaxMemory, as: Int64.init(argument:)) { $0.maxMemory = $1 },
            .value("--frame", "--page", default: defaultFrame, as: Int.init(argument:)) { $0.frame = $1 },
            .optional("--time", as: Double.init(argument:)) { $0.time = $1 },
            .optional("--cmyk-profile", as: String.init(argument:)) { $0.cmykProfile = $1 },
            .optional("--ca-file", as: String.init(argument:)) { $0.caFile = $1 },
        ]
    }
}

extension EncodeFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .value("--compression", default: PNGSettings.defaultCompression, as: Int.init(argument:)) {
                $0.compression = $1
            },
            .value("--icc", default: defaultICC, as: ColorPolicy.Mode.init(argument:)) { $0.icc = $1 },
            .value("--intent", default: defaultIntent, as: RenderingIntent.init(argument:)) { $0.intent = $1 },
        ]
    }
}

extension GainMapFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .value("--gain-map", default: defaultGainMap, as: GainMapPolicy.init(argument:)) { $0.gainMap = $1 },
            .value("--hdr-headroom", default: defaultHeadroom, as: headroom) { $0.hdrHeadroom = $1 },
        ]
    }

    /// The option's transform: a failure is the parser's message.
    static func headroom(_ text: String) -> HDRHeadroom? { try? HDRHeadroom(parsing: text) }
}

extension MetadataFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [
            .flag("--strip") { $0.strip = $1 }, .flag("--no-location") { $0.noLocation = $1 },
            .flag("--no-names") { $0.noNames = $1 },
        ]
            + QuickOption.group(\Self.gain) { $0.gain = $1 }
    }
}

extension DepthFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [.optional("--depth", as: SampleDepth.init(argument:)) { $0.depth = $1 }]
    }
}

extension GraphicsFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [.optional("--graphics", as: GraphicsChoice.init(argument:)) { $0.graphics = $1 }]
    }
}

extension ShowFlags: QuickOptions {
    static var quickTable: [QuickOption<Self>] {
        [.flag("--show") { $0.show = $1 }] + QuickOption.group(\Self.graphics) { $0.graphics = $1 }
    }
}
