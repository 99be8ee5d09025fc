#!/usr/bin/env python3
"""Animated GIF and WebP files for the hostile set (issue 50, `thumb --animated`), assembled
byte by byte (standard library only, byte-identical on every run): animated WebPs whose
frames lie partly or wholly outside the canvas, 0 ms delays, a huge canvas of small frames.
make-hostile.py calls `animation_files(add, webp_lossless)` after the others.

The 65,535-frame GIF (1 MB) is not kept in Fixtures/hostile: the tests write it at run time,
`hostile_animations.py --many DIR` (`many_frames_gif`)."""

import struct
import sys

from hostile_gif_bmp import PALETTE4, lzw, sub_blocks


def le24(v):
    return struct.pack("<I", v)[:3]


def chunk(name, data):
    return name + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def animated_webp(vp8l_file, canvas, frames, loop=0):
    """An animated WebP: VP8X (animation, alpha), ANIM, one ANMF per (x, y, duration) with
    the 16x16 VP8L image of `vp8l_file` (a simple-format lossless WebP) in each."""
    image = vp8l_file[12:]  # the VP8L chunk
    w, h = canvas
    body = b"WEBP" + chunk(b"VP8X", bytes([0x12, 0, 0, 0]) + le24(w - 1) + le24(h - 1))
    body += chunk(b"ANIM", struct.pack("<IH", 0, loop))
    for x, y, duration in frames:
        body += chunk(b"ANMF", le24(x // 2) + le24(y // 2) + le24(15) + le24(15) + le24(duration) + b"\x02" + image)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def animated_gif(frames, screen=(8, 6), loop=0):
    """A GIF89a with a looping extension and one 2x2 frame per (x, y, delay in 1/100 s)."""
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", screen[0], screen[1], 0x81, 0, 0) + PALETTE4)
    out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    data = b"\x02" + sub_blocks(lzw([1, 2, 3, 1]))
    for x, y, delay in frames:
        out += b"\x21\xF9\x04\x04" + struct.pack("<H", delay) + b"\x00\x00"
        out += b"\x2C" + struct.pack("<HHHHB", x, y, 2, 2, 0) + data
    return bytes(out + b"\x3B")


def many_frames_gif(n=65535):
    """65,535 frames of 0 ms on an 8x6 screen: every one shown 100 ms (as browsers do), so
    --max-frames (1000) and --max-duration (120 s) stop the thumbnail at 1000 frames."""
    return animated_gif([(k % 4 * 2, k % 3 * 2, 0) for k in range(n)])


def animation_files(add, webp_lossless):
    add("anim-webp-good.webp", animated_webp(webp_lossless, (32, 32), [(0, 0, 100), (16, 16, 100)]), "ok", "-",
        "an animated WebP: two 16x16 lossless frames on a 32x32 canvas")
    add("anim-webp-frame-outside.webp", animated_webp(webp_lossless, (16, 16), [(0, 0, 100), (16, 16, 100)]),
        "header", "outside the", "an animated WebP whose second frame lies wholly outside its 16x16 canvas")
    add("anim-webp-frame-past-edge.webp", animated_webp(webp_lossless, (16, 16), [(0, 0, 100), (8, 8, 100)]),
        "header", "outside the", "an animated WebP whose second frame reaches 8 pixels past the canvas")
    add("anim-webp-zero-duration.webp", animated_webp(webp_lossless, (16, 16), [(0, 0, 0), (0, 0, 0)]), "ok", "-",
        "an animated WebP whose frames last 0 ms (shown, and written, as 100 ms)")
    add("anim-gif-zero-delay.gif", animated_gif([(0, 0, 0), (2, 2, 0), (4, 2, 1)]), "ok", "-",
        "an animated GIF with delays of 0 and 1 centiseconds (shown, and written, as 100 ms)")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--many":
        with open(sys.argv[2] + "/anim-gif-65535-frames.gif", "wb") as f:
            f.write(many_frames_gif())
    else:
        sys.exit("usage: hostile_animations.py --many DIR")
