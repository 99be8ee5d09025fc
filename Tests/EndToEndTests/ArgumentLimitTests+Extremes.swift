import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// Every option of every command with extreme values, alone and together (a seeded property test).
extension ArgumentLimitTests {

    /// The values every option of a kind is tried with.
    static let integers = [
        "0", "-1", "2147483647", "2147483648", "9223372036854775807", "-9223372036854775808", "99999999999999999999",
    ]
    /// Sides under `Budget.maxSide` whose squares are past --max-pixels (46341^2 > 2^31):
    /// only the budget stops them. For options that are a side (--size N).
    static let sides = integers + ["46341", "65536"]
    static let reals = ["0", "-1", "2147483648", "1e15", "1e308", "-1e308", "nan", "inf", "-inf", "1e-300", "5e-324"]
    static let sizes = [
        "0x0", "1x0", "-1x5", "2147483647x2147483647", "2147483648x1", "1x2147483648", "4294967296x4294967296",
        "9223372036854775807x9223372036854775807", "100000x1", "1x100000", "20000x20000", "46341x46341", "65536x65536",
    ]
    static let points = [
        "1e308,1e308", "-1,-1", "nan,nan", "inf,0", "101%,101%", "-1%,0", "9223372036854775807,0", "1e15%,1",
    ]
    static let rects = ["0,0,1e15,1e15", "nan,0,1,1", "-1e308,0,1,1", "0,0,2147483648,1", "0,0,0,0", "inf,inf,inf,inf"]
    static let patterns = [
        "f%2147483647d.png", "f%n.png", "f%s.png", "f%d%d.png", "f%9d.png", "f%%.png", "f%", "f%-5d.png", "%10d.png",
    ]

    enum Kind { case integer, side, real, size, point, rect, pattern, pair, six }

    /// Per subcommand: a command that works, and the options to try (name, kind).
    static let commands: [(base: [String], options: [(String, Kind)])] = [
        (
            ["crop", "a.png", "--at", "1,1", "-o", "{out}/c.png"],
            [
                ("--size", .side), ("--screen", .size), ("--view", .size), ("--zoom", .real), ("--at", .point),
                ("--marker", .point),
                ("--max-pixels", .integer), ("--max-memory", .integer), ("--frame", .integer),
                ("--compression", .integer),
            ]
        ),
        (
            ["crop", "peek.jpg", "--at", "1,1", "--at", "50%,50%", "-o", "{out}/c%d.png"],
            [("-o", .pattern), ("--size", .side), ("--zoom", .real), ("--screen", .size)]
        ),
        (
            ["fit", "a.png", "--screen", "100x200", "-o", "{out}/f.png"],
            [("--screen", .size), ("--max-pixels", .integer), ("--max-memory", .integer), ("--marker", .point)]
        ),
        (["fit", "a.png", "--screen", "iphone-15", "-o", "{out}/f.png"], [("--scale", .real)]),
        (
            ["frame", "a.png", "--view", "100x200", "--at", "50%,50%", "--with-peek", "-o", "{out}/fr.png"],
            [("--view", .size), ("--at", .point), ("--size", .side), ("--screen", .size), ("--stroke", .real)]
        ),
        // Without the peek: the box alone (the hole the two frame reproducers went through).
        (
            ["frame", "a.png", "--view", "100x200", "--at", "50%,50%", "-o", "{out}/fr.png"],
            [("--size", .side), ("--screen", .size)]
        ),
        (
            ["transform", "a.png", "-o", "{out}/t.png"],
            [
                ("--rotate", .real), ("--scale", .real), ("--translate", .pair), ("--skew", .pair), ("--matrix", .six),
                ("--canvas", .size),
            ]
        ),
        (
            ["animate", "a.png", "--screen", "39x84", "--from", "2,10,12,9", "-o", "{out}/f%d.png"],
            [
                ("--screen", .size), ("--from", .rect), ("--to", .rect), ("--frames", .integer), ("--fps", .real),
                ("--duration", .real),
                ("--zoom-duration", .real), ("-o", .pattern), ("--pin-scale-range", .pair),
            ]
        ),
        (
            ["animate", "a.png", "--screen", "39x84", "--bounce", "--apng", "{out}/b.png"],
            [("--fps", .real), ("--duration", .real), ("--frames", .integer)]
        ),
        (
            ["thumb", "a.png", "-q", "--out", "{out}"],
            [("--size", .size), ("--size", .side), ("--jobs", .integer), ("--name", .pattern)]
        ),
        (
            ["fixture", "coords", "--size", "64x48", "-o", "{out}/x.png"],
            [("--size", .size), ("--depth", .integer), ("--compression", .integer)]
        ),
        (
            ["fixture", "checker", "--size", "64x48", "-o", "{out}/x.jpg"],
            [
                ("--step", .integer), ("--quality", .integer), ("--restart", .integer),
                ("--exif-orientation", .integer), ("--seed", .integer),
            ]
        ),
        (["info", "a.png"], [("--max-pixels", .integer), ("--max-memory", .integer), ("--frame", .integer)]),
    ]

    static func values(_ kind: Kind) -> [String] {
        switch kind {
        case .integer: return integers
        case .side: return sides
        case .real: return reals
        case .size: return sizes
        case .point: return points
        case .rect: return rects
        case .pattern: return patterns
        case .pair: return reals.map { "\($0),\($0)" } + ["1,1e308", "1e-300,1"]
        case .six: return reals.map { "\($0),0,0,\($0),0,0" } + ["1,0,0,1,1e308,0", "1e6,0,0,1e6,0,0"]
        }
    }

    /// `--name=value` (so values starting with - stay values).
    static func option(_ name: String, _ value: String) -> [String] {
        name == "-o" ? ["-o", value.hasPrefix("{out}") ? value : "{out}/" + value] : ["\(name)=\(value)"]
    }

    /// Under the sanitizers (10x slower runs) every third value and 40 combinations: the
    /// release binary gets them all in `make test`.
    static let stride = sanitized ? 3 : 1
    static let combinations = sanitized ? 40 : 150

    @Test func everyExtremeValueAlone() {
        var n = 0
        for (base, options) in Self.commands {
            for (name, kind) in options {
                for value in Self.values(kind) {
                    n += 1
                    if n % Self.stride == 0 { Self.check(base + Self.option(name, value)) }
                }
            }
        }
    }

    /// Extremes together: two or three options of one command at once (they multiply:
    /// frames x screen, side / zoom, scale x canvas), chosen by a fixed seed so a failure
    /// is reproducible.
    @Test func extremeValuesTogether() {
        var rng = SplitMix64(seed: 0x4152_4753)  // "ARGS"
        for _ in 0..<Self.combinations {
            let (base, options) = Self.commands[Int(rng.next() % UInt64(Self.commands.count))]
            var args = base
            for _ in 0..<(2 + Int(rng.next() % 2)) {
                let (name, kind) = options[Int(rng.next() % UInt64(options.count))]
                let values = Self.values(kind)
                args += Self.option(name, values[Int(rng.next() % UInt64(values.count))])
            }
            Self.check(args)
        }
    }
}

/// A small seeded generator (splitmix64), the same on every machine.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
