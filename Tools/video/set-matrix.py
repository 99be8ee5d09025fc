#!/usr/bin/env python3
"""set-matrix.py FILE A B C D: writes the display matrix [A B; C D] (each -1, 0 or 1) into the
first video track's tkhd box of an MP4/MOV FILE, in place, as a phone does for a rotated or
mirrored recording (FFmpeg 5.1's muxer cannot write one: its `rotate` tag is gone). The
translation puts the picture back at the origin. ffprobe reads the result as FFmpeg's display
matrix; the tests compare forcezoom with ffmpeg's autorotation of it.

  90 clockwise: 0 1 -1 0    180: -1 0 0 -1    270: 0 -1 1 0    mirrored: -1 0 0 1"""
import struct
import sys


def main():
    path, a, b, c, d = sys.argv[1], *map(int, sys.argv[2:6])
    data = bytearray(open(path, "rb").read())
    at = 0
    while True:
        at = data.find(b"tkhd", at + 1)
        if at < 0:
            sys.exit(f"set-matrix: no video tkhd in {path}")
        version = data[at + 4]
        body = at + 8  # after version and flags
        times = 8 + 4 + 4 + 8 if version == 1 else 4 + 4 + 4 + 4 + 4
        matrix = body + times + 8 + 2 + 2 + 2 + 2
        width, height = struct.unpack(">II", data[matrix + 36:matrix + 44])
        if width and height:
            break
    w, h = width >> 16, height >> 16
    # The shown picture of (x, y) is (a x + c y + tx, b x + d y + ty): move it back to 0,0.
    xs = [a * x + c * y for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    ys = [b * x + d * y for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
    tx, ty = -min(xs), -min(ys)
    one = 1 << 16
    values = [a * one, b * one, 0, c * one, d * one, 0, tx * one, ty * one, 1 << 30]
    data[matrix:matrix + 36] = struct.pack(">9i", *values)
    open(path, "wb").write(data)


main()
