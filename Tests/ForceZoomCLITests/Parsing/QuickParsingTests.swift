import ArgumentParser
import FZSystem
import TestSupport
import Testing

@testable import ForceZoomCLI

#if canImport(Glibc)
import Glibc
#endif

/// `Crop.quick` (crop's plain lines read without swift-argument-parser) gives the value the
/// parser gives, field for field, for every option crop has (the names taken from the
/// parser's own description of crop, so an option added later fails here until it is read
/// or left to the parser on purpose), in both spellings, and for the documented lines; what
/// it refuses and every line that fails a check are left to the parser.
@Suite("Quick crop parsing")
struct QuickParsingTests {
    static let scratch = TestSupport.scratch()

    /// Files the options that read them at parse time need.
    static let files: (points: String, pins: String, cmyk: String?) = {
        let points = FileSystem.join(scratch, "points.txt")
        let pins = FileSystem.join(scratch, "pins.csv")
        _ = TestSupport.shell(
            "printf '10,20\\n# a comment\\n50%%,50%%\\n' > '\(points)'; printf '5,5,a\\n' > '\(pins)'")
        let cmyk = cmykProfiles.first { access($0, R_OK) == 0 }
        return (points, pins, cmyk)
    }()

    /// Arguments that give each of crop's options a value it accepts (with what it needs
    /// beside it: --show names a protocol, as standard output is no terminal here).
    static var samples: [String: [String]] {
        [
            "--at": ["--at", "7,9"], "--at-from": ["--at-from", files.points], "--size": ["--size", "64"],
            "--screen": ["--screen", "iphone-15"], "--screen-points": ["--screen-points", "390x844"],
            "--view": ["--view", "390x844"], "--zoom": ["--zoom", "2.5"],
            "--background": ["--background", "#ff000080"],
            "-o": ["-o", "x.png"], "--output": ["--output", "x.webp"], "--json": ["--json"],
            "--geometry-only": ["--geometry-only"], "--animated": ["--animated"], "--quality": ["--quality", "77"],
            "--lossless": ["--lossless"],
            "--format": ["--format", "webp"], "--marker": ["--marker", "5,5,pin"],
            "--markers": ["--markers", files.pins],
            "--no-auto-orient": ["--no-auto-orient"], "--lenient": ["--lenient"],
            "--max-pixels": ["--max-pixels", "50000000"],
            "--max-memory": ["--max-memory", "64"], "--frame": ["--frame", "2"], "--page": ["--page", "3"],
            "--time": ["--time", "1.5"],
            "--cmyk-profile": files.cmyk.map { ["--cmyk-profile", $0] } ?? [], "--compression": ["--compression", "6"],
            "--ca-file": ["--ca-file", "/etc/ssl/certs/ca-certificates.crt"],
            "--icc": ["--icc", "srgb"], "--intent": ["--intent", "perceptual"], "--strip": ["--strip"],
            "--no-location": ["--no-location"], "--no-names": ["--no-names"], "--gain-map": ["--gain-map", "drop"],
            "--hdr-headroom": ["--hdr-headroom", "2"],
            "--depth": ["--depth", "16"], "--show": ["--show", "--graphics", "blocks", "-o", "x.png"],
            "--graphics": ["--graphics", "kitty"],
            "--explain": ["--explain", "map.png", "--at", "attention"],
        ]
    }

    static let cmykProfiles = [
        "/usr/share/color/icc/ghostscript/default_cmyk.icc", "/usr/share/ghostscript/iccprofiles/default_cmyk.icc",
    ]

    /// Crop's option names as the parser describes them.
    static func parserNames() throws -> [String] { try parserNames(of: Crop.self) }

    /// A command's option names as the parser describes them (`--experimental-dump-help`), less
    /// the parser's own (help, version, the dump): the quick readings of crop and thumb are held
    /// to them.
    static func parserNames<Command: ParsableCommand>(of command: Command.Type) throws -> [String] {
        var text = ""
        do {
            _ = try Command.parseAsRoot(["--experimental-dump-help"])
        } catch {
            text = Command.fullMessage(for: error)
        }
        guard case .object(let command)? = JSONValue.object(text)?["command"],
            case .array(let arguments)? = command["arguments"]
        else { throw ValidationError("no dump-help JSON: \(text.prefix(200))") }
        var names: [String] = []
        for case .object(let argument) in arguments {
            guard case .array(let spellings)? = argument["names"] else { continue }
            for case .object(let spelling) in spellings {
                guard case .string(let kind)? = spelling["kind"], case .string(let name)? = spelling["name"] else {
                    continue
                }
                names.append(kind == "short" ? "-\(name)" : "--\(name)")
            }
        }
        let parsers = ["-h", "--help", "--help-hidden", "--version", "--experimental-dump-help"]
        return names.filter { !parsers.contains($0) }
    }

