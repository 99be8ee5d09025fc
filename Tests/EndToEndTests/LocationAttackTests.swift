import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// Issue 40, reproducers 10-14: metadata crafted to slip location past `--no-location` or to
/// make the rewritten EXIF broken, read back by exiftool in every output format (crop and
/// thumb): no tag of exiftool's GPS or Location groups left, no warning the input does not
/// already give, and the rest (Make, DateTimeOriginal, Rating, IPTC Keywords) kept.
@Suite("Location attacks", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct LocationAttackTests {
    typealias E = MetadataBytes.Entry
    static let date = "2024:05:06 07:08:09"
    static let rating =
        #"<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/>"#

    /// IFD0 (Make, `zero`) pointing to an Exif IFD (DateTimeOriginal, `exif`), then `more` IFDs (index 2...).
    static func exif(zero: [E] = [], exif: [E] = [], more: [[E]] = []) -> [UInt8] {
        MetadataBytes.tiff(
            [[.ascii(0x010F, "Acme"), .pointer(0x8769, to: 1)] + zero, [.ascii(0x9003, date)] + exif] + more)
    }

    /// Each reproducer's input: name, EXIF, XMP body, IPTC record.
    static let cases: [(String, [UInt8], String, [UInt8]?)] = [
        // 10: a prefix meaning exif on one element and xmp on another, redeclared inside.
        (
            "r10-redeclared", exif(),
            #"""
            <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" a:Rating="4">
             <a:GPSLongitude xmlns:a="http://ns.adobe.com/exif/1.0/">2,21.0E</a:GPSLongitude></rdf:Description>
            <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/exif/1.0/"><a:GPSLatitude>48,51.0N</a:GPSLatitude></rdf:Description>
            <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/"><a:Label>kept</a:Label></rdf:Description>
            """#, nil
        ),
        // 10: the default namespace.
        (
            "r10-default", exif(),
            rating
                + #"<rdf:Description rdf:about=""><GPSLatitude xmlns="http://ns.adobe.com/exif/1.0/">48,51.0N</GPSLatitude></rdf:Description>"#,
            nil
        ),
        // 11: the GPS IFD reached only through the Exif IFD.
        ("r11-exif-gps", exif(exif: [.pointer(0x8825, to: 2)], more: [MetadataBytes.gpsEntries]), rating, nil),
        // 12: pointers the rewriter does not follow: Interop in IFD0, the Exif IFD pointing at
        // itself, a second GPS pointer in the Exif IFD.
        (
            "r12-pointers",
            exif(
                zero: [.pointer(0x8825, to: 2), .pointer(0xA005, to: 3)],
                exif: [.pointer(0x8769, to: 1), .pointer(0x8825, to: 2), .pointer(0xA005, to: 3)],
                more: [MetadataBytes.gpsEntries, [.ascii(0x0001, "R98")]]), rating, nil
        ),
        // 13: the XMP orientation in CDATA (the EXIF one applied).
        (
            "r13-cdata", exif(zero: [E(0x0112, 3, 1, .bytes([6, 0]))]),
            rating
                + #"<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"><tiff:Orientation><![CDATA[6]]></tiff:Orientation></rdf:Description>"#,
            nil
        ),
        // 14: DJI's drone namespace, IPTC Core/Extension and photoshop, IPTC 2:26/2:27.
        (
            "r14-beyond", exif(),
            rating + #"""
                <rdf:Description rdf:about="" xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/"
                 xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
                 drone-dji:GpsLatitude="48.85" drone-dji:GpsLongitude="2.35" drone-dji:AbsoluteAltitude="+35.20"
                 drone-dji:RelativeAltitude="+10.00" drone-dji:GimbalYawDegree="-3.1" photoshop:City="Paris">
                 <Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Paris</Iptc4xmpExt:City></rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>
                </rdf:Description>
                """#,
            MetadataBytes.iptc(2, 25, "cat") + MetadataBytes.iptc(2, 26, "FRA") + MetadataBytes.iptc(2, 27, "France")
                + MetadataBytes.iptc(2, 90, "Paris")
        ),
        // 14 too: Darwin Core's Location class and Google's Dynamic Depth poses (a device's,
        // a camera's in a list, its place on the earth), as exiftool writes them.
        (
            "r14-dwc-poses", exif(),
            rating + #"""
                <rdf:Description rdf:about="" xmlns:dwc="http://rs.tdwg.org/dwc/index.htm">
                 <dwc:Event rdf:parseType="Resource"><dwc:eventDate>2020</dwc:eventDate></dwc:Event>
                 <dwc:dctermsLocation rdf:parseType="Resource"><dwc:country>France</dwc:country><dwc:decimalLatitude>48.85</dwc:decimalLatitude></dwc:dctermsLocation>
                </rdf:Description>
                <rdf:Description rdf:about="" xmlns:Device="http://ns.google.com/photos/dd/1.0/device/"
                 xmlns:Camera="http://ns.google.com/photos/dd/1.0/camera/" xmlns:Pose="http://ns.google.com/photos/dd/1.0/pose/"
                 xmlns:EarthPose="http://ns.google.com/photos/dd/1.0/earthpose/">
                 <Device:Cameras><rdf:Seq><rdf:li rdf:parseType="Resource"><Device:Camera rdf:parseType="Resource">
                  <Camera:Pose rdf:parseType="Resource"><Pose:PositionX>4</Pose:PositionX></Camera:Pose>
                 </Device:Camera></rdf:li></rdf:Seq></Device:Cameras>
                 <Device:Pose Pose:PositionX="3" Pose:RotationW="1"/>
                 <Device:EarthPos rdf:parseType="Resource"><EarthPose:Latitude>48.85</EarthPose:Latitude></Device:EarthPos>
                </rdf:Description>
                """#,
            nil
        ),
    ]

    static let dir: String = {
        let dir = CLI.scratch()
        let r = CLI.run(["fixture", "coords", "--size", "240x160", "-o", "plain.jpg"], in: dir)
        precondition(r.status == 0, "\(r)")
        let plain = CLI.bytes(FileSystem.join(dir, "plain.jpg"))
        for (name, exif, body, iptc) in cases {
            let bytes = MetadataBytes.jpeg(plain, exif: exif, xmp: MetadataBytes.xmp(body), iptc: iptc)
            CLI.write(FileSystem.join(dir, "\(name).jpg"), bytes)
        }
        return dir
    }()

    /// exiftool's output for `arguments` on `path` (stderr dropped).
    static func exiftool(_ arguments: String, _ path: String) -> String {
        exiftool(arguments, [path])[path] ?? ""
    }

    /// exiftool's output for `arguments` on each of `paths`, read in one run (Perl's start-up
    /// is most of a run: 48 runs a case took 5 s), split at the "======== path" line exiftool
    /// puts before each file's lines when it reads more than one.
    static func exiftool(_ arguments: String, _ paths: [String]) -> [String: String] {
        guard let first = paths.first else { return [:] }
        let out = first + ".exiftool.txt"
        let files = paths.map(CLI.quote).joined(separator: " ")
        _ = CLI.shell("exiftool \(arguments) \(files) > \(CLI.quote(out)) 2>/dev/null")
        let text = CLI.read(out)
        guard paths.count > 1 else { return [first: text] }
        var each: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("======== ") {
                current = String(line.dropFirst(9))
            } else if let c = current, !line.hasSuffix(" image files read") {
                each[c, default: ""] += line + "\n"
            }
        }
        for p in paths where each[p] == nil { each[p] = "" }
        return each
    }

    /// The location exiftool finds: every tag of its GPS and Location groups, and any
    /// XMP or IPTC tag named like one.
    static func location(_ path: String) -> [Substring] { locations([path])[path] ?? [] }

    /// `location` of each of `paths`, in two exiftool runs for all of them.
    static func locations(_ paths: [String]) -> [String: [Substring]] {
        let grouped = exiftool("-a -G1 -s -gps:all -location:all", paths)
        let all = exiftool("-a -G1 -s -xmp:all -iptc:all", paths)
        var each: [String: [Substring]] = [:]
        for p in paths {
            let named = (all[p] ?? "").split(separator: "\n").filter { line in
                let tag = line.split(separator: ":").first ?? ""
                return ["gps", "latitude", "longitude", "altitude", "location", "city", "country"].contains {
                    tag.lowercased().contains($0)
                }
            }
            each[p] = (grouped[p] ?? "").split(separator: "\n") + named
        }
        return each
    }

    /// exiftool's warnings on `path`.
    static func warnings(_ path: String) -> Set<Substring> { warnings([path])[path] ?? [] }

    /// exiftool's warnings on each of `paths`, in one run.
    static func warnings(_ paths: [String]) -> [String: Set<Substring>] {
        exiftool("-a -s -s -s -warning", paths).mapValues { Set($0.split(separator: "\n")) }
    }

    /// The outputs of `name`.jpg in every format, by crop and by thumb, with `flags`.
    static func outputs(_ name: String, _ flags: [String]) throws -> [String] {
        var paths: [String] = []
        let tag = flags.isEmpty ? "kept" : "gone"
        for ext in OutputFormat.all.map({ $0.extensions[0] }) {
            let crop = "\(name)-\(tag)-crop.\(ext)"
            let c = CLI.run(["crop", "\(name).jpg", "--at", "50%,50%", "--size", "60", "-o", crop] + flags, in: dir)
            try #require(c.status == 0, "\(name) crop \(ext): \(c)")
            let thumbDir = "\(name)-\(tag)-thumb-\(ext)"
            let t = CLI.run(
                ["thumb", "--quiet", "\(name).jpg", "--size", "64", "-o", thumbDir, "--name", "%s.\(ext)"] + flags,
                in: dir)
            try #require(t.status == 0, "\(name) thumb \(ext): \(t)")
            for r in [c, t] {
                let lines = r.stderr.split(separator: "\n")
                #expect(lines.count <= 1, "\(name) \(ext): at most one warning: \(r.stderr)")
            }
            paths += [FileSystem.join(dir, crop), FileSystem.join(dir, "\(thumbDir)/\(name).\(ext)")]
        }
        return paths
    }

    /// What every output keeps: Make, DateTimeOriginal, Rating, and (JPEG) IPTC Keywords.
    static func checkKept(_ paths: [String], iptc: Bool) {
        let kept = exiftool("-a -G1 -s -n -Make -DateTimeOriginal -Rating -Keywords", paths)
        for path in paths { checkKept(path, kept[path] ?? "", iptc: iptc) }
    }

    static func checkKept(_ path: String, _ t: String, iptc: Bool) {
        #expect(t.contains("[IFD0]          Make                            : Acme"), "\(path): \(t)")
        #expect(t.contains("[ExifIFD]       DateTimeOriginal                : \(date)"), "\(path): \(t)")
        #expect(t.contains("Rating                          : 4"), "\(path): \(t)")
        if iptc && path.hasSuffix(".jpg") {
            #expect(t.contains("Keywords                        : cat"), "\(path): \(t)")
        }
    }

    @Test(arguments: cases.map(\.0))
    func noLocationLeavesNone(name: String) throws {
        let input = FileSystem.join(Self.dir, "\(name).jpg")
        let before = Self.warnings(input)
        if name != "r13-cdata" { try #require(!Self.location(input).isEmpty, "\(name): exiftool sees no location") }
        let hasIPTC = Self.cases.first { $0.0 == name }?.3 != nil
        let paths = try Self.outputs(name, ["--no-location"])
        let locations = Self.locations(paths)
        let warnings = Self.warnings(paths)
        for path in paths {
            let left = locations[path] ?? []
            #expect(left.isEmpty, "\(path): \(left)")
            let warned = warnings[path] ?? []
            #expect(warned.isSubset(of: before), "\(path): \(warned) beyond \(before)")
        }
        Self.checkKept(paths, iptc: hasIPTC)
    }

    /// 11 and 12 without --no-location: the GPS IFD (reached through the Exif IFD, or
    /// pointed to twice) is written again where exiftool reads it, with no new warning.
    @Test(arguments: ["r11-exif-gps", "r12-pointers"])
    func keptGPSIsRewrittenWhole(name: String) throws {
        let before = Self.warnings(FileSystem.join(Self.dir, "\(name).jpg"))
        let paths = try Self.outputs(name, [])
        let gps = Self.exiftool("-a -G1 -s -n -GPSLatitude -GPSLongitude -InteropIndex", paths)
        let warnings = Self.warnings(paths)
        for path in paths {
            let t = gps[path] ?? ""
            #expect(t.contains("[GPS]           GPSLatitude                     : 48.85"), "\(path): \(t)")
            #expect(t.contains("[GPS]           GPSLongitude                    : 2.35"), "\(path): \(t)")
            if name == "r12-pointers" { #expect(t.contains("InteropIndex                    : R98"), "\(path): \(t)") }
            let warned = warnings[path] ?? []
            #expect(warned.isSubset(of: before), "\(path): \(warned) beyond \(before)")
        }
        Self.checkKept(paths, iptc: false)
    }

    /// 12: the pointers not followed are one warning, not one per pointer or per output.
    @Test func unfollowedPointersWarnOnce() {
        let r = CLI.run(
            ["crop", "r12-pointers.jpg", "--at", "50%,50%", "--size", "60", "-o", "r12-once.png"], in: Self.dir)
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == 0 && lines.count == 1 && lines[0].contains("pointers not followed"), "\(r)")
    }

    /// 13: the CDATA orientation becomes 1, not "61".
    @Test func cdataOrientationBecomesOne() throws {
        let paths = try Self.outputs("r13-cdata", [])
        let orientations = Self.exiftool("-a -G1 -s -n -XMP-tiff:Orientation -IFD0:Orientation", paths)
        for path in paths {
            let t = orientations[path] ?? ""
            #expect(t.contains("[XMP-tiff]      Orientation                     : 1"), "\(path): \(t)")
            #expect(t.contains("[IFD0]          Orientation                     : 1"), "\(path): \(t)")
        }
    }

    /// 10, 11, 14: `info` sees the location exiftool sees.
    @Test func infoSaysLocation() throws {
        let names = ["r10-redeclared", "r10-default", "r11-exif-gps", "r14-beyond", "r14-dwc-poses"]
        let r = CLI.run(["info", "--json"] + names.map { "\($0).jpg" }, in: Self.dir)
        try #require(r.status == 0, "\(r)")
        let records = r.stdout.split(separator: "\n").compactMap { JSONValue.object($0) }
        try #require(records.count == names.count, "\(r.stdout)")
        for (name, record) in zip(names, records) {
            guard case .object(let m)? = record["metadata"] else {
                Issue.record("\(name): no metadata in \(record)")
                continue
            }
            let kinds = name == "r11-exif-gps" ? ["exif"] : name == "r14-beyond" ? ["xmp", "iptc"] : ["xmp"]
            for kind in kinds {
                guard case .object(let block)? = m[kind] else {
                    Issue.record("\(name): no \(kind) in \(m)")
                    continue
                }
                #expect(block["location"] == .bool(true), "\(name) \(kind): \(block)")
            }
        }
    }
}
