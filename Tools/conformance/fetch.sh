#!/usr/bin/env bash
# Fetch PNG/JPEG conformance images from Debian's source packages
# (libpng1.6, libjpeg-turbo) into .cache/conformance/. Idempotent.
# Nothing third-party is committed to the repo; see README.md beside this file.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.cache/conformance"

if [[ -e "$out/.done" ]]; then
  echo "conformance data already present in $out (delete $out/.done to refetch)"
  exit 0
fi

SUDO=""
if [[ "$(id -u)" -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# 1. Make sure apt knows about source packages (deb-src), in either format.
shopt -s nullglob
have_src=0
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [[ -f "$f" ]] && grep -qE '^[[:space:]]*deb-src[[:space:]]' "$f" && have_src=1
done
for f in /etc/apt/sources.list.d/*.sources; do
  grep -qiE '^[[:space:]]*Types:.*(^|[[:space:]])deb-src([[:space:]]|$)' "$f" \
    && ! grep -qiE '^[[:space:]]*Enabled:[[:space:]]*no' "$f" && have_src=1
done
shopt -u nullglob
if [[ "$have_src" -eq 0 ]]; then
  echo "adding deb-src entry /etc/apt/sources.list.d/forcezoom-deb-src.sources"
  printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' \
    'Suites: bookworm' 'Components: main' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
    $SUDO tee /etc/apt/sources.list.d/forcezoom-deb-src.sources >/dev/null
fi

$SUDO apt-get update -qq
# Reference decoders: pypng (pure Python, independent of libpng) for PNG,
# djpeg (libjpeg-turbo-progs) to verify the JPEG manifest.
$SUDO apt-get install -y -qq --no-install-recommends python3-png libjpeg-turbo-progs >/dev/null

# 2. Download the source packages (no unpacking/patching by dpkg-source).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"   # apt's _apt sandbox user must be able to write here
(cd "$tmp" && apt-get source --download-only -qq libpng1.6 libjpeg-turbo)

png_tar=( "$tmp"/libpng1.6_*.orig.tar.* )
jpg_tar=( "$tmp"/libjpeg-turbo_*.orig.tar.* )
[[ -f "${png_tar[0]}" ]] || { echo "libpng orig tarball not found" >&2; exit 1; }
[[ -f "${jpg_tar[0]}" ]] || { echo "libjpeg-turbo orig tarball not found" >&2; exit 1; }

mkdir -p "$tmp/png" "$tmp/jpg"
tar -xf "${png_tar[0]}" -C "$tmp/png"
tar -xf "${jpg_tar[0]}" -C "$tmp/jpg"
png_src=( "$tmp"/png/*/ ); jpg_src=( "$tmp"/jpg/*/ )
png_src="${png_src[0]%/}"; jpg_src="${jpg_src[0]%/}"

# 3. Lay out .cache/conformance/ (replace any partial earlier attempt).
mkdir -p "$out"
printf '*\n' > "$out/.gitignore"   # keep everything here out of git
rm -rf "$out/png" "$out/jpeg"
mkdir -p "$out/png" "$out/jpeg"
cp -a "$png_src/contrib/pngsuite" "$out/png/pngsuite"
cp -a "$png_src/contrib/testpngs" "$out/png/testpngs"
cp "$png_src/LICENSE" "$out/png/LICENSE"
cp -a "$jpg_src/testimages/." "$out/jpeg/"
for f in LICENSE.md README.ijg; do cp "$jpg_src/$f" "$out/jpeg/$f"; done
{
  echo "libpng: $(basename "${png_tar[0]}")"
  echo "libjpeg-turbo: $(basename "${jpg_tar[0]}")"
} > "$out/SOURCES"

touch "$out/.done"
echo "fetched into $out: $(find "$out/png" -name '*.png' | wc -l) PNG, $(find "$out/jpeg" -name '*.jpg' | wc -l) JPEG files"
