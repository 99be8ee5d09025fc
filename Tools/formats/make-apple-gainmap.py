#!/usr/bin/python3
"""Apple gain-map JPEGs as iOS 14 to 17 wrote them (issue 51, item 11), into the folder given;
tests make them in a scratch folder, nothing is committed.

Made from libavif's apple_gainmap_new.jpg (../shared/formats/hdr/libavif_apple_gainmap_new.jpg,
the first argument): its gain map's XMP loses HDRGainMap:HDRGainMapHeadroom (iOS 18 added it;
the element is blanked with spaces of the same length, so every MPF offset stays right), and
exiftool writes the primary's Apple maker note tags HDRHeadroom (0x0021) and HDRGain (0x0030),
from which Apple's "Applying Apple HDR effect to your photos" derives the headroom:

- apple-old-<name>.jpg for each (HDRHeadroom, HDRGain) below, one per branch of the formula;
- apple-old-nonote.jpg: the maker note removed (no headroom anywhere: the map is dropped, said).

Usage: make-apple-gainmap.py SOURCE.jpg OUT_DIR"""
import re
import subprocess
import sys

source, out = sys.argv[1], sys.argv[2]
CASES = {
    "as-shot": None,  # the file's own tags (1.518931985, 0)
    "low-gain": (0.75, 0.005),  # HDRHeadroom < 1, HDRGain <= 0.01
    "low": (0.75, 0.05),  # HDRHeadroom < 1, HDRGain > 0.01
    "high-gain": (1.25, 0.004),  # HDRHeadroom >= 1, HDRGain <= 0.01
    "high": (2.5, 0.5),  # HDRHeadroom >= 1, HDRGain > 0.01
}

data = open(source, "rb").read()
element = re.compile(rb"<HDRGainMap:HDRGainMapHeadroom>[^<]*</HDRGainMap:HDRGainMapHeadroom>")
attribute = re.compile(rb'HDRGainMap:HDRGainMapHeadroom="[^"]*"')
old, n = element.subn(lambda m: b" " * len(m.group(0)), data)
old, k = attribute.subn(lambda m: b" " * len(m.group(0)), old)
if n + k != 1:
    sys.exit(f"{source}: expected one HDRGainMapHeadroom, found {n + k}")

for name, tags in CASES.items():
    path = f"{out}/apple-old-{name}.jpg"
    open(path, "wb").write(old)
    if tags:
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-Apple:HDRHeadroom={tags[0]}",
                        f"-Apple:HDRGain={tags[1]}", path], check=True)
path = f"{out}/apple-old-nonote.jpg"
open(path, "wb").write(old)
subprocess.run(["exiftool", "-q", "-overwrite_original", "-MakerNotes:all=", path], check=True)
