import ArgumentParser
import FZSystem
import TestSupport
import Testing

@testable import ForceZoomCLI

/// `Thumb.quick` (thumb's plain lines read without swift-argument-parser, issue 51's DNG
/// row) gives the value the parser gives, field for field, for every long option thumb has
/// (the names taken from the parser's own description, so an option added later fails here
/// until it is read or left to the parser on purpose), in both spellings; short flags other
/// than -o, and what fails a check, are left to the parser.
@Suite("Quick thumb parsing")
struct QuickThumbParsingTests {
    static let list: String = {
        let path = FileSystem.join(TestSupport.scratch(), "list.txt")
        _ = TestSupport.shell("printf 'a.jpg\\n' > '\(path)'")
        return path
    }()

    /// Arguments that give each of thumb's own options a value it accepts; the options of
    /// the groups crop has too take crop's samples (`QuickParsingTests.samples`).
    static var samples: [String: [String]] {
        [
            "--from": ["--from", list], "--null": ["--null", "--from", list], "--recursive": ["--recursive"],
            "--size": ["--size", "320,640"], "--crop": ["--crop", "--size", "100x80"],
            "--crop-at": ["--crop-at", "10,20"], "--explain": ["--explain", "m.png", "--crop-at", "entropy"],
            "--out": ["--out", "t"], "-o": ["-o", "t"],
            "--name": ["--name", "%s-%w.png"], "--format": ["--format", "webp"], "--jobs": ["--jobs", "3"],
            "--no-embedded-thumbnail": ["--no-embedded-thumbnail"], "--skip-existing": ["--skip-existing"],
            "--shard": ["--shard", "2/4"], "--dry-run": ["--dry-run"], "--journal": ["--journal", "j.jsonl"],
            "--resume": ["--resume", "--journal", "j.jsonl"], "--json": ["--json"], "--quiet": ["--quiet"],
            "--verbose": ["--verbose"], "--progress": ["--progress"], "--max-failures": ["--max-failures", "3"],
            "--lossless": ["--lossless", "--format", "webp"],
            "--animated": ["--animated"], "--max-frames": ["--animated", "--max-frames", "40"],
            "--max-duration": ["--animated", "--max-duration", "2.5"],
        ]
    }

    /// Thumb's option names as the parser describes them (`--experimental-dump-help`), less
    /// the positional input.
    static func parserNames() throws -> [String] {
        try QuickParsingTests.parserNames(of: Thumb.self).filter { !$0.isEmpty && $0 != "--input" }
    }

    static func both(_ arguments: [String]) -> (quick: Thumb?, full: String?) {
        let full = try? ForceZoom.parseAsRoot(["thumb"] + arguments)
        return (Thumb.quick(arguments), full.map(DirectParsingTests.described))
    }

    @Test func everyLongOptionOfThumbIsReadAsTheParserReadsIt() throws {
        let names = try Self.parserNames()
        #expect(names.count >= 35, "\(names)")
        for name in names {
            if name.count == 2 && name != "-o" {  // -0, -r, -j, -q, -v: the parser's
                #expect(Thumb.quick(["a.jpg", name]) == nil, "\(name)")
                continue
            }
            let sample = try #require(
                Self.samples[name] ?? QuickParsingTests.samples[name],
                "thumb's \(name) has no sample here: read it in Thumb+Quick.swift")
            if sample.isEmpty { continue }  // no CMYK profile on this machine
            let arguments = ["a.jpg"] + sample
            let (quick, full) = Self.both(arguments)
            guard let full else {
                #expect(quick == nil, "\(arguments): the parser refuses it, the quick reading took it")
                continue
            }
            let value = try #require(quick, "\(arguments) was left to the parser")
            #expect(full == DirectParsingTests.described(value), "\(arguments)")
            guard sample.count >= 2, sample[0].hasPrefix("--"), !sample[1].hasPrefix("-") else { continue }
            let joined = ["a.jpg", "\(sample[0])=\(sample[1])"] + sample.dropFirst(2)
            let again = try #require(Thumb.quick(joined), "\(joined)")
            #expect(DirectParsingTests.described(again) == Self.both(joined).full, "\(joined)")
        }
    }

    @Test func benchAndDocumentedLinesGiveTheParsersValue() {
        var lines = DirectParsingTests.documentedLines.filter { $0.first == "thumb" }.map { Array($0.dropFirst()) }
        lines += [
            ["raw24.dng", "--size", "256", "--out", "fz", "--quiet"],
            ["a.jpg", "b.png", "--size", "320,640", "--name", "%s-%w.png", "--out", "t"],
            ["photos", "--size", "256x192!", "--json", "--format", "jpeg", "--quality", "80"],
            ["a.heic", "--size", "256", "--no-embedded-thumbnail", "--out", "o", "--quiet"],
        ]
        for arguments in lines {
            let (quick, full) = Self.both(arguments)
            if let quick { #expect(DirectParsingTests.described(quick) == full, "\(arguments)") }
        }
        #expect(Self.both(lines[lines.count - 4]).quick != nil, "the bench's line is read quickly")
    }

    @Test func whatItDoesNotTakeIsLeftToTheParser() {
        let refused: [[String]] = [
            [], ["-"], ["a.jpg", "--size", "1", "--size", "2"], ["--", "a.jpg"], ["a.jpg", "-q"], ["a.jpg", "-r"],
            ["a.jpg", "--size", "0"], ["a.jpg", "--quiet", "--progress"], ["a.jpg", "--resume"],
            ["a.jpg", "--jobs", "0"], ["a.jpg", "--nope"], ["a.jpg", "--json=true"], ["a.jpg", "--size="],
            ["a.jpg", "--null"], ["a.jpg", "--journal", "-"], ["a.jpg", "--format", "tga"], ["a.jpg", "-o"],
        ]
        for arguments in refused { #expect(Thumb.quick(arguments) == nil, "\(arguments)") }
    }

    @Test func theDefaultsAreAllSet() {
        let text = DirectParsingTests.described(Thumb.quickDefault)
        #expect(!text.contains("definition"), "an option of thumb has no default in quickDefault")
    }
}
