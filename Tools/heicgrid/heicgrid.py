#!/usr/bin/env python3
"""heicgrid.py OUT.heic|OUT.avif [options]

Assembles an HEIF `grid` image, as phones write them, from tiles that heif-enc (libheif's
own encoder) encodes one by one: heif-enc 1.15 writes no grids, and the tests and benchmarks
need them at any size, turned, mirrored, cropped, with colour only on the grid, with alpha,
at 10 bits, in HEVC and AV1. The boxes (ftyp, meta with hdlr/pitm/iinf/iref/iloc/iprp/idat,
mdat) are written here; only the tiles' codec configuration (hvcC/av1C) and data come
from heif-enc. Each tile is a distinct picture (a gradient over the whole canvas, a colour
per tile, its index drawn as bars) so a misplaced tile shows.

Options:
  --grid CxR          columns x rows of tiles (default 4x3)
  --tile WxH          tile size, multiples of 64 (default 64x64; heif-enc wraps other sizes in a grid of its own)
  --size WxH          the grid's output size (default: the tiles' area; smaller crops right/bottom)
  --irot N            irot 90, 180 or 270 (anticlockwise) on the grid item
  --imir M            imir 0 (top-bottom) or 1 (left-right) after the irot
  --clap W,H,DX,DY    a clean aperture W x H centred DX, DY pixels off the centre (before irot)
  --nclx P,T,M,F      a colr nclx on the grid only (P3: 12,13,6,1); tiles carry no colr
  --alpha             RGBA tiles: an alpha grid (auxl) with its own tiles
  --bits 10           10-bit tiles (heif-enc -b 10 from 16-bit PNGs)
  --avif              AV1 tiles (heif-enc -A) and the avif brand
  --distinct N        encode only N distinct tiles and repeat them (huge grids; default: all)
  --shared            repeated tiles point at one copy of their data (iloc), not a copy each:
                      a 16384x16384 grid of one distinct tile is a file of a few hundred KB
  --quality Q         heif-enc -q (default 80)
  --work DIR          where encoded tiles are kept between runs (default: beside OUT)
  --break KIND        a broken grid, for the bad-input tests: cover (the descriptor's canvas
                      larger than the tiles), count (dimg one tile short), size (the last
                      tile's ispe another size), outside (the last tile's iloc past the end),
                      truncated (the file cut inside the last tile's data)
"""
import hashlib, os, struct, subprocess, sys, zlib

import numpy as np


def box(kind, body):
    return struct.pack(">I4s", 8 + len(body), kind) + body


def full(kind, version, flags, body):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def boxes(b, start, end):
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", b[i:i + 8])
        hdr = 8
        if size == 1:
            size = struct.unpack(">Q", b[i + 8:i + 16])[0]
            hdr = 16
        elif size == 0:
            size = end - i
        yield kind, i + hdr, i + size
        i += size


def child(b, start, end, name):
    for kind, s, e in boxes(b, start, end):
        if kind == name:
            return s, e
    raise SystemExit(f"heicgrid: no {name.decode()} box")


