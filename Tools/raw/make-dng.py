#!/usr/bin/python3
"""Writes a small camera DNG for the RAW tests and the bench: a synthetic scene (gradients,
discs, fine lines) mosaicked into a 12-bit RGGB colour filter array, uncompressed, with a
JPEG preview of the same scene in IFD0 (as Adobe's converter and cameras place it) and the
raw image in a sub-IFD. Only numpy and Pillow (python3-numpy, python3-pil): no DNG library.

  make-dng.py OUT.dng [--size WxH] [--preview WxH|none] [--orientation N] [--make M --model M]
              [--lie-size WxH]   # a hostile file: the raw IFD claims WxH, the data is the real size

The preview is the scene resized to WxH (a different shape than the raw's gives a preview
that is not the same picture: the thumbnail path must not use it). Orientation is the TIFF
tag 274 value (libraw's flip).
"""
import argparse
import io
import struct

import numpy as np
from PIL import Image


def scene(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = x / max(w - 1, 1)
    g = y / max(h - 1, 1)
    b = 0.5 + 0.5 * np.sin(x / 7.0) * np.cos(y / 11.0)
    img = np.stack([r, g, b], axis=-1) * 0.8 + 0.05
    for cx, cy, rad, col in [(0.3, 0.4, 0.15, (0.9, 0.2, 0.1)), (0.7, 0.6, 0.2, (0.1, 0.3, 0.9))]:
        mask = (x - cx * w) ** 2 + (y - cy * h) ** 2 < (rad * min(w, h)) ** 2
        img[mask] = col
    img[:, (np.arange(w) % 16) < 2] *= 0.3  # fine vertical lines
    return np.clip(img, 0, 1)


def mosaic(img):
    h, w, _ = img.shape
    cfa = np.zeros((h, w), np.float64)
    cfa[0::2, 0::2] = img[0::2, 0::2, 0]
    cfa[0::2, 1::2] = img[0::2, 1::2, 1]
    cfa[1::2, 0::2] = img[1::2, 0::2, 1]
    cfa[1::2, 1::2] = img[1::2, 1::2, 2]
    return (cfa * 4095).round().astype('<u2')


class IFD:
    def __init__(self):
        self.entries = {}

    def add(self, tag, typ, values):
        self.entries[tag] = (typ, values)


SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 10: 8}


def pack_values(typ, values):
    if typ == 2:
        return values.encode() + b'\0'
    if typ == 1:
        return bytes(values)
    if typ == 3:
        return struct.pack('<%dH' % len(values), *values)
    if typ == 4:
        return struct.pack('<%dI' % len(values), *values)
    if typ in (5, 10):
        out = b''
        for num, den in values:
            out += struct.pack('<ii' if typ == 10 else '<II', num, den)
        return out
    raise ValueError(typ)


def count_of(typ, values):
    return len(values) + 1 if typ == 2 else len(values)


