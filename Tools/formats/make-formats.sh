#!/usr/bin/env bash
# Make the WebP and HEIF/AVIF test files in .cache/formats/ (git-ignored) with the formats'
# own encoders (cwebp, img2webp, webpmux from `webp`; heif-enc from `libheif-examples`) and
# their reference decodes with the formats' own decoders (dwebp, heif-convert), which the
# tests compare forcezoom's pixels against. Nothing is fetched. Sources are the generated
# fixtures in Fixtures/generated/. Idempotent; --force remakes everything.
#
# Produces in .cache/formats/ (NAME.ref.png = the reference decoder's output of NAME):
#   webp-lossy.webp       corners.png (600x400), cwebp -q 90 (4:2:0, fancy upsampling on decode)
#   webp-lossless.webp    coords-512x384.png, cwebp -lossless (exact: equals the PNG)
#   webp-alpha.webp       png-rgba-8.png (64x48), cwebp -q 90 -alpha_q 100 (lossy colour, lossless alpha)
#   webp-alpha-lossless.webp  png-rgba-8.png, cwebp -lossless -exact
#   webp-exif-N.webp      N = 1..8 (made with cwebp and webpmux, not forcezoom): the 96x64 orientation picture stored turned as EXIF N
#                         says (Pillow), cwebp -lossless, EXIF chunk with Orientation=N (webpmux)
#   webp-anim.webp        img2webp -lossless of png-rgb-8.png then corners.png cut to 64x48 and turned (2 frames)
#   heic-corners.heic     corners.png, heif-enc -q 90 (x265);   avif-corners.avif (aom, -A)
#   heic-alpha.heic       png-rgba-8.png with alpha, heif-enc -q 90
#   heic-thumb.heic       corners.png with a 160 px thumbnail (heif-enc -t 160)
#   heic-10bit.heic       png-rgb-16.png (64x48) at 10 bits (heif-enc -b 10)
#   heic-exif-6.heic      jpeg-exif-6.jpg (64x96 stored, EXIF Orientation 6 kept): must NOT be turned
#   heic-irot-N.heic      N = 90,180,270: the 96x64 orientation picture stored turned, lossless,
#                         with an `irot` box added (Tools/formats/heif-rotate.py): upright = the picture
#   heic-imir.heic        the same picture stored mirrored, with an `imir` of mode 0 (top-bottom)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=.cache/formats
PY=/usr/bin/python3  # Pillow (python3-pil) is installed for the system Python
GEN=Fixtures/generated
FORCE=0
[ "${1:-}" = "--force" ] && FORCE=1
mkdir -p "$OUT"
stamp="$OUT/.done-v3"
if [ $FORCE = 0 ] && [ -f "$stamp" ]; then echo "formats: $OUT up to date"; exit 0; fi
rm -f "$OUT"/*

q() { "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; "$@"; exit 1; }; }

# WebP
q cwebp -q 90 "$GEN/corners.png" -o "$OUT/webp-lossy.webp"
q cwebp -lossless "$GEN/coords-512x384.png" -o "$OUT/webp-lossless.webp"
q cwebp -q 90 -alpha_q 100 "$GEN/png-rgba-8.png" -o "$OUT/webp-alpha.webp"
q cwebp -lossless -exact "$GEN/png-rgba-8.png" -o "$OUT/webp-alpha-lossless.webp"
"$PY" Tools/formats/oriented.py "$GEN/png-rgb-8-trns.png" "$OUT"
for n in 1 2 3 4 5 6 7 8; do
  q cwebp -lossless "$OUT/stored-$n.png" -o "$OUT/tmp.webp"
  q webpmux -set exif "$OUT/exif-$n.tiff" "$OUT/tmp.webp" -o "$OUT/webp-exif-$n.webp"
done
"$PY" -c "
from PIL import Image
Image.open('$GEN/corners.png').convert('RGB').crop((0,0,64,48)).transpose(Image.Transpose.ROTATE_180).save('$OUT/frame2.png')"
q img2webp -lossless "$GEN/png-rgb-8.png" "$OUT/frame2.png" -o "$OUT/webp-anim.webp"
for f in webp-lossy webp-lossless webp-alpha webp-alpha-lossless; do
  q dwebp "$OUT/$f.webp" -o "$OUT/$f.ref.png"
done

# HEIF/AVIF
if command -v heif-enc >/dev/null; then
  q heif-enc -q 90 "$GEN/corners.png" -o "$OUT/heic-corners.heic"
  q heif-enc -A -q 90 "$GEN/corners.png" -o "$OUT/avif-corners.avif"
  q heif-enc -q 90 "$GEN/png-rgba-8.png" -o "$OUT/heic-alpha.heic"
  for f in heic-corners avif-corners heic-alpha; do
    q heif-convert "$OUT/$f.$( [ ${f%%-*} = avif ] && echo avif || echo heic )" "$OUT/$f.ref.png"
  done
  # A thumbnail (160 px), a 10-bit image (from a 16-bit PNG), and EXIF Orientation 6 kept
  # by heif-enc from a JPEG without any irot: the stored 64x96 picture is what shows.
  q heif-enc -q 90 -t 160 "$GEN/corners.png" -o "$OUT/heic-thumb.heic"
  q heif-enc -q 90 -b 10 "$GEN/png-rgb-16.png" -o "$OUT/heic-10bit.heic"
  q heif-enc -q 90 "$GEN/jpeg-exif-6.jpg" -o "$OUT/heic-exif-6.heic"
  for f in heic-10bit heic-exif-6; do q heif-convert "$OUT/$f.heic" "$OUT/$f.ref.png"; done
  # irot/imir: lossless (4:4:4, RGB matrix) so the upright picture comes back exactly.
  for r in 90 180 270; do
    "$PY" Tools/formats/oriented.py --rotate $r "$GEN/png-rgb-8-trns.png" "$OUT"
    q heif-enc -L -p chroma=444 --matrix_coefficients=0 "$OUT/rot-$r.png" -o "$OUT/tmp.heic"
    q "$PY" Tools/formats/heif-rotate.py "$OUT/tmp.heic" $r "$OUT/heic-irot-$r.heic"
    q heif-convert "$OUT/heic-irot-$r.heic" "$OUT/heic-irot-$r.ref.png"
  done
  # imir mode 0 (top and bottom swapped, as libheif and the amended HEIF spec read it): stored flipped.
  "$PY" -c "
from PIL import Image
im = Image.open('$GEN/png-rgb-8-trns.png').convert('RGB'); im.info.pop('transparency', None)
im.transpose(Image.Transpose.FLIP_TOP_BOTTOM).save('$OUT/mirrored.png')"
  q heif-enc -L -p chroma=444 --matrix_coefficients=0 "$OUT/mirrored.png" -o "$OUT/tmp.heic"
  q "$PY" Tools/formats/heif-rotate.py "$OUT/tmp.heic" 0 "$OUT/heic-imir.heic" --mirror 0
  q heif-convert "$OUT/heic-imir.heic" "$OUT/heic-imir.ref.png"
fi
rm -f "$OUT/tmp.webp" "$OUT/tmp.heic"
touch "$stamp"
echo "formats: wrote $(ls "$OUT" | wc -l) files to $OUT"
