#!/usr/bin/python3
"""OS/2 bitmap arrays (issue 51, item 13) into the folder given; tests make them in a scratch
folder, nothing is committed.

A bitmap array is a chain of 14-byte "BA" headers (size, offset of the next "BA" from the
start of the file or 0, display size), each followed by a bitmap's "BM" file header whose
pixel offset also counts from the start of the file (the OS/2 Presentation Manager layout,
as ImageMagick's bmp.c reads it). Pillow writes none, so the bytes are built here:

- array-os2core.bmp: an 8-bit OS/2 core bitmap (12-byte header, 3-byte palette entries),
  13x7, then a 24-bit 20x10 one that a reader of the first image must not show.
- array-os2v2.bmp: a 4-bit OS/2 2.x bitmap (64-byte header), 9x5, alone in its array, as
  SPADE.BMP is."""
import struct
import sys

out = sys.argv[1]


def ba(size_of_rest, next_offset):
    return b"BA" + struct.pack("<IIHH", 14 + size_of_rest, next_offset, 1024, 768)


def rows(w, h, bits, pixel):
    """Bottom-up rows padded to 4 bytes; pixel(x, y) gives a byte string (or a 4-bit index)."""
    data = b""
    for y in reversed(range(h)):
        if bits == 4:
            nibbles = [pixel(x, y) for x in range(w)] + [0]
            row = bytes((nibbles[i] << 4) | nibbles[i + 1] for i in range(0, w, 2))
        else:
            row = b"".join(pixel(x, y) for x in range(w))
        data += row + b"\0" * (-len(row) % 4)
    return data


def bitmap(start, info, palette, pixels):
    """A "BM" file header at `start` (absolute offsets), its information header, palette, pixels."""
    offset = start + 14 + len(info) + len(palette)
    size = 14 + len(info) + len(palette) + len(pixels)
    return b"BM" + struct.pack("<IHHI", size, 0, 0, offset) + info + palette + pixels


def os2core():
    w, h = 13, 7
    palette = b"".join(bytes(((i * 3) % 256, (i * 7) % 256, (255 - i) % 256)) for i in range(256))
    first = rows(w, h, 8, lambda x, y: bytes(((x * 19 + y * 5) % 256,)))
    info = struct.pack("<IHHHH", 12, w, h, 1, 8)
    entry = bitmap(14, info, palette, first)
    second_at = 14 + len(entry)
    w2, h2 = 20, 10
    info2 = struct.pack("<IHHHH", 12, w2, h2, 1, 24)
    second = bitmap(second_at + 14, info2, b"", rows(w2, h2, 24, lambda x, y: bytes((x * 12, y * 25, 200))))
    return ba(len(entry), second_at) + entry + ba(len(second), 0) + second


def os2v2():
    w, h = 9, 5
    palette = b"".join(bytes((i * 16, 255 - i * 16, (i * 40) % 256, 0)) for i in range(16))
    pixels = rows(w, h, 4, lambda x, y: (x + y * 3) % 16)
    # 64-byte OS/2 2.x header: the Windows fields, then 24 bytes of OS/2 ones (zero).
    info = struct.pack("<IiiHHIIiiII", 64, w, h, 1, 4, 0, len(pixels), 2835, 2835, 16, 0) + b"\0" * 24
    entry = bitmap(14, info, palette, pixels)
    return ba(len(entry), 0) + entry


with open(f"{out}/array-os2core.bmp", "wb") as f:
    f.write(os2core())
with open(f"{out}/array-os2v2.bmp", "wb") as f:
    f.write(os2v2())
