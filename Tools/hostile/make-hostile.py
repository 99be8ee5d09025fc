#!/usr/bin/env python3
"""Writes forcezoom's hostile-input set (Fixtures/hostile/) from scratch.

Python 3 standard library only, and independent of forcezoom: every PNG and JPEG here is
assembled byte by byte; the WebP and HEIF files are small encoder-made seeds (kept as hex)
cut and rewired byte by byte. The output is byte-identical on every run and machine: no zlib
*compression* is used (zlib's output can change between versions); deflate streams are
stored blocks, or hand-written dynamic-Huffman blocks for the decompression bombs. zlib is
used only for crc32/adler32, which are fixed functions. Random bytes come from a seeded
splitmix64, not from `random`.

Usage: make-hostile.py [--out DIR]   (default: Fixtures/hostile beside this repository)

Besides the images it writes MANIFEST.tsv, one row per file:
  file   expect   keyword   what
expect: ok     every command succeeds (exit 0);
        header every command fails (exit 1), `info` included: the header is bad;
        data   `info` succeeds (it reads headers only), every command that decodes fails.
keyword: a word the one-line error must contain ("-" for ok files); `a|b` means either.
A directory named x.png cannot be kept by git; the tests make it at run time.
"""

import os
import struct
import sys
import zlib

# The GIF/BMP generators sit beside this file; tests also load this file by path
# (importlib), which does not put its folder on sys.path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_gif_bmp import gif_bmp_files  # noqa: E402
from hostile_bmp_masks import bmp_mask_files  # noqa: E402
from hostile_heif_refs import heif_reference_files  # noqa: E402
from hostile_raw_phaseone import raw_phase_one_files  # noqa: E402
from hostile_attacks51 import attacks51_files  # noqa: E402
from hostile_regions import regions_files  # noqa: E402
from hostile_motion import motion_files  # noqa: E402
from hostile_animations import animation_files  # noqa: E402
from hostile_video import video_files  # noqa: E402

# ---------------------------------------------------------------------------------------
# Deterministic bytes


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def bytes(self, n):
        out = bytearray()
        while len(out) < n:
            out += struct.pack("<Q", self.next())
        return bytes(out[:n])


# ---------------------------------------------------------------------------------------
# zlib streams without zlib's compressor


def adler32_zeros(start, count):
    """adler32 continued over `count` zero bytes."""
    a, b = start & 0xFFFF, start >> 16
    b = (b + count * a) % 65521
    return (b << 16) | a


def zlib_stored(raw):
    """A zlib stream of stored (uncompressed) deflate blocks."""
    out = bytearray(b"\x78\x01")
    pos = 0
    while True:
        block = raw[pos:pos + 65535]
        pos += len(block)
        final = 1 if pos >= len(raw) else 0
        out += bytes([final]) + struct.pack("<HH", len(block), len(block) ^ 0xFFFF) + block
        if final:
            break
    out += struct.pack(">I", zlib.adler32(raw))
    return bytes(out)


class BitWriter:
    """deflate's bit order: fields LSB first, Huffman codes MSB first."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def bits(self, value, count):
        self.acc |= value << self.n
        self.n += count
        while self.n >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.n -= 8

    def code(self, code, length):
        rev = 0
        for i in range(length):
            rev |= ((code >> i) & 1) << (length - 1 - i)
        self.bits(rev, length)

    def flush(self):
        if self.n:
            self.out.append(self.acc & 0xFF)
        self.acc = self.n = 0
        return bytes(self.out)


def zlib_bomb(prefix, runs):
    """A zlib stream that inflates to `prefix` followed by 258*`runs` copies of its last
    byte, at deflate's best ratio (2 bits per 258 bytes, about 1032:1).

    Block 1 stores the prefix. Block 2 is dynamic Huffman with three codes of one bit each:
    literal/length 285 (length 258) and 256 (end), distance code 0 (distance 1)."""
    assert prefix
    w = BitWriter()
    w.bits(0, 1)  # BFINAL 0
    w.bits(0, 2)  # stored
    w.flush()
    out = bytearray(w.out)
    out += struct.pack("<HH", len(prefix), len(prefix) ^ 0xFFFF) + prefix
    w = BitWriter()
    w.bits(1, 1)  # BFINAL
    w.bits(2, 2)  # dynamic Huffman
    w.bits(286 - 257, 5)  # HLIT: codes 0..285
    w.bits(1 - 1, 5)  # HDIST: one distance code
    order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    cl_lengths = {1: 1, 18: 1}  # code-length alphabet: '1' -> code 0, '18' (zeros) -> code 1
    w.bits(18 - 4, 4)  # HCLEN: the first 18 entries of `order` (up to symbol 1)
    for sym in order[:18]:
        w.bits(cl_lengths.get(sym, 0), 3)

    def zeros(n):
        while n:
            k = min(n, 138)
            assert k >= 11
            w.code(1, 1)
            w.bits(k - 11, 7)
            n -= k

    def one():
        w.code(0, 1)

    zeros(256)   # literals 0..255 unused
    one()        # 256 end of block: length 1
    zeros(28)    # 257..284 unused
    one()        # 285 (length 258): length 1
    one()        # distance code 0: length 1
    for _ in range(runs):
        w.code(1, 1)  # 285: canonical code 1 (256 has code 0)
        w.code(0, 1)  # distance code 0 = 1 back
    w.code(0, 1)  # end of block
    out += w.flush()
    total = len(prefix) + 258 * runs
    adler = adler32_zeros(zlib.adler32(prefix), 258 * runs) if prefix[-1] == 0 else None
    assert adler is not None, "the runs repeat the last prefix byte; keep it 0"
    stream = b"\x78\x01" + bytes(out) + struct.pack(">I", adler)
    return stream, total


def check_bomb(stream, total, prefix):
    """Inflate in pieces (never all at once) to prove the stream is what it claims."""
    d = zlib.decompressobj()
    seen = 0
    head = b""
    data = stream
    while data or not d.eof:
        chunk = d.decompress(data, 1 << 20)
        if len(head) < len(prefix):
            head += chunk[:len(prefix) - len(head)]
        seen += len(chunk)
        data = d.unconsumed_tail
        if not data and not chunk:
            break
    assert d.eof and seen == total and head == prefix, (d.eof, seen, total)


# ---------------------------------------------------------------------------------------
# PNG

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data, crc=None):
    c = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", c & 0xFFFFFFFF)


def ihdr(width, height, depth=8, color=2, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace))


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def pixel(x, y, channels):
    """A colourful, deterministic pattern."""
    v = [(x * 37 + y * 11) & 0xFF, (x * 5 + y * 29 + 80) & 0xFF, (x * y * 3 + 160) & 0xFF, 255 - ((x + y) * 9 & 0x7F)]
    return bytes(v[:channels])


def scanlines(width, height, channels, filter_byte=0, interlace=0):
    """Raw PNG image data (filter byte + 8-bit samples per row), Adam7 when interlaced."""
    if not interlace:
        passes = [(0, 0, 1, 1)]
    else:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    out = bytearray()
    for x0, y0, dx, dy in passes:
        xs = range(x0, width, dx)
        if not xs:
            continue
        for y in range(y0, height, dy):
            out.append(filter_byte)
            for x in xs:
                out += pixel(x, y, channels)
    return bytes(out)


def png(width, height, color=2, interlace=0, before_idat=(), idat=None, after_idat=(), iend=True, raw=None):
    """A whole PNG: 8-bit samples, stored deflate."""
    if raw is None:
        raw = scanlines(width, height, CHANNELS[color], interlace=interlace)
    data = PNG_SIGNATURE + ihdr(width, height, 8, color, interlace)
    data += b"".join(before_idat)
    data += chunk(b"IDAT", zlib_stored(raw)) if idat is None else idat
    data += b"".join(after_idat)
    if iend:
        data += chunk(b"IEND", b"")
    return data


def palette_png(width, height, with_plte=True):
    """8-bit palette image, 16 colours."""
    plte = b"".join(bytes([(i * 16) & 0xFF, (255 - i * 16) & 0xFF, (i * 40) & 0xFF]) for i in range(16))
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw += bytes(((x + y) % 16) for x in range(width))
    before = [chunk(b"PLTE", plte)] if with_plte else []
    return png(width, height, color=3, before_idat=before, raw=bytes(raw))


def chunk_offsets(data):
    """[(type, offset of the length field, data length)] of a PNG's chunks."""
    out = []
    i = 8
    while i + 8 <= len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        out.append((data[i + 4:i + 8], i, n))
        i += 12 + n
    return out


def corrupt_crc(data, kind):
    """Flips the CRC of the first `kind` chunk."""
    for t, off, n in chunk_offsets(data):
        if t == kind:
            at = off + 8 + n
            return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]
    raise ValueError(kind)


# ---------------------------------------------------------------------------------------
# EXIF (TIFF) blocks


def tiff_ifd0(entries, little=True, next_ifd=0, ifd_offset=8, tail=b""):
    """A TIFF header and IFD0 with (tag, type, count, value-bytes[4]) entries."""
    e = "<" if little else ">"
    out = (b"II" if little else b"MM") + struct.pack(e + "HI", 42, ifd_offset)
    out += b"\0" * (ifd_offset - 8)
    out += struct.pack(e + "H", len(entries))
    for tag, kind, count, value in entries:
        out += struct.pack(e + "HHI", tag, kind, count) + value
    out += struct.pack(e + "I", next_ifd)
    return out + tail


def orientation_entry(value, little=True):
    e = "<" if little else ">"
    return (0x0112, 3, 1, struct.pack(e + "HH", value, 0))


def exif_orientation(value, little=True):
    return tiff_ifd0([orientation_entry(value, little)], little)


# ---------------------------------------------------------------------------------------
# JPEG: a tiny baseline/progressive encoder of flat 8x8 blocks (DC only). With all
# quantizers 1, a flat block of value v has DC coefficient 8*(v-128) and no AC terms.

# ITU T.81 Annex K.3 tables (luminance DC and AC).
DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_VALS = list(range(12))
AC_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
AC_VALS = [
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
    0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
    0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
    0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
    0xF9, 0xFA,
]


