#!/usr/bin/python3
"""Writes a Kodak DC120 KDC as libraw reads one, for the RAW tests (issue 51 item 12: a KDC
thumbnailed from its small TIFF preview instead of its develop). No real KDC may be copied
into the repo, so this one is built from what libraw's identify (0.20, src/metadata/identify.cpp)
asks of a DC120: a TIFF whose Make is Kodak's and whose Model is "DC120", and an 8-bit
single-sample IFD with the sensor's 848x976 samples, which libraw reads with
kodak_dc120_load_raw (each row rotated by row * mul[row & 3] + add[row & 3] samples; the GRBG
mosaic libraw assumes for Kodaks, filters 0x61616161) and stretches by its 1.53 pixel aspect
to 1301x976. IFD0 is the preview, 96x72 RGB (as a DC50's KDC carries 96x64), so a TIFF reader
shows that; the KodakIFD tag (33424) points at a Kodak IFD, as in Kodak's files.

The scene (gradients and a disc, round once stretched) is seeded and deterministic.

Usage: Tools/formats/make-kdc.py OUT.kdc
"""
import struct
import sys

import numpy as np

W, H = 848, 976  # libraw's DC120 raw size
PW, PH = 96, 72  # the preview
ASPECT = H / 0.75 / W  # libraw's pixel_aspect for the DC120
FILTERS = 0x61616161
MUL = [162, 192, 187, 92]  # kodak_dc120_load_raw's row rotation
ADD = [0, 636, 424, 212]


def ifd(entries, next_ifd, at):
    """A little-endian IFD at file offset `at`: its entries sorted, values over 4 bytes after it."""
    body = struct.pack("<H", len(entries))
    extra = b""
    data_at = at + 2 + 12 * len(entries) + 4
    for tag, kind, count, value in sorted(entries):
        if len(value) <= 4:
            body += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
        else:
            body += struct.pack("<HHII", tag, kind, count, data_at + len(extra))
            extra += value + (b"\0" if len(value) % 2 else b"")
    return body + struct.pack("<I", next_ifd) + extra


def short(v):
    return struct.pack("<H", v)


def long(v):
    return struct.pack("<I", v)


def ascii(s):
    return s.encode() + b"\0"


def scene():
    """The sensor's samples in libraw's order (GRBG), 10..240."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    rgb = np.stack([x / W, y / H, 1 - (x + y) / (W + H)], -1)
    disc = ((x - W / 2) * ASPECT) ** 2 + (y - H / 2) ** 2 < (H / 4) ** 2
    rgb[disc] = (0.9, 0.2, 0.1)
    cfa = np.zeros((H, W), np.uint8)
    for row in range(2):
        for col in range(2):
            c = (FILTERS >> ((((row << 1) & 14) | (col & 1)) << 1)) & 3
            cfa[row::2, col::2] = np.clip(rgb[row::2, col::2, 1 if c == 3 else c] * 230 + 10, 0, 255)
    return cfa


def stored(cfa):
    """Each row rotated as kodak_dc120_load_raw reads it back: pixel[(col + shift) % 848]."""
    out = np.zeros_like(cfa)
    cols = np.arange(W)
    for row in range(H):
        out[row, (cols + row * MUL[row & 3] + ADD[row & 3]) % W] = cfa[row]
    return out


def kdc():
    make, model = ascii("EASTMAN KODAK COMPANY"), ascii("DC120")
    preview = np.zeros((PH, PW, 3), np.uint8)
    preview[:] = (200, 200, 40)  # flat: nothing like the develop

    def layout(ifd1, kodak, preview_at, raw_at):
        ifd0 = ifd([(254, 4, 1, long(1)), (256, 3, 1, short(PW)), (257, 3, 1, short(PH)),
                    (258, 3, 3, short(8) * 3), (259, 3, 1, short(1)), (262, 3, 1, short(2)),
                    (271, 2, len(make), make), (272, 2, len(model), model), (273, 4, 1, long(preview_at)),
                    (277, 3, 1, short(3)), (278, 3, 1, short(PH)), (279, 4, 1, long(PW * PH * 3)),
                    (33424, 4, 1, long(kodak))], ifd1, 8)
        kodak_ifd = ifd([(0xFA00, 3, 1, short(0))], 0, kodak)
        raw = ifd([(254, 4, 1, long(0)), (256, 3, 1, short(W)), (257, 3, 1, short(H)), (258, 3, 1, short(8)),
                   (259, 3, 1, short(1)), (262, 3, 1, short(32803)), (273, 4, 1, long(raw_at)),
                   (277, 3, 1, short(1)), (278, 3, 1, short(H)), (279, 4, 1, long(W * H))], 0, ifd1)
        return ifd0, kodak_ifd, raw

    a, b, c = layout(0, 0, 0, 0)  # the sizes, to place each part
    kodak = 8 + len(a)
    ifd1 = kodak + len(b)
    preview_at = ifd1 + len(c)
    raw_at = (preview_at + PW * PH * 3 + 3) // 4 * 4
    a, b, c = layout(ifd1, kodak, preview_at, raw_at)
    head = b"II*\0" + long(8) + a + b + c + preview.tobytes()
    return head.ljust(raw_at, b"\0") + stored(scene()).tobytes()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().split("\n")[-1])
    with open(sys.argv[1] + ".tmp", "wb") as f:
        f.write(kdc())
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])


if __name__ == "__main__":
    main()
