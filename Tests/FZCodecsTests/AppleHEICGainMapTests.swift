import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZGainMap
@testable import FZHEIF
@testable import FZImage
@testable import FZSystem
@testable import Geometry

/// `AppleHEICGainMap`: libheif's HEIC of a picture joined with libheif's monochrome HEIC of a gain
/// map is read back by our reader (the box probe, then libheif's auxiliary-image decode) with the
/// map's size, pixels (within HEVC's loss at quality 95) and headroom (from the map's XMP, the
/// file having no EXIF), and the picture's pixels unchanged by the join; a map that cannot be coded
/// or files that are not what libheif writes are refused, so the writer keeps the picture alone.
struct AppleHEICGainMapTests {
    static let parameters: GainMapParameters = {
        var p = GainMapParameters(scheme: .apple, version: "65536")
        p.setAppleHeadroom(3.5)
        return p
    }()

    static func primary() throws -> [UInt8] {
        var image = Image(width: 64, height: 48, format: .rgb)
        for i in image.pixels.indices { image.pixels[i] = UInt8((i * 7) % 251) }
        return try HEIFEncoder.encode(
            image, avif: false, quality: 90, lossless: false, exif: nil, rotation: 0, path: "p.heic")
    }

    /// A smooth gray ramp (what a gain map is like), `w` x `h`.
    static func map(_ w: Int, _ h: Int) -> Image {
        var m = Image(width: w, height: h, format: .gray)
        for y in 0..<h { for x in 0..<w { m.pixels[y * m.stride + x] = UInt8(40 + 4 * x + 2 * y) } }
        return m
    }

    /// An even map (one hvc1 item) and an odd one (libheif's grid of one padded tile).
    @Test(arguments: [(32, 24), (31, 23)])
    func joinedFileIsReadBack(_ w: Int, _ h: Int) throws {
        let primary = try Self.primary()
        let map = Self.map(w, h)
        let result = AppleHEICGainMap.joined(primary: primary, map: map, parameters: Self.parameters) {
            (gray) throws(OutputError) in
            try HEIFEncoder.encodeMonochrome(gray, quality: 95, lossless: false, path: "m.heic")
        }
        guard case .success(let bytes) = result else {
            Issue.record("not joined: \(result)")
            return
        }
        let path = FileSystem.join(TestSupport.scratch(), "joined.heic")
        CLI.write(path, bytes)
        let reader = try ImageReader(path: path)
        let picture = try reader.readImage()
        let alone = FileSystem.join(TestSupport.scratch(), "alone.heic")
        CLI.write(alone, primary)
        #expect(TestSupport.maxDifference(picture, try ImageReader(path: alone).readImage()) == 0)
        guard case .decoded(let read) = reader.readGainMap() else {
            Issue.record("no gain map read back")
            return
        }
        #expect(read.image.size == PixelSize(width: w, height: h))
        #expect(read.source.container == .heifAuxiliary && read.parameters.scheme == .apple)
        #expect(abs((read.parameters.appleHeadroom ?? 0) - 3.5) < 1e-9)
        #expect(TestSupport.maxDifference(read.image, map) <= 4)
    }

    @Test func aMapThatCannotBeCodedLeavesThePictureAlone() throws {
        let result = AppleHEICGainMap.joined(
            primary: try Self.primary(), map: Self.map(8, 8), parameters: Self.parameters
        ) { (_) throws(OutputError) in
            throw OutputError.writeFailed(path: "m.heic", reason: "libheif: x265 refused")
        }
        guard case .failure(let why) = result else {
            Issue.record("joined anyway")
            return
        }
        #expect(why.detail == "the gain map could not be coded (libheif: x265 refused)")
    }

    /// x265 refuses a map 17000 pixels wide ("Invalid image size"): the writer writes the HEIC
    /// without it, readable and with no gain map, and records why for --json and the warning.
    @Test func theWriterDropsAMapX265Refuses() throws {
        let drops = GainMapDrops()
        var map = CarriedGainMap(image: Image(width: 17000, height: 2, format: .gray), parameters: Self.parameters)
        map.drops = drops
        let path = FileSystem.join(TestSupport.scratch(), "dropped.heic")
        var picture = Image(width: 64, height: 48, format: .rgb)
        for i in picture.pixels.indices { picture.pixels[i] = UInt8((i * 5) % 256) }
        try ImageWriter.write(picture, to: path, encoding: OutputEncoding(HEICImageEncoder.registration), gainMap: map)
        let why = try #require(drops.first)
        #expect(why.hasPrefix("the gain map could not be coded (libheif: encoding the gray image failed"), "\(why)")
        let reader = try ImageReader(path: path)
        #expect(reader.header.uprightSize == PixelSize(width: 64, height: 48))
        _ = try reader.readImage()
        guard case .none = reader.readGainMap() else {
            Issue.record("a gain map was written")
            return
        }
    }

    /// Files not as libheif writes them: refused with a reason, never joined half-way.
    @Test func brokenFilesAreRefused() throws {
        let primary = try Self.primary()
        let map = try HEIFEncoder.encodeMonochrome(Self.map(16, 16), quality: 95, lossless: false, path: "m.heic")
        let xmp = AppleHEICGainMap.xmp(Self.parameters)
        for (p, m) in [
            (Array("not an heif file".utf8), map), (primary, Array(map.prefix(map.count / 2))),
            (primary, Array(map.prefix(200))),
        ] {
            #expect(throws: AppleHEICGainMap.Invalid.self) { try AppleHEICGainMap.joined(primary: p, map: m, xmp: xmp) }
        }
    }

    /// The writer's drop, as the commands read it: --json's outcome and one warning.
    @Test func aDroppedMapIsSaid() {
        var carry = GainMapCarry(outcome: .kept)
        #expect(carry.written == .kept && carry.droppedWarning == nil)
        carry.drops.add("the gain map could not be coded (x)")
        #expect(carry.written == .dropped("the gain map could not be coded (x)"))
        #expect(carry.droppedWarning == "the gain map could not be coded (x); the output is SDR")
    }
}
