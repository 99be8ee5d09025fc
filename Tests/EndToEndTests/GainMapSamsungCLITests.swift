import FZSystem
import TestSupport
import Testing

/// A Samsung Galaxy HEIC's gain map (an auxiliary image of type
/// urn:com:samsung:photo:2024:aux:hdrgainmap, issue 51 item 11): forcezoom reads none of its
/// parameters, so it is not dropped silently: `info` names it (the item pillow-heif lists under
/// Samsung's type), a crop says "dropped" with a gainMapNote naming it, and warns once. The
/// file is made by Tools/formats/make-samsung-gainmap.py from Apple's HEIC in
/// ../shared/formats/hdr (when present).
@Suite("Samsung gain maps")
struct GainMapSamsungCLITests {
    static let type = "urn:com:samsung:photo:2024:aux:hdrgainmap"
    static let made: String = {
        let dir = CLI.scratch()
        let script = FileSystem.join(CLI.root, "Tools/formats/make-samsung-gainmap.py")
        _ = CLI.shell("/usr/bin/python3 \(CLI.quote(script)) \(CLI.quote(GainMapInfoCLITests.heic)) \(CLI.quote(dir))")
        return FileSystem.join(dir, "samsung-gainmap.heic")
    }()

    @Test(.enabled(if: GainMapInfoCLITests.heicReady))
    func samsungMapIsNamedNotDroppedSilently() throws {
        let info = CLI.run(["info", "--json", Self.made])
        #expect(info.status == 0)
        let ignored = try #require(jsonString(info.stdout, "gainMapIgnored"), "\(info.stdout)")
        #expect(ignored.contains(Self.type), "\(ignored)")
        #expect(info.stderr.contains("warning") && info.stderr.contains(Self.type), "\(info.stderr)")
        // The item named is the one pillow-heif (libheif) lists under Samsung's type.
        let dir = CLI.scratch()
        let verdict = ColorCLITests.python(
            """
            import sys
            sys.path.insert(0, '\(GainMapInfoCLITests.pillowHeif)')
            import pillow_heif
            h = pillow_heif.open_heif('\(Self.made)')
            print(h.info['aux']['\(Self.type)'][0])
            """, in: dir)
        let item = verdict.split(separator: "\n").last.map(String.init) ?? "?"
        #expect(ignored.contains("auxiliary image \(item),"), "\(ignored) against pillow-heif's item \(item)")

        let out = FileSystem.join(dir, "crop.png")
        let crop = CLI.run(["crop", Self.made, "--at", "50%,50%", "--size", "64", "-o", out, "--json"])
        #expect(crop.status == 0, "\(crop.stderr)")
        #expect(jsonString(crop.stdout, "gainMap") == "dropped", "\(crop.stdout)")
        #expect(jsonString(crop.stdout, "gainMapNote")?.contains(Self.type) == true, "\(crop.stdout)")
        #expect(crop.stderr.split(separator: "\n").filter { $0.contains(Self.type) }.count == 1, "\(crop.stderr)")
    }
}

/// A string member of a `--json` line, nil when absent or not a string.
private func jsonString(_ line: String, _ key: String) -> String? {
    guard case .string(let s)? = JSONValue.object(line)?[key] else { return nil }
    return s
}
