import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZRAW

/// The DNG preview reader that spares a thumbnail libraw (`DNGHeader`, issue 51) against
/// libraw itself and exiftool, on every DNG there is: Tools/raw/make-dng.py's (each of the
/// eight orientations, odd sizes, a preview of another shape, one too small, a raw IFD that
/// lies, one cut inside its raw data), the real samples in ../shared/formats/raw, the hostile
/// fixtures and the bench's 24 MP DNG when made. Where it reads a file, every fact a thumbnail
/// uses must be libraw's; where it cannot, libraw reads the file as before.
@Suite("DNG preview reader")
struct DNGHeaderTests {
    static let shared = FileSystem.join(FileSystem.directory(of: TestSupport.root), "shared/formats/raw")

    /// Each DNG by name.
    static let files: [String: String] = {
        let dir = TestSupport.scratch()
        let tool = FileSystem.join(TestSupport.root, "Tools/raw/make-dng.py")
        var made = [
            "t.dng", "wide.dng --preview 480x270", "none.dng --preview none", "lie.dng --lie-size 15000x15000",
            "odd.dng --size 601x401 --preview 480x320", "small.dng --size 64x48 --preview 60x40",
        ]
        made += (1...8).map { "o\($0).dng --orientation \($0)" }
        for args in made {
            precondition(TestSupport.shell("cd '\(dir)' && /usr/bin/python3 '\(tool)' \(args)") == 0, args)
        }
        _ = TestSupport.shell("cd '\(dir)' && head -c 300000 t.dng > cut.dng && head -c 1000 t.dng > cut2.dng")
        var files: [String: String] = [:]
        for name in made.map({ String($0.prefix { $0 != " " }) }) + ["cut.dng", "cut2.dng"] {
            files[name] = FileSystem.join(dir, name)
        }
        let list = FileSystem.join(dir, "list")
        let roots = [shared, FileSystem.join(TestSupport.root, "Fixtures/hostile")].map { "'\($0)'" }.joined(
            separator: " ")
        _ = TestSupport.shell("find \(roots) -name '*.dng' > '\(list)' 2>/dev/null")
        let bench = FileSystem.join(TestSupport.root, ".cache/bench/data/raw/raw24.dng")
        for path in CLI.read(list).split(separator: "\n").map(String.init) + [bench]
        where FileSystem.kind(of: path) == .regular {
            files[String(path.split(separator: "/").last!)] = path
        }
        return files
    }()

    static func header(_ path: String) -> DNGHeader? {
        CLI.bytes(path).withUnsafeBytes { DNGHeader.read($0) }
    }

    /// The plain DNGs are read without libraw; the rest are left to it.
    @Test func readsThePlainOnes() {
        var read = ["t.dng", "odd.dng", "lie.dng", "cut.dng"] + (1...8).map { "o\($0).dng" }
        if Self.files["canon_eos6d_acr_lossy.dng"] != nil { read.append("canon_eos6d_acr_lossy.dng") }
        if Self.files["raw24.dng"] != nil { read.append("raw24.dng") }
        for name in read { #expect(Self.header(Self.files[name]!) != nil, "\(name)") }
        // No JPEG preview, a file cut inside its header, the hostile fixtures (no preview either).
        for name in ["none.dng", "cut2.dng", "dng-ifd-loop.dng", "trunc-dng-header.dng"] {
            guard let path = Self.files[name] else { continue }
            #expect(Self.header(path) == nil, "\(name)")
        }
    }

    /// Where DNGHeader reads a file, libraw's open gives the same raw and visible sizes,
    /// flip, mosaic, DNG version and preview (size, length, bytes), and the same developed
    /// sizes, full and half, with the flip applied and without.
    @Test func agreesWithLibraw() throws {
        var compared = 0
        for (name, path) in Self.files.sorted(by: { $0.key < $1.key }) {
            guard let dng = Self.header(path) else { continue }
            let handle = try LibRawHandle(source: ImageSource(path: path), path: path, memoryLimit: 1 << 30)
            let f = handle.facts
            let d = dng.facts
            #expect(f.rawSize == d.rawSize && f.visibleSize == d.visibleSize, "\(name)")
            #expect(f.flip == d.flip && f.orientation == d.orientation, "\(name)")
            #expect((f.filters == 0) == (d.filters == 0) && f.dngVersion == d.dngVersion, "\(name)")
            #expect(f.previewIsJPEG && f.previewSize == d.previewSize && f.previewBytes == d.previewBytes, "\(name)")
            for flip in [true, false] {
                let full = try handle.developedSize(RAWDevelopSettings(flip: flip))
                let half = d.filters == 0 ? full : try handle.halfDevelopedSize(full: full, flip: flip)
                #expect(RAWDecoder.developedSizes(d, flip: flip) == (full, half), "\(name) flip \(flip)")
            }
            let bytes = CLI.bytes(path)
            #expect(
                try handle.previewJPEG() == Array(bytes[dng.previewOffset..<(dng.previewOffset + d.previewBytes)]),
                "\(name)")
            compared += 1
        }
        #expect(compared >= 12)
    }

