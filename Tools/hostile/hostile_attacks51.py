"""Issue 51's attacker findings 2-9, rebuilt byte by byte (standard library only, byte-identical
on every run): GIF frames far wider than their screen (an LZW time bomb), restore-to-previous
frames on a large screen, Ultra HDR and Apple gain-map JPEGs whose version text is no number
(`1"0`, `1&0`, `1&000`), a TIFF of 2,000 pages, and a 16-bit PNG for cjxl to make a 16-bit
JPEG XL. make-hostile.py calls `attacks51_files(add, jpeg)` after the other sets (so their
bytes do not move); the tests load this file by path (importlib) and call the makers with
larger counts; Tools/fuzz/make-seeds.py writes `seed_files(jpeg)`.

Usage: hostile_attacks51.py png16 W H OUT   (the 16-bit RGB PNG the JPEG XL budget test feeds to cjxl)
"""

import struct
import sys
import zlib

from hostile_gif_bmp import PALETTE4, lzw, pack_codes, sub_blocks


# ---------------------------------------------------------------------------------------
# GIF


def lzw_zeros(count, min_code_size=2):
    """An LZW stream of `count` zero indices as a greedy encoder writes it: each code one
    zero longer than the last, the code size growing as the table does, then (the table
    full at 4095, no clear code: a "deferred clear") the longest code again and again; a
    last shorter code, the end code. About 1.5 bytes per 4,000 pixels once the table is full."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    next_code = end + 1
    longest = 1  # zeros the longest table entry stands for
    codes = [clear]

    def code_for(n):  # the entry for n zeros: 0 for one, then end+1 for two, end+2 for three...
        return 0 if n == 1 else end + n - 1

    widths = []
    left = count
    while left > 0:
        n = min(longest, left)
        codes.append(code_for(n))
        widths.append(width)
        left -= n
        if left > 0 and next_code < 4096:
            # The encoder adds "this string plus the next zero" (one zero longer).
            next_code += 1
            longest += 1
            if next_code > (1 << width) and width < 12:
                width += 1
    codes.append(end)
    widths.append(width)
    return pack_codes(codes, [min_code_size + 1] + widths)


def gif_frames(screen, frames, disposal=0, interlaced=False, left_top=(0, 0)):
    """A GIF89a with a 4-colour palette and `frames` (w, h) frames of colour 0 (black), each
    after a Graphic Control Extension with `disposal`, all at `left_top`."""
    sw, sh = screen
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x81, 0, 0) + PALETTE4)
    cache = {}
    for w, h in frames:
        out += b"\x21\xF9\x04" + bytes([disposal << 2]) + b"\x00\x00\x00\x00"
        out += b"\x2C" + struct.pack("<HHHHB", left_top[0], left_top[1], w, h, 0x40 if interlaced else 0)
        if (w, h) not in cache:
            cache[(w, h)] = b"\x02" + sub_blocks(lzw_zeros(w * h))
        out += cache[(w, h)]
    return bytes(out + b"\x3B")


def gif_indices(screen, size, indices, interlaced=False):
    """One frame of `size` at 0,0 on `screen` whose palette indices, in storage order (the
    interlaced passes' order too), are `indices`."""
    sw, sh = screen
    w, h = size
    return (b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x81, 0, 0) + PALETTE4
            + b"\x2C" + struct.pack("<HHHHB", 0, 0, w, h, 0x40 if interlaced else 0)
            + b"\x02" + sub_blocks(lzw(indices)) + b"\x3B")


def gif_time_bomb(frames=2, screen=(1, 1)):
    """Frames of 65535x4096, interlaced (so that rows past the screen come between rows on
    it), on a tiny screen: 268 M pixels of LZW each, 100 KB of data."""
    return gif_frames(screen, [(65535, 4096)] * frames, interlaced=True)


def gif_restore_previous(side=4000, frames=4):
    """A side x side screen of frames that cover it, each "restore to previous" (disposal 3):
    composing frame N keeps what each frame before it covered, one after the other."""
    return gif_frames((side, side), [(side, side)] * frames, disposal=3)


