#!/usr/bin/env bash
# Make the JPEG XL test files in .cache/jxl/ (git-ignored) with libjxl's own tools (cjxl
# from libjxl-tools) and their reference decodes with djxl, which the tests compare
# forcezoom's pixels against. Nothing is fetched. Sources are the generated fixtures in
# Fixtures/generated/ and the orientation pictures of make-formats.sh (.cache/formats/).
# Idempotent; --force remakes everything.
#
# Produces in .cache/jxl/ (NAME.ref.png = djxl's output of NAME, orientation applied):
#   jxl-lossy.jxl          corners.png (600x400), cjxl -q 90 (VarDCT, XYB)
#   jxl-lossless.jxl       coords-512x384.png, cjxl -d 0 (exact: equals the PNG)
#   jxl-alpha.jxl          png-rgba-8.png (64x48), cjxl -q 90 (lossy colour and alpha)
#   jxl-alpha-lossless.jxl png-rgba-8.png, cjxl -d 0
#   jxl-16.jxl             png-rgb-16.png (64x48, 16-bit), cjxl -d 0; ref at 16 bits
#   jxl-gray.jxl           png-gray-8.png, cjxl -d 0
#   jxl-exif-N.jxl         N = 1..8: the 96x64 orientation picture stored turned as EXIF N
#                          says, through a PNG with that eXIf: cjxl -d 0 moves it into the
#                          codestream orientation field
#   jxl-meta.jxl           a JPEG with Exif (Artist, Orientation 1) and XMP (dc:title),
#                          cjxl (lossless JPEG recompression): Exif and XMP in Brotli "brob" boxes
#   jxl-anim.jxl           an APNG of png-rgb-8.png then frame2.png (64x48), cjxl -d 0
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=.cache/jxl
PY=/usr/bin/python3  # Pillow (python3-pil) is installed for the system Python
GEN=Fixtures/generated
FMT=.cache/formats
FORCE=0
[ "${1:-}" = "--force" ] && FORCE=1
mkdir -p "$OUT"
stamp="$OUT/.done-v1"
if [ $FORCE = 0 ] && [ -f "$stamp" ]; then echo "jxl: $OUT up to date"; exit 0; fi
if ! command -v cjxl >/dev/null; then echo "jxl: cjxl missing (apt install libjxl-tools)" >&2; exit 1; fi
[ -f "$FMT/stored-1.png" ] || Tools/formats/make-formats.sh
rm -f "$OUT"/*

q() { "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; "$@"; exit 1; }; }

q cjxl "$GEN/corners.png" "$OUT/jxl-lossy.jxl" -q 90
q cjxl "$GEN/coords-512x384.png" "$OUT/jxl-lossless.jxl" -d 0
q cjxl "$GEN/png-rgba-8.png" "$OUT/jxl-alpha.jxl" -q 90
q cjxl "$GEN/png-rgba-8.png" "$OUT/jxl-alpha-lossless.jxl" -d 0
q cjxl "$GEN/png-rgb-16.png" "$OUT/jxl-16.jxl" -d 0
q cjxl "$GEN/png-gray-8.png" "$OUT/jxl-gray.jxl" -d 0
for n in 1 2 3 4 5 6 7 8; do
  "$PY" -c "
from PIL import Image
Image.open('$FMT/stored-$n.png').save('$OUT/tmp.png', exif=open('$FMT/exif-$n.tiff', 'rb').read())"
  q cjxl "$OUT/tmp.png" "$OUT/jxl-exif-$n.jxl" -d 0
done
"$PY" -c "
from PIL import Image
Image.open('$GEN/corners.png').convert('RGB').save('$OUT/tmp.jpg', quality=92)
a = Image.open('$GEN/png-rgb-8.png').convert('RGB')
b = Image.open('$FMT/frame2.png').convert('RGB')
a.save('$OUT/tmp-anim.png', save_all=True, append_images=[b], duration=100, loop=0)"
q exiftool -overwrite_original -Artist='forcezoom test' -Orientation=1 -n -XMP-dc:Title='jxl box' "$OUT/tmp.jpg"
q cjxl "$OUT/tmp.jpg" "$OUT/jxl-meta.jxl"
q cjxl "$OUT/tmp-anim.png" "$OUT/jxl-anim.jxl" -d 0
for f in jxl-lossy jxl-lossless jxl-alpha jxl-alpha-lossless jxl-gray jxl-meta; do
  q djxl "$OUT/$f.jxl" "$OUT/$f.ref.png"
done
q djxl "$OUT/jxl-16.jxl" "$OUT/jxl-16.ref.png" --bits_per_sample=16
for n in 1 2 3 4 5 6 7 8; do q djxl "$OUT/jxl-exif-$n.jxl" "$OUT/jxl-exif-$n.ref.png"; done
rm -f "$OUT"/tmp*
touch "$stamp"
echo "jxl: made $(ls "$OUT"/*.jxl | wc -l) files in $OUT"
