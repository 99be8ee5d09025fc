"""BMPs whose bit-field masks are not contiguous (issue 51 item 1, issue 53), assembled byte
by byte (standard library only, byte-identical on every run). forcezoom trapped on each
(SIGILL, exit 132: `UInt8(value * 255 / max)` in BMPRowUnpacker.sample, the field's width
taken up to the mask's first gap while the value kept every masked bit). They now decode:
a mask's set bits are gathered into a value as wide as its popcount (Pillow refuses such
layouts, "Unsupported BMP bitfields layout"). make-hostile.py calls `bmp_mask_files(add)`
after the other BMPs, so the other files' bytes do not move."""

import struct

# 2x2 pixels, bottom row first: every bit set, the top bit alone, the low bit alone, a mix.
PIXELS32 = (0xFFFFFFFF, 0x80000000, 0x00000001, 0x12345678)
PIXELS16 = (0xFFFF, 0x8000, 0x0001, 0x1234)


def masked_bmp(bits, masks, header_size=40):
    """A 2x2 BMP with BI_BITFIELDS (compression 3): `masks` (R, G, B[, A]) after a 40-byte
    header, or inside a 56-byte (V3), 108-byte (V4) or 124-byte (V5) header."""
    values = PIXELS32 if bits == 32 else PIXELS16
    fmt = "<I" if bits == 32 else "<H"
    row_bytes = (2 * bits // 8 + 3) & ~3
    rows = b""
    for r in range(2):
        row = b"".join(struct.pack(fmt, v) for v in values[r * 2:r * 2 + 2])
        rows += row + b"\0" * (row_bytes - len(row))
    info = struct.pack("<IiiHHIIiiII", header_size, 2, 2, 1, bits, 3, len(rows), 2835, 2835, 0, 0)
    if header_size == 40:
        trailing = b"".join(struct.pack("<I", m) for m in masks[:3])
    else:
        info += b"".join(struct.pack("<I", m) for m in (list(masks) + [0, 0, 0, 0])[:4])
        info += b"\0" * (header_size - len(info))
        if header_size >= 108:
            info = info[:56] + struct.pack("<I", 0x73524742) + info[60:]  # 'sRGB' colour space
        trailing = b""
    offset = 14 + header_size + len(trailing)
    return b"BM" + struct.pack("<IHHI", offset + len(rows), 0, 0, offset) + info + trailing + rows


def bmp_mask_files(add):
    why = "trapped, SIGILL exit 132; now its set bits are read as a popcount-wide field"
    add("bmp-mask-80000001.bmp", masked_bmp(32, (0x80000001, 0x0000FF00, 0x00FF0000)), "ok", "-",
        "32-bit BI_BITFIELDS, R mask 0x80000001 (two bits 31 apart): " + why)
    add("bmp-mask-8000007f.bmp", masked_bmp(32, (0x8000007F, 0x0000FF00, 0x00FF0000)), "ok", "-",
        "32-bit BI_BITFIELDS, R mask 0x8000007F: " + why)
    add("bmp-mask16-8001.bmp", masked_bmp(16, (0x8001, 0x07E0, 0x001E)), "ok", "-",
        "16-bit BI_BITFIELDS, R mask 0x8001: " + why)
    add("bmp-v5-alpha-81000000.bmp", masked_bmp(32, (0xFF0000, 0xFF00, 0xFF, 0x81000000), 124), "ok", "-",
        "BITMAPV5HEADER, alpha mask 0x81000000: " + why)
    add("bmp-v4-overlap-f000000f.bmp", masked_bmp(32, (0xF000000F, 0xF000000F, 0x00FFFF00, 0), 108), "ok", "-",
        "BITMAPV4HEADER, R and G masks both 0xF000000F (overlapping, not contiguous): " + why)
    add("bmp-v3-mask-b00.bmp", masked_bmp(16, (0x0B00, 0x00F0, 0x000F), 56), "ok", "-",
        "56-byte V3 header, 16-bit, R mask 0xb00 (the fuzz find from the BMP Suite's bit-field files): " + why)
