#!/usr/bin/python3
"""Animated test files for `thumb --animated` (issue 50), made with Pillow (and gif2webp from
Debian's webp package) into the folder given; tests make them in a scratch folder, nothing
is committed.

GIFs: 6 frames of 60x40, each a moving block on a cropped sub-rectangle (Pillow's optimiser
off: the offsets are ours), a transparent index in every frame (so Pillow's composition is
the browsers': without one Pillow fills disposed areas with the background), delays that
differ per frame, disposal 1, 2 and 3, loop 3; one without a looping extension (plays
once); one with 0 ms delays. APNG: Pillow-written, blending and disposing. WebP: the disposal-2 GIF through gif2webp (sub-frames that
blend and dispose), and a Pillow-written lossless one with its own delays and loop 2.
big.gif: 100 frames of 500x500 (the bench's input)."""
import os
import subprocess
import sys

from PIL import Image, ImageDraw

out = sys.argv[1]
big = len(sys.argv) > 2 and sys.argv[2] == "--big"


def background(w, h):
    im = Image.new("RGB", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = ((x * 4) % 256, (y * 6) % 256, 128)
    return im


def frames(w, h, n, seed=0):
    """Palette frames: a background with a transparent corner, then blocks that move."""
    result = []
    for k in range(n):
        im = background(w, h)
        d = ImageDraw.Draw(im)
        x = (k * 7 + seed) % (w - 16)
        y = (k * 5 + seed) % (h - 12)
        d.rectangle((x, y, x + 15, y + 11), fill=((k * 40) % 256, 255 - k * 30 % 256, (k * 90) % 256))
        p = im.quantize(63)
        # index 63: transparent, a hole that moves
        pd = ImageDraw.Draw(p)
        pd.rectangle((w - 10 - k, 2, w - 4 - k, 8), fill=63)
        result.append(p)
    return result


def gif(name, disposal, durations, loop=3, **kw):
    fs = frames(60, 40, len(durations))
    extra = {} if loop is None else {"loop": loop}
    fs[0].save(f"{out}/{name}", save_all=True, append_images=fs[1:], disposal=disposal, transparency=63,
               duration=durations, optimize=False, **extra, **kw)


if big:
    fs = []
    for k in range(100):
        im = background(500, 500)
        d = ImageDraw.Draw(im)
        d.ellipse((k * 3, k * 2, k * 3 + 150, k * 2 + 150), fill=(255, k * 2, 0))
        fs.append(im.quantize(128))
    fs[0].save(f"{out}/big.gif", save_all=True, append_images=fs[1:], duration=40, loop=0)
    sys.exit(0)

delays = [50, 120, 80, 200, 60, 90]
for disposal in (1, 2, 3):
    gif(f"dispose{disposal}.gif", disposal, delays)
gif("once.gif", 1, delays, loop=None)
gif("zero-delay.gif", 1, [0] * 4)

# Sub-rectangle frames on a transparent canvas: Pillow writes the frame it is given at
# the offset its bbox says when optimize is on; written by hand here with a cropped frame.
base = frames(60, 40, 1)[0]
small = background(20, 12).quantize(63)
base.save(f"{out}/subrect.gif", save_all=True, append_images=[small], transparency=63, disposal=[1, 2],
          duration=[100, 150], loop=0, optimize=False)

subprocess.run(["gif2webp", "-quiet", "-lossy", "-q", "100", f"{out}/dispose2.gif", "-o", f"{out}/gif2webp.webp"],
               check=True)
rgba = []
for k in range(5):
    im = Image.new("RGBA", (64, 48), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rectangle((k * 8, k * 5, k * 8 + 20, k * 5 + 16), fill=(200, 40 * k, 90, 255))
    d.ellipse((30, 10, 60, 40), fill=(20, 200, 40 * k, 128))
    rgba.append(im)
rgba[0].save(f"{out}/pillow.webp", save_all=True, append_images=rgba[1:], duration=[70, 140, 30, 250, 100],
             loop=2, lossless=True)

# Sub-frames that blend and dispose, put together with webpmux: a full first frame, then
# a half-transparent 20x16 frame at 10,8 blended over it and disposed of to the background
# (transparent), then an opaque 16x16 at 30,20 not blended, then a last one blended.
parts = []
first = Image.new("RGBA", (64, 48), (0, 0, 0, 0))
ImageDraw.Draw(first).rectangle((4, 4, 50, 40), fill=(30, 120, 220, 255))
parts.append(first)
parts.append(Image.new("RGBA", (20, 16), (250, 30, 30, 128)))
parts.append(Image.new("RGBA", (16, 16), (20, 220, 60, 255)))
last = Image.new("RGBA", (24, 12), (0, 0, 0, 0))
ImageDraw.Draw(last).ellipse((0, 0, 23, 11), fill=(240, 240, 0, 200))
parts.append(last)
names = []
for k, p in enumerate(parts):
    name = f"{out}/part{k}.webp"
    p.save(name, lossless=True, exact=True)
    names.append(name)
subprocess.run(["webpmux", "-frame", names[0], "+80+0+0+0-b", "-frame", names[1], "+120+10+8+1+b",
                "-frame", names[2], "+60+30+20+0-b", "-frame", names[3], "+100+36+30+0+b", "-loop", "0",
                "-bgcolor", "0,0,0,0", "-o", f"{out}/subframes.webp"], check=True)
for name in names:
    os.remove(name)

# APNG through Pillow: sub-rectangle frames (Pillow writes each frame's changed box),
# blended over the canvas, and with each disposal in turn; Pillow's own frames are RGBA.
# Blended over, the frames' alpha is 0 or 255: Pillow's reader pastes a frame through its
# alpha (a half-transparent pixel over another keeps alpha 128) where browsers composite
# (alpha 192), so only opaque and clear pixels compare.
solid = []
for k in range(5):
    im = Image.new("RGBA", (64, 48), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rectangle((k * 8, k * 5, k * 8 + 20, k * 5 + 16), fill=(200, 40 * k, 90, 255))
    d.ellipse((30, 10, 60, 40), fill=(20, 200, 40 * k, 255))
    solid.append(im)
for name, frames_, disposal, blend in (("apng-over.png", solid, 0, 1), ("apng-dispose.png", rgba, [0, 1, 2, 0, 1], 0)):
    frames_[0].save(f"{out}/{name}", save_all=True, append_images=frames_[1:], duration=[70, 140, 30, 250, 100],
                    loop=2, disposal=disposal, blend=blend)
