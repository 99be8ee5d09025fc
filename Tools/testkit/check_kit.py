#!/usr/bin/python3
"""Reads a `forcezoom fixture kit` back with decoders that are not forcezoom's and checks
every file against its own MANIFEST.json (FixtureKitCLITests runs it).

    /usr/bin/python3 Tools/testkit/check_kit.py KIT [--decoded DIR]

JPEG, PNG and WebP: Pillow, ImageOps.exif_transpose where the manifest says the EXIF tag
applies, ImageCms (lcms2, relative colorimetric with black-point compensation) to sRGB
where it names a profile, 16-bit samples rounded to 8. HEIC and AVIF: heif-convert (libheif
applies irot and imir, never the EXIF tag) to a PNG read by Pillow. Each decode is compared
with the file's reference by the manifest's tolerance (pae: the largest sample difference;
psnr: 10 log10(255^2/MSE)), over R, G, B and, when the reference has it, alpha.
Prints one JSON line per file ({"path", "pae", "psnr", "pass"}) and exits 1 if any fails,
naming it with the manifest's `why`. With --decoded DIR the decodes are saved there as PNG
(same relative paths), for `forcezoom compare` to check too.
Needs Pillow and numpy (/usr/bin/python3 on Debian) and heif-convert (libheif-examples).

    --decoder NAME   check only the files NAME decodes, with it alone (issue 36: the
                     tolerances hold for every correct decoder, not only libheif):
      pillow         Pillow's own plugins: JPEG, PNG, WebP (libwebp), AVIF where Pillow has
                     its AVIF plugin (Pillow 11+, libavif), HEIC where pillow-heif is there
      dwebp          WebP through libwebp's dwebp (to PNG)
      heif-convert   HEIC and AVIF through libheif's heif-convert
      vips           everything through libvips (vips copy to PNG)
      djpeg-fast     JPEG through libjpeg-turbo's fast integer IDCT without fancy
                     upsampling (djpeg -dct fast -nosmooth), the least exact it offers
    The EXIF orientation is applied where the manifest says it applies, profiles converted
    as above. Files the decoder does not read are left out; each line names the decoder.
"""
import io
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageCms, ImageOps, features

# Black-point compensation: ImageCms.Flags from Pillow 10.3 on (FLAGS went in Pillow 12).
BPC = ImageCms.Flags.BLACKPOINTCOMPENSATION if hasattr(ImageCms, "Flags") else ImageCms.FLAGS["BLACKPOINTCOMPENSATION"]

try:  # HEIC through pillow-heif, where installed (its own libheif and libde265)
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIF_OPENER = True
except ImportError:
    HEIF_OPENER = False


T = Image.Transpose
TURNS = {2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM, 5: T.TRANSPOSE, 6: T.ROTATE_270,
         7: T.TRANSVERSE, 8: T.ROTATE_90}


def through_tool(command, path, f, kit):
    """A decode by a command-line tool to PNG, then the manifest's orientation and profile."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.png")
        subprocess.run(command(path, out), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        im = Image.open(out)
        im.load()
    if f["tags"]["exifApplies"] and f["tags"]["exifOrientation"] in TURNS:
        im = im.transpose(TURNS[f["tags"]["exifOrientation"]])
    if f["tags"]["icc"]:
        icc = Image.open(path).info.get("icc_profile")
        im.info["icc_profile"] = icc
    return finish(im, f)


def reads(decoder, f):
    """Whether `decoder` reads the file's format."""
    fmt = f["format"]
    if decoder == "dwebp":
        return fmt == "WebP"
    if decoder == "heif-convert":
        return fmt in ("HEIC", "AVIF")
    if decoder == "djpeg-fast":
        return fmt == "JPEG"
    if decoder == "pillow":
        if fmt == "AVIF":
            return "avif" in features.get_supported_modules()
        if fmt == "HEIC":
            return HEIF_OPENER
        return True
    return True


