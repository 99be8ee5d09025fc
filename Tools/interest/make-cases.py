#!/usr/bin/env python3
"""Generated cases for the attention quality check (issue 49): a photographed object (the
coffee cup and saucer of scikit-image's coffee.png, cut out with an elliptical mask) pasted at
random positions over low-detail backgrounds (gradients with mild noise) and busy but uniform
ones (dense coloured noise, random strokes, a tiled photographed texture). Half the images are
landscape 1600x600, half portrait 600x1600, so a 256x256 crop keeps a 600x600 window and
the object is in it only when the window is placed well.

make-cases.py COFFEE.png TEXTURE.jpg OUTDIR [COUNT] [SEED]
Writes OUTDIR/case-NNN.jpg and OUTDIR/cases.tsv (file, width, height, the object's x, y,
width, height in pixels, background kind). Deterministic for a seed."""
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter


def object_cutout(coffee_path, side):
    """The cup on its saucer, about `side` pixels across, with an alpha mask."""
    im = Image.open(coffee_path).convert("RGB")
    # The saucer's ellipse in the 600x400 original.
    box = (70, 10, 490, 390)
    cup = im.crop(box)
    mask = Image.new("L", cup.size, 0)
    ImageDraw.Draw(mask).ellipse((4, 4, cup.size[0] - 4, cup.size[1] - 4), fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(2))
    scale = side / max(cup.size)
    size = (max(1, int(cup.size[0] * scale)), max(1, int(cup.size[1] * scale)))
    return cup.resize(size, Image.LANCZOS), mask.resize(size, Image.LANCZOS)


def low_detail(rng, w, h):
    c0 = np.array([rng.randint(40, 220) for _ in range(3)], float)
    c1 = np.array([rng.randint(40, 220) for _ in range(3)], float)
    t = np.linspace(0, 1, w if rng.random() < 0.5 else h)
    ramp = c0[None, :] * (1 - t[:, None]) + c1[None, :] * t[:, None]
    img = np.broadcast_to(ramp[None, :, :], (h, w, 3)) if len(t) == w else np.broadcast_to(ramp[:, None, :], (h, w, 3))
    nrng = np.random.default_rng(rng.randint(0, 1 << 30))
    return img + nrng.normal(0, 4, (h, w, 3))


def noise(rng, w, h):
    nrng = np.random.default_rng(rng.randint(0, 1 << 30))
    base = nrng.uniform(0, 255, (h // 3 + 1, w // 3 + 1, 3))
    img = np.asarray(Image.fromarray(base.astype(np.uint8)).resize((w, h), Image.NEAREST), float)
    tint = np.array([rng.uniform(0.5, 1) for _ in range(3)])
    return img * tint


def strokes(rng, w, h):
    bg = tuple(rng.randint(60, 200) for _ in range(3))
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    for _ in range(w * h // 150):
        x, y = rng.randrange(w), rng.randrange(h)
        dx, dy = rng.randint(-18, 18), rng.randint(-18, 18)
        shade = tuple(max(0, min(255, c + rng.randint(-70, 70))) for c in bg)
        d.line((x, y, x + dx, y + dy), fill=shade, width=rng.randint(1, 3))
    return np.asarray(im, float)


def tiled(rng, w, h, texture):
    tex = Image.open(texture).convert("RGB")
    tw, th = 160, 160
    x0 = rng.randrange(0, tex.size[0] - tw)
    y0 = rng.randrange(0, tex.size[1] - th)
    patch = np.asarray(tex.crop((x0, y0, x0 + tw, y0 + th)), float)
    # Mirrored tiles: no seams.
    quad = np.concatenate([patch, patch[:, ::-1]], axis=1)
    quad = np.concatenate([quad, quad[::-1]], axis=0)
    reps = (h // quad.shape[0] + 1, w // quad.shape[1] + 1, 1)
    return np.tile(quad, reps)[:h, :w]


def main():
    coffee, texture, out = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 49)
    os.makedirs(out, exist_ok=True)
    kinds = ["low-detail", "noise", "strokes", "tiled"]
    rows = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        w, h = (1600, 600) if (i // len(kinds)) % 2 == 0 else (600, 1600)
        if kind == "low-detail":
            bg = low_detail(rng, w, h)
        elif kind == "noise":
            bg = noise(rng, w, h)
        elif kind == "strokes":
            bg = strokes(rng, w, h)
        else:
            bg = tiled(rng, w, h, texture)
        im = Image.fromarray(np.clip(bg, 0, 255).astype(np.uint8))
        cup, mask = object_cutout(coffee, rng.randint(150, 220))
        x = rng.randrange(0, w - cup.size[0] + 1)
        y = rng.randrange(0, h - cup.size[1] + 1)
        im.paste(cup, (x, y), mask)
        name = "case-%03d.jpg" % (i + 1)
        im.save(os.path.join(out, name), quality=92)
        rows.append((name, w, h, x, y, cup.size[0], cup.size[1], kind))
    with open(os.path.join(out, "cases.tsv"), "w") as f:
        f.write("file\twidth\theight\tx\ty\tw\th\tkind\n")
        for r in rows:
            f.write("\t".join(map(str, r)) + "\n")


if __name__ == "__main__":
    main()
