# shellcheck shell=bash
# Shared helpers for Tools/photos/get-photos.sh and Tools/photos/make-repo-photo.sh.
# Sourced, not run. Everything here is Debian-only: photos come from Debian
# packages fetched with `apt-get download` and unpacked with `dpkg -x`
# (never installed); the tools come from Debian packages too.

PHOTOS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="$PHOTOS_ROOT/.cache/photos"

# Debian bookworm packages and the versions SOURCES.md documents.
PKG_LOMIRI_2004=lomiri-wallpapers-20.04
PKG_LOMIRI_1604=lomiri-wallpapers-16.04
PKG_SKIMAGE=python3-skimage
declare -A PKG_VERSION=(
  [lomiri-wallpapers-20.04]=20.04.0-2
  [lomiri-wallpapers-16.04]=20.04.0-2
  [python3-skimage]=0.19.3-8
)

# sha256 of the source files as shipped in those versions (a mismatch is a warning,
# not an error: a newer package may re-encode a picture).
declare -A SRC_SHA256=(
  [Kleiber_by_Lukas_Baubkus.jpg]=6572410c09f4492c74ccadde133565a14c0161617d5917d4c820c66d65a44ba7
  [seeding_by_Clements_Engelhardt.jpg]=a5634d1ab5e41a3568e92d4a894a500c92b891f9ff734e50bd224d6e185a605f
  [astronaut.png]=88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5
  [coffee.png]=cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7
)

log() { printf '[photos] %s\n' "$*" >&2; }
die() { printf '[photos] error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root or sudo to run: $*"
  fi
}

# as root, apt's sandbox user cannot write into the cache dir; say so instead of a warning
APT_SANDBOX=""; [ "$(id -u)" -ne 0 ] || APT_SANDBOX="-o APT::Sandbox::User=root"

APT_UPDATED=0
apt_update_once() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    as_root apt-get update -qq
    APT_UPDATED=1
  fi
}

# jpegtran/djpeg/cjpeg, exiftool and ImageMagick. /usr/local/bin/convert may be a
# stand-in on some machines, so test for the real /usr/bin/convert.
ensure_tools() {
  local missing=()
  command -v jpegtran >/dev/null 2>&1 && command -v djpeg >/dev/null 2>&1 \
    && command -v cjpeg >/dev/null 2>&1 || missing+=(libjpeg-turbo-progs)
  command -v exiftool >/dev/null 2>&1 || missing+=(libimage-exiftool-perl)
  [ -x /usr/bin/convert ] || missing+=(imagemagick)
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing tools: ${missing[*]}"
    apt_update_once
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  IM=/usr/bin/convert
}

# fetch_pkg PKG -> prints the directory it was unpacked to ($CACHE/deb/PKG).
# Downloads the documented version if apt still offers it, else the candidate (warns).
fetch_pkg() {
  local pkg="$1" want="${PKG_VERSION[$1]:-}" dir="$CACHE/deb/$1" debs="$CACHE/debs"
  mkdir -p "$debs"
  if [ ! -f "$dir/.unpacked" ]; then
    local deb
    deb="$(ls "$debs/${pkg}_"*.deb 2>/dev/null | head -n1 || true)"
    if [ -z "$deb" ]; then
      apt-cache show "$pkg" >/dev/null 2>&1 || apt_update_once
      if [ -n "$want" ] && ! apt-cache show "$pkg=$want" >/dev/null 2>&1; then apt_update_once; fi
      log "apt-get download $pkg"
      if [ -n "$want" ] && apt-cache show "$pkg=$want" >/dev/null 2>&1; then
        (cd "$debs" && apt-get download -q $APT_SANDBOX "$pkg=$want" >/dev/null)
      else
        log "warning: $pkg version $want is not offered; downloading the candidate version"
        (cd "$debs" && apt-get download -q $APT_SANDBOX "$pkg" >/dev/null)
      fi
      deb="$(ls "$debs/${pkg}_"*.deb | head -n1)"
    fi
    rm -rf "$dir"; mkdir -p "$dir"
    dpkg -x "$deb" "$dir"
    dpkg-deb -f "$deb" Version > "$dir/.version"
    touch "$dir/.unpacked"
  fi
  local got; got="$(cat "$dir/.version")"
  if [ -n "$want" ] && [ "$got" != "$want" ]; then
    log "warning: $pkg is version $got, Fixtures/SOURCES.md documents $want"
  fi
  printf '%s\n' "$dir"
}

check_sha() {
  local f="$1" want="${SRC_SHA256[$(basename "$1")]:-}"
  [ -n "$want" ] || return 0
  local got; got="$(sha256sum "$f" | cut -d' ' -f1)"
  [ "$got" = "$want" ] || log "warning: $(basename "$f") sha256 $got differs from the documented $want"
}

# mcu_size FILE -> "W H" of the iMCU in pixels (8 * max sampling factor).
mcu_size() {
  local s; s="$(exiftool -s3 -n -File:YCbCrSubSampling "$1" 2>/dev/null || true)"
  case "$s" in
    "2 2") echo "16 16" ;; "2 1") echo "16 8" ;; "1 2") echo "8 16" ;;
    "4 1") echo "32 8" ;; "4 2") echo "32 16" ;; *) echo "8 8" ;;
  esac
}

# make_orient6 UPRIGHT.jpg OUT.jpg: store the pixels rotated 90° counter-clockwise
# (jpegtran -rotate 270, lossless, -perfect so nothing is trimmed) and tag the file
# EXIF Orientation=6 ("rotate 90° CW to display"), as a camera held upright-right does.
make_orient6() {
  local src="$1" out="$2" tmp="$2.tmp.jpg"
  jpegtran -rotate 270 -copy none -perfect -outfile "$tmp" "$src" \
    || die "jpegtran -rotate 270 -perfect refused $src (width not a multiple of the iMCU)"
  exiftool -q -n -Orientation=6 -overwrite_original "$tmp"
  mv -f "$tmp" "$out"
}

# verify_orient6 UPRIGHT.jpg ORIENT6.jpg: Orientation is 6, and turning the stored
# pixels 90° clockwise (lossless) decodes to exactly the upright file's pixels.
verify_orient6() {
  local up="$1" o6="$2" tmp
  tmp="$(mktemp -d)"
  local o; o="$(exiftool -s3 -n -Orientation "$o6")"
  [ "$o" = "6" ] || die "$o6: EXIF Orientation is '$o', expected 6"
  jpegtran -rotate 90 -copy none -perfect -outfile "$tmp/back.jpg" "$o6"
  djpeg -ppm -outfile "$tmp/a.ppm" "$up"
  djpeg -ppm -outfile "$tmp/b.ppm" "$tmp/back.jpg"
  cmp -s "$tmp/a.ppm" "$tmp/b.ppm" || { rm -rf "$tmp"; die "$o6: rotated-back pixels differ from $up"; }
  rm -rf "$tmp"
  log "verified $(basename "$o6"): Orientation=6, rotate 90 of stored pixels == $(basename "$up") pixels"
}

dims() { exiftool -s3 -ImageSize "$1"; }
