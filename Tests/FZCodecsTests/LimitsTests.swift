import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZPNG
@testable import Geometry

#if canImport(Glibc)
import Glibc
#endif

/// The limits against hostile headers: pixels and memory checked from the header before
/// anything sized by the image is allocated (also for headers cut short), the progressive
/// scan limit, and header errors kept apart from data errors. Files: Fixtures/hostile/.
struct LimitsTests {
    static func hostile(_ name: String) -> String { TestSupport.path("Fixtures/hostile/" + name) }

    static func readBytes(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// The CPU time `body` takes on this thread (it runs synchronously, so on this thread
    /// only): a refusal's time guard that a busy machine cannot fail, where the wall clock
    /// grows with the load.
    static func cpuSeconds(_ body: () -> Void) -> Double {
        var a = timespec()
        var b = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
        return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
    }

    /// Before the fix libpng sized its row buffers for 2147483647 pixels first (10 s, 6 GB).
    @Test(arguments: [
        ("png-width-2p31-1.png", 2_147_483_647, 1), ("png-height-2p31-1.png", 1, 2_147_483_647),
        ("png-100000x100000.png", 100_000, 100_000), ("png-100000x100000-partial.png", 100_000, 100_000),
        ("jpeg-65500x65500.jpg", 65500, 65500), ("jpeg-65500x65500-partial.jpg", 65500, 65500),
    ])
    func overThePixelLimitFromTheHeader(_ name: String, _ width: Int, _ height: Int) {
        var failure: DecodeError?
        let time = Self.cpuSeconds {
            do throws(DecodeError) { _ = try ImageReader(path: Self.hostile(name)) } catch { failure = error }
        }
        #expect(
            failure
                == .tooManyPixels(
                    path: Self.hostile(name), size: PixelSize(width: width, height: height), limit: 268_435_456))
        #expect(time < 1, "\(name): CPU-time guard: \(time) s of CPU to refuse")
    }

