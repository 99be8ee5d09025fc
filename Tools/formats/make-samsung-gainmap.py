#!/usr/bin/python3
"""A HEIC whose gain map is Samsung's (issue 51, item 11), into the folder given; tests make it
in a scratch folder, nothing is committed.

Galaxy phones (S24 on) store their gain map as an auxiliary image of the primary whose `auxC`
type is urn:com:samsung:photo:2024:aux:hdrgainmap. No such file may be redistributed here, so
this takes Apple's HEIC (../shared/formats/hdr/iphone13pro_pug_hdrgainmap.heic, the first
argument) and renames its gain map's `auxC` type to Samsung's: the boxes that hold the
`auxC` (ipco, iprp, meta) grow by the two bytes the name gains, and every `iloc` offset into
the file after the `meta` box moves by as much. The pixels stay Apple's; heif-info and
pillow-heif list the auxiliary image under Samsung's type.

Usage: make-samsung-gainmap.py SOURCE.heic OUT_DIR  (writes OUT_DIR/samsung-gainmap.heic)"""
import struct
import sys

APPLE = b"urn:com:apple:photo:2020:aux:hdrgainmap\0"
SAMSUNG = b"urn:com:samsung:photo:2024:aux:hdrgainmap\0"
source, out = sys.argv[1], sys.argv[2]
data = bytearray(open(source, "rb").read())
delta = len(SAMSUNG) - len(APPLE)


def boxes(buf, start, end):
    """(offset, size, type, body offset) of the boxes in buf[start:end] (32-bit sizes only)."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", buf[at:at + 8])
        if size < 8:
            sys.exit(f"{source}: box size {size} at {at} (64-bit or to-the-end boxes are not handled)")
        yield at, size, kind, at + 8
        at += size


def find(buf, start, end, kind):
    return next(b for b in boxes(buf, start, end) if b[2] == kind)


meta = find(data, 0, len(data), b"meta")
meta_body = meta[3] + 4  # version and flags
iprp = find(data, meta_body, meta[0] + meta[1], b"iprp")
ipco = find(data, iprp[3], iprp[0] + iprp[1], b"ipco")
auxc = [b for b in boxes(data, ipco[3], ipco[0] + ipco[1]) if b[2] == b"auxC" and APPLE in data[b[3]:b[0] + b[1]]]
if len(auxc) != 1:
    sys.exit(f"{source}: expected one auxC of Apple's gain-map type, found {len(auxc)}")
iloc = find(data, meta_body, meta[0] + meta[1], b"iloc")
meta_end = meta[0] + meta[1]

# iloc offsets (construction method 0: into the file) past the meta box move by delta.
p = iloc[3]
version = data[p]
p += 4
sizes = data[p] << 8 | data[p + 1]
offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
index_size = sizes & 15 if version in (1, 2) else 0
p += 2


def read(n):
    global p
    v = int.from_bytes(data[p:p + n], "big") if n else 0
    p += n
    return v


def shift(n):
    """Adds delta to the n-byte field at p when it points past the meta box."""
    global p
    v = int.from_bytes(data[p:p + n], "big") if n else 0
    if n and v >= meta_end:
        data[p:p + n] = (v + delta).to_bytes(n, "big")
    p += n
    return v


count = read(2 if version < 2 else 4)
for _ in range(count):
    read(2 if version < 2 else 4)  # item ID
    method = read(2) & 15 if version in (1, 2) else 0
    read(2)  # data reference index
    base = shift(base_size) if method == 0 else read(base_size)
    for _ in range(read(2)):
        read(index_size)
        if method == 0 and base == 0:
            shift(offset_size)
        else:
            read(offset_size)
        read(length_size)

# The name, then the sizes of the boxes around it.
at = auxc[0][3] + data[auxc[0][3]:].index(APPLE)
data[at:at + len(APPLE)] = SAMSUNG
for box in (auxc[0], ipco, iprp, meta):
    struct.pack_into(">I", data, box[0], box[1] + delta)
open(f"{out}/samsung-gainmap.heic", "wb").write(data)
