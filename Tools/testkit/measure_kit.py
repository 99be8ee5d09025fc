#!/usr/bin/python3
"""Measures the fixture kit's lossy files through every decoder there is, to set and re-check
the manifest's tolerances (issue 36: a tolerance every correct decoder meets).

    /usr/bin/python3 Tools/testkit/measure_kit.py FORCEZOOM RUNS [PYTHON...]

Makes RUNS kits (x265 and aom are not reproducible: each run's files differ), decodes each
lossy file with check_kit.py --decoder pillow, dwebp, heif-convert, vips and djpeg-fast under
/usr/bin/python3 and `pillow` under each extra PYTHON (one whose Pillow has the AVIF plugin
and pillow-heif, say), and with `forcezoom compare`; prints per file the lowest PSNR seen,
which decoder gave it, and the manifest's tolerance, flagging any tolerance above it.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    fz, runs, pythons = os.path.abspath(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    work = tempfile.mkdtemp(prefix="fz-measure-")
    lowest = {}
    tolerance = {}
    try:
        for run in range(runs):
            kit = os.path.join(work, "kit%d" % run)
            subprocess.run([fz, "fixture", "kit", kit], check=True, stdout=subprocess.DEVNULL)
            manifest = json.load(open(os.path.join(kit, "MANIFEST.json")))
            for f in manifest["files"]:
                if "psnr" in f["tolerance"]:
                    tolerance[f["path"]] = f["tolerance"]["psnr"]
            jobs = [("/usr/bin/python3", d) for d in ("pillow", "dwebp", "heif-convert", "vips", "djpeg-fast")]
            jobs += [(p, "pillow") for p in pythons]
            for python, decoder in jobs:
                if decoder != "pillow" and shutil.which(decoder.split("-")[0] if decoder == "djpeg-fast" else decoder) is None:
                    continue
                out = subprocess.run([python, os.path.join(HERE, "check_kit.py"), kit, "--decoder", decoder],
                                     capture_output=True, text=True)
                name = decoder if python == "/usr/bin/python3" else "%s (%s)" % (decoder, python)
                for line in out.stdout.splitlines():
                    r = json.loads(line)
                    if r["path"] in tolerance and r.get("psnr") not in (None, "inf"):
                        note(lowest, r["path"], float(r["psnr"]), name)
            for f in manifest["files"]:
                if f["path"] in tolerance:
                    c = subprocess.run([fz, "compare", f["path"], f["reference"], "--icc",
                                        "srgb" if f["tags"]["icc"] else "keep"], cwd=kit, capture_output=True, text=True)
                    if c.returncode == 0 and c.stdout.strip() != "inf":
                        note(lowest, f["path"], float(c.stdout), "forcezoom")
        for path in sorted(tolerance):
            value, by = lowest.get(path, (None, None))
            flag = "" if value is None or value >= tolerance[path] else "  <-- UNDER"
            print("%-48s tolerance %5.1f  lowest %s via %s%s" % (path, tolerance[path],
                  "n/a" if value is None else "%.2f" % value, by, flag))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def note(lowest, path, value, name):
    if path not in lowest or value < lowest[path][0]:
        lowest[path] = (value, name)


main()