def huffman_codes(bits, vals):
    """symbol -> (code, length), canonical as in T.81 Annex C."""
    codes = {}
    code = 0
    k = 0
    for length in range(1, 17):
        for _ in range(bits[length - 1]):
            codes[vals[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


class JPEGBits:
    """Entropy-coded segment writer: MSB first, 0xFF stuffed, padded with 1 bits."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, value, count):
        for i in range(count - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF:
                    self.out.append(0)
                self.acc = self.n = 0

    def flush(self):
        while self.n:
            self.put(1, 1)
        return bytes(self.out)


def marker(code, payload=b""):
    return bytes([0xFF, code]) + struct.pack(">H", len(payload) + 2) + payload


def dqt():
    return marker(0xDB, b"\x00" + b"\x01" * 64)


def dht(table_class, table_id, bits, vals):
    return marker(0xC4, bytes([(table_class << 4) | table_id]) + bytes(bits) + bytes(vals))


def sof(code, width, height, components, precision=8, sampling=0x11):
    payload = struct.pack(">BHHB", precision, height, width, len(components))
    for cid in components:
        payload += bytes([cid, sampling if cid == 1 else 0x11, 0])
    return marker(code, payload)


def sos(component_ids, ss=0, se=63, ah=0, al=0):
    payload = bytes([len(component_ids)])
    for cid in component_ids:
        payload += bytes([cid, 0x00])
    return marker(0xDA, payload + bytes([ss, se, (ah << 4) | al]))


def app1_exif(tiff):
    return marker(0xE1, b"Exif\0\0" + tiff)


def category(v):
    v = abs(v)
    n = 0
    while v:
        n += 1
        v >>= 1
    return n


def encode_dc(bits, codes, diff):
    s = category(diff)
    code, length = codes[s]
    bits.put(code, length)
    if s:
        bits.put(diff if diff >= 0 else diff + (1 << s) - 1, s)


def block_values(width, height, gray):
    """Per 8x8 block, per component, the flat sample value (YCbCr from a colour pattern)."""
    bw, bh = (width + 7) // 8, (height + 7) // 8
    blocks = []
    for by in range(bh):
        for bx in range(bw):
            r, g, b = (bx * 40 + 30) & 0xFF, (by * 50 + 60) & 0xFF, ((bx + by) * 23 + 90) & 0xFF
            y = round(0.299 * r + 0.587 * g + 0.114 * b)
            cb = round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
            cr = round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
            blocks.append([y] if gray else [y, min(255, max(0, cb)), min(255, max(0, cr))])
    return blocks


def jpeg(width, height, gray=False, exif=None, extra_markers=b"", precision=8, sof_code=0xC0):
    """Baseline JPEG (4:4:4 or gray) of flat coloured blocks."""
    comps = [1] if gray else [1, 2, 3]
    dc_codes, ac_codes = huffman_codes(DC_BITS, DC_VALS), huffman_codes(AC_BITS, AC_VALS)
    bits = JPEGBits()
    pred = [0] * len(comps)
    for values in block_values(width, height, gray):
        for i, v in enumerate(values):
            dc = 8 * (v - 128)
            encode_dc(bits, dc_codes, dc - pred[i])
            pred[i] = dc
            bits.put(*ac_codes[0x00])  # EOB: no AC coefficients
    out = b"\xFF\xD8"
    if exif is not None:
        out += app1_exif(exif)
    out += extra_markers + dqt() + sof(sof_code, width, height, comps, precision)
    out += dht(0, 0, DC_BITS, DC_VALS) + dht(1, 0, AC_BITS, AC_VALS)
    out += sos(comps) + bits.flush() + b"\xFF\xD9"
    return out


def jpeg_header_only(width, height, gray=True):
    """SOI, tables and SOF, then EOF: a header with no scan."""
    comps = [1] if gray else [1, 2, 3]
    return b"\xFF\xD8" + dqt() + sof(0xC0, width, height, comps)


def eob_runs(bits, codes, blocks):
    """Covers `blocks` blocks with EOBn runs (progressive AC scans)."""
    left = blocks
    while left:
        r = min(14, left.bit_length() - 1)
        run = min(left, (1 << (r + 1)) - 1)
        code, length = codes[r << 4]
        bits.put(code, length)
        if r:
            bits.put(run - (1 << r), r)
        left -= run


def progressive_scan_bomb(width, height, valid=True, repeats=0):
    """A progressive 4:4:4 JPEG of width x height with many tiny scans.

    valid=True: a legal progression (per component and coefficient a first scan at Al=13
    and 13 refinements): 1 DC scan + 3*63*14 = 2647 scans, each a few bytes of EOB runs.
    valid=False: one DC scan, then the same AC scan `repeats` times (libjpeg warns about
    the bogus progression, so only --lenient reads on)."""
    comps = [1, 2, 3]
    dc_bits = [1] + [0] * 15  # one DC category (0) with a 1-bit code: diff 0 everywhere
    dc_vals = [0]
    ac_bits = [0, 0, 0, 15] + [0] * 12  # EOB0..EOB14, 4 bits each
    ac_vals = [r << 4 for r in range(15)]
    dc_codes, ac_codes = huffman_codes(dc_bits, dc_vals), huffman_codes(ac_bits, ac_vals)
    blocks = ((width + 7) // 8) * ((height + 7) // 8)
    out = b"\xFF\xD8" + dqt() + sof(0xC2, width, height, comps)
    out += dht(0, 0, dc_bits, dc_vals) + dht(1, 0, ac_bits, ac_vals)
    bits = JPEGBits()
    for _ in range(blocks * len(comps)):
        bits.put(*dc_codes[0])
    out += sos(comps, 0, 0, 0, 0) + bits.flush()

    def ac_scan(cid, k, ah, al):
        b = JPEGBits()
        eob_runs(b, ac_codes, blocks)
        return sos([cid], k, k, ah, al) + b.flush()

    if valid:
        for cid in comps:
            for k in range(1, 64):
                out += ac_scan(cid, k, 0, 13)
                for ah in range(13, 0, -1):
                    out += ac_scan(cid, k, ah, ah - 1)
    else:
        scan = ac_scan(1, 1, 0, 0)
        out += scan * repeats
    return out + b"\xFF\xD9"


def jpeg_segments(data):
    """[(marker, offset)] up to and including SOS."""
    out = []
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        m = data[i + 1]
        (n,) = struct.unpack(">H", data[i + 2:i + 4])
        out.append((m, i))
        if m == 0xDA:
            break
        i += 2 + n
    return out


# ---------------------------------------------------------------------------------------
# Findings of `make fuzz` (Tools/fuzz), as the fuzzer wrote them: (file, hex, expect,
# keyword, what). Each was a crash, hang, leak or oversized allocation before its fix.

FUZZ_FINDINGS = [
    ("fuzz-splt-1gib-malloc.png",
     "89504e470d0a1a0a0000000d494844520000000100000001010300000025db56ca3fffffff73504c5404b86b3a0000000049454e44ae426082",
     "header", "truncated",
     "fuzz: an sPLT chunk claiming 1 GiB made libpng malloc 1 GiB ('chunk data is too large' is only benign); "
     "fixed by skipping unused chunks and caching eXIf under the chunk limit"),
]


# ---------------------------------------------------------------------------------------
# The set


# ---------------------------------------------------------------------------------------
# WebP and HEIF: seeds made once by the formats' own encoders (not by forcezoom), kept as hex
# so this script stays standard-library only and byte-identical; the hostile files are these
# seeds cut, resized and rewired byte by byte.
#   WEBP_LOSSY     cwebp -q 50 -metadata none (16x16 RGB of corners.png)
#   WEBP_LOSSLESS  cwebp -lossless (the same 16x16)
#   HEIC           heif-enc -q 30 (64x64, x265), AVIF: heif-enc -A -q 30 (64x64, aom)
#   HEIC_GRID      heif-enc -q 30 of png-rgb-8.png (64x48: libheif 1.15 writes a grid of one 64x64 tile)
WEBP_LOSSY = bytes.fromhex(
    "52494646a20000005745425056503820960000003002009d012a1000100002c04c25b0027413c0072d8fa39c16f800fe"
    "9c33bae65df22db14fba8e83fdda43ea9324a340a3dc761a7017c5f5cc01b4fb9461ef7acd676fb1877f5d0051c4959d"
    "bc77531fc4704978e7f9b992c96dc5f7c9b15459ec7062d207e234c5b9d2b61f42597ca0b5dc3ae687c406602fe63efd"
    "9ec590eff698a0a34fd07ec7dfa3e59eb6cfd3e97b0632c00000"
)
WEBP_LOSSLESS = bytes.fromhex(
    "5249464628010000574542505650384c1c0100002f0fc0030095c0ad6d6b598495e119a14584de88432f54420110b913"
    "babbce7c825381b7307a71c7b56d2bcdc6a11119bbf5df017388d6e089ebd8b69566e1d00805b8f5dfc1fb47223578d2"
    "ff0910dc49ce92a5c51b018c39bf2f80c6e978df72eb9a9da6b7f8e27bf18657951861eabcf01cef5b6e590ed408e0a7"
    "00674fb0156a0c0af48f40f9a4418d39049020fa7c3c465b186e61f972a57fc08c062d7edf2fe08726d9150016e45123"
    "e54b45960538784da1c48e071f65384724d0f3c18e35771c914686011b15389748a0a30f07fb975e3fd41fd7381af611"
    "11fd677f416d4833503daf0f237d180088e833788cf2302c82c05dec92542fbc31a3c5270040ffe938db72d592ada73d"
    "14068e90389f0b6f1cfc19675bae5adf"
)
HEIC = bytes.fromhex(
    "0000001c6674797068656963000000006d696631686569636d696166000001426d657461000000000000002168646c72"
    "000000000000000070696374000000000000000000000000000000000e7069746d00000000000100000022696c6f6300"
    "000000444000010001000000000166000100000000000001050000002369696e6600000000000100000015696e666502"
    "000000000100006876633100000000c269707270000000a46970636f0000007868766343010370000000000000000000"
    "1ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001eba0240210001002b420101"
    "03700000030090000003000003001ea020810596ea4929ae6e04040c08000003000800000300084022000100074401c1"
    "72b022400000001469737065000000000000004000000040000000107069786900000000030808080000001669706d61"
    "00000000000000010001038102830000010d6d646174000001012801af1980bf8a5dfb3fe8bcc5c0ffc814bcdc374e4a"
    "12522af25609111d11b3073d04266f8da95108c46bc2a92add2c3487a7047c72d0ed8581dc8f25d284e437dcb80b1f90"
    "71a03d43cdc622e315044fd77facd8535332ed77e0c19cb928efa62c735d55b9ee7486df327e8069700bac2fcbc3e549"
    "2721af7c7b87e0e3b208db29702938d4b104eae3e8c25b997ed18c6febd3a83dd99a826281aeccada03ad79c1786896c"
    "a1aa4dc39fca66a37e36f6a0dcb00cf2b71a8fcd9cc023c93f861ae0131c6429c4cd026aacf3282d2fdf5295a124c030"
    "7780b3fd156d22cd1393f090afd4c9179fa1470458b2d78943c4559507b748a51e1850e12f19b56b99b180"
)
AVIF = bytes.fromhex(
    "0000001c667479706176696600000000617669666d6966316d696166000000ea6d657461000000000000002168646c72"
    "000000000000000070696374000000000000000000000000000000000e7069746d00000000000100000022696c6f6300"
    "00000044400001000100000000010e000100000000000000e20000002369696e6600000000000100000015696e666502"
    "0000000001000061763031000000006a697072700000004b6970636f00000013636f6c726e636c780002000200068000"
    "00000c6176314381000c0000000014697370650000000000000040000000400000001070697869000000000308080800"
    "00001769706d61000000000000000100010481820384000000ea6d64617412000a0918157ffd8204040d0832d2011b00"
    "1a69a68500dcc1bc0bf6062d24e73a298590c2c783bbb1b3bd6a88218fde2540162bff95c84a0e88d93ad9418a175686"
    "47f632089da661e6d48a7f7df392e4993e38cf39c66b7446ae7e3d6b24329493041089a99884cc747d1e2eccca0bb0c6"
    "6ba8d42c35ebf4f90f938971860b1f380bc5ebd034998e27e1968119e4c73cc6c1833fc7bd6d78d159c083f9df66e1a3"
    "3c31e0ba14e459c62651daf23300b76f18c26170152f72f9fc86c8e160a9998ff60c694717eea267b2165eabfc0880d7"
    "03cba56c9a111663cbe7b43bcefaee2c"
)
HEIC_GRID = bytes.fromhex(
    "0000001c6674797068656963000000006d696631686569636d696166000001ad6d657461000000000000002168646c72"
    "000000000000000070696374000000000000000000000000000000000e7069746d000000000002000000106964617400"
    "0000000040003000000038696c6f630100000044400002000100000000000001d1000100000000000000340002000100"
    "0000000000000100000000000000080000003869696e6600000000000200000015696e66650200000100010000687663"
    "310000000015696e666502000000000200006772696400000000d869707270000000b66970636f000000766876634301"
    "03700000000000000000001ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001e"
    "ba0240210001002a42010103700000030090000003000003001ea020810596eae4a6b9b8101030200000030020000003"
    "002122000100064401c173c0890000001469737065000000000000004000000040000000146973706500000000000000"
    "4000000030000000107069786900000000030808080000001a69706d6100000000000000020001028102000202038400"
    "00001a69726566000000000000000e64696d670002000100010000003c6d646174000000302801af1980ef4def4ae82f"
    "ed72652cca6bbac60d72f7d50a11cacb7292daac05e72e4d324503839af7161060b32bedc0"
)


def riff_resize(data, size):
    return data[:4] + struct.pack("<I", size) + data[8:]


def box_offset(data, kind, nth=0):
    """Offset of the nth box of type `kind` (its size field), found by its fourcc."""
    at = -1
    for _ in range(nth + 1):
        at = data.index(kind, at + 1)
    return at - 4


def patch(data, at, new):
    return data[:at] + new + data[at + len(new):]


def iloc_first_extent(data):
    """(position, size) of the first item's first extent_offset field in the iloc box."""
    at = box_offset(data, b"iloc") + 8
    version = data[at]
    offset_size, length_size = data[at + 4] >> 4, data[at + 4] & 15
    base_size, index_size = data[at + 5] >> 4, (data[at + 5] & 15) if version in (1, 2) else 0
    at += 6 + (2 if version < 2 else 4)  # item_count
    at += 2 if version < 2 else 4  # item_ID
    at += 2 if version in (1, 2) else 0  # construction_method
    at += 2 + base_size + 2 + index_size  # data_reference_index, base_offset, extent_count, extent_index
    return at, offset_size


def webp_heif_files(add, rng):
    T, C = "truncated", "corrupt"
    add("good.webp", WEBP_LOSSY, "ok", "-", "16x16 lossy WebP (VP8)")
    add("good-lossless.webp", WEBP_LOSSLESS, "ok", "-", "16x16 lossless WebP (VP8L)")
    add("good.heic", HEIC, "ok", "-", "64x64 HEIC (HEVC)")
    add("good.avif", AVIF, "ok", "-", "64x64 AVIF (AV1)")
    add("good-grid.heic", HEIC_GRID, "ok", "-", "64x48 HEIC, a grid of one 64x64 tile")
    # WebP: cut anywhere, RIFF sizes that lie, chunk sizes that lie, huge claimed sizes.
    for at, expect in [(12, "header"), (20, "header"), (29, "header"), (60, "data"), (len(WEBP_LOSSY) - 7, "data")]:
        add("trunc-webp-%d.webp" % at, riff_resize(WEBP_LOSSY[:at], len(WEBP_LOSSY) - 8), expect, T + "|" + C,
            "lossy WebP cut after %d of %d bytes" % (at, len(WEBP_LOSSY)))
    for at, expect in [(25, "data"), (120, "data")]:
        add("trunc-webp-lossless-%d.webp" % at, WEBP_LOSSLESS[:at], expect, T + "|" + C,
            "lossless WebP cut after %d of %d bytes" % (at, len(WEBP_LOSSLESS)))
    # A RIFF size past the end is a cut file even when every chunk there ends whole (dwebp:
    # NOT_ENOUGH_DATA); bytes after the RIFF end are ignored (dwebp decodes the file).
    add("riff-size-huge.webp", riff_resize(WEBP_LOSSY, 0x7FFFFFF0), "data", T,
        "RIFF claims 2 GiB, the file has %d bytes with whole chunks: truncated, nothing sized by the claim" % len(WEBP_LOSSY))
    add("riff-size-long.webp", riff_resize(WEBP_LOSSY, len(WEBP_LOSSY) - 8 + 2), "data", T,
        "RIFF size 2 bytes past the end of the file, the chunks whole: truncated, as dwebp says")
    add("riff-size-trailing.webp", WEBP_LOSSY + b"\0" * 6 + b"JUNK", "ok", "-",
        "10 bytes after the RIFF end: ignored, as dwebp does")
    add("riff-size-small.webp", riff_resize(WEBP_LOSSY, 30), "header", T + "|" + C, "RIFF size ends inside the VP8 chunk")
    add("riff-size-odd.webp", riff_resize(WEBP_LOSSY, len(WEBP_LOSSY) - 9), "header", C, "odd RIFF size")
    add("riff-size-zero.webp", riff_resize(WEBP_LOSSY, 0), "header", C, "RIFF size 0")
    add("vp8-chunk-huge.webp", patch(WEBP_LOSSY, 16, struct.pack("<I", 0x7FFFFFF0)), "header", T + "|" + C,
        "the VP8 chunk claims 2 GiB")
    # VP8 frame header: 3-byte tag, start code 9d 01 2a, then 14-bit width and height.
    vp8 = WEBP_LOSSY.index(b"\x9d\x01\x2a") + 3
    add("vp8-16383x16383.webp", patch(WEBP_LOSSY, vp8, struct.pack("<HH", 16383, 16383)), "data", T + "|" + C,
        "VP8 header claims 16383x16383 over 16x16 data (under the limits; the data fails at once, its rows never touched)")
    # VP8L: signature 0x2f then 14-bit width-1, 14-bit height-1, alpha, version.
    vp8l = WEBP_LOSSLESS.index(b"VP8L") + 8
    bits = struct.unpack("<I", WEBP_LOSSLESS[vp8l + 1:vp8l + 5])[0] & ~((1 << 28) - 1)
    add("vp8l-16384x16384.webp", patch(WEBP_LOSSLESS, vp8l + 1, struct.pack("<I", bits | 16383 | 16383 << 14)), "data",
        "memory limit", "VP8L header claims 16384x16384 (1 GiB of ARGB inside libwebp; info describes it, decoding is refused)")
    vp8x = b"VP8X" + struct.pack("<I", 10) + bytes([0, 0, 0, 0]) + (0xFFFFFF).to_bytes(3, "little") * 2
    body = b"WEBP" + vp8x + WEBP_LOSSY[12:]
    add("vp8x-canvas-huge.webp", b"RIFF" + struct.pack("<I", len(body)) + body, "header", "over the limit|" + C,
        "VP8X canvas 16777216x16777216 around a 16x16 image")
    add("webp-magic-random.webp", b"RIFF" + struct.pack("<I", 264) + b"WEBP" + rng.bytes(256), "header", T + "|" + C,
        "RIFF/WEBP header then random bytes")
    # HEIF: cuts, broken boxes, lying sizes, missing and looping references, grids that do not cover.
    for at in (16, 40, 200, 400, len(HEIC) - 40):
        add("trunc-heic-%d.heic" % at, HEIC[:at], "header", T + "|" + C,
            "HEIC cut after %d of %d bytes" % (at, len(HEIC)))
    add("trunc-avif-300.avif", AVIF[:300], "header", T + "|" + C, "AVIF cut inside its meta box")
    # Found by `make fuzz`: an nclx colr box with colour primaries 508 and "iref" spliced into
    # the image data; libheif hands back an nclx profile together with its error (it leaked).
    nclx_bad = bytearray(AVIF)
    nclx_bad[185:187] = bytes([1, 252])
    add("avif-nclx-invalid.avif", bytes(nclx_bad[:378]) + b"iref" + bytes(nclx_bad[378:]), "ok", "-",
        "nclx colour primaries 508 (invalid) and bytes spliced into the data (fuzz find: the profile libheif returns with its error must be freed)")
    meta = box_offset(HEIC, b"meta")
    add("meta-size-huge.heic", patch(HEIC, meta, struct.pack(">I", 0x7FFFFFF0)), "header", T + "|" + C,
        "the meta box claims 2 GiB")
    add("meta-size-tiny.heic", patch(HEIC, meta, struct.pack(">I", 3)), "header", T + "|" + C, "a box of size 3")
    ispe = box_offset(HEIC, b"ispe")
    add("ispe-60000x60000.heic", patch(HEIC, ispe + 12, struct.pack(">II", 60000, 60000)), "header",
        "over the limit|" + C, "ispe claims 60000x60000 (libheif's and forcezoom's limits)")
    add("ispe-16000x16000.heic", patch(HEIC, ispe + 12, struct.pack(">II", 16000, 16000)), "data",
        "limit|" + C, "ispe claims 16000x16000 (under the pixel limit; over the memory limit: info describes it)")
    add("ispe-max.heic", patch(HEIC, ispe + 12, struct.pack(">II", 0xFFFFFFFF, 0xFFFFFFFF)), "header",
        "over the limit|" + C, "ispe claims 4294967295x4294967295 (found by make fuzz: the area overflowed Int64)")
    for name, base in (("hvcc-depth-mismatch.heic", HEIC), ("hvcc-depth-mismatch-grid.heic", HEIC_GRID)):
        hvcc = box_offset(base, b"hvcC")
        add(name, patch(base, hvcc + 8 + 17, bytes([0xF8 | 6])), "header", C,
            "hvcC says 14-bit, its SPS 8-bit: in a grid, libheif 1.15 copied the tile past its buffer (SIGSEGV); found by make fuzz")
    add("ispe-zero.heic", patch(HEIC, ispe + 12, struct.pack(">II", 0, 0)), "header", C + "|no pixels", "ispe 0x0")
    pitm = box_offset(HEIC, b"pitm")
    add("pitm-missing-item.heic", patch(HEIC, pitm + 12, struct.pack(">H", 77)), "header", C,
        "the primary item is an item that does not exist")
    ipma = box_offset(HEIC, b"ipma")
    add("ipma-bad-index.heic", patch(HEIC, ipma + 12 + 4 + 3, bytes([0x8F])), "header", C,
        "a property association points past the property list")
    at, size = iloc_first_extent(HEIC)
    add("iloc-past-end.heic", patch(HEIC, at, (0x00FFFFFF).to_bytes(size, "big")), "header",
        T + "|" + C, "the image data is said to start 16 MB into a 600-byte file")
    dimg = box_offset(HEIC_GRID, b"dimg")
    source = HEIC_GRID[dimg + 8:dimg + 10]
    add("grid-refers-to-itself.heic", patch(HEIC_GRID, dimg + 12, source), "header", C,
        "a grid whose tile is the grid itself (a reference loop: libheif 1.15 recurses until SIGSEGV; refused first)")
    idat = box_offset(HEIC_GRID, b"idat")
    hvcc_grid = box_offset(HEIC_GRID, b"hvcC")
    add("grid-huge-depth-mismatch.heic", patch(patch(HEIC_GRID, idat + 8 + 4, b"heic"), hvcc_grid + 8 + 17, bytes([0x06, 0x00])),
        "header", "over the limit|" + C,
        "the first fuzz finding: a 26725x26979 grid descriptor and an hvcC saying 14-bit over an 8-bit SPS (libheif 1.15: gigabytes, then SIGSEGV)")
    iref_dimg = box_offset(HEIC_GRID, b"dimg")
    add("grid-missing-tile.heic", patch(HEIC_GRID, iref_dimg + 12, struct.pack(">H", 0x6166)), "header", C,
        "the grid's dimg names item 24934, which is not in the file")
    iden = patch(HEIC_GRID, HEIC_GRID.index(b"grid", box_offset(HEIC_GRID, b"iinf")), b"iden")
    add("iden-missing-source.heic", patch(iden, iref_dimg + 12, struct.pack(">H", 0x6166)), "header", C,
        "an iden item deriving from item 24934, which is not in the file: libheif 1.15 asserted (abort; found by make fuzz)")
    for name, (data, expect, keyword, what) in FUZZ_FINDINGS_HEIF.items():
        add(name, data, expect, keyword, what)
    add("grid-size-huge.heic", patch(HEIC_GRID, idat + 8 + 4, b"heic"), "header", "over the limit",
        "a 64x48 grid whose descriptor says 26725x26979 ('heic'): libheif 1.15 allocated the canvas (found by make fuzz)")
    add("grid-does-not-cover.heic", patch(HEIC_GRID, idat + 8 + 4, struct.pack(">HH", 4000, 3000)), "data", C + "|limit",
        "a grid of one 64x64 tile claiming a 4000x3000 canvas")
    add("heic-magic-random.heic", b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + rng.bytes(256), "header", T + "|" + C,
        "an HEIC ftyp then random bytes")


# HEIF fuzz findings kept as found (make fuzz, 2026-11-23), the bytes as libFuzzer wrote them.
FUZZ_FINDINGS_HEIF = {
    'fuzz-unreadable-grid.heic': (bytes.fromhex(
        "0000001c6674797068653f63000000006d696631686569636d696166000001ad6d657461000000000000002168646c72"
        "000000000000000070696374000000000000000000000000000000000e7069746d000000000002000000106964617400"
        "0000000040003000000038696c6f630100000044440002000100000000000001d1000100000000000000340002000100"
        "0000000000000100000000000000080000003869696e6600000000000200000015696e66650200000100010000696f76"
        "6c0000000015696e666502000000000200006772696400000000d869707270000000b66970636f000000766876634301"
        "03700000000000000000001ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001e"
        "ba0240210001002a42010103700000030090000003000003001e0100000000000004b9b8101030200000030020000003"
        "002122000100064401c173c0890000001469737065000000000000004000000040000000146973706500000000000000"
        "4000000030000000107069786900000000030808080000001a69706d6100000000000000020001028102000202038400"
        "00001a69726566000000000000000e64696d670002000100010000003c6d646174000000ffff7e6ed07e1368ef4ae82f"
        "ed72652cca6bbac60d72f7d50a11cacb7292daac05e72e4d324503839af7161060b32bedc00000001c66747970686569"
        "63000000006d696631686569636d696166000001ad6d657461000000000000002168646c720000000000000000706963"
        "7400000000000000000000006d657461000e7069746d0000000000020000001069646174000000000040003000000038"
        "00fcfdf8f800000f03200001001840010c01ffff037000000300020203840000001a69726566000000000000000e6469"
        "6d6700020001000100000ac46d646174000000ffff7e6ed07e1368ef4ae82fed72652cca6bbac60d72f7d50a11cacb72"
        "92daac05e72e4d324503839af7161060b32bedc00000001c6674797068656963000000006d696631686569636d696166"
        "000001ad6d657461000000000000002168646c7200000000000000007069637400000000000000000000000000000000"
        "0e7069746d00000000000200000010696461687663430103700000000000000000001ef000fcfdf8f800000f03200001"
        "001840010c01ffff03700000030090000003000003001eba0240210001002a42414e524e530040e6d8660000002c7445"
        "5874436f247069747968726700a920323031332c32303135204a6f686e2043754d460101037000000300900000030000"
        "03001ea020810596eae4a6b9b810103020000003002000000300212200010006440000000040000000300000001070da"
        "ee69000000000308082e0000001a69706d6100000000000000020001028102001368ef4ae82fed72652cca6bbac60d72"
        "f7d50a11cacb7260b32bedc0"
    ), 'header', 'cannot be read', 'an iloc whose index size was changed: the grid descriptor cannot be located; libheif 1.15 composed 1.5 GB from what it guessed (make fuzz)'),
    'fuzz-iref-self-loop.heic': (bytes.fromhex(
        "0000001c6674797068653f63000000006d696631686569636d696166000001ad6d657461000000000000002168646c72"
        "000000000000000070696374000000000000000000000000000000000e7069746d000000000002000000106964617400"
        "0000000040003000000038696c6f630100000044400002000100000000000001d1000100000000000000340002000100"
        "0000000000000100000000000000080000003869696e6600000000000200000015696e66650200000100010000687663"
        "310000000015696e666502000000000200006772696400000000d869707270000000b66970636f000000766876634301"
        "03700000000000000000001ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001e"
        "ba0240210001002a420103037000000300900000fdfffffcffe15f20810596eae4a6b9b8101031200000030020000003"
        "002122000100064401c173c0890000001469737065000000000000004000000040000000146973706500000000000000"
        "4000000030000000107069786900000000030808080000001a69706d6100000000000000020001028102000202038400"
        "00001a69726566000000008000000e64696d670002000100021100031100ffc400140001000000000000000000000000"
        "00000000e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2ac05e72e4d324503839af7161060b32bedc0"
    ), 'header', 'loop', 'a grid whose dimg box claims 2 GB and refers to the grid itself: libheif 1.15 recursed until its stack overflowed (make fuzz)'),
    'fuzz-overlay-canvas.heic': (bytes.fromhex(
        "0000001c6674797068656963000000006d696631686569636d696166000001ad6d657461000000000000002168646c72"
        "000000000000000070696374000000000000000000000000000000000e7069746d000000000002000000106964617400"
        "0000000040003000000038696c6f630100000044400002000100000000000001d1000100000000000000340002000100"
        "0000000000000100000000000000080000003869696e6600000000000200000015696e66650200000100010000696f76"
        "6c0000000015696e666502000000000200006772696400000000d869707270000000b66970636f000000766876634301"
        "03705800000000000000001ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001e"
        "ba0240210001002a4201ffd870000003006d696d65000003002a0020810596eae4a6b9b8100020301000030020000003"
        "002122000100064401c173c0890000001469737065000000000000004000000040000000146973706500000000000000"
        "4000000030000000107069786900000000030808080000001a69706d6100000000002000020001028102000202038400"
        "00001a69726566000000000000000e64696d670002000100010000003c6d646174000000302801af1980ef4def4ae82f"
        "ed72652cca6bbac60d72f7d50a11cacb7292daac05e72e4d314503839af7161060b32bed4e346865696638426f785f61"
        "76314345c0"
    ), 'header', 'over the limit', 'a grid whose tile is an iovl overlay with a 19951x19176 canvas: libheif 1.15 spent 14 s and 1.5 GB clearing it (make fuzz)'),
}

def dng(width, height, data, little=True, sub_ifd_loop=False):
    """A camera DNG, IFD0 the raw image itself: a 16-bit RGGB colour filter array, uncompressed,
    DNGVersion 1.4, a linear-sRGB ColorMatrix1 and neutral AsShotNeutral (libraw develops it
    as a camera's); `data` follows the IFD and its values."""
    e = "<" if little else ">"
    make, model = b"Forcezoom\0", b"Hostile DNG\0"
    matrix = [32406, -15372, -4986, -9689, 18758, 415, 557, -2040, 10570]
    values = make + model + b"".join(struct.pack(e + "ii", v, 10000) for v in matrix)
    values += b"".join(struct.pack(e + "II", 1, 1) for _ in range(3))
    entries = 17
    base = 8 + 2 + 12 * entries + 4
    at_make, at_model = base, base + len(make)
    at_matrix = at_model + len(model)
    at_neutral = at_matrix + 72
    at_data = base + len(values)
    L = lambda v: struct.pack(e + "I", v)
    H = lambda v: struct.pack(e + "HH", v, 0)
    ifd = [
        (254, 4, 1, L(0)), (256, 4, 1, L(width)), (257, 4, 1, L(height)), (258, 3, 1, H(16)), (259, 3, 1, H(1)),
        (262, 3, 1, H(32803)), (271, 2, len(make), L(at_make)), (272, 2, len(model), L(at_model)),
        (273, 4, 1, L(at_data)), (277, 3, 1, H(1)), (278, 4, 1, L(height)), (279, 4, 1, L(len(data))),
        (330 if sub_ifd_loop else 33421, 4 if sub_ifd_loop else 3, 1 if sub_ifd_loop else 2,
         L(8) if sub_ifd_loop else struct.pack(e + "HH", 2, 2)),
        (33422, 1, 4, bytes([0, 1, 1, 2])), (50706, 1, 4, bytes([1, 4, 0, 0])),
        (50721, 10, 9, L(at_matrix)), (50728, 5, 3, L(at_neutral)),
    ]
    ifd.sort(key=lambda t: t[0])
    assert len(ifd) == entries
    return tiff_ifd0(ifd, little, next_ifd=8 if sub_ifd_loop else 0) + values + data


def raw_files(add, rng):
    """Camera RAW (DNG through libraw): a good 32x32 one, lying sizes, cut data, IFD loops."""
    T, C = "truncated", "corrupt"
    pixels = b"".join(struct.pack("<H", (x * 97 + y * 61) % 4096) for y in range(32) for x in range(32))
    good = dng(32, 32, pixels)
    add("good.dng", good, "ok", "-", "32x32 DNG: a 16-bit RGGB colour filter array, uncompressed")
    add("dng-46341x46341.dng", dng(46341, 46341, pixels), "header", "over the limit",
        "DNG whose raw IFD claims 46341x46341 (over 2^31 pixels), 2 KB of data")
    add("dng-12000x12000.dng", dng(12000, 12000, pixels), "data", "memory limit|cannot hold",
        "DNG claiming 12000x12000 (144 MP, under the pixel limit) with 2 KB of data: no sensor fits")
    add("trunc-dng-data.dng", good[:len(good) - 1200], "data", T + "|" + C, "the good DNG cut inside its raw data")
    add("trunc-dng-header.dng", good[:60], "header", T + "|" + C + "|not supported",
        "the good DNG cut inside IFD0 (its first 60 bytes: no DNGVersion to see, so a TIFF)")
    add("dng-ifd-loop.dng", dng(32, 32, pixels, sub_ifd_loop=True), "ok", "-",
        "DNG whose next IFD and SubIFDs point back at IFD0")
    add("dng-random-data.dng", dng(32, 32, rng.bytes(len(pixels))), "ok", "-", "32x32 DNG of random samples")


def build():
    """[(file name, bytes, expect, keyword, what)]"""
    rng = SplitMix64(0x464F5243455A4F4D)  # "FORCEZOM"
    files = []

    def add(name, data, expect, keyword, what):
        files.append((name, bytes(data), expect, keyword, what))

    T, C = "truncated", "corrupt"

    # Good files: they must keep working amid the hostile ones.
    good_png = png(24, 16)
    good_interlaced = png(24, 16, color=6, interlace=1)
    good_palette = palette_png(16, 16)
    good_jpeg = jpeg(32, 16)
    good_gray = jpeg(16, 16, gray=True)
    add("good.png", good_png, "ok", "-", "24x16 RGB, stored deflate")
    add("good-interlaced.png", good_interlaced, "ok", "-", "24x16 RGBA, Adam7")
    add("good-palette.png", good_palette, "ok", "-", "16x16 palette")
    add("good.jpg", good_jpeg, "ok", "-", "32x16 baseline 4:4:4")
    add("good-gray.jpg", good_gray, "ok", "-", "16x16 baseline gray")

    # Names: spaces, non-ASCII, a leading dash (pass it after `--` or as ./-name).
    add("name with spaces.png", good_png, "ok", "-", "a good PNG under a name with spaces")
    add("nön-äscii 名前.jpg", good_jpeg, "ok", "-", "a good JPEG under a non-ASCII name")
    add("-leading-dash.png", good_png, "ok", "-", "a good PNG whose name starts with a dash")
    add("-dash trunc ü.png", good_png[:60], "data", T, "a truncated PNG under a dash/space/non-ASCII name")

    # Zero bytes, text, random bytes after each magic.
    add("empty.png", b"", "header", "empty", "zero bytes")
    add("empty.jpg", b"", "header", "empty", "zero bytes")
    add("text.png", b"This is text, not a PNG.\nIt has a .png name.\n", "header", "not an image", "text named .png")
    add("text.jpg", b"<html><body>404 Not Found</body></html>\n", "header", "not an image", "HTML named .jpg")
    add("png-magic-random.png", PNG_SIGNATURE + rng.bytes(256), "header", "corrupt|truncated", "PNG signature then random bytes")
    add("png-magic-random-2.png", PNG_SIGNATURE + b"\x00\x00\x00\x0dIHDR" + rng.bytes(240), "header", "corrupt|truncated",
        "PNG signature and IHDR tag, then random bytes")
    add("jpeg-magic-random.jpg", b"\xFF\xD8\xFF" + rng.bytes(256), "header", "corrupt|truncated", "JPEG SOI then random bytes")
    add("jpeg-magic-random-2.jpg", b"\xFF\xD8" + dqt() + rng.bytes(256), "header", "corrupt|truncated",
        "JPEG SOI and DQT, then random bytes")
    for name, magic, fmt in [("gif", b"GIF89a", "GIF"), ("webp", b"RIFF\0\0\0\0WEBP", "WebP"), ("tiff", b"II*\0", "TIFF"),
                             ("bmp", b"BM", "BMP"), ("avif", b"\0\0\0\x1cftypavif", "AVIF"), ("pdf", b"%PDF-1.7\n", "PDF"),
                             ("jxl", b"\xFF\x0A", "JPEG XL")]:
        # WebP, AVIF, GIF, BMP, TIFF and JPEG XL are read now: their magic then random bytes is a
        # corrupt file (or a lying size: GIF's screen, or not a BMP header at all).
        read = fmt in ("WebP", "AVIF", "GIF", "BMP", "TIFF", "JPEG XL")
        add("magic-random-%s.png" % name, magic + rng.bytes(64), "header",
            (C + "|" + T + "|unsupported" + ("|over the limit|not an image" if fmt in ("GIF", "BMP") else ""))
            if read else "%s is not supported" % fmt,
            "%s magic then random bytes, named .png" % fmt)
    add("png-signature-only.png", PNG_SIGNATURE, "header", T, "the 8-byte signature alone")
    add("png-signature-partial.png", PNG_SIGNATURE[:5], "header", "not an image", "5 bytes of the signature")

    # Truncations at many points.
    offsets = {t: (off, n) for t, off, n in chunk_offsets(good_png)}
    idat_off, idat_len = offsets[b"IDAT"]
    points = [("sig+1", 9), ("ihdr-length", 12), ("ihdr-type", 14), ("ihdr-mid", 22), ("ihdr-crc", 31),
              ("after-ihdr", 33), ("idat-length", idat_off + 2), ("idat-type", idat_off + 6),
              ("idat-zlib-header", idat_off + 9), ("idat-10pct", idat_off + 8 + idat_len // 10),
              ("idat-50pct", idat_off + 8 + idat_len // 2), ("idat-90pct", idat_off + 8 + idat_len * 9 // 10),
              ("idat-before-adler", idat_off + 8 + idat_len - 4), ("idat-crc", idat_off + 8 + idat_len + 2)]
    for label, at in points:
        in_header = at < idat_off + 8  # png_read_info stops after the first IDAT's header
        add("trunc-png-%s.png" % label, good_png[:at], "header" if in_header else "data", T,
            "good.png cut at byte %d of %d" % (at, len(good_png)))
    add("trunc-png-no-iend.png", good_png[:-12], "data", T + "|" + C,
        "good.png without IEND: every row is there, but a full decode reads to IEND (as pngcheck does)")
    ioff = {t: (off, n) for t, off, n in chunk_offsets(good_interlaced)}
    i_off, i_len = ioff[b"IDAT"]
    for pct in (20, 60, 95):
        at = i_off + 8 + i_len * pct // 100
        add("trunc-png-interlaced-%dpct.png" % pct, good_interlaced[:at], "data", T,
            "good-interlaced.png cut at %d%% of IDAT (Adam7 passes incomplete)" % pct)
    segs = dict((m, off) for m, off in jpeg_segments(good_jpeg))
    sos_at = segs[0xDA]
    scan_start = sos_at + 2 + struct.unpack(">H", good_jpeg[sos_at + 2:sos_at + 4])[0]
    scan_len = len(good_jpeg) - 2 - scan_start
    jpoints = [("soi", 2), ("soi+ff", 3), ("dqt-length", segs[0xDB] + 3), ("dqt-mid", segs[0xDB] + 30),
               ("sof-mid", segs[0xC0] + 8), ("dht-mid", segs[0xC4] + 12), ("sos-header", sos_at + 6),
               ("scan-start", scan_start), ("scan-10pct", scan_start + scan_len // 10),
               ("scan-50pct", scan_start + scan_len // 2), ("scan-90pct", scan_start + scan_len * 9 // 10)]
    for label, at in jpoints:
        in_header = at < scan_start  # jpeg_read_header stops after the SOS header
        add("trunc-jpeg-%s.jpg" % label, good_jpeg[:at], "header" if in_header else "data",
            "not an image" if at < 3 else T, "good.jpg cut at byte %d of %d" % (at, len(good_jpeg)))

    # Bad CRCs.
    add("crc-ihdr.png", corrupt_crc(good_png, b"IHDR"), "header", C, "bad IHDR CRC (critical)")
    add("crc-plte.png", corrupt_crc(good_palette, b"PLTE"), "header", C, "bad PLTE CRC (critical)")
    add("crc-idat.png", corrupt_crc(good_png, b"IDAT"), "data", C, "bad IDAT CRC (critical)")
    gama = chunk(b"gAMA", struct.pack(">I", 45455))
    add("crc-gama.png", corrupt_crc(png(24, 16, before_idat=[gama]), b"gAMA"), "ok", "-",
        "bad gAMA CRC (ancillary: libpng warns and drops the chunk)")
    private = chunk(b"prVt", b"private data")
    add("crc-private-ancillary.png", corrupt_crc(png(24, 16, before_idat=[private]), b"prVt"), "ok", "-",
        "bad CRC in an unknown ancillary chunk")
    text = chunk(b"tEXt", b"Comment\0hello")
    add("crc-text.png", corrupt_crc(png(24, 16, before_idat=[text]), b"tEXt"), "ok", "-", "bad tEXt CRC (skipped)")

    # Sizes: zero, 2^31, 2^31-1, 100000x100000, in-limit headers with no data.
    tiny_idat = chunk(b"IDAT", zlib_stored(b"\0" * 64))
    for label, w, h, expect, kw in [("width-0", 0, 16, "header", C), ("height-0", 16, 0, "header", C),
                                    ("width-2p31", 1 << 31, 1, "header", C), ("height-2p31", 1, 1 << 31, "header", C),
                                    ("width-2p31-1", (1 << 31) - 1, 1, "header", "over the limit"),
                                    ("height-2p31-1", 1, (1 << 31) - 1, "header", "over the limit"),
                                    ("100000x100000", 100000, 100000, "header", "over the limit")]:
        add("png-%s.png" % label, PNG_SIGNATURE + ihdr(w, h, 8, 2) + tiny_idat + chunk(b"IEND", b""), expect, kw,
            "IHDR %dx%d, 64 bytes of image data" % (w, h))
    add("png-100000x100000-partial.png", PNG_SIGNATURE + ihdr(100000, 100000, 8, 2), "header", "over the limit",
        "IHDR 100000x100000 and nothing after it")
    add("png-100000x100000-ihdr-cut.png", (PNG_SIGNATURE + ihdr(100000, 100000, 8, 2))[:27], "header", T,
        "IHDR 100000x100000 cut before its CRC")
    add("png-16bit-rgba-wide.png", PNG_SIGNATURE + ihdr(1 << 28, 1, 16, 6) + tiny_idat + chunk(b"IEND", b""), "data",
        "memory limit", "IHDR 268435456x1 RGBA 16-bit: under the pixel limit, but 2 GiB rows (info describes it)")
    add("png-16384-interlaced-nodata.png",
        PNG_SIGNATURE + ihdr(16384, 16384, 8, 6, 1) + tiny_idat + chunk(b"IEND", b""), "data", "memory limit",
        "IHDR 16384x16384 RGBA Adam7: under the pixel limit, but 1 GiB decoded at once (info describes it)")
    add("png-15000-interlaced-nodata.png",
        PNG_SIGNATURE + ihdr(15000, 15000, 8, 6, 1) + tiny_idat + chunk(b"IEND", b""), "data", T,
        "IHDR 15000x15000 RGBA Adam7 (860 MiB, under both limits), 64 bytes of data")
    add("png-16384-nodata.png", PNG_SIGNATURE + ihdr(16384, 16384, 8, 6) + tiny_idat + chunk(b"IEND", b""), "data", T,
        "IHDR 16384x16384 RGBA, 64 bytes of data")

    # Structure errors.
    add("palette-without-plte.png", palette_png(16, 16, with_plte=False), "header", C, "colour type 3 with no PLTE")
    bad_filter = bytearray(scanlines(24, 16, 3))
    bad_filter[(24 * 3 + 1) * 3] = 7
    add("bad-filter-byte.png", png(24, 16, raw=bytes(bad_filter)), "data", C, "row 3 has filter type 7")
    add("too-little-data.png", png(24, 16, raw=scanlines(24, 16, 3)[: (24 * 3 + 1) * 10]), "data", T,
        "a complete zlib stream with 10 of 16 rows")
    add("too-much-data.png", png(24, 16, raw=scanlines(24, 32, 3)), "ok", "-",
        "a zlib stream with 32 rows for a 16-row image (libpng: benign 'extra compressed data')")
    add("idat-empty.png", png(24, 16, idat=chunk(b"IDAT", b"")), "data", C + "|" + T, "one empty IDAT chunk")
    add("no-idat.png", png(24, 16, idat=b""), "header", C + "|" + T, "IHDR then IEND, no IDAT")
    add("bad-zlib.png", png(24, 16, idat=chunk(b"IDAT", b"\x78\x01" + rng.bytes(200))), "data", C + "|" + T,
        "IDAT holds random bytes after a zlib header")
    add("bad-bit-depth.png", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 7, 2, 0, 0, 0)) + tiny_idat
        + chunk(b"IEND", b""), "header", C, "IHDR bit depth 7")
    add("bad-color-type.png", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 5, 0, 0, 0)) + tiny_idat
        + chunk(b"IEND", b""), "header", C, "IHDR colour type 5")
    add("chunk-length-huge.png", PNG_SIGNATURE + ihdr(24, 16) + struct.pack(">I", 0x7FFFFFF0) + b"IDAT" + b"\0" * 32,
        "data", C + "|" + T, "an IDAT that claims 2 GiB")
    many = b"".join(chunk(b"prVt", struct.pack(">I", i)) for i in range(3000))
    add("many-ancillary-chunks.png", png(24, 16, before_idat=[many]), "ok", "-",
        "3000 unknown ancillary chunks before IDAT (libpng caches at most 256)")

    # Decompression bombs in ancillary chunks: ignored, never inflated whole.
    runs = 300 * 1024 * 1024 // 258
    ztxt_stream, ztxt_total = zlib_bomb(b"bomb\0", runs)
    check_bomb(ztxt_stream, ztxt_total, b"bomb\0")
    add("bomb-ztxt.png", png(24, 16, before_idat=[chunk(b"zTXt", b"Comment\0\0" + ztxt_stream)]), "ok", "-",
        "zTXt inflating to %d MB (text is skipped)" % (ztxt_total >> 20))
    icc_total = 4 + 258 * runs
    icc_prefix = struct.pack(">I", icc_total + 1) + b"\0"
    icc_stream, total = zlib_bomb(icc_prefix, runs)
    assert total == icc_total + 1
    check_bomb(icc_stream, total, icc_prefix)
    add("bomb-iccp.png", png(24, 16, before_idat=[chunk(b"iCCP", b"bomb\0\0" + icc_stream)]), "ok", "-",
        "iCCP inflating to %d MB (over the chunk limit: dropped)" % (total >> 20))
    itxt_stream, itxt_total = zlib_bomb(b"x\0", 64 * 1024 * 1024 // 258)
    add("bomb-itxt.png", png(24, 16, before_idat=[chunk(b"iTXt", b"Comment\0\1\0\0\0" + itxt_stream)]), "ok", "-",
        "compressed iTXt inflating to %d MB (text is skipped)" % (itxt_total >> 20))
    idat_stream, idat_total = zlib_bomb(b"\0", 16 * 1024 * 1024 // 258)
    add("bomb-idat-extra.png", png(64, 64, color=0, idat=chunk(b"IDAT", idat_stream)), "ok", "-",
        "64x64 gray whose IDAT inflates to %d MB (rows past the image are never read)" % (idat_total >> 20))

    # JPEG headers.
    add("jpeg-65500x65500.jpg", jpeg_header_only(65500, 65500) + dht(0, 0, DC_BITS, DC_VALS)
        + dht(1, 0, AC_BITS, AC_VALS) + sos([1]) + b"\x00" * 64 + b"\xFF\xD9", "header", "over the limit",
        "SOF 65500x65500 gray with 64 bytes of scan data")
    add("jpeg-65500x65500-partial.jpg", jpeg_header_only(65500, 65500, gray=False), "header", "over the limit",
        "SOF 65500x65500 then end of file")
    add("jpeg-65535x65535.jpg", jpeg_header_only(65535, 65535), "header", "over the limit|65500",
        "SOF 65535x65535 (over libjpeg's 65500 maximum) then end of file")
    add("jpeg-16000x16000-nodata.jpg", jpeg_header_only(16000, 16000) + dht(0, 0, DC_BITS, DC_VALS)
        + dht(1, 0, AC_BITS, AC_VALS) + sos([1]) + b"\x00" * 64, "data", T + "|" + C,
        "SOF 16000x16000 gray (under the pixel limit), 64 bytes of scan data")
    add("jpeg-16000x16000-progressive-nodata.jpg", b"\xFF\xD8" + dqt() + sof(0xC2, 16000, 16000, [1])
        + dht(0, 0, DC_BITS, DC_VALS) + sos([1], 0, 0, 0, 0) + b"\x00" * 64, "data", T + "|" + C,
        "progressive SOF 16000x16000 gray (500 MiB of coefficients, under both limits), 64 bytes of scan data")
    add("jpeg-65500x4096-progressive.jpg", b"\xFF\xD8" + dqt() + sof(0xC2, 65500, 4096, [1, 2, 3])
        + dht(0, 0, DC_BITS, DC_VALS) + sos([1, 2, 3], 0, 0, 0, 0) + b"\x00" * 64, "data", "memory limit",
        "progressive 4:4:4 SOF 65500x4096: under the pixel limit, but 1.5 GiB of coefficients (info describes it)")
    add("jpeg-width-0.jpg", jpeg_header_only(0, 16) + sos([1]), "header", C + "|" + T, "SOF width 0")
    add("jpeg-height-0.jpg", jpeg_header_only(16, 0) + sos([1]), "header", C + "|" + T, "SOF height 0 (DNL)")
    add("jpeg-12bit.jpg", jpeg(16, 16, gray=True, precision=12, sof_code=0xC1), "header", "12-bit|precision",
        "SOF1 with 12-bit precision")
    add("jpeg-16bit-lossless.jpg", jpeg(16, 16, gray=True, precision=16, sof_code=0xC3), "header", "unsupported|corrupt",
        "SOF3 lossless, 16-bit")
    add("jpeg-no-dqt.jpg", good_jpeg.replace(dqt(), b""), "data", C, "no quantization table")
    add("jpeg-no-dht.jpg", good_jpeg.replace(dht(0, 0, DC_BITS, DC_VALS), b""), "ok", "-",
        "no DC Huffman table (libjpeg-turbo falls back to the standard table, which is the one used)")
    add("jpeg-no-eoi.jpg", good_jpeg[:-2], "data", T + "|" + C,
        "good.jpg without EOI: every block is there, but a full decode reads to EOI (as djpeg does)")
    add("jpeg-junk-for-eoi.jpg", good_jpeg[:-2] + b"junk where EOI should be", "data", T + "|" + C,
        "good.jpg with junk instead of EOI after its scan")
    sof_at = dict((m, off) for m, off in jpeg_segments(good_jpeg))[0xC0]
    sof_segment = good_jpeg[sof_at:sof_at + 2 + struct.unpack(">H", good_jpeg[sof_at + 2:sof_at + 4])[0]]
    add("jpeg-second-sof.jpg", good_jpeg[:-2] + sof_segment + b"\xff\xd9", "data", T + "|" + C,
        "good.jpg with a second SOF0 after its scan")
    scan = bytearray(good_jpeg)
    for i in range(scan_start + 4, scan_start + 40):
        scan[i] = 0xFF if i % 2 else 0xD3
    add("jpeg-bad-scan.jpg", scan, "data", C, "scan data replaced by RST markers out of order")
    add("jpeg-sof-components-0.jpg", b"\xFF\xD8" + dqt() + marker(0xC0, struct.pack(">BHHB", 8, 16, 16, 0)) + sos([1]),
        "header", C + "|" + T, "SOF with 0 components")
    add("jpeg-sampling-bad.jpg", b"\xFF\xD8" + dqt() + sof(0xC0, 16, 16, [1, 2, 3], sampling=0x55) + sos([1, 2, 3]),
        "header", C + "|" + T, "sampling factors 5x5")
    add("jpeg-app1-cut.jpg", b"\xFF\xD8\xFF\xE1\xFF\xF0Exif\0\0" + exif_orientation(6), "header", T,
        "APP1 claims 65520 bytes, the file ends after 30")

    # Progressive scan bombs.
    add("jpeg-scan-bomb.jpg", progressive_scan_bomb(256, 256), "data", "scans",
        "256x256 progressive, 2647 tiny scans (a legal progression), over the 1000-scan limit")
    add("jpeg-scan-bomb-repeat.jpg", progressive_scan_bomb(256, 256, valid=False, repeats=3000), "data", "scans|corrupt",
        "256x256 progressive, one AC scan repeated 3000 times (bogus progression)")

    # EXIF orientation: 0, 9, looping IFDs, offsets out of bounds. All still decode.
    le = True
    loop = tiff_ifd0([orientation_entry(6)], next_ifd=8)  # IFD0's next IFD is IFD0
    exif_ifd_loop = tiff_ifd0([orientation_entry(6), (0x8769, 4, 1, struct.pack("<I", 8))], next_ifd=8)
    cases = [
        ("0", exif_orientation(0), "orientation 0 (invalid: ignored)"),
        ("9", exif_orientation(9), "orientation 9 (invalid: ignored)"),
        ("65535", exif_orientation(65535, little=False), "orientation 65535, big-endian (invalid: ignored)"),
        ("loop", loop, "orientation 6; IFD0's next-IFD offset points at IFD0 itself"),
        ("exififd-loop", exif_ifd_loop, "orientation 6; the EXIF sub-IFD pointer is IFD0 itself"),
        ("ifd-out-of-bounds", struct.pack("<2sHI", b"II", 42, 0xFFFFFFF0), "IFD0 offset 0xFFFFFFF0"),
        ("count-huge", b"II" + struct.pack("<HIH", 42, 8, 0xFFFF) + struct.pack("<HHI", 0x0112, 3, 1) + b"\6\0\0\0",
         "IFD0 claims 65535 entries, holds 1"),
        ("value-out-of-bounds", tiff_ifd0([(0x0112, 3, 0x7FFFFFFF, struct.pack("<I", 0xFFFFFF00))]),
         "orientation with count 2^31-1 and an offset past the end"),
        ("type-bad", tiff_ifd0([(0x0112, 77, 1, b"\6\0\0\0")]), "orientation of unknown type 77"),
        ("short", b"II*\0\x08", "5 bytes of TIFF header"),
        ("not-tiff", b"XX" + b"\0" * 30, "no II/MM byte order"),
    ]
    for label, tiff, what in cases:
        add("exif-%s.jpg" % label, jpeg(16, 16, exif=tiff), "ok", "-", "JPEG EXIF: " + what)
        add("exif-%s.png" % label, png(16, 16, before_idat=[chunk(b"eXIf", tiff)]), "ok", "-", "PNG eXIf: " + what)
    # PngSuite's x* files, rebuilt (Debian's libpng source ships 51 PngSuite files, none of
    # them x*): every one must be refused.
    gray = png(32, 32, color=0)
    xs = [
        ("xs1n0g01", b"\x09" + gray[1:], "not an image", "signature byte 1 MSBit reset to zero"),
        ("xs2n0g01", gray[:1] + b"Q" + gray[2:], "not an image", "signature byte 2 is a 'Q'"),
        ("xs4n0g01", gray[:3] + b"g" + gray[4:], "not an image", "signature byte 4 lowercase"),
        ("xs7n0g01", gray[:6] + b" " + gray[7:], "not an image", "7th byte a space instead of control-Z"),
        ("xcrn0g04", gray.replace(b"\n", b"\r\n"), "not an image", "added cr bytes (LF to CR-LF conversion)"),
        ("xlfn0g04", gray.replace(b"\r\n", b"\n"), "not an image", "lost cr bytes (CR-LF to LF conversion)"),
        ("xc1n0g08", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 8, 1, 0, 0, 0)) + gray[33:], C,
         "colour type 1"),
        ("xc9n2c08", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 8, 9, 0, 0, 0)) + gray[33:], C,
         "colour type 9"),
        ("xd0n2c08", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 0, 2, 0, 0, 0)) + gray[33:], C,
         "bit depth 0"),
        ("xd3n2c08", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 3, 2, 0, 0, 0)) + gray[33:], C,
         "bit depth 3"),
        ("xd9n2c08", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 32, 32, 99, 2, 0, 0, 0)) + gray[33:], C,
         "bit depth 99"),
        ("xdtn0g01", png(32, 32, color=0, idat=b""), C + "|" + T, "missing IDAT chunk"),
        ("xhdn0g08", corrupt_crc(gray, b"IHDR"), C, "incorrect IHDR checksum"),
        ("xcsn0g01", corrupt_crc(gray, b"IDAT"), C, "incorrect IDAT checksum"),
    ]
    for name, data, keyword, what in xs:
        expect = "data" if name == "xcsn0g01" else "header"
        add("pngsuite-%s.png" % name, data, expect, keyword, "as PngSuite's %s: %s" % (name, what))

    webp_heif_files(add, SplitMix64(0x5745425048454946))  # "WEBPHEIF": the PNG/JPEG files' bytes stay as they were

    # Fuzzer findings (make fuzz), kept byte for byte as regressions.
    for name, hexdata, expect, keyword, what in FUZZ_FINDINGS:
        add(name, bytes.fromhex(hexdata), expect, keyword, what)
    # The same weakness in other chunks: a claimed length far over the chunk limit.
    for kind in (b"sPLT", b"eXIf", b"iCCP", b"zTXt", b"hIST", b"prVt"):
        add("chunk-claims-1gib-%s.png" % kind.decode(), PNG_SIGNATURE + ihdr(1, 1, 8, 3) + struct.pack(">I", 0x3FFFFFFF) + kind
            + rng.bytes(16), "header", T, "a %s chunk claiming 1 GiB, then end of file (skipped or refused, never allocated)"
            % kind.decode())

    big_exif = app1_exif(exif_orientation(6) + b"\0" * 65000)
    add("exif-app1-max.jpg", jpeg(16, 16, extra_markers=big_exif), "ok", "-", "a 65 KB APP1 EXIF segment")
    metadata_files(add)
    raw_files(add, rng)  # last to use rng: the random bytes of the files before stay as they were
    gif_bmp_files(add)
    tiff_files(add)
    jxl_files(add)
    bmp_mask_files(add)  # issue 51 item 1, issue 53
    heif_reference_files(add, HEIC, HEIC_GRID)  # issue 53: what libheif 1.15 asserts on
    raw_phase_one_files(add)  # issue 53: the fuzz run's libraw hang
    attacks51_files(add, jpeg)  # issue 51: last, so the files before keep their bytes
    regions_files(add, png, chunk)  # issue 49
    motion_files(add, jpeg, marker)  # issue 50
    animation_files(add, WEBP_LOSSLESS)  # issue 50
    video_files(add, jpeg)  # issue 50
    return files