# ---------------------------------------------------------------------------------------
# Gain-map JPEGs


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


XMP_SIG = b"http://ns.adobe.com/xap/1.0/\x00"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"


def xmp_packet(description):
    return ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="%s">%s</rdf:RDF></x:xmpmeta>'
            % (RDF, description)).encode()


def mpf(primary_length, map_length, base):
    """An MPF index of two images (big-endian), offsets from `base` (the MPF header)."""
    b = b"MM" + struct.pack(">HIH", 42, 8, 3)
    b += struct.pack(">HHI", 0xB000, 7, 4) + b"0100"
    b += struct.pack(">HHII", 0xB001, 4, 1, 2)
    b += struct.pack(">HHII", 0xB002, 7, 32, 50) + struct.pack(">I", 0)
    b += struct.pack(">IIIHH", 0x20030000, primary_length, 0, 0, 0)
    b += struct.pack(">IIIHH", 0, map_length, primary_length - base, 0, 0)
    return b


def gain_map_jpeg(jpeg, map_description, primary_description=""):
    """A 32x32 primary JPEG with `primary_description` (an rdf:Description, or none) and an
    MPF index whose second image, a 8x8 gray JPEG after the primary's EOI, carries
    `map_description` as its XMP: the form Ultra HDR (hdrgm) and Apple (HDRGainMap) share."""
    gain_map = jpeg(8, 8, gray=True, extra_markers=segment(0xE1, XMP_SIG + xmp_packet(map_description)))
    head = b"\xFF\xD8"
    if primary_description:
        head += segment(0xE1, XMP_SIG + xmp_packet(primary_description))
    body = jpeg(32, 32)[2:]
    mpf_at = len(head) + 4 + 4  # the MPF header's first byte: after the marker, length, "MPF\0"
    primary_length = len(head) + 4 + 4 + 82 + len(body)
    head += segment(0xE2, b"MPF\x00" + mpf(primary_length, len(gain_map), mpf_at))
    assert len(head) + len(body) == primary_length
    return head + body + gain_map


HDRGM = "http://ns.adobe.com/hdr-gain-map/1.0/"
CONTAINER = ('xmlns:Container="http://ns.google.com/photos/1.0/container/" '
             'xmlns:Item="http://ns.google.com/photos/1.0/container/item/"')


def ultra_hdr(version_attribute):
    """An Ultra HDR JPEG whose map's hdrgm:Version is written as `version_attribute`
    (e.g. `hdrgm:Version='1"0'`: well-formed XML, single quotes round a double one)."""
    values = ('hdrgm:GainMapMin="0" hdrgm:GainMapMax="2" hdrgm:Gamma="1" hdrgm:OffsetSDR="0.015625" '
              'hdrgm:OffsetHDR="0.015625" hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="2" '
              'hdrgm:BaseRenditionIsHDR="False"')
    map_description = '<rdf:Description rdf:about="" xmlns:hdrgm="%s" %s %s/>' % (HDRGM, version_attribute, values)
    primary = ('<rdf:Description rdf:about="" xmlns:hdrgm="%s" %s hdrgm:Version="1.0"/>' % (HDRGM, CONTAINER))
    return map_description, primary


def apple_gain_map(version_text):
    """An Apple gain-map JPEG (iOS 18's form: the headroom in the map's XMP) whose
    HDRGainMapVersion element holds `version_text` as it is."""
    return ('<rdf:Description rdf:about="" xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/">'
            '<HDRGainMap:HDRGainMapVersion>%s</HDRGainMap:HDRGainMapVersion>'
            '<HDRGainMap:HDRGainMapHeadroom>2.0</HDRGainMap:HDRGainMapHeadroom></rdf:Description>' % version_text)


