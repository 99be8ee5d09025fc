#!/usr/bin/env python3
"""heifpad.py IN.heic OUT.heic [--entries N] [--ids K] [--type T]

Copies an HEIF file with N dummy entries (default 5000) put BEFORE the real ones in its
`iinf` and its `iref`, so that the real items' infos and references (a grid's primary
`infe` and its `dimg` among them) lie past the first N children of those boxes (issue 40:
a box reader that stopped at 4096 children missed a grid whose `infe` and `dimg` sat past
the cap, and handed a 16384x16384 grid to libheif to decode whole).

The dummies: `infe` version 2, hidden, of type T (default "zzzz"), each item with an
`iloc` entry for the file's first byte (libheif 1.15 refuses an item without data), and
`dimg` references among the dummy items only (from the second..Kth to the first), which
no path from the primary item reaches.

The file stays valid for libheif: iinf's and iloc's entry counts and the iinf, iref, iloc
and meta sizes follow, and every `iloc` item stored in this file after `meta` (construction
method 0, data reference 0) is moved by the bytes inserted (its base_offset when the iloc
has one, else each extent's offset; the field sizes come from the iloc's version,
offset_size, length_size, base_offset_size and index_size). Items in `idat` (method 1) do
not move. The dummy items' ids follow the largest id the file uses (16 bits, as in infe
version 2).

--ids K: the N dummy infe entries name K items in turn (default N, all distinct). libheif
1.15 reads N distinct items in time that grows as N x N (5000 took 2-3 s here, nearly all
malloc/free inside heif_context_read_from_reader); K = 2 keeps N entries in front of the
real ones while libheif stores two items.
"""
import struct
import sys


def boxes(b, start, end):
    """(type, header start, body start, end) of each box in b[start:end]."""
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", b[i:i + 8])
        hdr = 8
        if size == 1:
            size = struct.unpack(">Q", b[i + 8:i + 16])[0]
            hdr = 16
        elif size == 0:
            size = end - i
        if size < hdr or i + size > end:
            raise SystemExit(f"heifpad: the {kind!r} box at {i} is cut short")
        yield kind, i, i + hdr, i + size
        i += size


def box(kind, body):
    if 8 + len(body) > 0xFFFFFFFF:
        return struct.pack(">I4sQ", 1, kind, 16 + len(body)) + body
    return struct.pack(">I4s", 8 + len(body), kind) + body


def uint(b, at, n):
    return int.from_bytes(b[at:at + n], "big")


def put(value, n, what):
    if value >= 1 << (8 * n):
        raise SystemExit(f"heifpad: {what} {value} does not fit in {n} bytes")
    return value.to_bytes(n, "big") if n else b""


def item_ids(b, iinf, iloc):
    """Every item id iinf and iloc name."""
    ids = set()
    _, _, s, e = iinf
    v = b[s]
    for kind, _, es, ee in boxes(b, s + (6 if v == 0 else 8), e):
        if kind == b"infe" and b[es] >= 2:
            ids.add(uint(b, es + 4, 2 if b[es] == 2 else 4))
    for item, *_ in iloc_items(b, iloc):
        ids.add(item)
    return ids


