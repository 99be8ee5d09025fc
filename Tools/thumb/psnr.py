#!/usr/bin/python3
"""PSNR of thumbnails against Pillow's Lanczos reduction of the full decode.

Usage:
  Tools/thumb/psnr.py THUMB_DIR PHOTO...    thumbnails named <stem>.thumb.png in THUMB_DIR
  Tools/thumb/psnr.py --manifest FILE       lines: THUMB<TAB>PHOTO[<TAB>X,Y,W,H]

For each photo Pillow decodes it at full size (no draft mode, so no DCT scaling), turns
it upright (ImageOps.exif_transpose), reduces it with Image.resize(size, LANCZOS) to the
thumbnail's size (with box=(X, Y, X+W, Y+H) for a cropped thumbnail: the upright source
window, sub-pixel allowed), and compares the two over all RGB samples.
Prints "<dB> <WxH> <thumb>" per line, then "worst <dB>".
Needs Debian's python3-pil: run with /usr/bin/python3, not a pyenv python3.
"""
import math
import os
import sys

from PIL import Image, ImageOps


def psnr(a, b):
    a = a.convert("RGB").tobytes()
    b = b.convert("RGB").tobytes()
    assert len(a) == len(b)
    se = sum((x - y) * (x - y) for x, y in zip(a, b))
    mse = se / len(a)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def reference(photo, size, box=None):
    full = ImageOps.exif_transpose(Image.open(photo)).convert("RGB")
    return full.resize(size, Image.LANCZOS, box=box)


def main():
    args = sys.argv[1:]
    work = []
    if args and args[0] == "--manifest":
        with open(args[1]) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                box = None
                if len(parts) > 2:
                    x, y, w, h = (float(v) for v in parts[2].split(","))
                    box = (x, y, x + w, y + h)
                work.append((parts[0], parts[1], box))
    else:
        folder = args[0]
        for photo in args[1:]:
            stem = os.path.splitext(os.path.basename(photo))[0]
            work.append((os.path.join(folder, stem + ".thumb.png"), photo, None))
    worst = float("inf")
    for thumb_path, photo, box in work:
        thumb = Image.open(thumb_path)
        p = psnr(thumb, reference(photo, thumb.size, box))
        worst = min(worst, p)
        print(f"{p:.2f} {thumb.size[0]}x{thumb.size[1]} {thumb_path}")
    print(f"worst {worst:.2f}")


if __name__ == "__main__":
    main()
