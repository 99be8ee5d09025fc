import TestSupport
import Testing

@testable import FZSystem

#if canImport(Glibc)
import Glibc
#endif

private let haveExiftool = CLI.shell("exiftool -ver > /dev/null 2>&1") == 0

/// Regions read from XMP, against exiftool: files written by exiftool in MWG, Microsoft and
/// IPTC form at every orientation, read back by exiftool, mapped to upright pixels by hand
/// (`upright`), and compared with `info --json`'s regions (within a pixel: forcezoom rounds
/// each edge to the nearest pixel).
@Suite("Regions CLI", .enabled(if: haveExiftool, "needs exiftool (libimage-exiftool-perl); skipped"))
struct RegionsCLITests {
    /// The upright picture's size of every test file.
    static let upright = (w: 240.0, h: 160.0)

    /// The hand mapping of a normalised point of the *stored* picture to the upright one, per
    /// EXIF orientation (what a viewer does to show it upright): 1 as is; 2 mirrored
    /// (1-x, y); 3 turned 180 (1-x, 1-y); 4 flipped (x, 1-y); 5 transposed (y, x); 6 turned
    /// 90 clockwise (1-y, x); 7 transverse (1-y, 1-x); 8 turned 270 clockwise (y, 1-x).
    static func uprightPoint(_ x: Double, _ y: Double, orientation o: Int) -> (Double, Double) {
        switch o {
        case 2: return (1 - x, y)
        case 3: return (1 - x, 1 - y)
        case 4: return (x, 1 - y)
        case 5: return (y, x)
        case 6: return (1 - y, x)
        case 7: return (1 - y, 1 - x)
        case 8: return (y, 1 - x)
        default: return (x, y)
        }
    }

    /// A stored-frame normalised rectangle (left, top, width, height) in upright pixels:
    /// both corners mapped, then ordered.
    static func uprightRect(_ r: [Double], orientation o: Int) -> [Double] {
        let a = uprightPoint(r[0], r[1], orientation: o)
        let b = uprightPoint(r[0] + r[2], r[1] + r[3], orientation: o)
        let x0 = min(a.0, b.0) * upright.w
        let y0 = min(a.1, b.1) * upright.h
        return [x0, y0, abs(a.0 - b.0) * upright.w, abs(a.1 - b.1) * upright.h]
    }

    /// A fixture stored turned by `orientation` (upright 240x160) with one region of each
    /// form written by exiftool: MWG "Alice", Microsoft "Bob", IPTC "Carol" (relative) and
    /// "Dan" (pixels).
    static func tagged(_ orientation: Int, ext: String = "jpg") -> String? {
        let dir = CLI.scratch()
        let swapped = orientation >= 5
        let (sw, sh) = swapped ? (160, 240) : (240, 160)
        let r = CLI.run(
            ["fixture", "coords", "--size", "240x160", "--exif-orientation", "\(orientation)", "-o", "src.\(ext)"],
            in: dir)
        guard r.status == 0 else { return nil }
        let tags = [
            "-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=\(sw),H=\(sh),Unit=pixel},RegionList=[{Area={X=0.3,Y=0.25,W=0.2,H=0.3,Unit=normalized},Name=Alice,Type=Face}]}",
            "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Bob,Rectangle=0.1|, 0.2|, 0.3|, 0.4}]}",
            "-XMP-iptcExt:ImageRegion=[{RegionBoundary={RbShape=rectangle,RbUnit=relative,RbX=0.5,RbY=0.6,RbW=0.25,RbH=0.2},Name=Carol},{RegionBoundary={RbShape=rectangle,RbUnit=pixel,RbX=10,RbY=20,RbW=40,RbH=30},Name=Dan}]",
        ].map(CLI.quote).joined(separator: " ")
        let path = FileSystem.join(dir, "src.\(ext)")
        guard CLI.shell("exiftool -q -q -overwrite_original \(tags) \(CLI.quote(path))") == 0 else { return nil }
        return path
    }

