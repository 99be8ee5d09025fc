import FZSystem
import Geometry
import TestSupport
import Testing

@testable import FZCodecs
@testable import FZFormat
@testable import FZGainMap

/// Ultra HDR files assembled from two JPEGs made by Pillow: exiftool reads the MPF index and the
/// hdrgm values back, Pillow opens the file as MPO with two frames, both
/// images decode to exactly the pixels of the JPEGs they came from (only APP segments were added),
/// and `info`'s reader finds the same gain map again.
@Suite("Ultra HDR container")
struct UltraHDRContainerTests {
    static let ready =
        CLI.shell("command -v exiftool >/dev/null && \(CLI.python) -c 'import PIL' 2>/dev/null") == 0

    /// primary.jpg (96x64 RGB, with an XMP packet of its own) and map.jpg (48x32, gray or RGB).
    static func parts(channels: Int) -> (dir: String, primary: [UInt8], map: [UInt8]) {
        let dir = CLI.scratch()
        let script = """
            from PIL import Image
            import numpy as np
            y, x = np.mgrid[0:64, 0:96]
            Image.fromarray(np.dstack([x * 2, y * 3, (x + y) % 256]).astype('uint8')).save('primary.jpg', quality=90)
            d = open('primary.jpg', 'rb').read()
            xmp = b'http://ns.adobe.com/xap/1.0/\\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="0.9"><dc:format>image/jpeg</dc:format></rdf:Description></rdf:RDF></x:xmpmeta>'
            open('primary.jpg', 'wb').write(d[:2] + b'\\xff\\xe1' + (len(xmp) + 2).to_bytes(2, 'big') + xmp + d[2:])
            g = np.mgrid[0:32, 0:48][1] * 5
            m = g if \(channels) == 1 else np.dstack([g, 255 - g, g // 2])
            Image.fromarray(m.astype('uint8')).save('map.jpg', quality=95)
            """
        _ = ColorCLITestsPython.run(script, in: dir)
        return (dir, CLI.bytes(FileSystem.join(dir, "primary.jpg")), CLI.bytes(FileSystem.join(dir, "map.jpg")))
    }

    static func parameters(channels: Int) -> GainMapParameters {
        var p = GainMapParameters(scheme: .hdrgm, version: "1.0")
        p.gainMapMin = channels == 1 ? [0.25] : [0.25, -0.5, 0]
        p.gainMapMax = channels == 1 ? [2.5] : [2.5, 1.75, 3]
        p.gamma = [1.5]
        p.offsetSDR = [0.015625]
        p.offsetHDR = [0.03125]
        p.hdrCapacityMin = 0.5
        p.hdrCapacityMax = 3
        return p
    }

    @Test(.enabled(if: ready), arguments: [1, 3])
    func exiftoolPillowAndOurReaderAgree(_ channels: Int) throws {
        let (dir, primary, map) = Self.parts(channels: channels)
        let p = Self.parameters(channels: channels)
        let out = try UltraHDRContainer.assemble(primary: primary, gainMap: map, parameters: p)
        let file = FileSystem.join(dir, "uhdr.jpg")
        CLI.write(file, out)
        let verdict = ColorCLITestsPython.run(
            """
            import json, subprocess, numpy as np
            from PIL import Image
            problems = []
            x = json.loads(subprocess.run(['exiftool', '-j', '-n', '-MPF:all', '-XMP-hdrgm:all', '-XMP-Container:all',
                                           'uhdr.jpg'], capture_output=True, text=True).stdout)[0]
            if x.get('NumberOfImages') != 2: problems.append('MPF images %r' % x.get('NumberOfImages'))
            gm = subprocess.run(['exiftool', '-b', '-MPImage2', 'uhdr.jpg'], capture_output=True).stdout
            open('gm.jpg', 'wb').write(gm)
            g = json.loads(subprocess.run(['exiftool', '-j', '-n', '-XMP-hdrgm:all', 'gm.jpg'], capture_output=True, text=True).stdout)[0]
            want = {'Version': 1.0, 'GainMapMin': \(p.gainMapMin.count == 1 ? "0.25" : "[0.25, -0.5, 0]"),
                    'GainMapMax': \(p.gainMapMax.count == 1 ? "2.5" : "[2.5, 1.75, 3]"), 'Gamma': 1.5,
                    'OffsetSDR': 0.015625, 'OffsetHDR': 0.03125, 'HDRCapacityMin': 0.5, 'HDRCapacityMax': 3}
            for k, v in want.items():
                if g.get(k) != v: problems.append('%s: %r, want %r' % (k, g.get(k), v))
            if str(x.get('Version')) not in ('1.0', '1'): problems.append('primary hdrgm:Version %r' % x.get('Version'))
            if x.get('DirectoryItemLength') not in ([len(gm)], len(gm)) and len(gm) not in (x.get('DirectoryItemLength') or []):
                problems.append('Item:Length %r, gain map %d bytes' % (x.get('DirectoryItemLength'), len(gm)))
            im = Image.open('uhdr.jpg')
            if im.format != 'MPO' or getattr(im, 'n_frames', 1) != 2: problems.append('Pillow: %s, %s frames' % (im.format, getattr(im, 'n_frames', 1)))
            a = np.asarray(im.convert('RGB')).astype(int)
            if not np.array_equal(a, np.asarray(Image.open('primary.jpg').convert('RGB')).astype(int)): problems.append('primary pixels changed')
            # Debian's Pillow 9.4 gives every MPO frame the primary's size, so the gain map is decoded
            # from the bytes exiftool took at MPImage2's offset.
            b = np.asarray(Image.open('gm.jpg')).astype(int)
            if not np.array_equal(b, np.asarray(Image.open('map.jpg')).astype(int)): problems.append('gain map pixels changed')
            print('ok' if not problems else '; '.join(problems))
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
        let reader = try ImageReader(path: file)
        guard case .found(let g) = reader.probeGainMap() else {
            Issue.record("our reader finds no gain map")
            return
        }
        #expect(g.parameters == p && g.size == PixelSize(width: 48, height: 32) && g.channels == channels)
        #expect(g.length == map.count + UltraHDRContainer.gainMapXMP(p).count + 4 + 29)
        // The primary's own XMP kept its dc:format and lost its old hdrgm:Version="0.9".
        let xmp = try #require(reader.metadata.xmp.map { String(decoding: $0, as: UTF8.self) })
        #expect(xmp.contains("<dc:format>image/jpeg</dc:format>") && !xmp.contains("0.9"), "\(xmp)")
    }

    @Test func appleValuesAreRefused() {
        let p = GainMapParameters(scheme: .apple, version: "")
        #expect(throws: UltraHDRContainer.Failure.notHDRGM) {
            try UltraHDRContainer.assemble(primary: [0xFF, 0xD8], gainMap: [0xFF, 0xD8], parameters: p)
        }
    }
}

/// Runs a Python script (Debian's python3) in `dir` and returns what it printed.
enum ColorCLITestsPython {
    static func run(_ script: String, in dir: String) -> String {
        let file = FileSystem.join(dir, "script-\(script.hashValue & 0xFFFF).py")
        let out = file + ".out"
        CLI.write(file, Array(script.utf8))
        _ = CLI.shell("cd \(CLI.quote(dir)) && \(CLI.python) \(CLI.quote(file)) > \(CLI.quote(out)) 2>&1")
        return CLI.read(out)
    }
}
