"""Motion photos and Live Photo movies that lie (issue 50), for the hostile set: a Google
Container XMP whose Item:Length is more than the file (10^12 bytes), one pointing where no MP4
starts, 400 directory items (the reader takes 64), a MicroVideoOffset past the start of the
file, a Samsung SEFT trailer claiming 10^9 entries and one whose entry points before the file,
and a Live Photo movie whose keys box claims 10^9 keys. The photos read as their stills ("ok":
`info` warns that the clip is ignored); `info` describes the movie, which no command decodes ("data"). make-hostile.py calls
`motion_files(add, jpeg, marker)` after the other families, so their bytes do not move."""

import struct

XMP_NS = b"http://ns.adobe.com/xap/1.0/\0"


def packet(body, attributes=b""):
    return (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            b'<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" '
            b'xmlns:Container="http://ns.google.com/photos/1.0/container/" '
            b'xmlns:Item="http://ns.google.com/photos/1.0/container/item/" ' + attributes + b'>' + body +
            b"</rdf:Description></rdf:RDF></x:xmpmeta>")


def directory(items):
    lis = b"".join(b'<rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="%s" Item:Mime="%s" '
                   b'Item:Length="%d"/></rdf:li>' % (s, m, n) for s, m, n in items)
    return b"<Container:Directory><rdf:Seq>" + lis + b"</rdf:Seq></Container:Directory>"


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def tiny_mp4():
    """An MP4 of boxes only: ftyp and a moov with an mvhd (1 s), enough to be found."""
    mvhd = box(b"mvhd", b"\0" * 4 + b"\0" * 8 + struct.pack(">II", 1000, 1000) + b"\0" * 80)
    return box(b"ftyp", b"isom\0\0\0\0isom") + box(b"moov", mvhd)


def motion_files(add, jpeg, marker):
    def with_xmp(xmp, tail=b""):
        return jpeg(16, 16, extra_markers=marker(0xE1, XMP_NS + xmp)) + tail

    clip = tiny_mp4()
    lie = directory([(b"Primary", b"image/jpeg", 0), (b"MotionPhoto", b"video/mp4", 10 ** 12)])
    add("motion-length-lies.jpg", with_xmp(packet(lie), clip), "ok", "-",
        "a Google motion photo whose Item:Length is 10^12 bytes (the clip is ignored, a warning)")
    nowhere = directory([(b"Primary", b"image/jpeg", 0), (b"MotionPhoto", b"video/mp4", 64)])
    add("motion-no-mp4.jpg", with_xmp(packet(nowhere), b"\0" * 64), "ok", "-",
        "a Google motion photo whose clip's bytes are no MP4")
    many = directory([(b"Primary", b"image/jpeg", 0)] + [(b"MotionPhoto", b"video/mp4", 1)] * 400)
    add("motion-400-items.jpg", with_xmp(packet(many), clip), "ok", "-",
        "a Google Container directory of 400 items (64 are read)")
    micro = packet(b"", b'GCamera:MicroVideo="1" GCamera:MicroVideoOffset="999999999999"')
    add("motion-microvideo-past-start.jpg", with_xmp(micro, clip), "ok", "-",
        "GCamera:MicroVideoOffset past the start of the file")

    still = jpeg(16, 16)
    name = b"MotionPhoto_Data"
    block = b"\0\0\x30\x0a" + struct.pack("<I", len(name)) + name + clip
    billion = b"SEFH" + struct.pack("<II", 106, 10 ** 9) + b"\0\0\x30\x0a" + struct.pack("<II", len(block), len(block))
    add("motion-seft-1e9-entries.jpg", still + block + billion + struct.pack("<I", len(billion)) + b"SEFT", "ok", "-",
        "a Samsung SEFT trailer claiming 10^9 entries")
    before = b"SEFH" + struct.pack("<II", 106, 1) + b"\0\0\x30\x0a" + struct.pack("<II", 0x7FFFFFF0, len(block))
    add("motion-seft-before-file.jpg", still + block + before + struct.pack("<I", len(before)) + b"SEFT", "ok", "-",
        "a Samsung SEFT entry pointing 2 GiB before the file")

    keys = box(b"keys", b"\0\0\0\0" + struct.pack(">I", 10 ** 9) + box(b"mdta", b"com.apple.quicktime.content.identifier"))
    hdlr = box(b"hdlr", b"\0" * 8 + b"mdta" + b"\0" * 12)
    ilst = box(b"ilst", box(struct.pack(">I", 1), box(b"data", struct.pack(">II", 1, 0) + b"X" * 36)))
    meta = box(b"meta", hdlr + keys + ilst)
    mvhd = box(b"mvhd", b"\0" * 4 + b"\0" * 8 + struct.pack(">II", 600, 0xFFFFFFFF) + b"\0" * 80)
    movie = box(b"ftyp", b"qt  \0\0\0\0qt  ") + box(b"moov", mvhd + meta + box(b"trak", b"\xff" * 64))
    add("live-keys-1e9.mov", movie, "data", "QuickTime|video|FFmpeg cannot read",
        "a Live Photo movie whose keys box claims 10^9 keys (read no further than the box)")
