import FZImage
import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat

/// The HDR rendition's PNG: 16-bit, a cICP chunk of BT.2100 PQ (9, 16, 0, 1) before the image
/// data and no iCCP, sRGB, gAMA or cHRM beside it, checked by walking the chunks in Python;
/// the samples read back by pypng (an independent PNG decoder) equal to what was written.
@Suite("PQ PNG writer")
struct PQPNGWriterTests {
    static let ready = CLI.shell("\(CLI.python) -c 'import png' 2>/dev/null") == 0

    static let check = #"""
        import struct, sys, zlib, png
        name, channels = sys.argv[1], int(sys.argv[2])
        data = open(name, 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n'
        pos, order, cicp = 8, [], None
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])[0], kind
            order.append(kind.decode())
            if kind == b'cICP': cicp = body
            pos += 12 + n
        first_idat = order.index('IDAT')
        print('cicp', cicp.hex() if cicp is not None else 'none')
        print('before-idat', 'cICP' in order[:first_idat])
        print('contradicting', [k for k in order if k in ('iCCP', 'sRGB', 'gAMA', 'cHRM')])
        w, h, rows, info = png.Reader(filename=name).read()
        print('depth', info['bitdepth'], 'planes', info['planes'])
        samples = [v for row in rows for v in row]
        raw = open(name + '.expected', 'rb').read()
        expected = list(struct.unpack('>%dH' % (len(raw) // 2), raw))
        print('same', samples == expected)
        """#

    @Test(.enabled(if: ready), arguments: [PixelFormat.rgb, .rgba, .gray])
    func writesCICPAndSixteenBitSamples(format: PixelFormat) throws {
        let dir = CLI.scratch()
        let size = PixelSize(width: 7, height: 5)
        let count = size.width * size.height * format.channels
        // Every sample distinct in both bytes, so a byte swap or a lost low byte shows.
        let samples = (0..<count).map { UInt16(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let image = Image16(
            width: size.width, height: size.height, format: format,
            bytes: samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        let path = FileSystem.join(dir, "hdr.png")
        try ImageWriter.writePQ(image, to: path, settings: .default)
        CLI.write(path + ".expected", image.bytes)
        CLI.write(FileSystem.join(dir, "check.py"), Array(Self.check.utf8))
        let out = FileSystem.join(dir, "check.out")
        _ = CLI.shell(
            "cd \(CLI.quote(dir)) && \(CLI.python) check.py hdr.png \(format.channels) > \(CLI.quote(out)) 2>&1")
        let printed = CLI.read(out)
        #expect(printed.contains("cicp 09100001"), "\(printed)")
        #expect(printed.contains("before-idat True"), "\(printed)")
        #expect(printed.contains("contradicting []"), "\(printed)")
        #expect(printed.contains("depth 16 planes \(format.channels)"), "\(printed)")
        #expect(printed.contains("same True"), "\(printed)")
        // Our own reader sees the cICP too (what `info` reports).
        let header = try ImageReader(path: path).header
        #expect(header.color.cicp == [9, 16, 0, 1])
    }
}
