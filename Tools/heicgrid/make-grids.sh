#!/usr/bin/env bash
# Make the HEIF grid test files in .cache/heicgrid/ (git-ignored) with Tools/heicgrid/heicgrid.py
# (tiles encoded by heif-enc, grid boxes written by the script) and their reference decodes
# by heif-convert (NAME.ref.png), which the tile-path tests compare forcezoom's crops against.
# Idempotent; --force remakes everything; --bench also makes the 12, 48 and 200 MP grids
# (4032x3024 as an iPhone's 8x6 tiles with Display P3 nclx, 8000x6000, 16320x12240; 512x512
# tiles, 8 distinct tiles repeated) for bench/bench.py.
#
#   orient-R-M.heic   4x3 tiles of 64x64 cut to 250x180, irot R (0/90/180/270), imir M (n = none, 1)
#   clap-90.heic      the same with clap 151x101 off centre (3,-5), irot 90, imir 0
#   clap-270.heic     clap 201x133 centred, irot 270
#   p3.heic           colr nclx 12/13/6 full range on the grid only, irot 90
#   alpha.heic        RGBA tiles: an alpha grid (auxl) of its own, irot 180
#   grid.avif         AV1 tiles, irot 90, imir 1;   alpha-av1.avif: AV1 with an alpha grid
#   deep.heic         10-bit tiles (16-bit PNG references)
#   wide.heic         16x12 tiles cut to 1000x760: a whole decode needs ~6 MB, a band of tiles < 1 MiB
#   deep12.heic       12-bit tiles, 16x12 of 64x64 cut to 1000x760, irot 90 (libheif 1.15 mirrors only
#                     8-bit images, so no imir): a 16-bit whole decode needs ~6 MB, a crop's tiles < 1 MiB
#   deep-alpha.heic   10-bit RGBA tiles (an alpha grid), irot 270
#   bad-KIND.heic     KIND = cover, count, size, outside, truncated (heicgrid.py --break)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=.cache/heicgrid
PY=/usr/bin/python3
G=Tools/heicgrid/heicgrid.py
FORCE=0
BENCH=0
for a in "$@"; do
  [ "$a" = --force ] && FORCE=1
  [ "$a" = --bench ] && BENCH=1
done
mkdir -p "$OUT"
stamp="$OUT/.done-v2"
if [ $FORCE = 1 ]; then rm -rf "$OUT"; mkdir -p "$OUT"; fi
if [ ! -f "$stamp" ]; then
  command -v heif-enc >/dev/null || { echo "make-grids: heif-enc (libheif-examples) is needed" >&2; exit 1; }
  small=(--grid 4x3 --tile 64x64 --size 250x180)
  for r in 0 90 180 270; do
    for m in n 1; do
      args=("${small[@]}")
      [ $r != 0 ] && args+=(--irot $r)
      [ $m != n ] && args+=(--imir $m)
      "$PY" $G "$OUT/orient-$r-$m.heic" "${args[@]}"
    done
  done
  "$PY" $G "$OUT/clap-90.heic" "${small[@]}" --clap 151,101,3,-5 --irot 90 --imir 0
  "$PY" $G "$OUT/clap-270.heic" "${small[@]}" --clap 201,133,0,0 --irot 270
  "$PY" $G "$OUT/p3.heic" "${small[@]}" --nclx 12,13,6,1 --irot 90
  "$PY" $G "$OUT/alpha.heic" "${small[@]}" --alpha --irot 180
  "$PY" $G "$OUT/grid.avif" "${small[@]}" --irot 90 --imir 1
  "$PY" $G "$OUT/alpha-av1.avif" --grid 3x2 --tile 64x64 --size 180x100 --alpha
  "$PY" $G "$OUT/deep.heic" "${small[@]}" --bits 10
  "$PY" $G "$OUT/wide.heic" --grid 16x12 --tile 64x64 --size 1000x760 --distinct 12
  for f in "$OUT"/*.heic "$OUT"/*.avif; do
    case "$f" in */bad-*|*/grid-*) continue ;; esac
    heif-convert "$f" "${f%.*}.ref.png" >/dev/null
  done
  for k in cover count size outside truncated; do "$PY" $G "$OUT/bad-$k.heic" --break $k; done
  touch "$stamp"
fi
# Added after the files above: checked on its own so that they are not remade.
if [ ! -f "$OUT/deep12.ref.png" ] || [ ! -f "$OUT/deep-alpha.ref.png" ]; then
  "$PY" $G "$OUT/deep12.heic" --grid 16x12 --tile 64x64 --size 1000x760 --distinct 12 --bits 12 --irot 90
  "$PY" $G "$OUT/deep-alpha.heic" --grid 4x3 --tile 64x64 --size 250x180 --bits 10 --alpha --irot 270
  for f in deep12 deep-alpha; do heif-convert "$OUT/$f.heic" "$OUT/$f.ref.png" >/dev/null; done
fi
if [ $BENCH = 1 ] && [ ! -f "$OUT/.bench-v2" ]; then
  "$PY" $G "$OUT/grid-12mp.heic" --grid 8x6 --tile 512x512 --size 4032x3024 --distinct 8 --quality 60 --nclx 12,13,6,1
  "$PY" $G "$OUT/grid-48mp.heic" --grid 16x12 --tile 512x512 --size 8000x6000 --distinct 8 --quality 60
  "$PY" $G "$OUT/grid-200mp.heic" --grid 32x24 --tile 512x512 --size 16320x12240 --distinct 8 --quality 60
  touch "$OUT/.bench-v2"
fi
echo "heicgrid: $OUT up to date"
