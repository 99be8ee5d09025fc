#!/usr/bin/env bash
# Make the TIFF test files in .cache/formats/tiff/ (git-ignored) with libtiff's own tools
# (tiffcp, tiffset from libtiff-tools), Pillow, vips and exiftool, from the generated
# fixtures in Fixtures/generated/. The tests compare forcezoom's pixels against Pillow's
# decode of the same files. Nothing is fetched. Idempotent; --force remakes everything;
# --big also makes the 200 MP tiled TIFF for the crop memory test and bench (about 60 MB).
#
# Produces in .cache/formats/tiff/ (the source picture: corners.png cut to 301x203, odd
# sizes so strips and tiles end inside the image):
#   rgb-strip-{none,lzw,deflate,packbits,zstd}.tif   8-bit RGB, 16-row strips, tiffcp -c ...
#   rgb-tile-{none,lzw,deflate}.tif                  64x64 tiles
#   rgb-strip-planar.tif, rgb-tile-planar-lzw.tif   planes separate (tiffcp -p separate)
#   rgb-jpeg-ycbcr.tif                               YCbCr JPEG tiles (tiffcp -c jpeg, lossy)
#   gray-8.tif gray-16.tif gray-1.tif gray-2.tif gray-4.tif gray-1-tile.tif   gray depths
#   palette-8.tif                                    palette (Pillow P)
#   rgba-unassoc.tif, rgba-assoc.tif                 alpha unassociated (Pillow) / associated (vips premultiply)
#   rgb-16.tif rgba-16.tif rgba-16-tile.tif          16-bit RGB, RGBA (vips), RGBA in 16x16 LZW tiles
#   cmyk.tif                                          CMYK, Pillow
#   orient-N.tif                                     N = 1..8: the 96x64 orientation picture stored as N turns it, Orientation N (tiffset)
#   pages.tif                                        3 pages (rgb-strip-none, gray-8, palette-8)
#   meta.tif                                         rgb-strip-lzw + EXIF (Make, Model, DateTimeOriginal) + XMP title (exiftool)
#   pyramid.tif, pyramid-subifd.tif                  2000x1500 tiled pyramids (vips tiffsave --pyramid [--subifd])
#   NAME.ref.png, NAME.ref16.png, NAME.page-K.ref.png   Pillow's decodes (Tools/formats/tiff-refs.py)
#   big-tiled.tif (--big)                            14400x14000 (201.6 MP) RGB, 256x256 deflate tiles (vips)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=.cache/formats/tiff
PY=/usr/bin/python3  # Pillow (python3-pil) is installed for the system Python
GEN=Fixtures/generated
FORCE=0
BIG=0
for a in "$@"; do
  [ "$a" = "--force" ] && FORCE=1
  [ "$a" = "--big" ] && BIG=1
