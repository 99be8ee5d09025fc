#!/usr/bin/env bash
# Re-make Fixtures/photos/peek.jpg, the small real photo kept in the repo (README demo,
# tests). Needs root or sudo only to apt-get update / install the tools, as get-photos.sh.
#
# Source: seeding_by_Clements_Engelhardt.jpg (CC0-1.0) from Debian bookworm's
# lomiri-wallpapers-16.04 20.04.0-2, 5312x2988 progressive JPEG 4:2:0, no EXIF.
# Steps:
#   1. djpeg (libjpeg-turbo defaults: islow IDCT, fancy upsampling) -> PPM
#   2. ImageMagick 6: -filter Lanczos -resize 1600x900!   (exactly 16:9 -> 16:9, factor 3.32)
#   3. cjpeg -quality 85 -sample 2x2 -optimize            (baseline, 4:2:0, JFIF)
#      -> .cache/photos/peek-upright.jpg  (the upright picture; git-ignored, not committed)
#   4. jpegtran -rotate 270 -copy none -perfect            (stored 900x1600; lossless and
#      nothing trimmed, because 1600 is a multiple of the 16-pixel iMCU)
#   5. exiftool -n -Orientation=6 -overwrite_original      (EXIF APP1 added after JFIF APP0)
#      -> Fixtures/photos/peek.jpg: displays as the 1600x900 landscape peek-upright.jpg,
#         pixel for pixel (checked: jpegtran -rotate 90 of the stored pixels, djpeg, cmp).
# Another ImageMagick or libjpeg version can give other bytes; the picture is the same.
set -euo pipefail

# shellcheck source=Tools/photos/lib.sh
. "$(dirname "$0")/lib.sh"

OUT="$PHOTOS_ROOT/Fixtures/photos/peek.jpg"
UPRIGHT="$CACHE/peek-upright.jpg"
W=1600 H=900 Q=85

mkdir -p "$CACHE" "$(dirname "$OUT")"
[ -f "$CACHE/.gitignore" ] || printf '*\n' > "$CACHE/.gitignore"

ensure_tools
D1604="$(fetch_pkg "$PKG_LOMIRI_1604")"
SRC="$D1604/usr/share/backgrounds/seeding_by_Clements_Engelhardt.jpg"
check_sha "$SRC"

log "peek-upright.jpg: $(dims "$SRC") -> ${W}x${H}, quality $Q"
djpeg -ppm "$SRC" \
  | "$IM" ppm:- -filter Lanczos -resize "${W}x${H}!" -depth 8 ppm:- \
  | cjpeg -quality "$Q" -sample 2x2 -optimize -outfile "$UPRIGHT.tmp"
mv -f "$UPRIGHT.tmp" "$UPRIGHT"

log "peek.jpg: jpegtran -rotate 270 -copy none -perfect + exiftool -Orientation=6"
make_orient6 "$UPRIGHT" "$OUT"
verify_orient6 "$UPRIGHT" "$OUT"

bytes="$(stat -c %s "$OUT")"
[ "$bytes" -lt 400000 ] || die "peek.jpg is $bytes bytes, over the 400 KB budget"
log "wrote $OUT: stored $(dims "$OUT"), Orientation=$(exiftool -s3 -n -Orientation "$OUT"), $bytes bytes"
