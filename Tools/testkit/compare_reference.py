"""The reference numbers `forcezoom compare` is checked against (CompareCLITests).

    python3 Tools/testkit/compare_reference.py DIR

writes pairs of PNGs (written here with zlib, so no image library is involved) and
DIR/expected.jsonl: per pair, the metrics computed with numpy from the arrays themselves,
by the formulas docs/json/compare.schema.json and the README define:
  channels  R, G, B (gray expanded), plus alpha when either image has it
  pae       max |a - b|;  mae  mean |a - b|;  mse  mean (a - b)^2
  psnr      10 log10(255^2 / mse), "inf" when mse == 0
  ssim      scikit-image's structural_similarity(gaussian_weights=True, sigma=1.5,
            use_sample_covariance=False, data_range=255) on Rec. 601 luma, written
            out here in numpy (scipy's gaussian_filter: truncate 3.5, 11 taps); when
            scikit-image is installed its own value is checked against this one too.
Needs numpy (python3-numpy).
"""
import json
import os
import struct
import sys
import zlib

import numpy as np


def write_png(path, a):
    a = np.asarray(a, dtype=np.uint8)
    h, w = a.shape[:2]
    c = 1 if a.ndim == 2 else a.shape[2]
    kind = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + a[y].tobytes() for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, kind, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def channels(a, alpha):
    """HxWxC float64: RGB (gray expanded) plus alpha (255 where absent) when asked."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 2:
        a = a[..., None]
    gray = a.shape[2] in (1, 2)
    rgb = np.repeat(a[..., :1], 3, axis=2) if gray else a[..., :3]
    if not alpha:
        return rgb
    has = a.shape[2] in (2, 4)
    al = a[..., -1:] if has else np.full(a.shape[:2] + (1,), 255.0)
    return np.concatenate([rgb, al], axis=2)


def gaussian(img, sigma=1.5, truncate=3.5):
    r = int(truncate * sigma + 0.5)
    x = np.arange(-r, r + 1, dtype=np.float64)
    w = np.exp(-0.5 / (sigma * sigma) * x * x)
    w /= w.sum()
    h, wd = img.shape
    p = np.pad(img, r, mode="symmetric")  # scipy's "reflect"
    t = sum(w[k] * p[k:k + h, :] for k in range(2 * r + 1))
    return sum(w[k] * t[:, k:k + wd] for k in range(2 * r + 1)), r


def ssim(a, b):
    ya = 0.299 * a[..., 0] + 0.587 * a[..., 1] + 0.114 * a[..., 2]
    yb = 0.299 * b[..., 0] + 0.587 * b[..., 1] + 0.114 * b[..., 2]
    if min(ya.shape) < 11:
        return None
    ux, r = gaussian(ya)
    uy, _ = gaussian(yb)
    uxx, _ = gaussian(ya * ya)
    uyy, _ = gaussian(yb * yb)
    uxy, _ = gaussian(ya * yb)
    vx, vy, vxy = uxx - ux * ux, uyy - uy * uy, uxy - ux * uy
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    s = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
    value = float(s[r:-r, r:-r].mean())
    try:
        from skimage.metrics import structural_similarity
        theirs = structural_similarity(ya, yb, gaussian_weights=True, sigma=1.5,
                                       use_sample_covariance=False, data_range=255)
        assert abs(theirs - value) < 1e-9, ("scikit-image disagrees", theirs, value)
    except ImportError:
        pass
    return value


def metrics(a, b):
    alpha = any(np.asarray(x).ndim == 3 and np.asarray(x).shape[2] in (2, 4) for x in (a, b))
    x, y = channels(a, alpha), channels(b, alpha)
    d = x - y
    mse = float((d * d).mean())
    return {
        "channels": x.shape[2],
        "pae": int(np.abs(d).max()),
        "mae": float(np.abs(d).mean()),
        "mse": mse,
        "psnr": "inf" if mse == 0 else float(10 * np.log10(255.0 ** 2 / mse)),
        "ssim": ssim(x, y),
    }


def main(out):
    rng = np.random.RandomState(28)
    yy, xx = np.mgrid[0:53, 0:67].astype(np.float64)
    base = np.stack([xx * 3.7 % 256, yy * 4.1 % 256, 128 + 100 * np.sin((xx * xx + yy * yy) / 90)], axis=2)
    a = np.clip(base, 0, 255).round()
    b = np.clip(a + rng.normal(0, 3, a.shape).round(), 0, 255)
    b[10, 20] = 255 - a[10, 20]  # one outlier: PAE sees it, MAE hardly
    pairs = {"rgb": (a, b), "identical": (a, a.copy())}
    g = a[..., 1]
    pairs["gray"] = (g, np.clip(g + rng.randint(-9, 10, g.shape), 0, 255))
    ra = np.concatenate([a[:30, :40], (xx[:30, :40] * 6 % 256)[..., None]], axis=2)
    rb = ra.copy()
    rb[..., 3] = np.clip(rb[..., 3] + rng.randint(-20, 21, rb[..., 3].shape), 0, 255)
    rb[5:9, 5:9, :3] = 0
    pairs["rgba"] = (ra, rb)
    pairs["mixed"] = (a[:30, :40], rb)  # RGB against RGBA: alpha 255 against the other's
    pairs["tiny"] = (a[:8, :9], b[:8, :9])  # under the 11x11 window: no SSIM
    with open(os.path.join(out, "expected.jsonl"), "w") as f:
        for name, (x, y) in pairs.items():
            write_png(os.path.join(out, name + "-a.png"), x)
            write_png(os.path.join(out, name + "-b.png"), y)
            f.write(json.dumps(dict(name=name, **metrics(x, y))) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