done
mkdir -p "$OUT"
stamp="$OUT/.done-v2"
q() { "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; "$@"; exit 1; }; }

if [ $FORCE = 1 ] || [ ! -f "$stamp" ]; then
  find "$OUT" -maxdepth 1 -type f ! -name 'big-*' -delete
  "$PY" - "$GEN" "$OUT" <<'EOF'
import sys
from PIL import Image
gen, out = sys.argv[1], sys.argv[2]
src = Image.open(f"{gen}/corners.png").convert("RGB").crop((0, 0, 301, 203))
src.save(f"{out}/src.tif")  # uncompressed, one strip per 8 KB
gray = src.convert("L")
gray.save(f"{out}/gray-8.tif")
gray.point(lambda v: v * 257).convert("I;16") if False else None
Image.frombytes("I;16", gray.size, bytes(b for v in gray.getdata() for b in ((v * 257) & 0xFF, (v * 257) >> 8))).save(f"{out}/gray-16.tif")
gray.save(f"{out}/gray-8.png")
gray.convert("1").save(f"{out}/gray-1.tif")
src.quantize(64).save(f"{out}/palette-8.tif")
rgba = src.copy()
alpha = Image.linear_gradient("L").resize(src.size).point(lambda v: 0 if v < 30 else v)
rgba.putalpha(alpha)
rgba.save(f"{out}/rgba-unassoc.tif")
rgba.save(f"{out}/rgba.png")
src.convert("CMYK").save(f"{out}/cmyk.tif")
src.save(f"{out}/src.png")
EOF
  q tiffcp -c none -r 16 "$OUT/src.tif" "$OUT/rgb-strip-none.tif"
  for c in lzw packbits zstd; do q tiffcp -c $c -r 16 "$OUT/src.tif" "$OUT/rgb-strip-$c.tif"; done
  q tiffcp -c zip -r 16 "$OUT/src.tif" "$OUT/rgb-strip-deflate.tif"
  q tiffcp -c none -t -w 64 -l 64 "$OUT/src.tif" "$OUT/rgb-tile-none.tif"
  q tiffcp -c lzw -t -w 64 -l 64 "$OUT/src.tif" "$OUT/rgb-tile-lzw.tif"
  q tiffcp -c zip -t -w 64 -l 64 "$OUT/src.tif" "$OUT/rgb-tile-deflate.tif"
  q tiffcp -c none -p separate -r 16 "$OUT/src.tif" "$OUT/rgb-strip-planar.tif"
  q tiffcp -c lzw -p separate -t -w 64 -l 64 "$OUT/src.tif" "$OUT/rgb-tile-planar-lzw.tif"
  q tiffcp -c jpeg -t -w 64 -l 64 "$OUT/src.tif" "$OUT/rgb-jpeg-ycbcr.tif"
  q tiffcp -c packbits -t -w 32 -l 32 "$OUT/gray-1.tif" "$OUT/gray-1-tile.tif"
  q vips copy "$OUT/gray-8.png" "$OUT/gray-2.tif[bitdepth=2]"
  q vips copy "$OUT/gray-8.png" "$OUT/gray-4.tif[bitdepth=4,tile,tile-width=32,tile-height=32]"
  q vips copy "$GEN/png-rgb-16.png" "$OUT/rgb-16.tif[compression=deflate]"
  q vips copy "$GEN/png-rgba-16.png" "$OUT/rgba-16.tif"
  q tiffcp -t -w 16 -l 16 -c lzw "$OUT/rgba-16.tif" "$OUT/rgba-16-tile.tif"
  q vips copy "$OUT/rgba.png" "$OUT/rgba-assoc.tif[premultiply]"
  "$PY" Tools/formats/oriented.py "$GEN/png-rgb-8-trns.png" "$OUT"
  for n in 1 2 3 4 5 6 7 8; do
    "$PY" -c "from PIL import Image; Image.open('$OUT/stored-$n.png').convert('RGB').save('$OUT/orient-$n.tif')"
    q tiffset -s 274 $n "$OUT/orient-$n.tif"
  done
  q tiffcp "$OUT/rgb-strip-none.tif" "$OUT/gray-8.tif" "$OUT/palette-8.tif" "$OUT/pages.tif"
  cp "$OUT/rgb-strip-lzw.tif" "$OUT/meta.tif"
  q exiftool -overwrite_original -Make=ForceZoomTest -Model=TIFF-1 '-DateTimeOriginal=2024:05:06 07:08:09' \
    -XMP-dc:Title=tiff-xmp-title "$OUT/meta.tif"
  q vips resize "$GEN/corners.png" "$OUT/pyr-src.v" 3.3333
  q vips tiffsave "$OUT/pyr-src.v" "$OUT/pyramid.tif" --tile --pyramid --compression deflate
  q vips tiffsave "$OUT/pyr-src.v" "$OUT/pyramid-subifd.tif" --tile --pyramid --subifd --compression deflate
  rm -f "$OUT/pyr-src.v" "$OUT"/stored-*.png "$OUT"/exif-*.tiff
  "$PY" Tools/formats/tiff-refs.py "$OUT"
  touch "$stamp"
  echo "tiff: made $(ls "$OUT" | wc -l) files in $OUT"
else
  echo "tiff: $OUT up to date"
fi

if [ $BIG = 1 ] && [ ! -f "$OUT/big-tiled.tif" ]; then
  # 24 x 35 copies of the 600x400 corners picture: 14400 x 14000 = 201.6 MP.
  q vips replicate "$GEN/corners.png" "$OUT/big-src.v" 24 35
  q vips tiffsave "$OUT/big-src.v" "$OUT/big-tiled.tif" --tile --tile-width 256 --tile-height 256 --compression deflate
  rm -f "$OUT/big-src.v"
  echo "tiff: made $OUT/big-tiled.tif"
fi