def tiff(width, height, spp=3, data=None, extra=(), tiled=None, next_ifd=0, strip_offset=None, strip_bytes=None):
    """A little-endian uncompressed TIFF, one strip (or one tile of `tiled` = (w, h)), IFD0
    after the pixels; `extra` entries (tag, type, count, value-bytes[4]) are added."""
    bps = 8
    size = width * height * spp if tiled is None else tiled[0] * tiled[1] * spp
    if data is None:
        data = bytes((i * 7) & 0xFF for i in range(size))
    ifd_at = 8 + len(data) + (len(data) & 1)
    short = lambda v: struct.pack("<HH", v, 0)
    long = lambda v: struct.pack("<I", v)
    entries = [
        (256, 4, 1, long(width)), (257, 4, 1, long(height)), (258, 3, 1, short(bps)), (259, 3, 1, short(1)),
        (262, 3, 1, short(2 if spp >= 3 else 1)), (277, 3, 1, short(spp)), (284, 3, 1, short(1)),
    ]
    offset = 8 if strip_offset is None else strip_offset
    count = len(data) if strip_bytes is None else strip_bytes
    if tiled is None:
        entries += [(273, 4, 1, long(offset)), (278, 4, 1, long(height)), (279, 4, 1, long(count))]
    else:
        entries += [(322, 4, 1, long(tiled[0])), (323, 4, 1, long(tiled[1])), (324, 4, 1, long(offset)),
                    (325, 4, 1, long(count))]
    entries = sorted(entries + list(extra))
    head = b"II" + struct.pack("<HI", 42, ifd_at) + data + b"\0" * (len(data) & 1)
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHI", t, k, c) + v for t, k, c, v in entries)
    nxt = ifd_at if next_ifd == "self" else next_ifd
    return head + ifd + struct.pack("<I", nxt)


