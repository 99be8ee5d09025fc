#!/usr/bin/env bash
# Fetch real photographs from Debian bookworm packages into .cache/photos/ (git-ignored)
# for forcezoom's tests, demo and benchmarks. Idempotent: re-running reuses what is there
# (pass --force to rebuild the derived files). Needs root or sudo only to apt-get update
# and to install the tools (libjpeg-turbo-progs, libimage-exiftool-perl, imagemagick);
# the photo packages are only downloaded (apt-get download) and unpacked (dpkg -x).
#
# Produces in .cache/photos/:
#   large.jpg          20.4 MP real photo, 6016x3391, baseline JPEG 4:2:2, EXIF Orientation=1.
#                      = Kleiber_by_Lukas_Baubkus.jpg (6028x3391) losslessly cropped with
#                      `jpegtran -crop 6016x3391+0+0 -copy all` to drop the 12 columns of the
#                      partial iMCU at the right edge, so the rotation below is perfect.
#   large-orient6.jpg  the same photo stored as a camera does with EXIF Orientation=6:
#                      `jpegtran -rotate 270 -copy none -perfect` (3391x6016 stored), then
#                      `exiftool -n -Orientation=6`. Its upright picture is large.jpg, pixel for pixel.
#   large.png          large.jpg's pixels (djpeg, islow IDCT, fancy upsampling) stored as 8-bit RGB PNG.
#   png/*.png          real photos that a package ships as PNG (small: 512x512, 600x400).
#   batch/*.jpg        14 real photos, 1.5-20.4 MP, as shipped (progressive and baseline,
#                      4:4:4 / 4:2:2 / 4:2:0, two portrait), for batch benchmarks.
#   MANIFEST.tsv       every file above: size, megapixels, coding, source package/version/path, licence.
# Sources and licences: Fixtures/SOURCES.md.
set -euo pipefail

FORCE=0
for a in "$@"; do
  case "$a" in
    --force) FORCE=1 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "usage: $0 [--force]" >&2; exit 2 ;;
  esac
done

# shellcheck source=Tools/photos/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir -p "$CACHE"
[ -f "$CACHE/.gitignore" ] || printf '*\n' > "$CACHE/.gitignore"   # keep the cache out of git

ensure_tools
D2004="$(fetch_pkg "$PKG_LOMIRI_2004")"
D1604="$(fetch_pkg "$PKG_LOMIRI_1604")"
DSKI="$(fetch_pkg "$PKG_SKIMAGE")"
BG2004="$D2004/usr/share/backgrounds"
BG1604="$D1604/usr/share/backgrounds"
SKDATA="$DSKI/usr/lib/python3/dist-packages/skimage/data"

want() { [ "$FORCE" -eq 1 ] || [ ! -s "$1" ]; }   # should OUT be (re)built?

# --- large.jpg --------------------------------------------------------------------------
SRC_LARGE="$BG2004/Kleiber_by_Lukas_Baubkus.jpg"
check_sha "$SRC_LARGE"
if want "$CACHE/large.jpg"; then
  read -r W H <<<"$(dims "$SRC_LARGE" | tr x ' ')"
  read -r MW _ <<<"$(mcu_size "$SRC_LARGE")"
  CW=$(( W / MW * MW ))                       # 6028 -> 6016 for 4:2:2 (iMCU 16x8)
  log "large.jpg: lossless crop ${W}x${H} -> ${CW}x${H}"
  jpegtran -copy all -crop "${CW}x${H}+0+0" -outfile "$CACHE/large.jpg.tmp" "$SRC_LARGE"
  # the crop keeps the source's EXIF; make IFD0's stale ImageWidth agree with the pixels
  exiftool -q -overwrite_original -IFD0:ImageWidth="$CW" -IFD0:ImageHeight="$H" "$CACHE/large.jpg.tmp"
  mv -f "$CACHE/large.jpg.tmp" "$CACHE/large.jpg"
fi

# --- large-orient6.jpg ------------------------------------------------------------------
if want "$CACHE/large-orient6.jpg"; then
  log "large-orient6.jpg: jpegtran -rotate 270 -copy none -perfect + exiftool -Orientation=6"
  make_orient6 "$CACHE/large.jpg" "$CACHE/large-orient6.jpg"
fi
verify_orient6 "$CACHE/large.jpg" "$CACHE/large-orient6.jpg"

# --- large.png --------------------------------------------------------------------------
if want "$CACHE/large.png"; then
  log "large.png: djpeg large.jpg | PNG"
  djpeg -ppm "$CACHE/large.jpg" \
    | "$IM" ppm:- -strip -define png:exclude-chunks=date,time "png24:$CACHE/large.png.tmp"
  mv -f "$CACHE/large.png.tmp" "$CACHE/large.png"
fi

# --- png/ : real photos shipped as PNG ----------------------------------------------------
mkdir -p "$CACHE/png"
for f in astronaut.png coffee.png; do
  check_sha "$SKDATA/$f"
  if want "$CACHE/png/$f"; then cp -f "$SKDATA/$f" "$CACHE/png/$f"; fi
done

