#!/usr/bin/env bash
# deb-test.sh DEB: installs the package on a bare Debian and uses it there. A minimal bookworm
# root (debootstrap --variant=minbase, plus man-db for `man`) is made once and kept as a tarball
# in .cache/deb-test/ (about 40 s the first time, from deb.debian.org); every run unpacks a fresh
# copy (a few seconds), so no run sees another's leftovers. In a chroot of it (/proc, /dev/pts
# mounted, unmounted by the trap on every exit):
#   the Containerfile's install step (apt-get install ./forcezoom_*.deb: pulls the runtime
#   libraries, nothing of Swift), forcezoom --version equal to the package's version, a crop
#   of a JPEG and of an HEIC (made on the host by libheif's heif-enc), a thumbnail batch of a
#   folder with a broken file, a TIFF and a JPEG XL (libraries opened with dlopen), `man forcezoom`, ldd with no Swift library and nothing missing,
#   then apt-get purge + autoremove: no file of the package left and the package list as before.
# Downloaded .debs are kept in .cache/deb-test/archives between runs.
set -euo pipefail
DEB=$(realpath "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=$ROOT/.cache/deb-test
MIRROR=${DEB_TEST_MIRROR:-http://deb.debian.org/debian}
TARBALL=$CACHE/bookworm-minbase.tar
die() { echo "deb-test: FAIL: $*" >&2; exit 1; }
say() { echo "deb-test: $*"; }
start=$SECONDS

[[ $(id -u) == 0 ]] || die "needs root (debootstrap, chroot, mount)"
VERSION=$(dpkg-deb -f "$DEB" Version)
mkdir -p "$CACHE/archives/partial"

WORK=$(mktemp -d /tmp/forcezoom-deb-test.XXXXXX)
R=$WORK/root
cleanup() {
  for m in "$R/var/cache/apt/archives" "$R/dev/pts" "$R/proc"; do
    if mountpoint -q "$m" 2>/dev/null; then umount -l "$m"; fi
  done
  rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

if [[ ! -s $TARBALL ]]; then
  say "making the bookworm root (once; kept in $TARBALL)"
  t=$SECONDS
  debootstrap --variant=minbase --include=man-db bookworm "$WORK/new" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -20 "$WORK/debootstrap.log"; die "debootstrap failed"; }
  cp /etc/resolv.conf "$WORK/new/etc/resolv.conf"
  chroot "$WORK/new" apt-get update -qq
  chroot "$WORK/new" apt-get clean
  tar -C "$WORK/new" -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
  rm -rf --one-file-system "$WORK/new"
  say "root made in $((SECONDS - t)) s ($(du -h "$TARBALL" | cut -f1))"
fi
mkdir "$R"
tar -C "$R" -xf "$TARBALL"
cp /etc/resolv.conf "$R/etc/resolv.conf"
mount -t proc proc "$R/proc"
mkdir -p "$R/dev/pts" && mount -t devpts devpts "$R/dev/pts"
mount --bind "$CACHE/archives" "$R/var/cache/apt/archives"
in_root() { chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive "$@"; }
# The installed packages, one name a line (purged ones are not listed).
installed() { in_root dpkg-query -W -f '${Status} ${Package}\n' | awk '$3 == "installed" {print $4}' | sort; }
say "root ready in $((SECONDS - start)) s"

# What a user copies in, and the files the checks use.
cp "$DEB" "$R/tmp/"
W=$R/tmp/w
mkdir -p "$W/in/sub dir"
cp "$ROOT/Fixtures/photos/peek.jpg" "$W/peek.jpg"
heif-enc -q 80 -o "$W/grid.heic" "$ROOT/Fixtures/generated/grid.png" >/dev/null
cp "$W/peek.jpg" "$W/in/IMG 1.JPG"
cp "$W/grid.heic" "$W/in/sub dir/grid.heic"
head -c 3000 "$W/peek.jpg" > "$W/in/broken.jpg"
# A TIFF (libtiff, like libheif and libjxl, is opened with dlopen: Depends must name it).
/usr/bin/python3 -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2], compression="tiff_lzw")' \
  "$W/peek.jpg" "$W/peek.tif"
# A camera DNG (libraw is opened with dlopen too), without a preview so that libraw develops it.
/usr/bin/python3 "$ROOT/Tools/raw/make-dng.py" "$W/scene.dng" --size 120x80 --preview none

installed > "$WORK/before"
# The install step of the Containerfile, word for word (the container recipe's test).
step=$(sed -n 's/^RUN //p' "$ROOT/Containerfile")
[[ -n $step ]] || die "no RUN line in Containerfile"
say "install: $step"
in_root sh -ec "$step" >"$WORK/install.log" 2>&1 || { tail -30 "$WORK/install.log"; die "apt-get install failed"; }
installed > "$WORK/after"
added=$(comm -13 "$WORK/before" "$WORK/after")
say "installed $(echo "$added" | wc -l) packages: $(echo $added)"
if grep -i swift <<<"$added"; then die "a Swift package was pulled in"; fi

