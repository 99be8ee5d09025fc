#!/usr/bin/env python3
"""Writes the stored forms of an upright picture for tests of orientation.

oriented.py UPRIGHT.png OUT: OUT/stored-N.png for EXIF orientations N = 1..8 (stored so that
applying N gives UPRIGHT back) and OUT/exif-N.tiff, a minimal EXIF block (TIFF header, one
IFD, Orientation = N) for `webpmux -set exif`.
oriented.py --rotate R UPRIGHT.png OUT: OUT/rot-R.png, stored so that an HEIF `irot` of R
degrees anticlockwise (ISO 23008-12: angle = R, anticlockwise) gives UPRIGHT back.
"""
import struct, sys
from PIL import Image

T = Image.Transpose
# Applying EXIF orientation N to the stored image gives the upright one; these undo it.
UNDO = {1: None, 2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM,
        5: T.TRANSPOSE, 6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}

def exif_block(n):
    # little-endian TIFF: header, IFD0 with one entry (0x0112 SHORT 1 = n), next IFD 0
    return b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, n, 0) + struct.pack("<I", 0)

args = sys.argv[1:]
if args[0] == "--rotate":
    r = int(args[1]); src, out = args[2], args[3]
    up = Image.open(src).convert("RGB")
    up.info.pop("transparency", None)  # the source has tRNS; these pictures are opaque
    # irot turns the decoded image anticlockwise by r; store it turned clockwise by r.
    stored = {90: up.transpose(T.ROTATE_270), 180: up.transpose(T.ROTATE_180), 270: up.transpose(T.ROTATE_90)}[r]
    stored.save(f"{out}/rot-{r}.png")
else:
    src, out = args
    up = Image.open(src).convert("RGB")
    up.info.pop("transparency", None)  # the source has tRNS; these pictures are opaque
    for n, t in UNDO.items():
        (up if t is None else up.transpose(t)).save(f"{out}/stored-{n}.png")
        with open(f"{out}/exif-{n}.tiff", "wb") as f:
            f.write(exif_block(n))