def tiff_files(add):
    """TIFF through libtiff: the file lies about its directories, strips, size or kind."""
    T, C = "truncated", "corrupt"
    good = tiff(8, 6)
    add("good.tif", good, "ok", "-", "8x6 RGB TIFF, one uncompressed strip")
    add("tiff-ifd-loop.tif", tiff(8, 6, next_ifd="self"), "header", "loop", "TIFF: IFD0's next-IFD offset is IFD0 itself")
    add("tiff-strip-past-end.tif", tiff(8, 6, strip_offset=1 << 30), "data", T + "|" + C,
        "TIFF: the strip's offset is 1 GiB, past the end of the file")
    add("tiff-dimensions-2g.tif", tiff(1 << 31, 1 << 31, data=b"\0" * 64, strip_bytes=64), "header",
        "over the limit|" + C, "TIFF: 2^31 x 2^31 pixels claimed, 64 bytes of data")
    add("tiff-truncated.tif", good[:8 + 60], "header", T + "|" + C, "TIFF: cut inside the strip, before IFD0")
    add("tiff-strip-short.tif", tiff(64, 64, data=b"\x55" * 100, strip_bytes=64 * 64 * 3), "data", T + "|" + C,
        "TIFF: a strip of 12288 bytes claimed, 100 there (IFD0 right after them)")
    add("tiff-tile-huge.tif", tiff(16, 16, data=b"\0" * 64, tiled=(1 << 16, 1 << 16), strip_bytes=64), "data",
        "memory|" + C, "TIFF: one 65536x65536 tile (12 GiB decoded) over a 16x16 image")
    add("tiff-dng.tif", tiff(8, 6, extra=[(50706, 1, 4, bytes([1, 4, 0, 0]))]), "header", "DNG|camera RAW",
        "TIFF with DNGVersion in IFD0: a camera raw (the RAW decoder's), never read as a plain TIFF")


