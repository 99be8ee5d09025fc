"""HEIF files whose item references or item locations libheif 1.15 follows without checking
(issue 53), each rebuilt from its description with the standard library only (byte-identical
on every run) out of the pieces of make-hostile.py's 64x48 grid HEIC (its hvcC, ispe, pixi,
hdlr and HEVC tile). Each is refused by forcezoom before libheif reads it, in one line:
- the 517-byte fuzz find: an `iden` primary item (data in idat) whose `dimg` box declares 5
  bytes (shorter than its header: libheif reads on regardless) and names item 0x6166, which no
  infe declares: heif_context.cc:1138 (1144 in Debian's 1.15.1-1+deb12u1) `decode_image_planar:
  Assertion 'imginfo' failed` (abort);
- the same assert from an iden naming a declared item that is not an image (an Exif item) and
  from an `iovl` overlay naming an absent item;
- an item in idat whose 64-bit offset and length wrap when added (libheif bounds it by the
  idat box and drops its own error, so the grid reads as empty; refused here as outside idat);
- endless recursion (stack overflow) along alpha references that come back (`auxl` both ways)
  and along a two-item `iden` loop;
- what libheif refuses itself, said the same way: a thumbnail, auxiliary image or metadata item
  naming an absent item or itself, construction method 2, method 1 with no idat box,
  reference boxes running past their iref box or holding other than they declare.
make-hostile.py calls `heif_reference_files(add, HEIC, HEIC_GRID)` last."""

import struct


def box(kind, body):
    return struct.pack(">I", 8 + len(body)) + kind + body


def full(kind, version, flags, body):
    return box(kind, struct.pack(">I", version << 24 | flags) + body)


def children(data, start=0, end=None):
    """{type: [body, ...]} of the boxes in data[start:end]."""
    out, i, end = {}, start, len(data) if end is None else end
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        out.setdefault(kind, []).append(data[i + 8:i + size])
        i += size
    return out


class Pieces:
    """The parts of the grid HEIC: ftyp, hdlr, the tile's hvcC and ispe, the HEVC data."""

    def __init__(self, grid):
        top = children(grid)
        self.ftyp = box(b"ftyp", top[b"ftyp"][0])
        meta = children(top[b"meta"][0], 4)
        self.hdlr = box(b"hdlr", meta[b"hdlr"][0])
        props = children(children(meta[b"iprp"][0])[b"ipco"][0])
        self.hvcc = box(b"hvcC", props[b"hvcC"][0])
        self.ispe64 = box(b"ispe", props[b"ispe"][0])
        self.tile = top[b"mdat"][0]


def infe(item, kind, hidden=False):
    return full(b"infe", 2, 1 if hidden else 0, struct.pack(">HH4s", item, 0, kind) + b"\0")