    /// What exiftool reads back: each region's name and its rectangle (left, top, width,
    /// height) normalised in the frame its form is written in, with whether that frame is
    /// the upright picture (Microsoft) or the stored one (MWG, IPTC).
    static func exiftoolRegions(_ path: String, stored: (Double, Double)) -> [String: (rect: [Double], upright: Bool)] {
        let out = path + ".regions.json"
        // One line: the first (only) file's object.
        _ = CLI.shell(
            "exiftool -j -n -struct -XMP-mwg-rs:all -XMP-MP:all -XMP-iptcExt:all \(CLI.quote(path)) | \(CLI.python) -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[0]))' > \(CLI.quote(out))"
        )
        guard let top = JSONValue.object(CLI.read(out)) else { return [:] }
        var found: [String: (rect: [Double], upright: Bool)] = [:]
        if case .object(let info)? = top["RegionInfo"], case .array(let list)? = info["RegionList"] {
            for case .object(let r) in list {
                guard case .string(let name)? = r["Name"], case .object(let a)? = r["Area"] else { continue }
                let v = ["X", "Y", "W", "H"].map { k -> Double in
                    if case .number(let n)? = a[k] { return n } else { return .nan }
                }
                found[name] = ([v[0] - v[2] / 2, v[1] - v[3] / 2, v[2], v[3]], false)
            }
        }
        if case .object(let info)? = top["RegionInfoMP"], case .array(let list)? = info["Regions"] {
            for case .object(let r) in list {
                guard case .string(let name)? = r["PersonDisplayName"], case .string(let rect)? = r["Rectangle"] else {
                    continue
                }
                found[name] = (rect.split(separator: ",").compactMap { Double($0.trimmingCharacters) }, true)
            }
        }
        if case .array(let list)? = top["ImageRegion"] {
            for case .object(let r) in list {
                guard case .string(let name)? = r["Name"], case .object(let b)? = r["RegionBoundary"] else { continue }
                var v = ["RbX", "RbY", "RbW", "RbH"].map { k -> Double in
                    if case .number(let n)? = b[k] { return n } else { return .nan }
                }
                if case .string(let unit)? = b["RbUnit"], unit.lowercased() == "pixel" {
                    v = [v[0] / stored.0, v[1] / stored.1, v[2] / stored.0, v[3] / stored.1]
                }
                found[name] = (v, false)
            }
        }
        return found
    }

    /// forcezoom's regions: name to [x, y, width, height] in upright pixels.
    static func forcezoomRegions(_ path: String) -> [String: [Double]] {
        let r = CLI.run(["info", "--json", path])
        guard let o = JSONValue.objects(r.stdout).first, case .array(let list)? = o["regions"] else { return [:] }
        var out: [String: [Double]] = [:]
        for case .object(let region) in list {
            guard case .string(let name)? = region["name"], case .object(let rect)? = region["rect"] else { continue }
            out[name] = ["x", "y", "width", "height"].map { k in
                if case .number(let n)? = rect[k] { return n } else { return .nan }
            }
        }
        return out
    }

    @Test("MWG, Microsoft and IPTC regions at orientations 1-8 are exiftool's reading mapped by hand", arguments: 1...8)
    func everyOrientation(_ orientation: Int) throws {
        let path = try #require(Self.tagged(orientation))
        let stored = orientation >= 5 ? (160.0, 240.0) : (240.0, 160.0)
        let theirs = Self.exiftoolRegions(path, stored: stored)
        let ours = Self.forcezoomRegions(path)
        #expect(Set(theirs.keys) == ["Alice", "Bob", "Carol", "Dan"])
        #expect(Set(ours.keys) == Set(theirs.keys))
        for (name, region) in theirs {
            let expected =
                region.upright
                ? [
                    region.rect[0] * Self.upright.w, region.rect[1] * Self.upright.h, region.rect[2] * Self.upright.w,
                    region.rect[3] * Self.upright.h,
                ]
                : Self.uprightRect(region.rect, orientation: orientation)
            let got = try #require(ours[name], "\(name) missing at orientation \(orientation)")
            // Edges: forcezoom rounds left/top and right/bottom to the nearest pixel.
            let edges = [got[0], got[1], got[0] + got[2], got[1] + got[3]]
            let want = [expected[0], expected[1], expected[0] + expected[2], expected[1] + expected[3]]
            for (g, w) in zip(edges, want) {
                #expect(abs(g - w) <= 1, "\(name) at orientation \(orientation): \(got) against \(expected)")
            }
        }
    }
}

extension Substring {
    fileprivate var trimmingCharacters: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