def read_single(path):
    """The primary item (and its alpha, if any) of a heif-enc file: [(config property, data, auxC)]."""
    b = open(path, "rb").read()
    ms, me = child(b, 0, len(b), b"meta")
    ms += 4
    ps, _ = child(b, ms, me, b"pitm")
    primary = struct.unpack(">H", b[ps + 4:ps + 6])[0]
    # iloc: item -> (offset, length), one extent each (what heif-enc writes)
    ls, _ = child(b, ms, me, b"iloc")
    version = b[ls]
    osz, lsz, bsz = b[ls + 4] >> 4, b[ls + 4] & 15, b[ls + 5] >> 4
    isz = b[ls + 5] & 15 if version >= 1 else 0
    i = ls + 6
    count = struct.unpack(">H", b[i:i + 2])[0]
    i += 2
    loc = {}

    def rd(at, n):
        return int.from_bytes(b[at:at + n], "big") if n else 0
    for _ in range(count):
        item = rd(i, 2)
        i += 2 + (2 if version >= 1 else 0) + 2
        base = rd(i, bsz)
        i += bsz
        extents = rd(i, 2)
        i += 2
        parts = []
        for _ in range(extents):
            i += isz
            parts.append((base + rd(i, osz), rd(i + osz, lsz)))
            i += osz + lsz
        loc[item] = parts
    # properties and associations
    rs, _ = child(b, ms, me, b"iprp")
    cs, ce = child(b, rs, me, b"ipco")
    props = [(k, b[s:e]) for k, s, e in boxes(b, cs, ce)]
    as_, _ = child(b, rs, me, b"ipma")
    version, flags = b[as_], b[as_ + 3]
    n = struct.unpack(">I", b[as_ + 4:as_ + 8])[0]
    i = as_ + 8
    assoc = {}
    for _ in range(n):
        idsz = 2 if version < 1 else 4
        item = rd(i, idsz)
        i += idsz
        k = b[i]
        i += 1
        lst = []
        for _ in range(k):
            if flags & 1:
                lst.append(rd(i, 2) & 0x7FFF)
                i += 2
            else:
                lst.append(b[i] & 0x7F)
                i += 1
        assoc[item] = lst
    # the alpha item: auxl -> primary
    alpha = None
    try:
        fs, fe = child(b, ms, me, b"iref")
        for kind, s, e in boxes(b, fs + 4, fe):
            if kind == b"auxl" and rd(s + 4, 2) == primary:
                alpha = rd(s, 2)
    except SystemExit:
        pass

    def item(i):
        cfg = [props[p - 1] for p in assoc[i] if props[p - 1][0] in (b"hvcC", b"av1C")]
        aux = [props[p - 1] for p in assoc[i] if props[p - 1][0] == b"auxC"]
        pixi = [props[p - 1] for p in assoc[i] if props[p - 1][0] == b"pixi"]
        data = b"".join(b[o:o + l] for o, l in loc[i])
        return cfg[0], data, aux[0] if aux else None, pixi[0] if pixi else None
    return [item(primary)] + ([item(alpha)] if alpha else [])


