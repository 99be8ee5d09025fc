#!/usr/bin/env python3
"""Independent reference decode of the PNG conformance images.

For every *.png under .cache/conformance/png/ (or the directory given as the
first argument) write <stem>.rgba beside it: raw RGBA8, row-major,
width*height*4 bytes, and write manifest.tsv (path, width, height,
interlaced, ok | error:<reason>).

Decoder: pypng (pure Python; only Python's zlib underneath) -- deliberately
NOT libpng or Pillow, so it is independent of the decoder under test.
Only pypng's raw samples (Reader.read()) are used; every expansion is done
here, matching what libpng produces with png_set_expand / png_set_tRNS_to_alpha
/ png_set_gray_to_rgb / png_set_scale_16 / png_set_add_alpha(0xff) and no
gamma or sBIT handling:

  * gray -> R=G=B; 1/2/4-bit gray scaled by v*255/(2^d-1) (exact integer).
  * palette -> RGB from PLTE, alpha from tRNS per index (255 past its end).
    An index past the PLTE end gives (0,0,0) like libpng's zero-filled
    256-entry palette.
  * gray/RGB + tRNS -> alpha 0 where the full-precision samples equal the
    tRNS value (masked to the bit depth, as libpng does), else 255.
  * 16-bit samples (alpha too) -> 8-bit as (v*255 + 32895) >> 16.
  * no alpha channel and no tRNS -> alpha 255.
"""

import importlib.util
import os
import sys
import warnings


def load_png():
    try:
        import png  # pip's pypng, or Debian's python3-png on /usr/bin/python3
        return png
    except ImportError:
        pass
    # Debian's python3-png when this runs under another interpreter (pyenv).
    for path in ("/usr/lib/python3/dist-packages/png.py",):
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location("png", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    sys.exit("pngref.py: pypng not found (apt-get install python3-png, "
             "or pip install pypng)")


png = load_png()


def scale16(v):
    return (v * 255 + 32895) >> 16


def decode(path):
    """Return (width, height, interlaced, rgba bytes); raise on refusal."""
    with open(path, "rb") as f:
        r = png.Reader(file=f)
        width, height, rows, info = r.read()
        rows = list(rows)  # forces the whole decode (IDAT, zlib, CRC checks)
    if len(rows) != height:
        raise png.FormatError("got %d rows, expected %d" % (len(rows), height))
    depth = info["bitdepth"]
    planes = info["planes"]
    interlaced = 1 if info["interlace"] else 0
    out = bytearray(width * height * 4)
    o = 0

    if r.colormap:  # colour type 3; info['palette'] has tRNS merged in
        pal = [tuple(e) + (255,) * (4 - len(e)) for e in info["palette"]]
        pal += [(0, 0, 0, 255)] * (256 - len(pal))
        for row in rows:
            for i in row:
                out[o:o + 4] = bytes(pal[i])
                o += 4
        return width, height, interlaced, bytes(out)

    maxv = (1 << depth) - 1
    trns = info.get("transparent")
    if trns is not None:
        trns = tuple(t & maxv for t in trns)
    if depth == 16:
        conv = scale16
    elif depth == 8:
        conv = lambda v: v
    else:
        conv = lambda v: v * 255 // maxv  # 1,2,4-bit gray: exact

    lut = [conv(v) for v in range(maxv + 1)] if depth <= 8 else None
    color = not info["greyscale"]
    alpha = info["alpha"]
    for row in rows:
        for x in range(width):
            px = row[x * planes:(x + 1) * planes]
            c = px[:3] if color else (px[0],)
            if alpha:
                a = px[-1]
                a = lut[a] if lut else conv(a)
            elif trns is not None:
                a = 0 if tuple(c) == trns else 255
            else:
                a = 255
            if lut:
                c = [lut[v] for v in c]
            else:
                c = [conv(v) for v in c]
            if not color:
                c = c * 3
            out[o] = c[0]
            out[o + 1] = c[1]
            out[o + 2] = c[2]
            out[o + 3] = a
            o += 4
    return width, height, interlaced, bytes(out)


def header(path):
    """Best-effort IHDR facts for a file pypng refused."""
    try:
        with open(path, "rb") as f:
            r = png.Reader(file=f)
            r.preamble()
        return str(r.width), str(r.height), str(1 if r.interlace else 0)
    except Exception:
        return "-", "-", "-"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    base = (sys.argv[1] if len(sys.argv) > 1 else
            os.path.join(here, "..", "..", ".cache", "conformance", "png"))
    base = os.path.abspath(base)
    if not os.path.isdir(base):
        sys.exit("pngref.py: %s missing: run Tools/conformance/fetch.sh" % base)
    files = sorted(
        os.path.relpath(os.path.join(d, f), base)
        for d, _, fs in os.walk(base) for f in fs if f.endswith(".png"))
    lines = ["path\twidth\theight\tinterlaced\tstatus"]
    nok = 0
    for rel in files:
        path = os.path.join(base, rel)
        out = path[:-4] + ".rgba"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                w, h, il, data = decode(path)
                status = "ok"
            except Exception as e:  # pypng refused the file
                reason, name = str(e), type(e).__name__
                if type(e).__module__ not in ("png", "builtins"):
                    name = "%s.%s" % (type(e).__module__, name)  # zlib.error
                if not reason.startswith(type(e).__name__):
                    reason = "%s: %s" % (name, reason)
                reason = reason.replace("\t", " ").replace("\n", " ")
                status = "error:" + reason
                w, h, il = header(path)
                data = None
        for wmsg in caught:
            print("warning: %s: %s" % (rel, wmsg.message), file=sys.stderr)
        if data is not None:
            assert len(data) == w * h * 4
            with open(out, "wb") as f:
                f.write(data)
            nok += 1
        elif os.path.exists(out):
            os.remove(out)
        lines.append("\t".join(map(str, (rel, w, h, il, status))))
    with open(os.path.join(base, "manifest.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("pngref: %d files, %d references, %d refused (see %s)" % (
        len(files), nok, len(files) - nok,
        os.path.join(base, "manifest.tsv")))


if __name__ == "__main__":
    main()