# JPEG XL (issue 35): a 24x16 lossy codestream, cjxl 0.7 -d 1 -e 3 of a gradient (287 bytes).
JXL_TINY = bytes.fromhex(
    "ff0a0341427121001208010044045de5120000152aa38c1bbc9cebf9f24387c5b48deb0c6db56d6149a2c838364927704812"
    "e911bc0da81452a22bc53c7fc1751fa66d2524f0c49e95c1a41757fb1d800632a8900279005a917777f118a5bb18332f8b23"
    "d32ed624ef5d71fa8cbbf2507870ef90e346a17afdeb06307923e9804936bbbcb842463b7f1308bee0e73ffd9bf23b75cf7d"
    "7d2343c8cb2d63f50cec13bfa4caa6636207b93fbc3cc3983b23bda82f021a8c80c87384626bb886144760aa0dc236cfdb3d"
    "20b0cfb936990a04c0bc538a7c46c484a408893ad7d1f09257053046a9a5bbba71938ca6c63b08f9b3c4a23f6e578598ff2d"
    "c2c61d74c96665a8e3f4533a7d5326b03efb573d477e0d41f83fbf0d1e3354b026dbc1f201")


def jxl_lying_size():
    """A bare codestream whose size header claims 2^30 x 2^30 (Tests/TestSupport/JXLSamples.swift)."""
    bits = [0]  # SizeHeader.small = 0

    def put(value, count):
        bits.extend((value >> i) & 1 for i in range(count))
    put(3, 2)
    put((1 << 30) - 1, 30)
    put(0, 3)
    put(3, 2)
    put((1 << 30) - 1, 30)
    bits.append(1)  # ImageMetadata.all_default
    out = bytearray(b"\xff\x0a")
    for i in range(0, len(bits), 8):
        out.append(sum(b << k for k, b in enumerate(bits[i:i + 8])))
    return bytes(out) + b"\0" * 64