def gain_map_version_files(jpeg):
    """(name, bytes, what) of the three version attacks."""
    quote_map, primary = ultra_hdr("hdrgm:Version='1\"0'")
    amp_map, _ = ultra_hdr('hdrgm:Version="1&0"')
    return [
        ("uhdr-version-quote.jpg", gain_map_jpeg(jpeg, quote_map, primary),
         "Ultra HDR: the map's hdrgm:Version is '1\"0' (single-quoted)"),
        ("uhdr-version-amp.jpg", gain_map_jpeg(jpeg, amp_map, primary),
         "Ultra HDR: the map's hdrgm:Version is \"1&0\" (a bare ampersand)"),
        ("apple-version-amp.jpg", gain_map_jpeg(jpeg, apple_gain_map("1&000")),
         "Apple gain map: HDRGainMapVersion text 1&000 (a bare ampersand)"),
    ]


# ---------------------------------------------------------------------------------------
# TIFF and PNG


def tiff_pages(count):
    """A little-endian TIFF of `count` 1x1 gray pages (one byte of pixel data they share),
    each IFD pointing at the next."""
    entries = 8
    ifd_size = 2 + entries * 12 + 4
    out = bytearray(b"II*\x00" + struct.pack("<I", 10) + b"\x80\x00")  # the pixel at 8, IFDs from 10
    for i in range(count):
        at = 10 + i * ifd_size
        next_ifd = at + ifd_size if i + 1 < count else 0
        out += struct.pack("<H", entries)
        for tag, kind, value in ((256, 3, 1), (257, 3, 1), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 8),
                                 (278, 3, 1), (279, 4, 1)):
            out += struct.pack("<HHI", tag, kind, 1) + (struct.pack("<HH", value, 0) if kind == 3 else
                                                        struct.pack("<I", value))
        out += struct.pack("<I", next_ifd)
    return bytes(out)


def png16(width, height):
    """A 16-bit RGB PNG of smooth ramps (R across, G down, B a pattern across), compressed by
    zlib level 1: not part of the hostile set (its bytes may change with zlib's version; its
    pixels do not), only the input the JPEG XL budget test gives cjxl."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    base = bytearray(width * 6)
    for x in range(width):
        struct.pack_into(">HxxH", base, x * 6, x * 65535 // max(1, width - 1), (x * 977) & 0xFFFF)
    raw = bytearray()
    for y in range(height):
        g = y * 65535 // max(1, height - 1)
        row = bytearray(base)
        row[2::6] = bytes([g >> 8]) * width
        row[3::6] = bytes([g & 0xFF]) * width
        raw += b"\x00" + row
    ihdr = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw), 1))
            + chunk(b"IEND", b""))


# ---------------------------------------------------------------------------------------
# The sets


def attacks51_files(add, jpeg):
    add("gif-wide-frames-1x1.gif", gif_time_bomb(2), "ok", "-",
        "two interlaced 65535x4096 frames on a 1x1 screen (268 M pixels of LZW each; only their first rows show)")
    add("gif-wide-frames-1x4096.gif", gif_time_bomb(1, screen=(1, 4096)), "data", "reaches far past",
        "a 65535x4096 frame on a 1x4096 screen: every row shows, each 65535 pixels of LZW for 1")
    add("gif-restore-previous.gif", gif_restore_previous(2000, 3), "ok", "-",
        "a 2000x2000 screen of three full-screen restore-to-previous frames")
    for name, data, what in gain_map_version_files(jpeg):
        add(name, data, "ok", "-", what)
    add("tiff-2000-pages.tif", tiff_pages(2000), "ok", "-", "2,000 1x1 pages, past the 1,024 directories read")


def seed_files(jpeg):
    """(name, bytes) of small seeds with the same structures, for the fuzzer."""
    seeds = [
        ("a51-gif-wide.gif", gif_frames((3, 2), [(300, 40)] * 2, interlaced=True)),
        ("a51-gif-restore.gif", gif_frames((24, 16), [(24, 16), (12, 8), (24, 16)], disposal=3)),
        ("a51-tiff-pages.tif", tiff_pages(40)),
    ]
    return seeds + [("a51-" + name, data) for name, data, _ in gain_map_version_files(jpeg)]


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "png16":
        with open(sys.argv[4], "wb") as f:
            f.write(png16(int(sys.argv[2]), int(sys.argv[3])))
    else:
        sys.exit(__doc__)