    @Test func memoryNeededFromThePNGHeader() {
        // 2^28 x 1 RGBA16: two libpng rows of 8 bytes a pixel, one 4-byte forcezoom row.
        #expect(
            PNGReader.memoryNeeded(
                size: PixelSize(width: 1 << 28, height: 1), bitDepth: 16, colorType: 6,
                interlaced: false, transparency: false) == 5 << 30)
        // Adam7 holds the whole 8-bit image as well.
        #expect(
            PNGReader.memoryNeeded(
                size: PixelSize(width: 100, height: 50), bitDepth: 8, colorType: 3,
                interlaced: true, transparency: true) == 2 * 100 * 4 + 100 * 4 + 100 * 50 * 4)
        // 1-bit gray expands to 8 bits before anything else.
        #expect(
            PNGReader.memoryNeeded(
                size: PixelSize(width: 800, height: 1), bitDepth: 1, colorType: 0,
                interlaced: false, transparency: false) == 2 * 800 + 800)
        // No overflow at the largest PNG header.
        #expect(
            PNGReader.memoryNeeded(
                size: PixelSize(width: Int(Int32.max), height: Int(Int32.max)), bitDepth: 16,
                colorType: 6, interlaced: true, transparency: false) > 1 << 62)
    }

    @Test(arguments: [
        ("png-16bit-rgba-wide.png", Int64(5) << 30), ("png-16384-interlaced-nodata.png", Int64(1 << 30) + 16384 * 12),
        ("jpeg-65500x4096-progressive.jpg", Int64(1_610_612_736)),
    ])
    func overTheMemoryLimitFromTheHeader(_ name: String, _ atLeast: Int64) {
        do {
            _ = try ImageReader(path: Self.hostile(name))
            Issue.record("\(name) opened")
        } catch {
            guard case .overMemoryLimit(let path, let needed, let limit) = error else {
                Issue.record("\(name): want overMemoryLimit, got \(error)")
                return
            }
            #expect(path == Self.hostile(name) && limit == 1 << 30)
            #expect(needed >= atLeast, "\(name): estimated \(needed)")
            #expect(error.description.contains("--max-memory"))
        }
    }

    @Test func aHigherMemoryLimitLetsTheHeaderOpen() throws {
        var options = DecodeOptions()
        options.maxMemory = 2 << 30
        let reader = try ImageReader(path: Self.hostile("jpeg-65500x4096-progressive.jpg"), options: options)
        #expect(reader.header.storedSize == PixelSize(width: 65500, height: 4096))
    }

    /// The scan limit is what refuses the bombs: without it they decode (they are tiny).
    @Test(arguments: ["jpeg-scan-bomb.jpg", "jpeg-scan-bomb-repeat.jpg"])
    func scanLimit(_ name: String) throws {
        #expect(throws: DecodeError.tooManyScans(path: Self.hostile(name), limit: 100)) {
            _ = try ImageReader(path: Self.hostile(name)).readImage()
        }
        var lenient = DecodeOptions()
        lenient.lenient = true
        #expect(throws: DecodeError.tooManyScans(path: Self.hostile(name), limit: 100)) {
            _ = try ImageReader(path: Self.hostile(name), options: lenient).readImage()
        }
        var unlimited = DecodeOptions()
        unlimited.maxScans = 0
        let image = try ImageReader(path: Self.hostile(name), options: unlimited).readImage()
        #expect(image.size == PixelSize(width: 256, height: 256))
    }

    @Test func headerAndDataErrorsAreTold() {
        func error(_ name: String) -> DecodeError? {
            do { _ = try ImageReader(path: Self.hostile(name)).readImage() } catch { return error }
            return nil
        }
        let p = Self.hostile
        #expect(
            error("trunc-png-ihdr-mid.png") == .truncatedHeader(path: p("trunc-png-ihdr-mid.png"), detail: "Read Error")
        )
        #expect(error("crc-ihdr.png") == .corruptHeader(path: p("crc-ihdr.png"), detail: "IHDR: CRC error"))
        #expect(
            error("trunc-png-idat-50pct.png") == .truncated(path: p("trunc-png-idat-50pct.png"), detail: "Read Error"))
        #expect(
            error("bad-filter-byte.png")
                == .corrupt(path: p("bad-filter-byte.png"), detail: "bad adaptive filter value"))
        #expect(
            error("trunc-jpeg-sof-mid.jpg")
                == .truncatedHeader(path: p("trunc-jpeg-sof-mid.jpg"), detail: "Premature end of JPEG file"))
        #expect(
            error("trunc-jpeg-scan-50pct.jpg")
                == .truncated(path: p("trunc-jpeg-scan-50pct.jpg"), detail: "Premature end of JPEG file"))
        if case .corruptHeader = error("jpeg-sampling-bad.jpg") {
        } else {
            Issue.record("jpeg-sampling-bad.jpg: want corruptHeader")
        }
        if case .unsupportedVariant = error("jpeg-12bit.jpg") {
        } else {
            Issue.record("jpeg-12bit.jpg: want unsupportedVariant")
        }
        if case .unsupportedVariant = error("jpeg-16bit-lossless.jpg") {
        } else {
            Issue.record("lossless JPEG: want unsupportedVariant")
        }
        // Only data errors suggest --lenient: it cannot help a header.
        #expect(error("crc-ihdr.png")?.description.contains("--lenient") == false)
        #expect(error("bad-filter-byte.png")?.description.contains("--lenient") == true)
    }

    /// Bytes in memory read exactly as the same file does.
    @Test(arguments: [
        "good.png", "good-interlaced.png", "good-palette.png", "good.jpg", "exif-loop.jpg", "too-much-data.png",
    ])
    func bytesReadAsTheFileDoes(_ name: String) throws {
        let path = Self.hostile(name)
        let fromFile = try ImageReader(path: path)
        let bytes = try #require(Self.readBytes(path))
        let fromBytes = try ImageReader(bytes: bytes, name: name)
        #expect(fromBytes.path == name)
        #expect(fromBytes.header == fromFile.header)
        #expect(try fromBytes.readImage() == fromFile.readImage())
        #expect(throws: DecodeError.empty(path: "nothing")) { _ = try ImageReader(bytes: [], name: "nothing") }
    }

    /// A header promising a big interlaced image, then no data: a crop is refused fast, as
    /// the calloc'd whole-image buffer Adam7 needs is never written, so never resident.
    @Test func interlacedHeaderWithoutDataCostsLittle() {
        let name = Self.hostile("png-15000-interlaced-nodata.png")
        var failure: DecodeError?
        let time = Self.cpuSeconds {
            do throws(DecodeError) {
                _ = try ImageReader(path: name).readUpright([PixelRect(x: 7000, y: 7000, width: 64, height: 64)])
            } catch { failure = error }
        }
        #expect(failure == .truncated(path: name, detail: "Not enough image data"))
        #expect(time < 1, "CPU-time guard: \(time) s of CPU")
    }
}