# --- batch/ : real photos as shipped ------------------------------------------------------
# name|directory|licence as in the package's copyright file
BATCH=(
  "Kleiber_by_Lukas_Baubkus.jpg|$BG2004|CC-BY-SA-3.0, 2021 Lukas Baubkus"
  "seeding_by_Clements_Engelhardt.jpg|$BG1604|CC0-1.0, 2018 Clemens Engelhardt"
  "Dragonfly_by_Bolly.jpg|$BG1604|CC-BY-SA-4.0, 2018 \"Bolly\""
  "sunset_by_Aitzol_Berasategi.jpg|$BG1604|CC-BY-4.0, 2018 Aitzol Berasategi"
  "Bridge_by_Sander_Klootwijk.jpg|$BG1604|CC-BY-SA-4.0, 2018 Sander Klootwijk"
  "Wine_by_Jakkub_Mede.jpg|$BG1604|CC-BY-4.0, 2018 Jakub Mede"
  "picosdeeuropa_by_Aitzol_Berasategi.jpg|$BG1604|CC-BY-4.0, 2018 Aitzol Berasategi"
  "aitzgorri_by_Aitzol_Berasategi.jpg|$BG1604|CC-BY-4.0, 2018 Aitzol Berasategi"
  "life_by_Aitzol_Berasategi.jpg|$BG1604|CC-BY-4.0, 2018 Aitzol Berasategi"
  "friends_by_Aitzol_Berasategi.jpg|$BG1604|CC-BY-4.0, 2018 Aitzol Berasategi"
  "greentock_by_Peter_Nerlich.jpg|$BG1604|CC-BY-SA-4.0, 2018 Peter Nerlich"
  "free_by_Peter_Nerlich.jpg|$BG1604|CC-BY-SA-4.0, 2018 Peter Nerlich"
  "Picture_0B_by_freespace.jpg|$BG1604|CC-BY-4.0, 2018 Trevor \"Freespace\""
  "Picture_1A_by_freespace.jpg|$BG1604|CC-BY-4.0, 2018 Trevor \"Freespace\""
)
mkdir -p "$CACHE/batch"
declare -A LICENCE=()
for row in "${BATCH[@]}"; do
  IFS='|' read -r name dir lic <<<"$row"
  LICENCE[$name]="$lic"
  [ -f "$dir/$name" ] || die "$name is missing from $dir"
  if want "$CACHE/batch/$name"; then cp -f "$dir/$name" "$CACHE/batch/$name"; fi
done
LICENCE[astronaut.png]="public domain (NASA; skimage docstring), package copyright: BSD-3-Clause scikit-image team"
LICENCE[coffee.png]="CC0 (Rachel Michetti; skimage docstring), package copyright: BSD-3-Clause scikit-image team"

# --- MANIFEST.tsv -------------------------------------------------------------------------
src_of() {
  case "$1" in
    large.jpg|large-orient6.jpg|large.png) echo "$PKG_LOMIRI_2004 $(cat "$D2004/.version") /usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg (derived)" ;;
    png/*) echo "$PKG_SKIMAGE $(cat "$DSKI/.version") /usr/lib/python3/dist-packages/skimage/data/${1#png/}" ;;
    batch/Kleiber*) echo "$PKG_LOMIRI_2004 $(cat "$D2004/.version") /usr/share/backgrounds/${1#batch/}" ;;
    batch/*) echo "$PKG_LOMIRI_1604 $(cat "$D1604/.version") /usr/share/backgrounds/${1#batch/}" ;;
  esac
}
lic_of() {
  case "$1" in
    large*) echo "${LICENCE[Kleiber_by_Lukas_Baubkus.jpg]}" ;;
    *) echo "${LICENCE[$(basename "$1")]}" ;;
  esac
}
{
  printf 'file\tbytes\twidth\theight\tMP\tcoding\tsubsampling\torientation\tsource\tlicence\n'
  cd "$CACHE"
  for f in large.jpg large-orient6.jpg large.png png/*.png batch/*.jpg; do
    coding="$(exiftool -s3 -n -EncodingProcess "$f" | sed 's/^0$/baseline/;s/^1$/extended/;s/^2$/progressive/')"
    [ -n "$coding" ] || coding=png
    sub="$(exiftool -s3 -n -File:YCbCrSubSampling "$f" | tr ' ' x)"; [ -n "$sub" ] || sub=-
    orient="$(exiftool -s3 -n -Orientation "$f")"; [ -n "$orient" ] || orient=-
    read -r w h <<<"$(exiftool -s3 -n -Composite:ImageSize "$f")"
    printf '%s\t%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\n' "$f" "$(stat -c %s "$f")" "$w" "$h" \
      "$(awk -v w="$w" -v h="$h" 'BEGIN{print w*h/1e6}')" "$coding" "$sub" "$orient" "$(src_of "$f")" "$(lic_of "$f")"
  done
} > "$CACHE/MANIFEST.tsv.tmp"
mv -f "$CACHE/MANIFEST.tsv.tmp" "$CACHE/MANIFEST.tsv"

log "done: $CACHE"
column -t -s $'\t' "$CACHE/MANIFEST.tsv" | cut -c1-150 >&2 || cat "$CACHE/MANIFEST.tsv" >&2
