#!/usr/bin/python3
"""`compare-frames.py OUTPUT REFDIR TOLERANCE`: each frame of the animated OUTPUT (as
Pillow composites it) against REFDIR/frame-NNN.thumb.png, the still thumbnail of the input's
frame NNN as Pillow composited it: the largest difference of premultiplied RGBA (fully
transparent pixels of any colour alike) at most TOLERANCE levels. Prints the worst frame."""
import sys

from PIL import Image

out = Image.open(sys.argv[1])
tolerance = int(sys.argv[3])
worst = (0, -1)
for k in range(getattr(out, "n_frames", 1)):
    out.seek(k)
    a = out.convert("RGBA")
    b = Image.open(f"{sys.argv[2]}/frame-{k:03d}.thumb.png").convert("RGBA")
    if a.size != b.size:
        print(f"frame {k}: {a.size} against {b.size}")
        sys.exit(1)
    for p, q in zip(a.getdata(), b.getdata()):
        pa = [c * p[3] // 255 for c in p[:3]] + [p[3]]
        qa = [c * q[3] // 255 for c in q[:3]] + [q[3]]
        d = max(abs(x - y) for x, y in zip(pa, qa))
        if d > worst[0]:
            worst = (d, k)
print(f"worst difference {worst[0]} (frame {worst[1]})")
sys.exit(0 if worst[0] <= tolerance else 1)
