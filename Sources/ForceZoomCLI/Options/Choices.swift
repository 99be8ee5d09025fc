import ArgumentParser
import FZOperations
import Geometry

/// A closed set of names (an enum with String raw values) parsed by the argument parser
/// itself: a wrong name is a usage error listing the choices, and the help shows them.
/// The names and the default's description are the raw values, as the parser's own
/// extensions give them, but without the key path (`\.rawValue.defaultValueDescription`)
/// those build for each type, whose first use costs the Swift runtime a search of every
/// protocol conformance in the binary: parsing a command reflects each of its choices.
protocol ChoiceArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
    public var defaultValueDescription: String { rawValue }
}

// The core's closed sets of names.
extension ResampleFilter: ChoiceArgument {}
extension FitGeometry.Mode: ChoiceArgument {}
extension Easing: ChoiceArgument {}
extension DeviceOrientation: ChoiceArgument {}
extension Overlay.Fade: ChoiceArgument {}
extension Pattern.Kind: ChoiceArgument {}
extension Pattern.GradientDirection: ChoiceArgument {}

/// `--orientation`: a device orientation, or `auto` (the one that shows the image largest).
enum OrientationChoice: ExpressibleByArgument, CaseIterable, Hashable {
    case auto
    case fixed(DeviceOrientation)

    static var allCases: [OrientationChoice] { [.auto] + DeviceOrientation.allCases.map { .fixed($0) } }

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let o = DeviceOrientation(rawValue: argument) {
            self = .fixed(o)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { name }
    static var allValueStrings: [String] { allCases.map { $0.name } }

    var name: String {
        switch self {
        case .auto: return "auto"
        case .fixed(let o): return o.rawValue
        }
    }

    /// The orientation for `image` on `screen`.
    /// The orientation named, or nil for auto (the operation picks it from the image).
    var fixed: DeviceOrientation? {
        if case .fixed(let o) = self { return o }
        return nil
    }

    func resolve(image: PixelSize, screen: PixelSize) -> DeviceOrientation {
        switch self {
        case .auto: return FitGeometry.automatic(image: image, screen: screen)
        case .fixed(let o): return o
        }
    }
}

/// A comma-separated list of numbers (`--scale 2`, `--translate 10,20`, `--matrix a,b,c,d,tx,ty`),
/// each finite; how many a list needs is the option's check.
struct NumberList: ExpressibleByArgument, CustomStringConvertible, Hashable {
    let values: [Double]
    let text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters)
        }
        guard !parts.isEmpty, parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
        values = parts.compactMap { $0 }
        text = argument
    }

    var description: String { text }
}

/// `x,y,w,h` in screen pixels, each finite and within ±`Budget.maxSide`, w and h positive.
struct RectArgument: ExpressibleByArgument, CustomStringConvertible, Hashable {
    let rect: Rect
    let text: String

    init?(argument: String) {
        guard let list = NumberList(argument: argument), list.values.count == 4 else { return nil }
        let v = list.values
        let limit = Double(Budget.maxSide)
        guard v.allSatisfy({ abs($0) <= limit }), v[2] > 0, v[3] > 0 else { return nil }
        rect = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        text = argument
    }

    var description: String { text }
    static var defaultCompletionKind: CompletionKind { .default }

    /// Parses with the reason on failure (for `transform:`).
    static func parse(_ text: String) throws -> RectArgument {
        guard let r = RectArgument(argument: text) else {
            throw ValidationError("give x,y,w,h: four numbers, w and h positive, each within ±\(Budget.maxSide)")
        }
        return r
    }
}

/// `--to`: a rect, or `fullscreen`.
enum TargetArgument: ExpressibleByArgument, Hashable {
    case fullscreen
    case rect(RectArgument)

    init?(argument: String) {
        if argument == "fullscreen" {
            self = .fullscreen
        } else if let r = RectArgument(argument: argument) {
            self = .rect(r)
        } else {
            return nil
        }
    }

    var rect: Rect? {
        if case .rect(let r) = self { return r.rect }
        return nil
    }

    /// Parses with the reason on failure (for `transform:`).
    static func parse(_ text: String) throws -> TargetArgument {
        if text == "fullscreen" { return .fullscreen }
        return .rect(try RectArgument.parse(text))
    }
}
