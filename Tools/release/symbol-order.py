#!/usr/bin/python3
"""Writes Tools/release/symbol-order.txt, the list of functions the release link places side by
side (Package.swift passes it to lld as --symbol-ordering-file; RELEASE_FLAGS gives every
function a section of its own so that lld can move it).

Why: the kernel maps an executable's code 64 KB around each page a process touches
("fault-around"), so a command that runs 360 KB of code scattered over the 12 MB text segment
had 6.8 MB of it resident: most of a 400 px JPEG crop's peak RSS (issue 51). Placed together,
the same code is a few dozen pages.

How: runs common commands (crop, thumb, info and fit of a JPEG; a PNG crop; a HEIC crop when
../shared has the phone photo; a thumbnail of a camera DNG from its JPEG preview, the bench's r1
row, on a DNG Tools/raw/make-dng.py writes) on a release binary under valgrind's callgrind, which lists
every function each run executed, and writes their union in the order of their addresses in
that binary (which keeps each module's functions together). valgrind cannot read lld's debug
information, so the binary is copied without it first (objcopy --strip-debug). Names the next
build no longer has are skipped by lld (--no-warn-symbol-ordering); a stale list costs RSS,
never correctness. Rerun after large changes: `make symbol-order` (a few minutes).

Usage: Tools/release/symbol-order.py [--fz .build/release/forcezoom] [--out PATH]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOS = os.path.join(ROOT, ".cache", "photos")
PHONE = os.path.join(ROOT, "..", "shared", "heic-phone", "spatial_photo.heic")
MAKE_DNG = os.path.join(ROOT, "Tools", "raw", "make-dng.py")


def commands(tmp):
    jpeg = os.path.join(PHOTOS, "large.jpg")
    png = os.path.join(PHOTOS, "large.png")
    runs = [
        ["crop", jpeg, "--at", "3008,1695", "--size", "400", "-o", os.path.join(tmp, "c.png")],
        ["thumb", jpeg, "--size", "256", "--out", os.path.join(tmp, "thumbs"), "--quiet"],
        ["info", jpeg, "--json"],
        ["fit", jpeg, "--screen", "1170x2532", "--orientation", "landscape-left", "--background", "black",
         "-o", os.path.join(tmp, "f.png")],
    ]
    if os.path.exists(png):
        runs.append(["crop", png, "--at", "50%,50%", "--size", "400", "-o", os.path.join(tmp, "p.png")])
    if os.path.exists(PHONE):
        runs.append(["crop", PHONE, "--at", "50%,50%", "--size", "400", "-o", os.path.join(tmp, "h.png")])
    # The DNG thumbnail's path (libraw's preview, the JPEG decoded at a DCT scale), on a small
    # DNG with the bench's 1620x1080 preview (larger than 256 px, so that is what is read).
    dng = os.path.join(tmp, "raw.dng")
    subprocess.run(["/usr/bin/python3", MAKE_DNG, dng, "--size", "2400x1600", "--preview", "1620x1080"],
                   check=True, stdout=subprocess.DEVNULL)
    runs.append(["thumb", dng, "--size", "256", "--out", os.path.join(tmp, "dng-thumbs"), "--quiet"])
    return runs


def executed(callgrind_out, binary):
    """The functions of `binary` that a callgrind output file lists as run (mangled names)."""
    names, objects, found = {}, {}, set()
    current = None
    for line in open(callgrind_out, errors="replace"):
        m = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                objects[m.group(2)] = m.group(3)
            if not m.group(1):
                current = objects.get(m.group(2))
            continue
        m = re.match(r"^(c?)fn=\((\d+)\)(?: (.*))?$", line)
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            if not m.group(1) and current == binary:
                found.add(re.sub(r"'\d+$", "", names[m.group(2)]))  # callgrind's recursion copies
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fz", default=os.path.join(ROOT, ".build", "release", "forcezoom"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Tools", "release", "symbol-order.txt"))
    a = ap.parse_args()
    for tool in ("valgrind", "objcopy", "nm"):
        if not shutil.which(tool):
            sys.exit(f"symbol-order: {tool} is missing (apt-get install valgrind binutils)")
    if not os.path.exists(os.path.join(PHOTOS, "large.jpg")):
        sys.exit("symbol-order: .cache/photos/large.jpg is missing; run `make photos`")
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "forcezoom")
        subprocess.run(["objcopy", "--strip-debug", a.fz, binary], check=True)
        address = {}
        nm = subprocess.run(["nm", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
        for line in nm.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                address.setdefault(parts[2], int(parts[0], 16))
        found = set()
        for i, argv in enumerate(commands(tmp)):
            out = os.path.join(tmp, f"callgrind.{i}")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=no",
                            f"--callgrind-out-file={out}", binary] + argv,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            found |= executed(out, binary)
            print(f"symbol-order: {' '.join(argv[:2])}: {len(found)} functions so far", file=sys.stderr)
    listed = sorted((n for n in found if n in address), key=lambda n: address[n])
    with open(a.out + ".tmp", "w") as f:
        f.write("# Functions common commands run, for lld's --symbol-ordering-file: written by\n"
                "# Tools/release/symbol-order.py (make symbol-order); see there why.\n")
        f.writelines(n + "\n" for n in listed)
    os.rename(a.out + ".tmp", a.out)
    print(f"symbol-order: {len(listed)} functions in {os.path.relpath(a.out, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