def jxl_files(add):
    """JPEG XL through libjxl: a good file, a cut one, a lying size, a container without a
    codestream, and flipped bits in the frame data (libjxl's own failure trail on stderr
    must not become more lines)."""
    add("good.jxl", JXL_TINY, "ok", "-", "24x16 lossy JPEG XL codestream")
    add("jxl-cut-in-frame.jxl", JXL_TINY[:60], "data", "truncated", "JPEG XL cut inside its frame data")
    add("jxl-size-huge.jxl", jxl_lying_size(), "header", "pixels", "JPEG XL size header claiming 2^30 x 2^30 pixels")
    add("jxl-container-only.jxl", bytes.fromhex("0000000c4a584c200d0a870a00000014667479706a786c20000000006a786c20"),
        "header", "header", "JPEG XL signature and ftyp boxes, no codestream")
    flipped = bytearray(JXL_TINY)
    flipped[120] ^= 0x5A
    add("jxl-flipped-bits.jxl", flipped, "data", "corrupt", "JPEG XL with one byte of its frame data changed")


def metadata_files(add):
    """EXIF and XMP that the metadata rewriter (EXIFBlock, XMPPacket) must leave out or
    rewrite without hanging, looping or allocating more than the block: every file still
    decodes (expect ok), the block is dropped with a warning."""
    ptr = lambda tag, at: (tag, 4, 1, struct.pack("<I", at))
    # Sub-IFD pointers back at IFD0 (the orientation reader never follows them; the rewriter does).
    add("exif-gps-loop.jpg", jpeg(16, 16, exif=tiff_ifd0([orientation_entry(6), ptr(0x8825, 8)])), "ok", "-",
        "EXIF: the GPS IFD pointer is IFD0 itself")
    exif_at = 8 + 2 + 2 * 12 + 4
    interop_loop = tiff_ifd0([orientation_entry(6), ptr(0x8769, exif_at)], tail=struct.pack("<H", 1)
                             + struct.pack("<HHI", 0xA005, 4, 1) + struct.pack("<I", exif_at) + struct.pack("<I", 0))
    add("exif-interop-loop.png", png(16, 16, before_idat=[chunk(b"eXIf", interop_loop)]), "ok", "-",
        "PNG eXIf: the Interoperability IFD pointer is the Exif IFD itself")
    # 1000 entries sharing one 60000-byte value: 60 MB asked of a 72 KB block.
    shared_at = 8 + 2 + 1000 * 12 + 4
    shared = tiff_ifd0([(0x9000 + i, 7, 60000, struct.pack("<I", shared_at)) for i in range(1000)], tail=b"\x07" * 60000)
    add("exif-shared-values.png", png(16, 16, before_idat=[chunk(b"eXIf", shared)]), "ok", "-",
        "PNG eXIf: 1000 entries whose 60000-byte values all lie at one offset (over the copy budget)")
    add("exif-count-overflow.jpg", jpeg(16, 16, exif=tiff_ifd0([orientation_entry(6), (0x9286, 12, 0x7FFFFFFF, b"\0" * 4)])),
        "ok", "-", "EXIF: a DOUBLE entry of 2^31-1 values (count x size overflows 32 bits)")
    xmp_ns = b"http://ns.adobe.com/xap/1.0/\0"
    rdf = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    laughs = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">' + b"".join(
        b'<!ENTITY %s "%s">' % (b"a" * (i + 2), (b"&" + b"a" * (i + 1) + b";") * 10) for i in range(9)) + b"]>"
    xmps = [
        ("doctype", laughs + rdf + b"&" + b"a" * 10 + b";</rdf:RDF></x:xmpmeta>", "an entity expansion bomb in a DOCTYPE"),
        ("deep", rdf + b"<a>" * 4000 + b"</a>" * 4000 + b"</rdf:RDF></x:xmpmeta>", "elements nested 4000 deep"),
        ("unclosed", rdf + b"<!-- " + b"-" * 30000, "a comment never closed"),
        ("mismatch", rdf + b"</x:xmpmeta></rdf:RDF>", "tags closed in the wrong order"),
        ("attributes", rdf + b"<rdf:Description " + b"a=" * 20000 + b"/></rdf:RDF></x:xmpmeta>", "20000 attributes without values"),
    ]
    for label, packet, what in xmps:
        add("xmp-%s.jpg" % label, jpeg(16, 16, extra_markers=marker(0xE1, xmp_ns + packet)), "ok", "-", "JPEG XMP: " + what)
    irb = lambda iim, size=None: marker(0xED, b"Photoshop 3.0\0" + b"8BIM\x04\x04\0\0"
                                        + struct.pack(">I", len(iim) if size is None else size) + iim)
    iptcs = [
        ("extended", irb(b"\x1c\x02\x19\x80\x04\xff\xff\xff\xff" + b"x" * 16), "an extended-length IIM dataset"),
        ("past-end", irb(b"\x1c\x02\x19\x7f\xff" + b"x" * 16), "a dataset claiming 32767 bytes, 16 there"),
        ("resource-size", irb(b"\x1c\x02\x19\x00\x03cat", size=0xFFFFFFF0), "an 8BIM resource claiming 4 GiB"),
    ]
    for label, segment, what in iptcs:
        add("iptc-%s.jpg" % label, jpeg(16, 16, extra_markers=segment), "ok", "-", "JPEG APP13 IPTC: " + what)
    itxt = b"XML:com.adobe.xmp\0\0\0\0\0" + rdf + b"<b>" * 20000
    add("xmp-itxt-unclosed.png", png(16, 16, before_idat=[chunk(b"iTXt", itxt)]), "ok", "-",
        "PNG iTXt XMP: 20000 elements never closed")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "..", "Fixtures", "hostile")
    args = sys.argv[1:]
    if args[:1] == ["--out"] and len(args) == 2:
        out = args[1]
    elif args:
        sys.exit("usage: make-hostile.py [--out DIR]")
    out = os.path.normpath(out)
    os.makedirs(out, exist_ok=True)
    files = build()
    names = [f[0] for f in files]
    assert len(names) == len(set(names)), "duplicate file names"
    keep = set(names) | {"MANIFEST.tsv"}
    for old in os.listdir(out):
        if old not in keep and os.path.isfile(os.path.join(out, old)):
            os.remove(os.path.join(out, old))
    rows = ["file\texpect\tkeyword\twhat"]
    for name, data, expect, keyword, what in files:
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        rows.append("\t".join([name, expect, keyword, what]))
    with open(os.path.join(out, "MANIFEST.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(rows) + "\n")
    total = sum(len(f[1]) for f in files)
    print("wrote %d files (%d bytes) and MANIFEST.tsv to %s" % (len(files), total, out))


if __name__ == "__main__":
    main()