def decode_with(decoder, kit, f):
    path = os.path.join(kit, f["path"])
    if decoder == "dwebp":
        return through_tool(lambda i, o: ["dwebp", "-quiet", i, "-o", o], path, f, kit)
    if decoder == "heif-convert":
        return through_tool(lambda i, o: ["heif-convert", i, o], path, f, kit)
    if decoder == "djpeg-fast":
        return through_tool(lambda i, o: ["djpeg", "-dct", "fast", "-nosmooth", "-outfile", o, i], path, f, kit)
    if decoder == "vips":
        return through_tool(lambda i, o: ["vips", "copy", i, o], path, f, kit)
    im = Image.open(path)
    im.load()
    if f["tags"]["exifApplies"]:
        im = ImageOps.exif_transpose(im)
    return finish(im, f)


def decode(kit, f):
    path = os.path.join(kit, f["path"])
    if f["format"] in ("HEIC", "AVIF"):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "d.png")
            subprocess.run(["heif-convert", path, out], check=True, stdout=subprocess.DEVNULL)
            im = Image.open(out)
            im.load()
        return im
    im = Image.open(path)
    im.load()
    if f["tags"]["exifApplies"]:
        im = ImageOps.exif_transpose(im)
    return finish(im, f)


def finish(im, f):
    """16-bit samples rounded to 8; the profile, if the manifest names one, converted to sRGB."""
    icc = im.info.get("icc_profile")
    if im.mode in ("I;16", "I;16B", "I"):
        a = (np.asarray(im, dtype=np.float64) / 257).round().clip(0, 255).astype(np.uint8)
        im = Image.fromarray(a, "L")
    if f["tags"]["icc"]:
        assert icc, "no ICC profile found by Pillow"
        src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        mode = "L" if im.mode == "L" else "RGB"
        im = ImageCms.profileToProfile(
            im.convert(mode), src, ImageCms.createProfile("sRGB"), renderingIntent=1,
            outputMode="RGB", flags=BPC)
    return im


def arrays(decoded, reference):
    alpha = reference.mode in ("RGBA", "LA")
    mode = "RGBA" if alpha else "RGB"
    return (np.asarray(decoded.convert(mode), dtype=np.float64), np.asarray(reference.convert(mode), dtype=np.float64))


def main():
    kit = sys.argv[1]
    saved = sys.argv[sys.argv.index("--decoded") + 1] if "--decoded" in sys.argv else None
    decoder = sys.argv[sys.argv.index("--decoder") + 1] if "--decoder" in sys.argv else None
    manifest = json.load(open(os.path.join(kit, "MANIFEST.json")))
    failed = 0
    for f in manifest["files"]:
        if decoder and not reads(decoder, f):
            continue
        reference = Image.open(os.path.join(kit, f["reference"]))
        try:
            decoded = decode_with(decoder, kit, f) if decoder else decode(kit, f)
        except Exception as e:  # one line per file, the rest go on
            print(json.dumps({"path": f["path"], "error": str(e), "pass": False}))
            failed += 1
            continue
        if saved:
            os.makedirs(os.path.dirname(os.path.join(saved, f["path"])), exist_ok=True)
            decoded.save(os.path.join(saved, f["path"]) + ".png")
        if decoded.size != reference.size:
            ok, pae, psnr = False, None, None
        else:
            a, b = arrays(decoded, reference)
            d = a - b
            pae = int(np.abs(d).max())
            mse = float((d * d).mean())
            psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
            t = f["tolerance"]
            ok = pae <= t["pae"] if "pae" in t else psnr >= t["psnr"]
        print(json.dumps({"path": f["path"], "decoder": decoder or "default", "size": list(decoded.size), "pae": pae,
                          "psnr": None if psnr is None else ("inf" if psnr == math.inf else round(psnr, 3)), "pass": ok}))
        if not ok:
            failed += 1
            print(f"{f['path']}: outside {f['tolerance']} through {decoder or 'Pillow/heif-convert'}: {f['why']}", file=sys.stderr)
    sys.exit(1 if failed else 0)


main()