def heif(p, primary, items, props, assoc, refs, locations, idat=b"", wide=False):
    """A HEIF file. items: [(id, type, hidden)]; props: property boxes; assoc: {id: [1-based
    index, ...]} (all essential); refs: [(type, from, [to], declared size or None)];
    locations: {id: ("mdat", bytes) or ("idat", offset, length) or (method, offset, length)};
    wide: 8-byte iloc offsets and lengths."""
    ipma = b"".join(struct.pack(">HB", i, len(ix)) + bytes(0x80 | x for x in ix) for i, ix in sorted(assoc.items()))
    iprp = box(b"iprp", box(b"ipco", b"".join(props)) + full(b"ipma", 0, 0, struct.pack(">I", len(assoc)) + ipma))
    iinf = full(b"iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(infe(*i) for i in items))
    iref = b""
    for kind, source, to, declared in refs:
        body = struct.pack(">HH", source, len(to)) + b"".join(struct.pack(">H", t) for t in to)
        iref += struct.pack(">I", 8 + len(body) if declared is None else declared) + kind + body
    iref = full(b"iref", 0, 0, iref) if refs else b""
    size = 8 if wide else 4

    def iloc(mdat_at):
        out, at = b"", mdat_at
        for item, loc in sorted(locations.items()):
            if loc[0] == "mdat":
                method, offset, length = 0, at, len(loc[1])
                at += length
            else:
                method, offset, length = (1, loc[1], loc[2]) if loc[0] == "idat" else loc
            out += struct.pack(">HHHH", item, method, 0, 1) + offset.to_bytes(size, "big") + length.to_bytes(size, "big")
        return full(b"iloc", 1, 0, bytes([size << 4 | size, 0]) + struct.pack(">H", len(locations)) + out)

    def meta(mdat_at):
        pitm = full(b"pitm", 0, 0, struct.pack(">H", primary))
        return full(b"meta", 0, 0, p.hdlr + pitm + iloc(mdat_at) + iinf + iprp + iref
                    + (box(b"idat", idat) if idat else b""))

    mdat_at = len(p.ftyp) + len(meta(0)) + 8
    data = b"".join(loc[1] for _, loc in sorted(locations.items()) if loc[0] == "mdat")
    return p.ftyp + meta(mdat_at) + box(b"mdat", data)


def patch(data, at, new):
    return data[:at] + new + data[at + len(new):]


def the_517_bytes(grid):
    """The fuzz find as described: the grid HEIC with its grid item made `iden`, its dimg box
    declaring 5 bytes and naming item 0x6166."""
    iinf = grid.index(b"iinf")
    out = patch(grid, grid.index(b"grid", iinf), b"iden")
    dimg = grid.index(b"dimg") - 4
    out = patch(out, dimg, struct.pack(">I", 5))
    return patch(out, dimg + 12, struct.pack(">H", 0x6166))


def heif_reference_files(add, heic, grid):
    p = Pieces(grid)
    C = "corrupt"
    auxc = full(b"auxC", 0, 0, b"urn:mpeg:hevc:2015:auxid:1\0")
    tile = {1: ("mdat", p.tile)}
    hevc = [(1, b"hvc1", False)]
    # The tile alone (1) and a derived primary item (2) over it; iovl's descriptor in idat:
    # version, flags, four 16-bit fill values, a 64x64 canvas and one offset (0, 0).
    overlay = bytes(2) + bytes(8) + struct.pack(">HHhh", 64, 64, 0, 0)
    grid_descriptor = bytes([0, 0, 0, 0]) + struct.pack(">HH", 64, 64)
    props, assoc = [p.hvcc, p.ispe64], {1: [1, 2], 2: [2], 3: [2]}

    def derived(kind, refs, extra_items=(), extra_locs=None, idat=grid_descriptor, wide=False, loc2=None):
        locs = dict(tile)
        locs[2] = loc2 or ("idat", 0, len(idat))
        locs.update(extra_locs or {})
        return heif(p, 2, hevc + [(2, kind, False)] + list(extra_items), props, assoc, refs, locs, idat, wide)

    imginfo = "libheif 1.15 asserted in decode_image_planar (heif_context.cc:1144, 'imginfo'; abort)"
    add("heif-iden-ref-box-size-5.heic", the_517_bytes(grid), "header", "does not declare",
        "the 517-byte fuzz find: an iden primary item whose dimg box declares 5 bytes and names item 0x6166, "
        "which no infe declares: " + imginfo)
    exif_tile = patch(the_517_bytes(grid), grid.index(b"hvc1", grid.index(b"iinf")), b"Exif")
    dimg = grid.index(b"dimg") - 4
    exif_tile = patch(patch(exif_tile, dimg, struct.pack(">I", 14)), dimg + 12, struct.pack(">H", 1))
    add("heif-iden-source-not-image.heic", exif_tile, "header", "not an image",
        "an iden primary item deriving from item 1, declared an Exif item: " + imginfo)
    add("heif-iovl-missing-source.heic", derived(b"iovl", [(b"dimg", 2, [0x6166], None)], idat=overlay), "header",
        "does not have|does not declare", "an iovl overlay whose one dimg source, item 0x6166, is not declared: " + imginfo)
    add("heif-idat-extent-wraps.heic",
        derived(b"grid", [(b"dimg", 2, [1], None)], wide=True, loc2=("idat", 1 << 63, 1 << 63)), "header", "idat",
        "a grid whose descriptor is in idat at offset 2^63, length 2^63 (their sum wraps to 0; libheif bounds it, "
        "drops the error and reads an empty grid)")
    alpha_loop = heif(p, 1, hevc + [(3, b"hvc1", True)], props + [auxc], {1: [1, 2, 3], 3: [1, 2, 3]},
                      [(b"auxl", 3, [1], None), (b"auxl", 1, [3], None)], {1: ("mdat", p.tile), 3: ("mdat", p.tile)})
    add("heif-alpha-loop.heic", alpha_loop, "header", "loop",
        "two images each the alpha (auxl) of the other: libheif 1.15 decodes each one's alpha without end (stack overflow)")
    add("heif-iden-two-item-loop.heic",
        derived(b"iden", [(b"dimg", 2, [3], None), (b"dimg", 3, [2], None)], extra_items=[(3, b"iden", True)],
                extra_locs={3: ("idat", 0, 0)}),
        "header", "loop", "iden 2 derives from iden 3, which derives from 2: libheif 1.15 recursed until its stack overflowed")
    add("heif-thumbnail-missing-master.heic",
        heif(p, 1, hevc + [(3, b"hvc1", False)], props, {1: [1, 2], 3: [1, 2]}, [(b"thmb", 3, [0x6166], None)],
             {1: ("mdat", p.tile), 3: ("mdat", p.tile)}),
        "header", "does not declare", "a thumbnail of item 0x6166, which is not declared (libheif refuses it)")
    add("heif-auxl-to-itself.heic",
        heif(p, 1, hevc + [(3, b"hvc1", True)], props + [auxc], {1: [1, 2], 3: [1, 2, 3]}, [(b"auxl", 3, [3], None)],
             {1: ("mdat", p.tile), 3: ("mdat", p.tile)}),
        "header", "itself", "an alpha image (auxl) of itself (libheif refuses it)")
    add("heif-cdsc-missing-image.heic",
        heif(p, 1, hevc + [(3, b"Exif", True)], props, {1: [1, 2]}, [(b"cdsc", 3, [0x6166], None)],
             {1: ("mdat", p.tile), 3: ("mdat", bytes(4) + b"MM\0*\0\0\0\x08\0\0")}),
        "header", "does not declare", "an Exif item describing item 0x6166, which is not declared (libheif refuses it)")
    method2 = derived(b"grid", [(b"dimg", 2, [1], None)], loc2=(2, 0, 8))
    add("heif-iloc-method-2.heic", method2, "header", "construction method",
        "a grid descriptor stored by construction method 2 (item offset), which libheif does not read")
    no_idat = derived(b"grid", [(b"dimg", 2, [1], None)])
    add("heif-idat-missing.heic", patch(no_idat, no_idat.rindex(b"idat"), b"free"), "header", "idat",
        "a grid descriptor in idat (construction method 1) and no idat box (libheif refuses it)")
    add("heif-ref-box-past-iref.heic", derived(b"grid", [(b"dimg", 2, [1], 0x100)]), "header", "past the end",
        "a dimg box declaring 256 bytes in a 26-byte iref box (libheif reads it by its content, other readers stop)")
    add("heif-ref-box-holds-less.heic",
        derived(b"grid", [(b"dimg", 2, [1], 16), (b"thmb", 1, [2], None)]), "header", "holds",
        "a dimg box declaring 16 bytes holding 14: libheif and a reader by sizes see other references")
