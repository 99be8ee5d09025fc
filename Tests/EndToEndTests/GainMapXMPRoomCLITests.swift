import FZSystem
import TestSupport
import Testing

/// An input whose own XMP fills its 64 KiB APP1 segment: the gain map's Ultra HDR directory
/// cannot join it there, so a JPEG output is the SDR JPEG alone, with its XMP, and `--json` says
/// `"gainMap":"dropped"` with the reason (it used to say "kept"), with one warning; an XMP
/// 5 KB shorter still leaves room and the map is kept. Checked with Pillow (MPO or plain JPEG)
/// and the output's XMP read back; crop and thumb (the two places a map is read for outputs).
@Suite("Gain maps beside a large XMP")
struct GainMapXMPRoomCLITests {
    /// `big.jpg` (XMP packet of 65,300 bytes) and `fits.jpg` (60,000) made from the Ultra HDR
    /// input of `GainMapCarryCLITests` by replacing the primary's XMP segment (it precedes the
    /// MPF segment, so the MPF offsets, relative to it, still hold).
    static func inputs() throws -> String {
        let dir = try GainMapCarryCLITests.input()
        let made = ColorCLITests.python(
            """
            import struct
            b = open('uhdr.jpg', 'rb').read()
            sig = b'http://ns.adobe.com/xap/1.0/\\x00'
            i = 2
            while not (b[i + 1] == 0xE1 and b[i + 4:i + 4 + len(sig)] == sig):
                i += 2 + struct.unpack('>H', b[i + 2:i + 4])[0]
            n = struct.unpack('>H', b[i + 2:i + 4])[0]
            def packet(size):
                head = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>'
                        '<rdf:Alt><rdf:li xml:lang="x-default">')
                tail = '</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>'
                return (head + 'a' * (size - len(head) - len(tail)) + tail).encode()
            for name, size in (('big.jpg', 65300), ('fits.jpg', 60000)):
                p = sig + packet(size)
                open(name, 'wb').write(b[:i] + b'\\xff\\xe1' + struct.pack('>H', len(p) + 2) + p + b[i + 2 + n:])
            print('ok')
            """, in: dir)
        #expect(made.hasSuffix("ok\n"), "\(made)")
        return dir
    }

    @Test(.enabled(if: GainMapCarryCLITests.ready)) func aFullXMPSegmentDropsTheMap() throws {
        let dir = try Self.inputs()
        let runs: [(args: [String], out: String, kept: Bool)] = [
            (["crop", "big.jpg", "--at", "61,45", "--size", "40", "-o", "big-crop.jpg"], "big-crop.jpg", false),
            (["crop", "fits.jpg", "--at", "61,45", "--size", "40", "-o", "fits-crop.jpg"], "fits-crop.jpg", true),
            (["thumb", "big.jpg", "--size", "64", "-o", "big-thumb.jpg"], "big-thumb.jpg", false),
        ]
        for run in runs {
            let r = CLI.run(run.args + ["--json"], in: dir)
            #expect(r.status == 0, "\(run.args): \(r.stderr)")
            if run.kept {
                #expect(r.stdout.contains("\"gainMap\":\"kept\"") && r.stderr.isEmpty, "\(r.stdout) \(r.stderr)")
            } else {
                #expect(r.stdout.contains("\"gainMap\":\"dropped\""), "\(r.stdout)")
                #expect(r.stdout.contains("leaves no room for the gain map"), "\(r.stdout)")
                let warnings = r.stderr.split(separator: "\n").filter { $0.contains("leaves no room") }
                #expect(warnings.count == 1, "\(r.stderr)")
            }
        }
        let verdict = ColorCLITests.python(
            """
            from PIL import Image
            problems = []
            for name, kept in (('big-crop.jpg', False), ('fits-crop.jpg', True), ('big-thumb.jpg', False)):
                im = Image.open(name)
                frames = getattr(im, 'n_frames', 1)
                if (im.format == 'MPO' and frames == 2) != kept: problems.append('%s: %s, %d frames' % (name, im.format, frames))
                b = open(name, 'rb').read()
                if (b'hdrgm:Version' in b) != kept: problems.append('%s: hdrgm XMP %s' % (name, not kept))
                if b.count(b'a' * 50000) != 1: problems.append('%s: the input XMP is not carried' % name)
            print('\\n'.join(problems) or 'ok')
            """, in: dir)
        #expect(verdict.split(separator: "\n").last == "ok", "\(verdict)")
    }
}
