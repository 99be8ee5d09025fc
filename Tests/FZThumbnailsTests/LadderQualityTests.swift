import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZSystem
@testable import FZThumbnails
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// A ladder's sizes against the same sizes made alone (issue 38): each measured against
/// Pillow's Lanczos of the full decode (Tools/thumb/psnr.py), none more than 0.5 dB below
/// its alone twin. The rule measured (Thumbnailer+Ladder.swift): a size is made from a
/// larger result when that result holds its window at least twice as densely, else from the
/// one decode, which holds every window at least twice each size.
struct LadderQualityTests {
    static let photos = TestSupport.path(".cache/photos")
    static let allowedLoss = 0.5

    struct Case: CustomTestStringConvertible, Sendable {
        let photo: String
        let ladder: String
        let crop: ThumbnailGeometry.Crop
        var testDescription: String { "\(photo) \(ladder) \(crop)" }
    }

    static let cases: [Case] = [
        Case(photo: "large.jpg", ladder: "320,640,1280", crop: .none),  // 20 MP: DCT 1/2 for 1280
        Case(photo: "large-orient6.jpg", ladder: "320,640,1280", crop: .none),  // EXIF 6
        Case(photo: "batch/Picture_1A_by_freespace.jpg", ladder: "320,640,1280", crop: .none),  // 1365 px
        Case(photo: "batch/Wine_by_Jakkub_Mede.jpg", ladder: "160x120,320x320,640x480", crop: .centre),
        Case(photo: "large.png", ladder: "320,640,1280", crop: .none),  // box average, no DCT
    ]

    /// One output's PSNR line per (case, size, way), in the order written to the manifest.
    @Test func everySizeIsWithinHalfADecibelOfMakingItAlone() throws {
        #expect(
            TestSupport.shell("/usr/bin/python3 -c 'import PIL' 2>/dev/null") == 0,
            "Pillow is needed: apt-get install python3-pil (make deps)")
        let dir = TestSupport.scratch()
        var manifest = ""
        var labels: [String] = []
        var cascades = 0
        for (n, c) in Self.cases.enumerated() {
            let photo = FileSystem.join(Self.photos, c.photo)
            #expect(FileSystem.kind(of: photo) == .regular, "run `make photos` to fetch the real photos")
            let ladder = try ThumbnailLadder(parsing: c.ladder)
            let plan = try ThumbnailPlan(
                inputs: [.init(path: photo)], folder: FileSystem.join(dir, "ladder\(n)"),
                name: ThumbnailName("%z.png"), ladder: ladder)
            try FileSystem.makeDirectories(FileSystem.join(dir, "ladder\(n)"))
            var maker = Thumbnailer(size: ladder.sizes[0], crop: c.crop)
            maker.encodeThreads = 1
            let results = maker.make(ladder: plan.jobs)
            cascades += results.filter { $0.madeFrom != "decode" }.count
            let upright = try ImageReader(path: photo).header.uprightSize
            for (job, result) in zip(plan.jobs, results) {
                #expect(result.outcome == .made, "\(result.error?.description ?? "")")
                let g = try ThumbnailGeometry(source: upright, size: job.size!, crop: c.crop)
                let alone = FileSystem.join(dir, "alone\(n)-\(job.size!.asTyped).png")
                let one = ThumbnailPlan.Job(
                    input: .init(path: photo), output: alone, name: alone, index: 1, format: .png)
                #expect(Thumbnailer(size: job.size!, crop: c.crop).make(one).outcome == .made)
                let w = g.window
                let box = "\(w.x),\(w.y),\(w.width),\(w.height)"
                manifest += "\(job.output)\t\(photo)\t\(box)\n\(alone)\t\(photo)\t\(box)\n"
                labels.append("\(c.photo) \(job.size!.asTyped) from \(result.madeFrom ?? "?")")
            }
        }
        // The cascade (a size from a larger result) is exercised, not only the decode.
        #expect(cascades > 0)
        let list = FileSystem.join(dir, "manifest")
        let report = FileSystem.join(dir, "report")
        let f = fopen(list, "w")!
        fputs(manifest, f)
        fclose(f)
        let tool = TestSupport.path("Tools/thumb/psnr.py")
        #expect(TestSupport.shell("/usr/bin/python3 '\(tool)' --manifest '\(list)' > '\(report)'") == 0)
        let text = (try? FileSystem.readText(report)) ?? ""
        let values = text.split(separator: "\n").filter { !$0.hasPrefix("worst") }
            .map { Double($0.split(separator: " ")[0]) ?? 0 }
        #expect(values.count == 2 * labels.count)
        var lines = ""
        for (i, label) in labels.enumerated() where 2 * i + 1 < values.count {
            let (ladder, alone) = (values[2 * i], values[2 * i + 1])
            lines += "\(label): ladder \(ladder) dB, alone \(alone) dB\n"
            #expect(ladder >= alone - Self.allowedLoss, "\(label): ladder \(ladder) dB, alone \(alone) dB")
        }
        print(lines)
    }
}
