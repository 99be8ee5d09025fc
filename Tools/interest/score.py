#!/usr/bin/env python3
"""Scores `thumb --size 256x256 --crop-at attention` on the cases of make-cases.py: a case
passes when the object's box lies inside the kept window (forcezoom's --json "window").
With --vips, vipsthumbnail --smartcrop attention on the same cases too: its 256x256 output is
found in the image reduced by the same factor (the offset of least squared difference along
the long side), and passes on the same rule.

score.py FORCEZOOM CASEDIR [--vips] [--entropy]  -> prints "forcezoom N/M" (and "vips N/M")."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image


def cases(folder):
    with open(os.path.join(folder, "cases.tsv")) as f:
        next(f)
        for line in f:
            name, w, h, x, y, ow, oh, kind = line.rstrip("\n").split("\t")
            yield name, int(w), int(h), (int(x), int(y), int(ow), int(oh)), kind


def inside(obj, win, slack=1.0):
    x, y, w, h = obj
    wx, wy, ww, wh = win
    return x >= wx - slack and y >= wy - slack and x + w <= wx + ww + slack and y + h <= wy + wh + slack


def forcezoom(binary, folder, word):
    out = tempfile.mkdtemp(prefix="fz-interest-")
    files = [os.path.join(folder, c[0]) for c in cases(folder)]
    r = subprocess.run(
        [binary, "thumb", "--size", "256x256", "--crop-at", word, "--out", out, "--json", "-j", "2"] + files,
        capture_output=True, text=True)
    windows = {}
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        if "window" in rec:
            w = rec["window"]
            windows[os.path.basename(rec["input"])] = (w["x"], w["y"], w["width"], w["height"])
    return windows


def vips_window(path, w, h):
    out = tempfile.mktemp(suffix=".png")
    subprocess.run(["vipsthumbnail", path, "--size", "256x256", "--smartcrop", "attention", "-o", out], check=True)
    thumb = np.asarray(Image.open(out).convert("L"), float)
    os.unlink(out)
    s = 256 / min(w, h)
    reduced = Image.open(path).convert("L").resize((round(w * s), round(h * s)), Image.LANCZOS)
    r = np.asarray(reduced, float)
    th, tw = thumb.shape
    best = None
    for oy in range(0, r.shape[0] - th + 1):
        for ox in range(0, r.shape[1] - tw + 1):
            d = ((r[oy:oy + th, ox:ox + tw] - thumb) ** 2).mean()
            if best is None or d < best[0]:
                best = (d, ox, oy)
    _, ox, oy = best
    return (ox / s, oy / s, tw / s, th / s)


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    word = "entropy" if "--entropy" in sys.argv else "attention"
    all_cases = list(cases(folder))
    windows = forcezoom(binary, folder, word)
    passed = [c for c in all_cases if c[0] in windows and inside(c[3], windows[c[0]])]
    by_kind = {}
    for c in all_cases:
        ok = c in passed
        by_kind.setdefault(c[4], [0, 0])
        by_kind[c[4]][0] += ok
        by_kind[c[4]][1] += 1
    print("forcezoom %d/%d %s" % (len(passed), len(all_cases), " ".join("%s:%d/%d" % (k, v[0], v[1]) for k, v in sorted(by_kind.items()))))
    if "--verbose" in sys.argv:
        for c in all_cases:
            if c not in passed:
                print("  missed", c[0], c[4], "object", c[3], "window", windows.get(c[0]))
    if "--vips" in sys.argv:
        ok = 0
        by_kind = {}
        for name, w, h, obj, kind in all_cases:
            good = inside(obj, vips_window(os.path.join(folder, name), w, h), slack=3)
            ok += good
            by_kind.setdefault(kind, [0, 0])
            by_kind[kind][0] += good
            by_kind[kind][1] += 1
        print("vips %d/%d %s" % (ok, len(all_cases), " ".join("%s:%d/%d" % (k, v[0], v[1]) for k, v in sorted(by_kind.items()))))


if __name__ == "__main__":
    main()
