"""GIF and BMP files for the hostile set (issue 35), assembled byte by byte (standard library
only, byte-identical on every run): a good file of each, then lying screens and frames,
LZW data cut short or ended early, palettes and RLE runs past the end, huge dimensions.
make-hostile.py calls `gif_bmp_files(add)` last, so the other files' bytes do not move."""

import struct


def lzw(indices, min_code_size=2):
    """An LZW stream that never grows its code size: a clear code before every two
    literals (the "uncompressed GIF" coding every decoder reads), then the end code."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    codes = []
    for i, v in enumerate(indices):
        if i % 2 == 0:
            codes.append(clear)
        codes.append(v)
    codes.append(end)
    return pack_codes(codes, [width] * len(codes))


def pack_codes(codes, widths):
    """GIF's LZW bit stream: each code in its width, least significant bit first."""
    acc = bits = 0
    out = bytearray()
    for c, w in zip(codes, widths):
        acc |= c << bits
        bits += w
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc & 0xFF)
    return bytes(out)


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out += bytes([len(piece)]) + piece
    return bytes(out) + b"\x00"


PALETTE4 = bytes([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])


def gif(screen=(8, 6), frame=(0, 0, 8, 6), data=None, trailer=True, gce=True):
    """A 4-colour GIF89a: screen, global palette, a GCE (index 3 transparent), one frame."""
    sw, sh = screen
    x, y, w, h = frame
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x81, 0, 0) + PALETTE4)
    if gce:
        out += b"\x21\xF9\x04\x01\x00\x00\x03\x00"
    out += b"\x2C" + struct.pack("<HHHHB", x, y, w, h, 0)
    if data is None:
        data = lzw([(i + i // max(w, 1)) % 4 for i in range(w * h)])
    out += b"\x02" + sub_blocks(data)
    if trailer:
        out += b"\x3B"
    return bytes(out)


def bmp(width, height, bits=24, pixels=None, palette=None, compression=0, colors_used=None, offset=None,
        size_image=0):
    """A BITMAPINFOHEADER BMP (bottom-up unless height < 0)."""
    palette = palette or b""
    header = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, compression, size_image, 2835, 2835,
                         len(palette) // 4 if colors_used is None else colors_used, 0)
    if pixels is None:
        stride = (abs(width) * bits + 31) // 32 * 4
        pixels = bytes((i * 7) & 0xFF for i in range(stride * abs(height)))
    data_offset = 14 + len(header) + len(palette) if offset is None else offset
    body = header + palette + pixels
    return b"BM" + struct.pack("<IHHI", 14 + len(body), 0, 0, data_offset) + body


def gif_bmp_files(add):
    T, C = "truncated", "corrupt"
    good_gif = gif()
    add("good.gif", good_gif, "ok", "-", "8x6 GIF, 4 colours, a transparent index")
    add("gif-interlaced-offset.gif", gif(screen=(16, 12), frame=(3, 2, 8, 6))[:-1] + b"\x3B", "ok", "-",
        "a frame at an offset inside a larger screen")
    add("gif-frame-outside-screen.gif", gif(frame=(100, 100, 8, 6)), "header", "no pixel on the",
        "the only frame lies wholly outside its 8x6 screen")
    add("gif-frame-zero-size.gif", gif(frame=(0, 0, 0, 0), data=lzw([])), "header", "no pixel on the",
        "a 0x0 frame")
    add("gif-screen-zero.gif", gif(screen=(0, 0)), "header", C, "a 0x0 logical screen")
    add("gif-screen-huge.gif", gif(screen=(65535, 65535), frame=(0, 0, 1, 1)), "header", "over the limit",
        "a 65535x65535 screen with a 1x1 frame")
    add("gif-frame-huge.gif", gif(frame=(0, 0, 65535, 65535), data=lzw([0] * 64)), "data", "over the limit|" + T,
        "a 65535x65535 frame on an 8x6 screen, 64 pixels of data")
    cut = good_gif.index(b"\x2C") + 10 + 1 + 6
    add("gif-lzw-truncated.gif", good_gif[:cut], "data", T, "cut inside the first frame's LZW data")
    add("gif-lzw-ends-early.gif", gif(data=lzw([1, 2, 3])), "data", C,
        "the LZW end code after 3 of 48 pixels")
    add("gif-header-only.gif", good_gif[:9], "header", T, "the signature and half a screen descriptor")
    add("gif-no-image.gif", good_gif[:13 + 12] + b"\x3B", "header", "no image",
        "a screen, a palette and the trailer, no frame")

    add("good.bmp", bmp(5, 3), "ok", "-", "5x3 24-bit BMP, bottom-up")
    add("bmp-huge.bmp", bmp(0x7FFFFFFF, 0x7FFFFFFF, pixels=b"\0" * 64), "header", "over the limit",
        "2^31-1 x 2^31-1 24-bit, 64 bytes of data")
    add("bmp-palette-past-end.bmp", bmp(4, 4, bits=8, palette=bytes(40), colors_used=256, pixels=b"")[:14 + 40 + 40],
        "header", T, "256 palette entries declared, 10 there, then the end")
    pal = bytes([0, 0, 0, 0, 255, 255, 255, 0])
    add("bmp-rle-run-past-row.bmp", bmp(4, 2, bits=8, palette=pal, compression=1, pixels=b"\x09\x01\x00\x01"),
        "data", C, "an RLE8 run of 9 pixels in a 4-pixel row")
    add("bmp-rle-truncated.bmp", bmp(4, 2, bits=8, palette=pal, compression=1, pixels=b"\x02\x01\x00"), "data", T,
        "RLE8 data that ends inside a code")
    add("bmp-rle-delta-past.bmp", bmp(4, 2, bits=8, palette=pal, compression=1, pixels=b"\x00\x02\x50\x00\x00\x01"),
        "data", C, "an RLE8 delta 80 pixels right in a 4-pixel row")
    add("bmp-data-offset-past-end.bmp", bmp(5, 3, offset=1 << 20), "header", C,
        "the pixel data offset 1 MiB into a small file")
    add("bmp-rows-truncated.bmp", bmp(5, 3)[:-20], "data", T, "24-bit rows cut short")
    add("bmp-palette-index-past.bmp", bmp(4, 1, bits=8, palette=pal, pixels=b"\x00\x01\xC8\x00"), "data", C,
        "a pixel uses colour 200 of a 2-colour palette")
    add("bmp-negative-width.bmp", bmp(-4, 4), "header", C, "width -4")
    add("bmp-header-size-odd.bmp", b"BM" + struct.pack("<IHHII", 60, 0, 0, 54, 200) + bytes(40), "header", C,
        "an information header of 200 bytes")