def write_png(path, pixels, bits):
    """A PNG of an HxWxC uint8 or uint16 array (Pillow writes no 16-bit RGB)."""
    h, w, c = pixels.shape
    kind = {3: 2, 4: 6}[c]
    data = pixels.astype(">u2" if bits == 16 else "u1").tobytes()
    stride = w * c * (2 if bits == 16 else 1)
    raw = b"".join(b"\0" + data[y * stride:(y + 1) * stride] for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, kind, 0, 0, 0))
    open(path, "wb").write(png + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def tile_picture(index, cols, rows, tw, th, alpha, bits):
    """Tile `index`'s picture: the canvas gradient, a colour of its own, bars for its index."""
    tx, ty = index % cols, index // cols
    y, x = np.mgrid[0:th, 0:tw]
    gx, gy = (tx * tw + x) / (cols * tw), (ty * th + y) / (rows * th)
    h = int(hashlib.md5(str(index).encode()).hexdigest()[:6], 16)
    r = 0.15 + 0.7 * gx
    g = 0.15 + 0.7 * gy
    b = 0.2 + 0.6 * ((h & 255) / 255)
    # the index in binary as vertical bars in the top quarter; a dark frame one pixel in
    bar = (x * 12 // tw)
    on = ((index >> bar) & 1).astype(bool) & (y < th // 4)
    frame = (x == 1) | (y == 1) | (x == tw - 2) | (y == th - 2)
    # A photo's texture (seeded per tile): the tiles cost what a photo's tiles cost to decode.
    grain = np.random.RandomState(index).normal(0, 0.04, (th, tw, 3))
    rgb = np.clip(np.stack([r + 0 * x, g + 0 * x, b + 0 * x], axis=-1) + grain, 0, 1)
    rgb[on] = [0.9, 0.9, 0.1]
    rgb[frame] = [0.05, 0.05, 0.05]
    if alpha:
        a = 0.3 + 0.7 * ((x + y) % 97) / 96
        rgb = np.concatenate([rgb, a[..., None]], axis=-1)
    top = 65535 if bits > 8 else 255
    return np.round(rgb * top).astype(np.uint16 if bits > 8 else np.uint8)


def encode_tile(work, index, a):
    cols, rows = a["grid"]
    tw, th = a["tile"]
    key = f"{'avif' if a['avif'] else 'heic'}-{cols}x{rows}-{tw}x{th}-{a['bits']}-{int(a['alpha'])}-q{a['quality']}-{index}"
    out = os.path.join(work, key + (".avif" if a["avif"] else ".heic"))
    if not os.path.exists(out):
        png = os.path.join(work, key + ".png")
        pic = tile_picture(index, cols, rows, tw, th, a["alpha"], a["bits"])
        write_png(png, pic, 16 if a["bits"] > 8 else 8)
        cmd = ["heif-enc", "-q", str(a["quality"]), png, "-o", out + ".tmp"]
        if a["avif"]:
            cmd.insert(1, "-A")
        if a["bits"] > 8:
            cmd[1:1] = ["-b", str(a["bits"])]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.replace(out + ".tmp", out)
        os.remove(png)
    return read_single(out)


def assemble(a, tiles):
    cols, rows = a["grid"]
    tw, th = a["tile"]
    width, height = a["size"]
    alpha = a["alpha"]
    props = []  # (bytes, essential)

    def prop(data, essential=False):
        for k, (p, _) in enumerate(props):
            if p == data:
                return k + 1 | (0x8000 if essential else 0)
        props.append((data, essential))
        return len(props) | (0x8000 if essential else 0)
    n = cols * rows
    grid_id, first_tile = 1, 2
    alpha_grid = first_tile + n if alpha else None
    first_alpha = alpha_grid + 1 if alpha else None
    infos, assoc, locs = [], [], []  # locs: (item, method, data index or idat offset, length)
    mdat = []  # distinct data blobs

    shared = {}  # id(data) -> its offset in mdat, with --shared

    def blob(data):
        # Every tile its own copy of the data (as phones write them, and as large), repeated
        # or not; with --shared, one copy of each distinct tile that its repeats point at.
        if a["shared"] and id(data) in shared:
            return shared[id(data)]
        at = sum(len(x) for x in mdat)
        mdat.append(data)
        shared[id(data)] = at
        return at
    brk = a["break"]
    if brk == "cover":
        width, height = cols * tw + tw, rows * th
    wide = width > 65535 or height > 65535
    desc = struct.pack(">BBBB", 0, 1 if wide else 0, rows - 1, cols - 1)
    desc += struct.pack(">II" if wide else ">HH", width, height)
    idat = desc + (desc if alpha else b"")
    # grid item
    kind = b"av01" if a["avif"] else b"hvc1"
    infos.append(full(b"infe", 2, 0, struct.pack(">HH4s", grid_id, 0, b"grid") + b"\0"))
    gp = [prop(full(b"ispe", 0, 0, struct.pack(">II", width, height)))]
    if a["nclx"]:
        p, t, m, f = a["nclx"]
        gp.append(prop(box(b"colr", b"nclx" + struct.pack(">HHHB", p, t, m, f << 7))))
    if a["clap"]:
        w, h, dx, dy = a["clap"]
        gp.append(prop(box(b"clap", struct.pack(">IIIIiIiI", w, 1, h, 1, dx, 1, dy, 1)), True))
    if a["irot"] is not None:
        gp.append(prop(box(b"irot", bytes([a["irot"] // 90 & 3])), True))
    if a["imir"] is not None:
        gp.append(prop(box(b"imir", bytes([a["imir"] & 1])), True))
    assoc.append((grid_id, gp))
    locs.append((grid_id, 1, 0, len(desc)))
    tile_ispe = prop(full(b"ispe", 0, 0, struct.pack(">II", tw, th)))
    for k in range(n):
        cfg, data, _, pixi = tiles[k % len(tiles)][0]
        item = first_tile + k
        infos.append(full(b"infe", 2, 1, struct.pack(">HH4s", item, 0, kind) + b"\0"))
        ispe = tile_ispe
        if brk == "size" and k == n - 1:
            ispe = prop(full(b"ispe", 0, 0, struct.pack(">II", tw * 2, th)))
        tp = [prop(box(cfg[0], cfg[1]), True), ispe] + ([prop(box(*pixi))] if pixi else [])
        assoc.append((item, tp))
        at = blob(data)
        locs.append((item, 0, at + (1 << 24 if brk == "outside" and k == n - 1 else 0), len(data)))
    if alpha:
        infos.append(full(b"infe", 2, 0, struct.pack(">HH4s", alpha_grid, 0, b"grid") + b"\0"))
        aux = tiles[0][1][2]
        auxp = prop(box(*aux), True)
        # the same transformations as the colour grid (libheif drops an alpha of another size)
        assoc.append((alpha_grid, [gp[0], auxp] + [p for p in gp[1:] if p & 0x8000]))
        locs.append((alpha_grid, 1, len(desc), len(desc)))
        for k in range(n):
            cfg, data, _, pixi = tiles[k % len(tiles)][1]
            item = first_alpha + k
            infos.append(full(b"infe", 2, 1, struct.pack(">HH4s", item, 0, kind) + b"\0"))
            tp = [prop(box(cfg[0], cfg[1]), True), tile_ispe, auxp] + ([prop(box(*pixi))] if pixi else [])
            assoc.append((item, tp))
            locs.append((item, 0, blob(data), len(data)))
    listed = n - 1 if brk == "count" else n
    refs = box(b"dimg", struct.pack(">HH", grid_id, listed)
               + b"".join(struct.pack(">H", first_tile + k) for k in range(listed)))
    if alpha:
        refs += box(b"dimg", struct.pack(">HH", alpha_grid, n)
                    + b"".join(struct.pack(">H", first_alpha + k) for k in range(n)))
        refs += box(b"auxl", struct.pack(">HHH", alpha_grid, 1, grid_id))
    ipco = box(b"ipco", b"".join(p for p, _ in props))
    ipma = struct.pack(">I", len(assoc))
    for item, ps in assoc:
        ipma += struct.pack(">HB", item, len(ps)) + b"".join(struct.pack(">H", p) for p in ps)

    def meta(mdat_start):
        iloc = struct.pack(">BBH", 0x44, 0x00, len(locs))
        for item, method, at, length in locs:
            offset = at if method == 1 else mdat_start + at
            iloc += struct.pack(">HHHHII", item, method, 0, 1, offset, length)
        body = full(b"hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 13)
        body += full(b"pitm", 0, 0, struct.pack(">H", grid_id))
        body += full(b"iinf", 0, 0, struct.pack(">H", len(infos)) + b"".join(infos))
        body += full(b"iref", 0, 0, refs)
        body += full(b"iloc", 1, 0, iloc)
        body += box(b"iprp", ipco + full(b"ipma", 0, 1, ipma))
        body += box(b"idat", idat)
        return full(b"meta", 0, 0, body)
    brand = b"avif" if a["avif"] else b"heic"
    ftyp = box(b"ftyp", brand + b"\0\0\0\0" + b"mif1" + brand + (b"miaf" if a["avif"] else b""))
    size = sum(len(x) for x in mdat)
    head = len(ftyp) + len(meta(0)) + (16 if size + 8 > 0xFFFFFFFF else 8)
    out = ftyp + meta(head)
    if size + 8 > 0xFFFFFFFF:
        out += struct.pack(">I4sQ", 1, b"mdat", size + 16)
    else:
        out += struct.pack(">I4s", size + 8, b"mdat")
    return out, mdat


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        raise SystemExit(__doc__)
    out = args.pop(0)
    a = {"grid": (4, 3), "tile": (64, 64), "size": None, "irot": None, "imir": None, "clap": None, "nclx": None,
         "alpha": False, "bits": 8, "avif": out.endswith(".avif"), "distinct": 0, "quality": 80,
         "work": None, "break": None, "shared": False}
    while args:
        k = args.pop(0)
        if k in ("--alpha", "--avif", "--shared"):
            a[k[2:]] = True
            continue
        v = args.pop(0)
        if k in ("--grid", "--tile", "--size"):
            a[k[2:]] = tuple(int(x) for x in v.split("x"))
        elif k in ("--clap", "--nclx"):
            a[k[2:]] = tuple(int(x) for x in v.split(","))
        elif k in ("--irot", "--imir", "--bits", "--distinct", "--quality"):
            a[k[2:]] = int(v)
        elif k in ("--work", "--break"):
            a[k[2:]] = v
        else:
            raise SystemExit(f"heicgrid: unknown option {k}")
    cols, rows = a["grid"]
    if a["tile"][0] % 64 or a["tile"][1] % 64:
        raise SystemExit("heicgrid: --tile sides must be multiples of 64")
    if a["size"] is None:
        a["size"] = (cols * a["tile"][0], rows * a["tile"][1])
    work = a["work"] or os.path.join(os.path.dirname(os.path.abspath(out)), ".tiles")
    os.makedirs(work, exist_ok=True)
    distinct = a["distinct"] or cols * rows
    tiles = [encode_tile(work, k, a) for k in range(min(distinct, cols * rows))]
    head, mdat = assemble(a, tiles)
    with open(out + ".tmp", "wb") as f:
        f.write(head)
        for m in mdat:
            f.write(m)
        if a["break"] == "truncated":
            f.truncate(f.tell() - len(mdat[-1]) // 2)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
