#!/usr/bin/python3
"""GIF and BMP test files for forcezoom's GIF and BMP decoders (issue 35), made with Pillow
into the folder given (tests make them in a scratch folder; nothing is committed).

GIFs: interlaced and not, a transparent index, local palettes, animations whose frames
Pillow's optimiser crops to offsets, with each disposal method. Every frame keeps a
transparent index so Pillow's composition is the browsers' (without one, Pillow fills
uncovered and disposed areas with colour 0 or the background, browsers leave them clear).
BMPs: Pillow writes 1-, 8- and 24-bit files (bottom-up, BITMAPINFOHEADER)."""
import random
import sys

from PIL import Image

out = sys.argv[1]
rng = random.Random(35)


def picture(w, h, seed):
    """Smooth gradients with noise: a few hundred colours, quantised to a palette."""
    im = Image.new("RGB", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = ((x * 7 + seed * 40) % 256, (y * 11 + seed * 13) % 256, (x * y + seed) % 256)
    return im


def quantised(w, h, seed, colours=64):
    return picture(w, h, seed).quantize(colours)


quantised(37, 23, 1).save(f"{out}/interlaced.gif", interlace=True)
quantised(37, 23, 2).save(f"{out}/plain.gif", interlace=False)
t = quantised(40, 30, 3, 32)
t.paste(31, (5, 5, 20, 15))  # a transparent hole
t.save(f"{out}/transparent.gif", transparency=31)

# Animations: each frame a different palette (local colour tables), a moving block, a
# transparent index; disposal 1, 2 and 3 in turn.
for disposal in (1, 2, 3):
    frames = []
    for k in range(4):
        base = picture(48, 36, 0).quantize(16)
        im = base.convert("RGB")
        block = picture(12, 10, 5 + k)
        im.paste(block, (4 + k * 9, 3 + k * 6))
        p = im.quantize(64 - k * 8)
        frames.append(p)
    frames[0].save(f"{out}/anim-dispose{disposal}.gif", save_all=True, append_images=frames[1:],
                   disposal=disposal, transparency=0, duration=100, loop=0, optimize=False)

# A frame smaller than the screen, placed at an offset, over a transparent canvas.
small = quantised(50, 40, 7, 16)
frame2 = quantised(20, 10, 8, 16)
canvas = small.convert("RGBA")
frames = [small.convert("RGBA"), canvas.copy()]
frames[1].paste(frame2.convert("RGBA"), (17, 21))
frames[0].save(f"{out}/anim-offset.gif", save_all=True, append_images=frames[1:], transparency=0, disposal=1)

# BMP: Pillow writes 1-bit, 8-bit palette, 8-bit grey and 24-bit, bottom-up.
picture(33, 17, 9).convert("1").save(f"{out}/pil1.bmp")
quantised(33, 17, 10, 200).save(f"{out}/pil8.bmp")
picture(31, 19, 11).convert("L").save(f"{out}/pilgray.bmp")
picture(35, 21, 12).save(f"{out}/pil24.bmp")
# Wide enough that one row (what the reader holds) is over a kilobyte: the decoder contract's sample.
picture(400, 6, 13).save(f"{out}/wide24.bmp")