got=$(in_root forcezoom --version)
[[ $got == "$VERSION" ]] || die "forcezoom --version says '$got', the package $VERSION"
say "forcezoom --version: $got"

if in_root ldd /usr/bin/forcezoom | grep -E 'swift|not found'; then die "ldd: a Swift library or a missing one"; fi
say "ldd: $(in_root ldd /usr/bin/forcezoom | wc -l) libraries, none of Swift, none missing"

in_root forcezoom crop /tmp/w/peek.jpg --at 62%,45% --size 300 -o /tmp/w/crop-jpeg.png
in_root forcezoom crop /tmp/w/grid.heic --at 50%,50% --size 64 -o /tmp/w/crop-heic.jpg
# The libraries forcezoom opens on first use, from the package's Depends: a TIFF crop, a
# JPEG XL written and read back, a DNG developed by libraw.
in_root forcezoom crop /tmp/w/peek.tif --at 50%,50% --size 100 -o /tmp/w/crop-tiff.png
in_root forcezoom crop /tmp/w/crop-tiff.png --at 50%,50% --size 80 -o /tmp/w/crop.jxl
in_root forcezoom crop /tmp/w/crop.jxl --at 50%,50% --size 40 -o /tmp/w/crop-jxl.png
in_root forcezoom crop /tmp/w/scene.dng --at 50%,50% --size 32 -o /tmp/w/crop-dng.png
in_root forcezoom info /tmp/w/crop-jpeg.png /tmp/w/crop-heic.jpg /tmp/w/crop-tiff.png /tmp/w/crop.jxl \
  /tmp/w/crop-jxl.png /tmp/w/crop-dng.png | tee "$WORK/info"
grep -q 'crop-jpeg.png: PNG 300x300' "$WORK/info" || die "the JPEG crop is not a 300x300 PNG"
grep -q 'crop-heic.jpg: JPEG 64x64' "$WORK/info" || die "the HEIC crop is not a 64x64 JPEG"
grep -q 'crop-tiff.png: PNG 100x100' "$WORK/info" || die "the TIFF crop is not a 100x100 PNG"
grep -q 'crop.jxl: JPEG XL 80x80' "$WORK/info" || die "the JPEG XL output is not an 80x80 JPEG XL"
grep -q 'crop-jxl.png: PNG 40x40' "$WORK/info" || die "the JPEG XL crop is not a 40x40 PNG"
grep -q 'crop-dng.png: PNG 32x32' "$WORK/info" || die "the DNG crop is not a 32x32 PNG"

# A batch: a space in a name, an upper-case extension, a subfolder, a broken file (exit 1).
set +e
in_root sh -c 'cd /tmp/w && forcezoom thumb in --recursive --size 128 --out thumbs --name "%d/%s.jpg"' 2>&1 |
  tee "$WORK/thumb"
status=${PIPESTATUS[0]}
set -e
[[ $status == 1 ]] || die "thumb exited $status, not 1 (one broken input)"
grep -q '2 thumbnails, 1 failed' "$WORK/thumb" || die "thumb's summary"
[[ -s "$W/thumbs/IMG 1.jpg" && -s "$W/thumbs/sub dir/grid.jpg" ]] || die "the thumbnails are not there"

in_root sh -c 'MANWIDTH=80 man forcezoom 2>&1 | col -b' > "$WORK/man"
grep -q "^forcezoom $VERSION" "$WORK/man" || die "man forcezoom: no footer 'forcezoom $VERSION'"
grep -q 'thumb' "$WORK/man" || die "man forcezoom does not describe thumb"
say "man forcezoom: $(wc -l < "$WORK/man") lines, footer: $(grep "^forcezoom $VERSION" "$WORK/man" | tr -s ' ')"
[[ -s $R/usr/share/bash-completion/completions/forcezoom ]] || die "no bash completion"

# Remove it: purge, then the libraries it pulled; nothing of the package may stay.
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' > "$WORK/files"
in_root apt-get purge -y -qq forcezoom >/dev/null
in_root apt-get autoremove --purge -y -qq >/dev/null
while read -r f; do [[ ! -e $R$f ]] || die "$f is still there after purge"; done < "$WORK/files"
[[ ! -e $R/usr/share/doc/forcezoom ]] || die "/usr/share/doc/forcezoom is still there"
if in_root dpkg-query -W forcezoom 2>/dev/null; then die "dpkg still knows forcezoom"; fi
installed > "$WORK/purged"
diff "$WORK/before" "$WORK/purged" || die "the package list differs from before the install"
say "purged: none of its $(wc -l < "$WORK/files") files left, the package list as before"
say "PASS in $((SECONDS - start)) s"
