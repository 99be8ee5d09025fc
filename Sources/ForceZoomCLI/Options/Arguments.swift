import ArgumentParser
import FZOperations
import Geometry

/// `X,Y`: pixels (`1200,800`), percentages (`50%,25%`) or a mix.
struct Point: ExpressibleByArgument, CustomStringConvertible {
    /// Where: numbers, or a word (`Where.words`).
    let place: Where

    init?(argument: String) {
        guard let w = Where(parsing: argument) else { return nil }
        place = w
    }

    /// The numbers, when they are numbers.
    var touch: TouchPoint? { place.touch }

    var description: String { place.description }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// `WxH`, or a device name from `Device.all`. A device gives its pixels (`fit`,
/// `animate`) or its points (`crop`, `frame`: the peek's side is min of the bounds in
/// points); `WxH` is taken as the command says (pixels or points).
struct Size: ExpressibleByArgument, CustomStringConvertible {
    /// `WxH`, or the device's pixels.
    let pixels: PixelSize
    /// The device named, if one was.
    let device: Device?

    init(_ pixels: PixelSize) {
        self.pixels = pixels
        device = nil
    }

    init?(argument: String) {
        let t = argument.lowercased()
        if let d = Device.named(t) {
            pixels = d.pixels
            device = d
            return
        }
        let parts = t.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        pixels = PixelSize(width: w, height: h)
        device = nil
    }

    /// `WxH`, or the device's bounds in points.
    var points: PixelSize { device?.points ?? pixels }

    var description: String { device?.name ?? pixels.description }

    static var deviceTable: String { Device.table }

    /// The device names, for messages.
    static var deviceNames: [String] { Device.all.map(\.name) }

    /// Shells complete the device names (WxH is typed).
    static var defaultCompletionKind: CompletionKind { .list(deviceNames) }
}

/// `black`, `white`, `transparent`, `#RRGGBB` or `#RRGGBBAA`.
struct ColorArgument: ExpressibleByArgument, CustomStringConvertible {
    let color: Color

    init(_ color: Color) { self.color = color }

    init?(argument: String) {
        guard let c = Color(parsing: argument) else { return nil }
        color = c
    }

    var description: String {
        Color.names.first(where: { $0.1 == color })?.0 ?? color.description
    }

    /// The colour names, for messages.
    static var names: [String] { Color.names.map(\.0) }

    /// Shells complete the colour names.
    static var defaultCompletionKind: CompletionKind { .list(names) }
}

extension Size {
    /// Refuses a size no command can make, naming the option: a side of 0 or less, or past
    /// `Budget.maxSide` (so every later product of sides fits an Int64).
    func check(_ option: String) throws {
        for side in [pixels.width, pixels.height, points.width, points.height] where side <= 0 || side > Budget.maxSide
        {
            throw ValidationError("\(option) \(Echo.value(description)): each side must be 1 to \(Budget.maxSide)")
        }
    }
}

extension Point {
    /// Refuses a point outside every image (percent past 0...100, negative pixels).
    func check(_ option: String) throws {
        if let touch, let problem = touch.argumentProblem {
            throw ValidationError("\(option) \(Echo.value(touch.description)): \(problem)")
        }
    }

    /// The numbers, or a usage error for a word where only numbers are taken.
    func numbers(_ option: String) throws -> TouchPoint {
        guard let touch else {
            throw ValidationError(
                "\(option) takes X,Y (pixels, or percent like 50%,50%) here, not \(Echo.value(description))")
        }
        return touch
    }
}

/// Checks of plain numbers, naming the option.
enum Check {
    /// `value` must be finite and within `range`.
    static func number(_ value: Double, _ option: String, in range: ClosedRange<Double>, unit: String = "") throws {
        guard value.isFinite else { throw ValidationError("\(option) must be a finite number, got \(value)") }
        guard range.contains(value) else {
            throw ValidationError(
                "\(option) must be \(Echo.number(range.lowerBound)) to \(Echo.number(range.upperBound))\(unit), got \(Echo.number(value))"
            )
        }
    }

    /// `value` must be within `range`.
    static func integer(_ value: Int, _ option: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }

    /// A budget check made from arguments alone: a usage error.
    static func budget(_ body: () throws(BudgetError) -> Void) throws {
        do { try body() } catch { throw ValidationError(error.description) }
    }
}

/// The peek's side N, as `crop` and `frame` take it: --size N, or min(W,H) of --screen in
/// points, or of the device named by --view (the view is that device's screen), else 390x844.
struct PeekSide {
    let size: Int?
    let screen: Size?
    /// --view named a device, not --screen (for messages).
    let fromView: Bool

    init(size: Int?, screen: Size?, view: Size? = nil) {
        self.size = size
        let device = screen == nil ? view.flatMap { $0.device == nil ? nil : $0 } : nil
        self.screen = screen ?? device
        fromView = device != nil
    }

    var side: Int { size ?? PeekGeometry.side(forScreen: (screen ?? Size(PixelSize(width: 390, height: 844))).points) }

    /// The option the side came from, for messages.
    var option: String {
        size.map { "--size \($0)" } ?? screen.map { fromView ? "--view \($0)" : "--screen \($0)" }
            ?? "the default --screen 390x844"
    }

    /// Refuses a side over the budget before anything is made. The peek crop makes is N x N;
    /// the box frame draws marks that same crop, so frame refuses what crop would refuse
    /// whether or not it renders the peek (--with-peek).
    func check(_ budget: Budget) throws {
        let (side, option) = (self.side, self.option)
        try Check.budget { () throws(BudgetError) in
            try budget.check("the peek (\(option))", size: PixelSize(width: side, height: side))
        }
    }
}
