import TestSupport
import Testing

@testable import FZSystem

/// A grid whose tiles all go to libde265 is read without loading libheif (issue 38): the
/// dynamic loader's own trace (`LD_DEBUG=files`) of a crop, a thumbnail and `info` of the
/// phones' grids (../shared/heic-phone and the iPhone photo with a depth map and a gain map in
/// ../shared/formats/hdr, when present) and of the synthetic 8-bit grids names libde265 and
/// never libheif; a 10-bit grid, which libheif decodes, shows the trace sees it.
@Suite(.serialized)
struct HEIFWithoutLibheifCLITests {
    static let dir = CLI.scratch()
    static let phones = FileSystem.join(FileSystem.directory(of: CLI.root), "shared/heic-phone")
    static func grid(_ name: String) -> String { FileSystem.join(CLI.root, ".cache/heicgrid/\(name)") }

    /// The shared libraries the dynamic loader opened for `arguments` (its status too).
    static func librariesLoaded(_ arguments: [String]) -> (status: Int32, libraries: [String]) {
        let trace = FileSystem.join(dir, "trace")
        let command =
            "LD_DEBUG=files " + ([CLI.binary] + arguments).map(CLI.quote).joined(separator: " ")
            + " > /dev/null 2> \(CLI.quote(trace)) < /dev/null"
        let status = CLI.shell(command)
        let libraries = CLI.read(trace).split(separator: "\n").compactMap { line -> String? in
            guard let at = line.range(of: "file=") else { return nil }
            return String(line[at.upperBound...].prefix { $0 != " " && $0 != "\t" })
        }
        return (status, libraries)
    }

    /// The real iPhone 13 Pro photo with a depth map and Apple's HDR gain map as auxiliary
    /// images (../shared/formats/hdr), which the boxes vouch for too.
    static let iphone = FileSystem.join(
        FileSystem.directory(of: CLI.root), "shared/formats/hdr/iphone13pro_pug_hdrgainmap.heic")

    static var phoneFiles: [String] {
        (["xiaomi.heic", "spatial_photo.heic"].map { FileSystem.join(phones, $0) } + [iphone]).filter {
            FileSystem.kind(of: $0) == .regular
        }
    }

    @Test(arguments: ["crop-16", "crop-400", "thumb", "info"])
    func phoneGridsNeverLoadLibheif(_ what: String) {
        let files = Self.phoneFiles + ["p3.heic", "alpha.heic", "orient-90-n.heic"].map(Self.grid)
        for file in files {
            var arguments: [String]
            switch what {
            case "crop-16": arguments = ["crop", file, "--at", "100,100", "--size", "16", "-o", Self.dir + "/c16.png"]
            case "crop-400": arguments = ["crop", file, "--at", "50%,50%", "--size", "400", "-o", Self.dir + "/c.png"]
            // Larger than any embedded thumbnail: the grid itself is decoded.
            case "thumb": arguments = ["thumb", file, "--size", "1000", "--out", Self.dir, "--quiet"]
            default: arguments = ["info", file]
            }
            let (status, libraries) = Self.librariesLoaded(arguments)
            #expect(status == 0, "\(what) \(file)")
            #expect(libraries.contains { $0.hasPrefix("libde265") } || what == "info", "\(what) \(file): \(libraries)")
            #expect(!libraries.contains { $0.contains("libheif") }, "\(what) \(file) loaded libheif: \(libraries)")
        }
    }

    /// The same trace shows libheif where it is needed: a 10-bit grid's `info`.
    @Test func aDeepGridStillLoadsLibheif() {
        let (status, libraries) = Self.librariesLoaded(["info", Self.grid("deep.heic")])
        #expect(status == 0)
        #expect(libraries.contains { $0.contains("libheif") }, "\(libraries)")
    }

    /// The libde265 warm-up started for a `.heic` name before the arguments are parsed
    /// (`FormatRegistry.warmUp`) changes no byte: the same crop of the same grid named
    /// without an extension, which starts none, is identical.
    @Test func warmUpChangesNoByte() {
        let plain = Self.dir + "/grid-without-extension"
        #expect(CLI.shell("cp \(CLI.quote(Self.grid("p3.heic"))) \(CLI.quote(plain))") == 0)
        for (input, output) in [(Self.grid("p3.heic"), "warm.png"), (plain, "cold.png")] {
            let run = CLI.run(["crop", input, "--at", "90,120", "--size", "64", "-o", Self.dir + "/" + output])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(CLI.bytes(Self.dir + "/warm.png") == CLI.bytes(Self.dir + "/cold.png"))
        #expect(!CLI.bytes(Self.dir + "/warm.png").isEmpty)
    }
}
