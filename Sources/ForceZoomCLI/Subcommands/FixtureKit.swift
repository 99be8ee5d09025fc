import ArgumentParser
import FZOperations

/// `forcezoom fixture kit DIR`: a folder of fixtures with their expected answers.
struct FixtureKit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kit",
        abstract: "Write a folder of fixtures with a MANIFEST.json of what a correct reader must show.",
        discussion: """
            Sets (--set, repeatable; default all):
              orientation  JPEG, PNG (eXIf), WebP with EXIF orientation 1-8; HEIC with
                           irot x imir (8); files tagged 6 whose pixels are already
                           upright; a JPEG whose XMP orientation contradicts its EXIF;
                           an HEIC whose EXIF tag must be ignored
              formats      PNG, JPEG (baseline, progressive), WebP (lossless, lossy),
                           HEIC, AVIF
              colour       PNG, JPEG with Display P3 and Adobe RGB profiles; a gray
                           PNG with a gray profile
              deep         16-bit PNG, RGB and gray; 10-bit HEIC
              alpha        RGBA PNG, WebP (lossless, lossy) and AVIF
              hdr          Ultra HDR JPEGs: the coordinate pattern with a gain map of
                           known gain (gray at 1/4, 3-channel at 1/2, gray at 3/8);
                           the manifest's gainMap gives the gain at sample points

            MANIFEST.json (docs/json/fixture-kit.schema.json) lists per file its path, format, stored and upright size, tags, `reference` (a lossless 8-bit PNG of what a correct reader shows, upright, in sRGB), `tolerance` ({"pae":N} levels or {"psnr":dB}) and `why`, a sentence a failing test can print. Check a decoder's output with `forcezoom compare OUTPUT REFERENCE --metric pae|psnr --threshold N`.

            The same arguments give the same bytes on every run, except HEIC and AVIF files ("deterministic":false in the manifest: x265 and aom do not promise byte-reproducible output, so compare their pixels).

            Examples:
              forcezoom fixture kit kit --set orientation
              forcezoom fixture kit kit
            """)

    @Argument(
        help: ArgumentHelp("The folder to write (made if missing; files already there are replaced).", valueName: "dir")
    )
    var directory: String

    @Option(
        name: .long, help: ArgumentHelp("Which fixtures to write; repeatable.", valueName: "set"))
    var set: [KitSetArgument] = [.all]

    func validate() throws {
        if directory.isEmpty {
            throw ValidationError("the kit folder is an empty name; give a folder (made if missing)")
        }
    }

    func run() throws {
        let sets =
            set.contains(.all)
            ? KitSet.allCases : KitSet.allCases.filter { s in set.contains { $0.rawValue == s.rawValue } }
        try FixtureKitOperation(sets: sets, directory: directory).run(Report.terminal)
    }
}

/// `--set`: a kit set or all of them.
enum KitSetArgument: String, ChoiceArgument {
    case orientation, formats, colour, deep, alpha, hdr, all
}
