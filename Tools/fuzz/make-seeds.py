#!/usr/bin/env python3
"""Writes fuzz seeds that reach the colour path (make fuzz runs it into .cache/fuzz/seeds):
small PNG, JPEG and WebP files carrying ICC profiles (lcms2's sRGB through Pillow, the
Display P3 test profile of Tools/fixtures/make-icc.py, one split over two JPEG APP2
segments), and CMYK JPEGs with and without Ghostscript's small CMYK profile when
libgs-common is installed; and, when `make heicgrids` has made them, small HEIC/AVIF grids of
several tiles (turned, cropped, alpha, 10-bit, AV1) so that mutations reach the tile path
(HEIFTileDecoder, HEIFTileStream); and two small camera DNGs with a JPEG preview (RAWDecoder,
libraw); GIFs and BMPs (Tools/formats/make-gif-bmp.py); small TIFFs in every compression
Pillow writes and a tiled one (tiffcp); small copies of issue 51's attack files
(Tools/hostile/hostile_attacks51.py); Live Photo pairs and motion photos
(Tools/formats/make-motion.py, when ffmpeg is there); the hostile set as Tools/hostile/make-hostile.py writes (its video files, hostile_video.py,
included: MP4 and Matroska seeds and their cut and lying variants)
it now (its generators' outputs, whether or not Fixtures/hostile was regenerated); and every
format's real files in ../shared/formats/ and ../shared/heic-phone/ when present (the BMP
Suite's bit-field files and a derived HEIF item found crashes in seconds that seeds without them
never reached: issue 53). Usage: make-seeds.py DIR."""
import os, shutil, subprocess, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
subprocess.run([sys.executable, os.path.join(here, "..", "fixtures", "make-icc.py"), out], check=True, stdout=subprocess.DEVNULL)
from PIL import Image, ImageCms
srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
p3 = open(os.path.join(out, "p3.icc"), "rb").read()
big = bytearray(srgb + bytes(70000)); big[0:4] = len(big).to_bytes(4, "big")
im = Image.new("RGB", (24, 16)); im.putdata([(x * 10, y * 15, 128) for y in range(16) for x in range(24)])
for name, prof in (("srgb", srgb), ("p3", p3), ("big", bytes(big))):
    im.save(os.path.join(out, f"icc-{name}.jpg"), icc_profile=prof, quality=90)
    im.save(os.path.join(out, f"icc-{name}.webp"), icc_profile=prof, quality=90)
    im.save(os.path.join(out, f"icc-{name}.png"), icc_profile=prof)
im.convert("L").save(os.path.join(out, "icc-lab-on-gray.png"), icc_profile=ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes())
cmyk = im.convert("CMYK")
cmyk.save(os.path.join(out, "cmyk-none.jpg"), quality=90)
ps = "/usr/share/color/icc/ghostscript/ps_cmyk.icc"
if os.path.exists(ps):
    cmyk.save(os.path.join(out, "cmyk-ps.jpg"), icc_profile=open(ps, "rb").read(), quality=90)
cmyk.save(os.path.join(out, "cmyk-rgbprofile.jpg"), icc_profile=srgb, quality=90)
for f in ("p3.icc", "p3.png", "ref.png"):
    os.remove(os.path.join(out, f))
grids = os.path.join(here, "..", "..", ".cache", "heicgrid")
for name in ("orient-90-1.heic", "clap-90.heic", "alpha.heic", "deep.heic", "deep-alpha.heic", "grid.avif",
             "bad-size.heic"):
    if os.path.exists(os.path.join(grids, name)):
        shutil.copy(os.path.join(grids, name), os.path.join(out, "grid-" + name))
# Camera DNGs (Tools/raw/make-dng.py): a colour filter array with a JPEG preview, upright and turned.
for name, extra in (("dng-preview.dng", []), ("dng-rot6.dng", ["--orientation", "6"])):
    subprocess.run([sys.executable, os.path.join(here, "..", "raw", "make-dng.py"), os.path.join(out, name), "--size", "64x48",
                    "--preview", "48x32"] + extra, check=True)
