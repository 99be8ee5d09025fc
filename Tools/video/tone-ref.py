#!/usr/bin/env python3
"""tone-ref.py IN.mp4 SECONDS OUT.png: the SDR picture docs/thumbnails.md ("Videos") says an HDR
(PQ or HLG) frame maps to, computed here with numpy from ffmpeg's own decode of the frame at
SECONDS (-ss, autorotated) as 16-bit RGB through the stream's BT.2020 matrix: the signal to
linear light (PQ's EOTF, or HLG's inverse OETF and BT.2100's OOTF at 1000 cd/m²), SDR white at
203 cd/m², BT.2020 to BT.709 primaries, highlights compressed by extended Reinhard on the largest
channel towards 1000 cd/m², the sRGB curve. The tests compare forcezoom's frame with it."""
import json
import subprocess
import sys

import numpy as np
from PIL import Image

path, seconds, out = sys.argv[1], sys.argv[2], sys.argv[3]
probe = json.loads(subprocess.run(
    ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,color_transfer",
     "-of", "json", path], check=True, capture_output=True, text=True).stdout)["streams"][0]
raw = subprocess.run(
    ["ffmpeg", "-nostdin", "-v", "error", "-ss", seconds, "-i", path, "-frames:v", "1", "-f", "rawvideo",
     "-pix_fmt", "rgb48le", "-"], check=True, capture_output=True).stdout
e = np.frombuffer(raw, dtype="<u2").astype(np.float64).reshape(-1, 3) / 65535
if probe["color_transfer"] == "smpte2084":
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    p = e ** (1 / m2)
    lin = (np.maximum(p - c1, 0) / (c2 - c3 * p)) ** (1 / m1) * 10000 / 203
else:  # arib-std-b67
    a, b, c = 0.17883277, 0.28466892, 0.55991073
    scene = np.where(e <= 0.5, e * e / 3, (np.exp((e - c) / a) + b) / 12)
    lin = scene ** 1.2 * 1000 / 203
to709 = np.array([[1.6605, -0.5876, -0.0728], [-0.1246, 1.1329, -0.0083], [-0.0182, -0.1006, 1.1187]])
lin = np.maximum(lin @ to709.T, 0)
peak = 1000 / 203
m = lin.max(axis=1, keepdims=True)
lin = lin * np.where(m > 0, (1 + m / peak ** 2) / (1 + m), 1)
v = np.minimum(lin, 1)
s = np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)
rgb = np.clip(np.round(s * 255), 0, 255).astype(np.uint8)
# The HDR test videos carry no display matrix: the frame is the coded size.
Image.fromarray(rgb.reshape(int(probe["height"]), int(probe["width"]), 3)).save(out)