    /// The preview's place is one exiftool names (PreviewImageStart/Length, JpgFromRaw...).
    @Test(.enabled(if: TestSupport.shell("command -v exiftool > /dev/null") == 0))
    func agreesWithExiftool() {
        for (name, path) in Self.files.sorted(by: { $0.key < $1.key }) {
            guard let dng = Self.header(path) else { continue }
            let out = FileSystem.join(TestSupport.scratch(), "tags")
            let tags = "-PreviewImageStart -PreviewImageLength -JpgFromRawStart -JpgFromRawLength"
            _ = TestSupport.shell("exiftool -a -s -n -G1 \(tags) '\(path)' > '\(out)' 2>/dev/null")
            // "[SubIFD1]  PreviewImageStart : 145584": each group's start and length.
            var groups: [String: [String: Int]] = [:]
            for line in CLI.read(out).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count == 4, let value = Int(words[3]) else { continue }
                groups[String(words[0]), default: [:]][String(words[1])] = value
            }
            let pairs = groups.values.flatMap { tags in
                ["PreviewImage", "JpgFromRaw"].compactMap { kind in
                    tags["\(kind)Start"].flatMap { start in tags["\(kind)Length"].map { (start, $0) } }
                }
            }
            #expect(pairs.contains { $0 == (dng.previewOffset, dng.facts.previewBytes) }, "\(name): \(pairs)")
        }
    }

    /// Where IFD0's entry for `tag` is in a little-endian TIFF's `bytes`.
    static func entry(_ tag: Int, in bytes: [UInt8]) -> Int? {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let ifd = u16(4) | u16(6) << 16
        return (0..<u16(ifd)).map { ifd + 2 + 12 * $0 }.first { u16($0) == tag }
    }

    static func put32(_ v: UInt32, at: Int, in bytes: inout [UInt8]) {
        for k in 0..<4 { bytes[at + k] = UInt8(v >> (8 * UInt32(k)) & 0xFF) }
    }

    /// Hostile DNGs (a preview past the end or too long, a SubIFD loop, a huge SubIFD count,
    /// 65535 entries, cuts anywhere in the header) are not read here, or only with every
    /// offset inside the file; a thumbnail of each is made (libraw reads it) or fails in one
    /// line naming the file.
    @Test func hostileDNGsFallBackOrFail() throws {
        let good = CLI.bytes(Self.files["t.dng"]!)
        let ifd0 = Int(good[4]) | Int(good[5]) << 8
        let strip = try #require(Self.entry(273, in: good))
        let length = try #require(Self.entry(279, in: good))
        let subs = try #require(Self.entry(330, in: good))
        var cases: [(String, [UInt8])] = []
        func mutated(_ name: String, _ change: (inout [UInt8]) -> Void) {
            var b = good
            change(&b)
            cases.append((name, b))
        }
        mutated("preview past the end") { Self.put32(UInt32($0.count - 10), at: strip + 8, in: &$0) }
        mutated("preview too long") { Self.put32(0x7FFF_FFFF, at: length + 8, in: &$0) }
        mutated("SubIFD loop") { Self.put32(UInt32(ifd0), at: subs + 8, in: &$0) }
        mutated("huge SubIFD count") { Self.put32(0x4000_0000, at: subs + 4, in: &$0) }
        mutated("65535 entries") {
            $0[ifd0] = 0xFF
            $0[ifd0 + 1] = 0xFF
        }
        for (name, bytes) in cases { #expect(bytes.withUnsafeBytes { DNGHeader.read($0) } == nil, "\(name)") }
        // The raw data starts after the preview: every cut before it is a header cut short.
        for cut in stride(from: 8, to: 2000, by: 41) {
            cases.append(("cut at \(cut)", Array(good[..<cut])))
        }
        var options = DecodeOptions()
        options.previewFirst = true
        for (name, bytes) in cases {
            if let dng = bytes.withUnsafeBytes({ DNGHeader.read($0) }) {
                #expect(dng.previewOffset + dng.facts.previewBytes <= bytes.count, "\(name)")
            }
            let path = FileSystem.join(TestSupport.scratch(), "hostile.dng")
            CLI.write(path, bytes)
            do {
                let reader = try ImageReader(path: path, options: options)
                _ = try reader.readEmbeddedThumbnail(atLeast: PixelSize(width: 100, height: 66))
            } catch {
                #expect(error.description.hasPrefix(path) && !error.description.contains("\n"), "\(name): \(error)")
            }
        }
    }
}
