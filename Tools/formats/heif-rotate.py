#!/usr/bin/env python3
"""heif-rotate.py IN.heic ANGLE OUT.heic [--mirror 0|1]

Adds an `irot` property (ANGLE = 90, 180 or 270 degrees anticlockwise, ISO/IEC 23008-12
6.5.10) and, with --mirror, an `imir` (mode 0: top and bottom swapped, 1: left and right, as libheif reads it) after it, to the
primary item of an HEIF file, as essential properties. heif-enc (libheif 1.15) writes no
transformations, and the tests need files with them. The boxes meta, iprp, ipco and ipma
grow; every iloc offset past the insertion point moves by the bytes added.
"""
import struct, sys

def boxes(b, start, end):
    i = start
    while i + 8 <= end:
        size, typ = struct.unpack(">I4s", b[i:i + 8])
        hdr = 8
        if size == 1:
            size = struct.unpack(">Q", b[i + 8:i + 16])[0]; hdr = 16
        elif size == 0:
            size = end - i
        if size < hdr or i + size > end:
            raise SystemExit(f"broken box at {i}")
        yield typ.decode("latin1"), i, hdr, size
        i += size

def find(b, start, end, name):
    for t, i, h, s in boxes(b, start, end):
        if t == name:
            return i, h, s
    raise SystemExit(f"no {name} box")

def main():
    args = sys.argv[1:]
    mirror = None
    if "--mirror" in args:
        k = args.index("--mirror"); mirror = int(args[k + 1]); del args[k:k + 2]
    src, angle, out = args[0], int(args[1]), args[2]
    b = bytearray(open(src, "rb").read())
    meta, mh, ms = find(b, 0, len(b), "meta")
    body = meta + mh + 4  # FullBox
    pitm, ph, ps = find(b, body, meta + ms, "pitm")
    primary = struct.unpack(">H" if b[pitm + ph] == 0 else ">I", b[pitm + ph + 4:pitm + ph + (6 if b[pitm + ph] == 0 else 8)])[0]
    iprp, ih, is_ = find(b, body, meta + ms, "iprp")
    ipco, ch, cs = find(b, iprp + ih, iprp + is_, "ipco")
    ipma, ah, as_ = find(b, iprp + ih, iprp + is_, "ipma")
    count = sum(1 for _ in boxes(b, ipco + ch, ipco + cs))
    props = b""
    indices = []
    if angle:
        props += struct.pack(">I4sB", 9, b"irot", (angle // 90) & 3); indices.append(count + 1)
    if mirror is not None:
        props += struct.pack(">I4sB", 9, b"imir", mirror & 1); indices.append(count + len(indices) + 1)
    version, flags = b[ipma + ah], b[ipma + ah + 3]
    wide = flags & 1
    # find the primary's entry in ipma
    i = ipma + ah + 4
    n = struct.unpack(">I", b[i:i + 4])[0]; i += 4
    insert_at = None
    for _ in range(n):
        if version < 1:
            item = struct.unpack(">H", b[i:i + 2])[0]; i += 2
        else:
            item = struct.unpack(">I", b[i:i + 4])[0]; i += 4
        cnt_pos = i; cnt = b[i]; i += 1
        i += cnt * (2 if wide else 1)
        if item == primary:
            insert_at = (cnt_pos, i)
    if insert_at is None:
        raise SystemExit("primary item has no ipma entry")
    assoc = b"".join(struct.pack(">H", 0x8000 | x) if wide else bytes([0x80 | x]) for x in indices)
    delta = len(props) + len(assoc)
    ipco_end = ipco + cs
    # edit from the back so earlier offsets stay valid
    cnt_pos, entry_end = insert_at
    edits = sorted([(entry_end, assoc), (ipco_end, props)], reverse=True)
    for pos, data in edits:
        b[pos:pos] = data
    b[cnt_pos + (len(props) if cnt_pos > ipco_end else 0)] += len(indices)
    def grow(pos, by):
        size = struct.unpack(">I", b[pos:pos + 4])[0]
        b[pos:pos + 4] = struct.pack(">I", size + by)
    grow(meta, delta); grow(iprp, delta); grow(ipco, len(props))
    grow(ipma + (len(props) if ipma > ipco else 0), len(assoc))
    # shift iloc offsets that point past meta's old end
    meta_end_old = meta + ms
    iloc, lh, ls = find(b, body, meta + ms + delta, "iloc")
    j = iloc + lh
    v = b[j]; j += 4
    off_size, len_size = b[j] >> 4, b[j] & 15
    base_size, idx_size = b[j + 1] >> 4, (b[j + 1] & 15) if v in (1, 2) else 0
    j += 2
    if v < 2:
        items = struct.unpack(">H", b[j:j + 2])[0]; j += 2
    else:
        items = struct.unpack(">I", b[j:j + 4])[0]; j += 4
    def rd(pos, size):
        return int.from_bytes(b[pos:pos + size], "big") if size else 0
    def wr(pos, size, value):
        if size: b[pos:pos + size] = value.to_bytes(size, "big")
    for _ in range(items):
        j += 2 if v < 2 else 4
        method = 0
        if v in (1, 2):
            method = rd(j, 2) & 15; j += 2
        j += 2  # data_reference_index
        base_pos = j; base = rd(j, base_size); j += base_size
        extents = rd(j, 2); j += 2
        if method == 0 and base_size and base >= meta_end_old:
            wr(base_pos, base_size, base + delta)
        for _ in range(extents):
            j += idx_size
            off = rd(j, off_size)
            if method == 0 and base == 0 and off >= meta_end_old:
                wr(j, off_size, off + delta)
            j += off_size + len_size
    open(out, "wb").write(b)

main()
