#!/usr/bin/env bash
# make-deb.sh FZ MANPAGE VERSION OUTDIR: builds OUTDIR/forcezoom_VERSION_ARCH.deb with Debian's
# own tools, no debian/ source tree: the files are staged by hand as dh_install, dh_strip,
# dh_compress and dh_installdocs would lay them out, dpkg-shlibdeps writes Depends from what the
# binary links, dpkg-deb --root-owner-group builds it (files root:root without fakeroot).
# `make deb` runs it after `make release man`; VERSION is the one in ForceZoom.swift and the
# binary must say the same (`forcezoom --version`), so a stale binary is refused.
set -euo pipefail
FZ=$1 MAN=$2 VERSION=$3 OUT=$4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
die() { echo "make-deb: $*" >&2; exit 1; }

[[ -x $FZ ]] || die "$FZ: no binary; run make release"
[[ -s $MAN ]] || die "$MAN: no man page; run make man"
said=$("$FZ" --version)
[[ $said == "$VERSION" ]] || die "$FZ --version says $said, ForceZoom.swift says $VERSION: rebuild (make release)"
grep -q "^\.Os forcezoom $VERSION\$" "$MAN" || die "$MAN is not the man page of $VERSION: run make man"
if ldd "$FZ" | grep -q 'libswift'; then die "$FZ links a Swift library dynamically; build with --static-swift-stdlib"; fi

ARCH=$(dpkg --print-architecture)
NAME=forcezoom_${VERSION}_${ARCH}
STAGE=$ROOT/.build/deb/$NAME
rm -rf "$STAGE"
DOC=$STAGE/usr/share/doc/forcezoom
install -d "$STAGE/DEBIAN" "$STAGE/usr/bin" "$STAGE/usr/share/man/man1" "$DOC" \
  "$STAGE/usr/share/bash-completion/completions" "$STAGE/usr/share/zsh/vendor-completions" \
  "$STAGE/usr/share/fish/vendor_completions.d"

# As dh_strip does: no symbol table, .comment or .note sections (39 MB to about 19 MB).
install -m 755 "$FZ" "$STAGE/usr/bin/forcezoom"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$STAGE/usr/bin/forcezoom"

gzip -9n < "$MAN" > "$STAGE/usr/share/man/man1/forcezoom.1.gz"
# bash-completion sources its scripts: no #! line (lintian's bash-completion-with-hashbang).
"$FZ" --generate-completion-script bash | sed '1{/^#!/d}' > "$STAGE/usr/share/bash-completion/completions/forcezoom"
"$FZ" --generate-completion-script zsh > "$STAGE/usr/share/zsh/vendor-completions/_forcezoom"
"$FZ" --generate-completion-script fish > "$STAGE/usr/share/fish/vendor_completions.d/forcezoom.fish"

# The README and the guides (compressed, as Debian policy 12.3 asks of docs over 4 kB) and the
# copyright file.
gzip -9n < "$ROOT/README.md" > "$DOC/README.md.gz"
# The guides the README links to (docs/*.md), where its relative links find them.
install -d "$DOC/docs"
for guide in "$ROOT"/docs/*.md; do gzip -9n < "$guide" > "$DOC/docs/$(basename "$guide").gz"; done
install -m 644 "$HERE/copyright" "$DOC/copyright"
# A native package's changelog (policy 12.7): one entry for this version, dated by the last commit.
date=$(git -C "$ROOT" log -1 --format=%cD 2>/dev/null || date -R)
maintainer=$(sed -n 's/^Maintainer: //p' "$HERE/control")
printf 'forcezoom (%s) unstable; urgency=medium\n\n  * Release %s, built from commit %s.\n\n -- %s  %s\n' \
  "$VERSION" "$VERSION" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  "$maintainer" "$date" | gzip -9n > "$DOC/changelog.gz"
find "$STAGE/usr" -type f -exec chmod 644 {} + && chmod 755 "$STAGE/usr/bin/forcezoom"

# Depends from the ELF's NEEDED entries (libpng16-16, libjpeg62-turbo, libwebp7, libde265-0,
# liblcms2-2, libgif7, libturbojpeg0, libisal2, zlib1g, libc6, libstdc++6, libgcc-s1). libheif,
# libjxl, libtiff, libraw and FFmpeg's libraries are opened with dlopen on first use (CFZHeif,
# CFZJXL, CFZTIFF, CFZRaw: *_loader.c; CFZVideo: fz_video.c), which dpkg-shlibdeps cannot see: the binary's own format registry names
# their packages (dlopen-depends.sh reads `forcezoom info --formats --json`: libheif1 brings the
# HEVC/AV1 codecs and the x265/aom encoders, libjxl0.7 is the ABI fz_jxl_loader.c opens).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: forcezoom\n\nPackage: forcezoom\nArchitecture: any\n' > "$work/debian/control"
(cd "$work" && dpkg-shlibdeps -O "$STAGE/usr/bin/forcezoom") > "$work/shlibs"
depends=$(sed -n 's/^shlibs:Depends=//p' "$work/shlibs")
[[ -n $depends ]] || die "dpkg-shlibdeps found no dependencies"
depends="$depends, $("$HERE/dlopen-depends.sh" "$FZ")"

size=$(du -sk --exclude=DEBIAN "$STAGE" | cut -f1)
{
  cat "$HERE/control"
  echo "Version: $VERSION"
  echo "Architecture: $ARCH"
  echo "Installed-Size: $size"
  echo "Depends: $depends"
  cat "$HERE/description"
} > "$STAGE/DEBIAN/control"
(cd "$STAGE" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$STAGE/DEBIAN/md5sums"
chmod 644 "$STAGE/DEBIAN/control" "$STAGE/DEBIAN/md5sums"

mkdir -p "$OUT"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$OUT/$NAME.deb" >/dev/null
echo "$OUT/$NAME.deb ($(du -h "$OUT/$NAME.deb" | cut -f1); installed $size kB)"
echo "Depends: $depends"