def write_tiff(path, ifd0, sub, blobs):
    """ifd0 and sub are IFDs; blobs maps a placeholder tag (273 strip offsets) per IFD to bytes."""
    out = bytearray(b'II*\0' + struct.pack('<I', 8))

    def ifd_size(ifd):
        return 2 + 12 * len(ifd.entries) + 4

    def layout(ifd, start):
        # IFD, then its out-of-line values, then its strip
        data_at = start + ifd_size(ifd)
        extra = {}
        for tag in sorted(ifd.entries):
            typ, values = ifd.entries[tag]
            raw = pack_values(typ, values)
            if len(raw) > 4:
                extra[tag] = data_at
                data_at += len(raw) + (len(raw) & 1)
        return extra, data_at

    # two passes: offsets of IFD0's data, then the sub-IFD after IFD0's strip
    blob0, blob1 = blobs
    ifd0.add(273, 4, [0])
    ifd0.add(279, 4, [len(blob0)])
    sub.add(273, 4, [0])
    sub.add(279, 4, [len(blob1)])
    ifd0.add(330, 4, [0])
    extra0, end0 = layout(ifd0, 8)
    strip0 = end0
    sub_at = strip0 + len(blob0) + (len(blob0) & 1)
    ifd0.add(273, 4, [strip0])
    ifd0.add(330, 4, [sub_at])
    extra0, end0 = layout(ifd0, 8)
    extra1, end1 = layout(sub, sub_at)
    strip1 = end1
    sub.add(273, 4, [strip1])
    extra1, end1 = layout(sub, sub_at)

    def emit(ifd, extra, next_ifd):
        b = bytearray(struct.pack('<H', len(ifd.entries)))
        tail = bytearray()
        for tag in sorted(ifd.entries):
            typ, values = ifd.entries[tag]
            raw = pack_values(typ, values)
            b += struct.pack('<HHI', tag, typ, count_of(typ, values))
            if len(raw) <= 4:
                b += raw.ljust(4, b'\0')
            else:
                b += struct.pack('<I', extra[tag])
                tail += raw + (b'\0' if len(raw) & 1 else b'')
        b += struct.pack('<I', next_ifd)
        return b + tail

    out += emit(ifd0, extra0, 0)
    assert len(out) == strip0, (len(out), strip0)
    out += blob0 + (b'\0' if len(blob0) & 1 else b'')
    assert len(out) == sub_at
    out += emit(sub, extra1, 0)
    assert len(out) == strip1
    out += blob1
    open(path, 'wb').write(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--size', default='600x400')
    ap.add_argument('--preview', default='480x320')
    ap.add_argument('--orientation', type=int, default=1)
    ap.add_argument('--make', default='Forcezoom')
    ap.add_argument('--model', default='Test DNG')
    ap.add_argument('--lie-size', default=None)
    a = ap.parse_args()
    w, h = map(int, a.size.split('x'))
    img = scene(w, h)
    cfa = mosaic(img)

    ifd0 = IFD()
    sub = IFD()
    if a.preview != 'none':
        pw, ph = map(int, a.preview.split('x'))
        srgb = (np.clip(img, 0, 1) ** (1 / 2.2) * 255).round().astype(np.uint8)
        buf = io.BytesIO()
        Image.fromarray(srgb).resize((pw, ph), Image.LANCZOS).save(buf, 'JPEG', quality=90)
        preview = buf.getvalue()
        ifd0.add(254, 4, [1])
        ifd0.add(256, 4, [pw])
        ifd0.add(257, 4, [ph])
        ifd0.add(258, 3, [8, 8, 8])
        ifd0.add(259, 3, [7])
        ifd0.add(262, 3, [6])
        ifd0.add(277, 3, [3])
        ifd0.add(278, 4, [ph])
    else:
        # an 8x8 RGB thumbnail-less IFD0 as a placeholder: tiny uncompressed preview
        preview = bytes(8 * 8 * 3)
        ifd0.add(254, 4, [1])
        ifd0.add(256, 4, [8])
        ifd0.add(257, 4, [8])
        ifd0.add(258, 3, [8, 8, 8])
        ifd0.add(259, 3, [1])
        ifd0.add(262, 3, [2])
        ifd0.add(277, 3, [3])
        ifd0.add(278, 4, [8])
    ifd0.add(271, 2, a.make)
    ifd0.add(272, 2, a.model)
    ifd0.add(274, 3, [a.orientation])
    ifd0.add(50706, 1, [1, 4, 0, 0])
    ifd0.add(50707, 1, [1, 1, 0, 0])
    ifd0.add(50708, 2, a.make + ' ' + a.model)
    # ColorMatrix1 (XYZ D65 -> camera): the camera is linear sRGB.
    m = [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
    ifd0.add(50721, 10, [(int(round(v * 10000)), 10000) for row in m for v in row])
    ifd0.add(50728, 5, [(1, 1), (1, 1), (1, 1)])  # AsShotNeutral
    ifd0.add(50778, 3, [21])  # CalibrationIlluminant1: D65

    rw, rh = (map(int, a.lie_size.split('x')) if a.lie_size else (w, h))
    sub.add(254, 4, [0])
    sub.add(256, 4, [rw])
    sub.add(257, 4, [rh])
    sub.add(258, 3, [16])
    sub.add(259, 3, [1])
    sub.add(262, 3, [32803])
    sub.add(277, 3, [1])
    sub.add(278, 4, [rh])
    sub.add(33421, 3, [2, 2])
    sub.add(33422, 1, [0, 1, 1, 2])
    sub.add(50717, 4, [4095])  # WhiteLevel
    write_tiff(a.out, ifd0, sub, (preview, cfa.tobytes()))


if __name__ == '__main__':
    main()
