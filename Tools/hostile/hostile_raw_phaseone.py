"""A Phase One (IIQ) header that kept libraw 0.20 reading for minutes (found by `make fuzz`,
issue 53: a 3.5 KB mutation of a Leaf Credo 40 IIQ; `info` never ended), rebuilt byte by byte
from its description (standard library only): a TIFF header, "IIII" at byte 8 (libraw's
`parse_phase_one` then runs from there), the "Raw" magic, a directory of one entry whose tag
0x0110 puts the metadata directory 1 MiB past the end of a 64-byte file. libraw walks that
directory for as many entries as its count reads, and a count read past the end is 0xFFFFFFFF:
four reads and two seeks, four billion times. forcezoom refuses it first (PhaseOneDirectory)."""

import struct


def phase_one_meta_past_end():
    tiff = b"II*\0" + struct.pack("<I", 56)
    phase_one = b"IIII" + b"IwaR" + struct.pack("<I", 16) + bytes(4)  # base 8: magic, directory at 8 + 16
    directory = struct.pack("<II", 1, 0) + struct.pack("<IIII", 0x0110, 0, 0, 0x100000)
    data = tiff + phase_one + directory
    data += bytes(56 - len(data)) + struct.pack("<H", 0) + bytes(6)  # an empty IFD0 at 56
    return data


def raw_phase_one_files(add):
    add("raw-phaseone-meta-past-end.iiq", phase_one_meta_past_end(), "header", "Phase One",
        "a Phase One metadata directory 1 MiB past the end of a 64-byte file: libraw 0.20 read 2^32 entries "
        "(minutes; a fuzz find from a Leaf Credo 40 IIQ)")
