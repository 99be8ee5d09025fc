"""The pixel counts `forcezoom compare --metric ae / pixelmatch` are checked against
(ComparePixelCountCLITests), from the tools themselves:

    /usr/bin/python3 Tools/testkit/compare_counts.py DIR

writes pairs of PNGs to DIR (numpy arrays saved by Pillow): random noise of every size
of step, shapes drawn anti-aliased and moved by a fraction of a pixel (pixelmatch's
anti-aliasing detection), every step of 0-60 levels (the fuzz's boundary), RGBA with transparent, translucent and opaque pixels whose
colour or alpha changed, and a gray pair. For each pair and option set it asks
ImageMagick (`/usr/bin/compare -metric AE -fuzz F a b null:`, the count on stderr) and
PyPI's `pixelmatch` (the Python port of mapbox/pixelmatch: threshold, includeAA) for
their counts, and writes DIR/expected.jsonl, one object a line:
  {"pair": NAME, "args": [forcezoom compare options], "count": N, "by": "imagemagick"|"pixelmatch"}
A masked case copies the first image's pixels into the second inside the rectangle
first (what --mask is defined to do) and asks the tools about that pair. For two pairs it
also writes pixelmatch's own difference picture (NAME-pixelmatch.png, RGBA) for the
test to hold forcezoom's --diff against, pixel for pixel.
Needs numpy, Pillow, ImageMagick's compare and `pixelmatch` (pip) for /usr/bin/python3.
"""
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw
from pixelmatch import pixelmatch


def save(path, a):
    a = np.asarray(a, dtype=np.uint8)
    mode = "L" if a.ndim == 2 else {3: "RGB", 4: "RGBA"}[a.shape[2]]
    Image.fromarray(a, mode).save(path)


def drawn(size, shift, scale=4):
    """Shapes and a diagonal line drawn at `scale` times the size, `shift` pixels of the
    large canvas to the right and down, then box-filtered down: anti-aliased edges."""
    w, h = size
    big = Image.new("RGB", (w * scale, h * scale), (250, 250, 245))
    d = ImageDraw.Draw(big)
    s = shift
    d.ellipse([20 + s, 16 + s, 150 + s, 120 + s], fill=(30, 60, 200))
    d.rectangle([200 + s, 30 + s, 300 + s, 150 + s], fill=(200, 40, 40))
    d.line([10 + s, 180 + s, 330 + s, 60 + s], fill=(10, 10, 10), width=7)
    d.polygon([(250 + s, 170 + s), (330 + s, 230 + s), (180 + s, 230 + s)], fill=(20, 150, 60))
    return np.asarray(big.resize((w, h), Image.BOX))


def pairs(rng):
    """name -> (a, b) as uint8 arrays."""
    out = {}
    a = rng.integers(0, 256, (48, 64, 3), dtype=np.int16)
    step = rng.integers(-40, 41, a.shape, dtype=np.int16) * (rng.random(a.shape[:2]) < 0.3)[..., None]
    out["noise"] = (a, np.clip(a + step, 0, 255))
    out["edges"] = (drawn((90, 60), 0), drawn((90, 60), 1))
    out["moved"] = (drawn((90, 60), 0), drawn((90, 60), 6))
    rgb = rng.integers(0, 256, (40, 50, 3), dtype=np.int16)
    alpha = rng.choice(np.array([0, 0, 1, 64, 128, 200, 254, 255, 255], dtype=np.int16), (40, 50, 1))
    first = np.concatenate([rgb, alpha], axis=2)
    second = first.copy()
    which = rng.random((40, 50))
    second[..., :3] = np.where((which < 0.3)[..., None], np.clip(rgb + rng.integers(-30, 31, rgb.shape), 0, 255), rgb)
    second[..., 3:] = np.where((which > 0.8)[..., None], rng.integers(0, 256, alpha.shape), alpha)
    out["alpha"] = (first, second)
    # Every step from 0 to 60 levels in one channel: the fuzz's boundary is met exactly
    # (--fuzz 12 at 12 levels; 20% at 51, where ImageMagick's 65536 scale decides).
    base = rng.integers(0, 190, (24, 61, 3), dtype=np.int16)
    moved = base.copy()
    moved[..., 1] += np.arange(61, dtype=np.int16)[None, :]
    out["steps"] = (base, moved)
    g = rng.integers(0, 256, (30, 40), dtype=np.int16)
    out["gray"] = (g, np.clip(g + rng.integers(-20, 21, g.shape) * (rng.random(g.shape) < 0.4), 0, 255))
    return out


def imagemagick(a, b, fuzz):
    args = ["/usr/bin/compare", "-metric", "AE"] + (["-fuzz", fuzz] if fuzz else []) + [a, b, "null:"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise SystemExit("compare failed: %s: %s" % (" ".join(args), r.stderr))
    return int(float(r.stderr.split()[0]))


def rgba(path):
    return list(Image.open(path).convert("RGBA").tobytes())


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(36)
    lines = []
    made = pairs(rng)
    mask = (5, 4, 20, 12)  # x, y, w, h
    for name, (a, b) in made.items():
        for suffix, second in (("", b), ("-masked", None)):
            pa, pb = os.path.join(out, name + "-a.png"), os.path.join(out, name + suffix + "-b.png")
            if second is None:
                x, y, w, h = mask
                second = np.array(b, copy=True)
                second[y:y + h, x:x + w] = np.asarray(a)[y:y + h, x:x + w]
            save(pa, a)
            save(pb, second)
            masking = ["--mask", "%d,%d,%d,%d" % mask] if suffix else []
            both = [name + "-a.png", name + "-b.png"]  # forcezoom masks the unmasked pair
            for fuzz, option in ((None, []), ("5%", ["--fuzz", "5%"]), ("12.5%", ["--fuzz", "12.5%"]),
                                 ("20%", ["--fuzz", "20%"]), ("3084", ["--fuzz", "12"])):
                count = imagemagick(pa, pb, fuzz)
                lines.append({"pair": both, "args": ["--metric", "ae"] + option + masking, "count": count,
                              "by": "imagemagick"})
            h, w = np.asarray(a).shape[:2]
            for threshold, aa in ((0.1, False), (0.1, True), (0.05, False), (0.3, False), (0.0, False)):
                draw = [0] * (w * h * 4)
                count = pixelmatch(rgba(pa), rgba(pb), w, h, draw, threshold=threshold, includeAA=aa)
                option = ["--fuzz", repr(threshold)] if threshold != 0.1 else []
                option += ["--include-aa"] if aa else []
                lines.append({"pair": both, "args": ["--metric", "pixelmatch"] + option + masking, "count": count,
                              "by": "pixelmatch"})
                if threshold == 0.1 and not aa and not suffix and name in ("edges", "alpha"):
                    Image.frombytes("RGBA", (w, h), bytes(draw)).save(os.path.join(out, name + "-pixelmatch.png"))
    with open(os.path.join(out, "expected.jsonl"), "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