# GIF and BMP (issue 35): interlaced, transparent and animated GIFs, 1- to 24-bit BMPs.
subprocess.run([sys.executable, os.path.join(here, "..", "formats", "make-gif-bmp.py"), out], check=True)
# Animations (issue 50): GIFs with each disposal, gif2webp's, Pillow's and webpmux's animated
# WebPs, Pillow's APNGs (Tools/animations/make-animations.py; needs webp's gif2webp, webpmux).
if shutil.which("gif2webp") and shutil.which("webpmux"):
    subprocess.run([sys.executable, os.path.join(here, "..", "animations", "make-animations.py"), out], check=True)
# TIFF (issue 35): strips in each compression Pillow writes, 16-bit grey, palette, CMYK, RGBA,
# and a tiled copy (tiffcp -t, libtiff-tools) so that mutations reach the tile path.
rgba = im.convert("RGBA")
for comp in ("raw", "tiff_lzw", "tiff_adobe_deflate", "packbits", "jpeg"):
    im.save(os.path.join(out, f"tiff-{comp}.tif"), compression=comp)
rgba.save(os.path.join(out, "tiff-rgba.tif"), compression="tiff_lzw")
cmyk.save(os.path.join(out, "tiff-cmyk.tif"))
im.convert("P").save(os.path.join(out, "tiff-palette.tif"))
im.convert("L").convert("I").point(lambda v: v * 257).convert("I;16").save(os.path.join(out, "tiff-gray16.tif"))
if shutil.which("tiffcp"):
    subprocess.run(["tiffcp", "-t", "-w", "16", "-l", "16", "-c", "zip", os.path.join(out, "tiff-raw.tif"),
                    os.path.join(out, "tiff-tiled.tif")], check=True)
# Issue 51's attack structures, small (Tools/hostile/hostile_attacks51.py): GIF frames wider
# than their screen, restore-to-previous frames, gain-map versions that are no number, a TIFF
# of many pages.
import importlib.util
hostile = os.path.join(here, "..", "hostile")
sys.path.insert(0, hostile)
spec = importlib.util.spec_from_file_location("make_hostile", os.path.join(hostile, "make-hostile.py"))
make_hostile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_hostile)
import hostile_attacks51
for name, data in hostile_attacks51.seed_files(make_hostile.jpeg):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
# The hostile set, from its generators (issue 53: every reproducer a seed).
subprocess.run([sys.executable, os.path.join(here, "..", "hostile", "make-hostile.py"), "--out",
                os.path.join(out, "hostile")], check=True, stdout=subprocess.DEVNULL)
# Its files over 1 MiB (the 100,000-region XMP, the bombs) stay out of the seeds: fuzzing cuts
# every input to -max_len (64 KiB), and fuzz-replay runs them from Fixtures/hostile already,
# where one takes 40-50 s of CPU through the -Onone ASan target.
for root, _, names in os.walk(os.path.join(out, "hostile")):
    for name in names:
        if os.path.getsize(os.path.join(root, name)) > 1 << 20:
            os.remove(os.path.join(root, name))
# Live Photos and motion photos (issue 50: Tools/formats/make-motion.py), when ffmpeg, heif-enc
# and exiftool are there: QuickTime keys, Apple maker notes, Container XMP, SEFT and mpvd.
if all(shutil.which(t) for t in ("ffmpeg", "heif-enc", "exiftool")):
    subprocess.run([sys.executable, os.path.join(here, "..", "formats", "make-motion.py"), os.path.join(out, "motion")],
                   check=True, stdout=subprocess.DEVNULL)
# Real third-party files (read-only, never in the repository): ../shared beside the checkout,
# as the tests find it (a worktree at /work/wt/NAME sees it through /work/wt/shared).
shared = os.path.normpath(os.path.join(here, "..", "..", "..", "shared"))
real = 0
for folder in ("formats", "heic-phone"):
    for root, _, names in sorted(os.walk(os.path.join(shared, folder))):
        for name in sorted(names):
            if name.lower().endswith((".md", ".txt")):
                continue
            rel = os.path.relpath(os.path.join(root, name), shared).replace(os.sep, "__")
            shutil.copyfile(os.path.join(root, name), os.path.join(out, "shared__" + rel))
            real += 1
print("make-seeds: %d files in %s (%d real files from %s)" % (
    sum(len(f) for _, _, f in os.walk(out)), out, real, shared if real else "nowhere: ../shared is absent"))
