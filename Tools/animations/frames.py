#!/usr/bin/python3
"""What Pillow reads of an animation: `frames.py FILE [DIR]` prints one JSON object (frames,
durations in ms, loop: null when the file has none, as a GIF without a looping extension) and with DIR writes each composited frame there as frame-NNN.png (RGBA)."""
import json
import sys

from PIL import Image

im = Image.open(sys.argv[1])
durations = []
n = getattr(im, "n_frames", 1)
for k in range(n):
    im.seek(k)
    im.load()  # WebP: the frame's duration is known once it is read
    durations.append(im.info.get("duration", 0))
    if len(sys.argv) > 2:
        im.convert("RGBA").save(f"{sys.argv[2]}/frame-{k:03d}.png")
print(json.dumps({"frames": n, "durations": durations, "loop": im.info.get("loop"), "size": im.size}))