    /// Both parses of `crop` + `arguments`: the quick one (nil if it refused) and the parser's.
    static func both(_ arguments: [String]) -> (quick: Crop?, full: String?) {
        let full = try? ForceZoom.parseAsRoot(["crop"] + arguments)
        return (Crop.quick(arguments), full.map(DirectParsingTests.described))
    }

    @Test func everyOptionOfCropIsReadAsTheParserReadsIt() throws {
        let names = try Self.parserNames()
        #expect(names.count >= 30, "\(names)")
        for name in names {
            let sample = try #require(
                Self.samples[name], "crop's \(name) has no sample here: read it in Crop+Quick.swift")
            if sample.isEmpty { continue }  // no CMYK profile on this machine
            let arguments = ["a.png"] + (name == "--at" ? [] : ["--at", "1,2"]) + sample
            let (quick, full) = Self.both(arguments)
            let value = try #require(quick, "\(arguments) was left to the parser")
            #expect(full == DirectParsingTests.described(value), "\(arguments)")
            // The other spelling: --name=value.
            guard sample.count >= 2, sample[0].hasPrefix("--"), !sample[1].hasPrefix("-") else { continue }
            let joined = ["a.png", "--at", "1,2", "\(sample[0])=\(sample[1])"] + sample.dropFirst(2)
            let again = try #require(Crop.quick(joined), "\(joined)")
            #expect(DirectParsingTests.described(again) == Self.both(joined).full, "\(joined)")
        }
    }

    @Test func documentedAndCombinedLinesGiveTheParsersValue() throws {
        var lines = DirectParsingTests.documentedLines.filter { $0.first == "crop" }.map { Array($0.dropFirst()) }
        #expect(lines.count >= 5)
        lines += [
            ["photo.heic", "--at", "1280,768", "--size", "16", "-o", "one.png"],
            ["-", "--at", "50%,50%", "-o", "-"],
            ["--at", "1,1", "a.png", "--at=2,2", "--zoom=0.5", "--size", "100", "--json", "-o", "p-%d.png"],
            ["a.jpg", "--at", "3,4", "--strip", "--no-location", "--icc", "srgb", "--quality", "90", "-o", "x.jpg"],
            [
                "a.png", "--at", "1,1", "--marker", "1,1", "--marker", "2,2,b", "--depth", "8", "--format", "png", "-o",
                "x",
            ],
            ["a.png", "--at=5,-3%"], ["a.png", "--at", "1,1", "--background", "white", "--screen", "ipad-air-13"],
            ["a.png", "--at", "1,1", "--output=-"],
            ["a.png", "--at", "1,1"],
        ]
        var left: [[String]] = []
        for arguments in lines {
            switch Self.both(arguments) {
            case (let value?, let full): #expect(DirectParsingTests.described(value) == full, "\(arguments)")
            case (nil, nil): continue  // a line the parser refuses too (here --show has no terminal)
            case (nil, _): left.append(arguments)
            }
        }
        #expect(left.isEmpty, "lines the parser takes, left to it: \(left)")
    }

    @Test func whatItDoesNotTakeIsLeftToTheParser() {
        let refused: [[String]] = [
            ["a.png", "--at", "1,1", "--size", "1", "--size", "2"],
            ["a.png", "--at", "1,1", "--screen", "1x1", "--screen-points", "2x2"],
            ["--", "a.png", "--at", "1,1"], ["a.png", "b.png", "--at", "1,1"], ["a.png", "--at"],
            ["a.png", "--at", "-5,3"], ["a.png", "--at", "1,1", "--json=true"], ["a.png", "--at", "1,1", "-ox.png"],
            ["a.png", "--at", "1,1", "-h"], ["a.png", "--at", "1,1", "--help"], ["a.png", "--at", "1,1", "--nope"],
            ["a.png", "--at", "nowhere"], ["a.png"], ["a.png", "--at", "1,1", "--size", "0"], ["", "--at", "1,1"],
            ["a.png", "--at", "1,1", "--quality", "101"], ["a.png", "--at", "1,1", "--compression", "12"],
            ["a.png", "--at", "1,1", "--json", "--json"], ["a.png", "--at", "1,1", "-o", "-", "--json"],
            ["a.png", "--at", "1,1", "--show"], ["a.png", "--at", "1,1", "--format", "tga"],
            ["a.png", "--at", "1,1", "-o"],
            ["a.png", "--at", "1,1", "--hdr-headroom", "lots"],
            ["a.png", "--at", "1,1", "--at-from", "/nonexistent/p.txt"],
            // An empty attached value is the parser's "Missing value", never a value taken here.
            ["a.png", "--at", "10,10", "--marker=", "-o", "q.png"], ["a.png", "--at", "1,1", "--quality="],
            ["a.png", "--at=", "-o", "q.png"],
        ]
        for arguments in refused {
            #expect(Crop.quick(arguments) == nil, "\(arguments)")
        }
    }

    @Test func theDefaultsAreAllSet() {
        let text = DirectParsingTests.described(Crop.quickDefault)
        #expect(!text.contains("definition"), "an option of crop has no default in quickDefault")
        #expect(text.contains("value"))
    }
}