def iloc_items(b, iloc):
    """(item, method, data ref, base at, base size, [(offset at, offset, length)]) of each iloc entry."""
    _, _, s, e = iloc
    v = b[s]
    if v > 2:
        raise SystemExit(f"heifpad: iloc version {v}")
    osz, lsz, bsz = b[s + 4] >> 4, b[s + 4] & 15, b[s + 5] >> 4
    isz = b[s + 5] & 15 if v >= 1 else 0
    idsz = 2 if v < 2 else 4
    i = s + 6
    count = uint(b, i, idsz)
    i += idsz
    out = []
    for _ in range(count):
        item = uint(b, i, idsz)
        i += idsz
        method = 0
        if v >= 1:
            method = uint(b, i, 2) & 15
            i += 2
        ref = uint(b, i, 2)
        i += 2
        base_at = i
        i += bsz
        extents = []
        n = uint(b, i, 2)
        i += 2
        for _ in range(n):
            i += isz
            extents.append((i, uint(b, i, osz), uint(b, i + osz, lsz)))
            i += osz + lsz
        if i > e:
            raise SystemExit("heifpad: the iloc box is cut short")
        out.append((item, method, ref, base_at, bsz, osz, extents))
    return out


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0].startswith("-"):
        raise SystemExit(__doc__)
    src, dst = args[0], args[1]
    n, kind, ids = 5000, b"zzzz", 0
    rest = args[2:]
    while rest:
        k = rest.pop(0)
        v = rest.pop(0)
        if k == "--entries":
            n = int(v)
        elif k == "--ids":
            ids = int(v)
        elif k == "--type":
            kind = v.encode().ljust(4)[:4]
        else:
            raise SystemExit(f"heifpad: unknown option {k}")
    b = bytearray(open(src, "rb").read())
    meta = next((x for x in boxes(b, 0, len(b)) if x[0] == b"meta"), None)
    if meta is None:
        raise SystemExit("heifpad: no meta box")
    _, mh, ms, me = meta
    children = list(boxes(b, ms + 4, me))
    found = {x[0]: x for x in children}
    for need in (b"iinf", b"iloc"):
        if need not in found:
            raise SystemExit(f"heifpad: no {need.decode()} box in meta")
    first = max(item_ids(b, found[b"iinf"], found[b"iloc"])) + 1
    ids = min(ids or n, n)
    if ids < 2:
        raise SystemExit("heifpad: --ids must be at least 2")
    if first + ids - 1 > 0xFFFF:
        raise SystemExit(f"heifpad: {ids} dummy items past id {first - 1} need ids over 16 bits")
    # n infe entries and n references; the infe entries name `ids` items in turn.
    items = list(range(first, first + ids))
    dummies = [items[k % ids] for k in range(n)]

    # iinf: the dummies' infe boxes, then the real ones; version 1 (32-bit count) if it must grow.
    _, _, s, e = found[b"iinf"]
    v = b[s]
    head = 6 if v == 0 else 8
    count = uint(b, s + 4, head - 4) + len(dummies)
    infes = b"".join(box(b"infe", struct.pack(">IHH4s", 2 << 24 | 1, d, 0, kind) + b"\0") for d in dummies)
    version = 1 if count > 0xFFFF else v
    iinf = box(b"iinf", bytes([version]) + b[s + 1:s + 4] + put(count, 2 if version == 0 else 4, "iinf count")
               + infes + b[s + head:e])

    # iref: dimg from each dummy but the first to the first, then the real references.
    # (a file without an iref, as heif-enc writes one image, gets one after its iinf).
    _, _, s, e = found.get(b"iref", (None, None, None, None))
    real = b"\0\0\0\0" if s is None else b[s:e]
    idsz = 2 if real[0] == 0 else 4
    refs = b"".join(box(b"dimg", put(items[1 + k % (ids - 1)], idsz, "id") + put(1, 2, "") + put(first, idsz, "id"))
                    for k in range(n))
    iref = box(b"iref", real[:4] + refs + real[4:])

    # iloc: each dummy one byte of data (libheif refuses an item without), the file's first.
    _, _, s, e = found[b"iloc"]
    v = b[s]
    osz, lsz, bsz = b[s + 4] >> 4, b[s + 4] & 15, b[s + 5] >> 4
    isz = b[s + 5] & 15 if v >= 1 else 0
    idsz = 2 if v < 2 else 4
    if lsz == 0:
        raise SystemExit("heifpad: an iloc without extent lengths")
    entries = b"".join(put(d, idsz, "id") + (b"\0\0" if v >= 1 else b"") + b"\0\0" + put(0, bsz, "")
                       + put(1, 2, "") + put(0, isz, "") + put(0, osz, "") + put(1, lsz, "") for d in items)
    iloc = box(b"iloc", b[s:s + 6] + put(uint(b, s + 6, idsz) + len(items), idsz, "iloc count")
               + b[s + 6 + idsz:e] + entries)

    body = b""
    for c, h, cs, ce in children:
        body += {b"iinf": iinf, b"iref": iref, b"iloc": iloc}.get(c, b[h:ce])
        if c == b"iinf" and b"iref" not in found:
            body += iref
    new_meta = box(b"meta", b[ms:ms + 4] + body)
    delta = len(new_meta) - (me - mh)

    # iloc: everything stored after the old meta moves by delta.
    nm = bytearray(new_meta)
    header = 8 if len(nm) <= 0xFFFFFFFF else 16
    iloc = next(x for x in boxes(nm, header + 4, len(nm)) if x[0] == b"iloc")
    for item, method, ref, base_at, bsz, osz, extents in iloc_items(nm, iloc):
        if method != 0 or ref != 0 or not extents:
            continue
        base = uint(nm, base_at, bsz)
        where = [base + off for _, off, _ in extents]
        after = [w >= me for w in where]
        if any(mh <= w < me for w in where) or (bsz and any(after) and not all(after)):
            raise SystemExit(f"heifpad: item {item}'s data is inside meta, or on both sides of it")
        if bsz and all(after):
            nm[base_at:base_at + bsz] = put(base + delta, bsz, f"item {item}'s base_offset")
        elif not bsz:
            for (at, off, _), moved in zip(extents, after):
                if moved:
                    if osz == 0:
                        raise SystemExit(f"heifpad: item {item}'s extent has no offset field to move")
                    nm[at:at + osz] = put(off + delta, osz, f"item {item}'s offset")
    out = b[:mh] + nm + b[me:]
    with open(dst, "wb") as f:
        f.write(out)
    print(f"heifpad: {dst}: {n} dummy item infos for {ids} items from id {first}, {n} dummy references, "
          f"meta {delta:+d} bytes")


if __name__ == "__main__":
    main()
