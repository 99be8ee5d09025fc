#!/usr/bin/python3
"""Independent decoding for forcezoom's terminal tests (Pillow, sixel2png from libsixel-bin).

  check_pixels.py png A B            are A and B the same pixels (RGBA)? {"equal", "sizes"}
  check_pixels.py sixel STREAM REF   decodes the sixel STREAM with sixel2png and compares it
                                     with REF (an image file): {"size", "exact" (every sample
                                     equals REF's after the percent round trip sixel has:
                                     v -> round(v*100/255) -> round(p*255/100)), "maxError"
                                     (against REF itself), "psnr" (dB, against REF)}
  check_pixels.py blocks-ref REF     REF's RGB pixels as JSON rows (for the block parser)
Run with /usr/bin/python3 (Pillow).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

from PIL import Image


def rgb(path):
    return Image.open(path).convert("RGB")


def percent_trip(v):
    p = (v * 100 + 127) // 255
    return (p * 255 + 50) // 100


def main():
    mode = sys.argv[1]
    if mode == "png":
        a, b = Image.open(sys.argv[2]).convert("RGBA"), Image.open(sys.argv[3]).convert("RGBA")
        print(json.dumps({"equal": a.size == b.size and a.tobytes() == b.tobytes(), "sizes": [a.size, b.size]}))
    elif mode == "sixel":
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "decoded.png")
            subprocess.run(["sixel2png", "-i", sys.argv[2], "-o", out], check=True)
            got = rgb(out)
        ref = rgb(sys.argv[3])
        if got.size != ref.size:
            print(json.dumps({"size": got.size, "refSize": ref.size, "exact": False}))
            return
        g, r = got.tobytes(), ref.tobytes()
        exact = all(x == percent_trip(y) for x, y in zip(g, r))
        err = [abs(x - y) for x, y in zip(g, r)]
        mse = sum(e * e for e in err) / len(err)
        psnr = 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
        print(json.dumps({"size": got.size, "exact": exact, "maxError": max(err), "psnr": round(psnr, 2)}))
    elif mode == "blocks-ref":
        im = rgb(sys.argv[2])
        px = im.load()
        print(json.dumps([[list(px[x, y]) for x in range(im.size[0])] for y in range(im.size[1])]))
    else:
        sys.exit("unknown mode " + mode)


main()
