#!/usr/bin/env python3
"""Pillow's decode of each TIFF in a folder, the reference the TIFF tests compare against.

tiff-refs.py DIR: for every DIR/NAME.tif, DIR/NAME.ref.png holds Pillow's pixels in the
layout forcezoom delivers (8-bit gray, gray+alpha, RGB or RGBA; 16-bit samples by their high
byte, as Pillow's own RGB;16 unpackers read them), as Pillow loads them (upright: Pillow turns
a TIFF by its Orientation tag on load); 16-bit gray also
as NAME.ref16.png (16-bit PNG); for files of several directories, NAME.page-K.ref.png holds
directory K (from 1; pages and a pyramid's reduced copies alike). CMYK files are left out
(their colours go through lcms2).
"""
import glob, os, sys
import numpy as np
from PIL import Image

def save(im, base):
    mode = im.mode
    if mode == "CMYK":
        return
    if mode in ("I;16", "I;16B", "I;16L", "I"):
        a = np.asarray(im).astype(np.uint32)
        Image.fromarray((a >> 8).astype(np.uint8), "L").save(base + ".ref.png")
        Image.fromarray(a.astype(np.uint16)).save(base + ".ref16.png")
        return
    if mode == "1":
        im = im.convert("L")
    elif mode in ("P", "PA"):
        im = im.convert("RGBA" if "transparency" in im.info or mode == "PA" else "RGB")
    elif mode not in ("L", "LA", "RGB", "RGBA"):
        im = im.convert("RGBA" if "A" in mode or "a" in mode else "RGB")
    im.save(base + ".ref.png")


for path in sorted(p for p in glob.glob(os.path.join(sys.argv[1], "*.tif")) if "/big-" not in p):
    base = path[:-4]
    im = Image.open(path)
    im.load()
    save(im, base)
    for k in range(1, getattr(im, "n_frames", 1)):
        im.seek(k)
        im.load()
        save(im, "%s.page-%d" % (base, k + 1))
