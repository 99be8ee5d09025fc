#!/usr/bin/python3
"""PNG colour chunks (gAMA, cHRM without iCCP or sRGB) against an independent computation,
for ColorCLITests: `--icc srgb` must convert such a file as the PNG specification (third
edition) and browsers read it, through a matrix/TRC profile made from the chunks.

    png_chunks_reference.py write IN.png        a 16x16 RGB PNG with Adobe RGB (1998)
                                                primaries, D65 white and gAMA 1/2.2,
                                                written with zlib only
    png_chunks_reference.py check IN.png OUT.png

`check` decodes OUT.png with Pillow, computes the expected sRGB pixels from IN.png's samples
with numpy (decode the gamma, RGB -> XYZ through the chunks' primaries and white, XYZ ->
linear sRGB, the sRGB curve; both whites D65, so no adaptation), and prints
"max_diff max_change": the largest difference between forcezoom's output and numpy's, and
the largest change the conversion made (so a test can tell a conversion from none).
"""

import struct
import sys
import zlib

import numpy as np

GAMMA = 45455  # gAMA: 1/2.2 x 100000
WHITE = (0.3127, 0.3290)
PRIMARIES = ((0.64, 0.33), (0.21, 0.71), (0.15, 0.06))  # Adobe RGB (1998)
SRGB = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06))


def samples():
    rows = []
    for y in range(16):
        rows.append([(x * 17, y * 17, ((x + y) * 8) % 256) for x in range(16)])
    return np.array(rows, dtype=np.float64)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write(path):
    s = samples().astype(np.uint8)
    raw = b"".join(b"\0" + s[y].tobytes() for y in range(16))
    chrm = [WHITE] + list(PRIMARIES)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
    png += chunk(b"gAMA", struct.pack(">I", GAMMA))
    png += chunk(b"cHRM", b"".join(struct.pack(">II", round(x * 100000), round(y * 100000)) for x, y in chrm))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


def rgb_to_xyz(primaries, white):
    xyz = lambda x, y: np.array([x / y, 1.0, (1 - x - y) / y])
    m = np.stack([xyz(*p) for p in primaries], axis=1)
    scale = np.linalg.solve(m, xyz(*white))
    return m * scale


def expected():
    linear = (samples() / 255.0) ** (100000.0 / GAMMA)
    m = np.linalg.inv(rgb_to_xyz(SRGB, WHITE)) @ rgb_to_xyz(PRIMARIES, WHITE)
    out = np.clip(linear @ m.T, 0, 1)
    encoded = np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)
    return encoded * 255.0


def check(inp, out):
    from PIL import Image

    got = np.asarray(Image.open(out).convert("RGB"), dtype=np.float64)
    want = expected()
    print("%.2f %.2f" % (np.abs(got - want).max(), np.abs(got - samples()).max()))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
