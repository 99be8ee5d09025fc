#!/usr/bin/env bash
# Build and verify .cache/conformance/jpeg/manifest.tsv from libjpeg-turbo's
# testimages (run fetch.sh first). libjpeg-turbo ships NO decoded reference
# for its .jpg files: testorig.ppm is the *encoder input* (testorig.jpg does
# not decode to it), and the vgl_*/nightshot_*.bmp files are tjbench inputs
# without .jpg counterparts. Its CMakeLists.txt checks djpeg output by MD5
# instead. So this script decodes each 8-bit .jpg with the real djpeg at
# default settings (islow DCT, fancy upsampling) into ref/<stem>.ppm and
# writes a manifest row only if that reference is anchored to upstream's
# MD5s (libjpeg-turbo 2.1.5 CMakeLists.txt, 8-bit branch):
#   MD5_PPM_420_ISLOW_SKIP15_31         djpeg -dct int -skip 15,31 -ppm testorig.jpg
#   MD5_PPM_420_ISLOW_ARI_SKIP16_139    djpeg -dct int -skip 16,139 -ppm testimgari.jpg
#   MD5_PPM_420_ISLOW_ARI_CROP53x53_4_4 djpeg -dct int -crop 53x53+4+4 -ppm testimgari.jpg
#   MD5_JPEG_420_ISLOW_ARI = md5(testimgari.jpg)  (cjpeg -dct int -arithmetic testorig.ppm)
#   MD5_JPEG_420_ISLOW     = md5(testimgint.jpg) = md5(jpegtran testimgari.jpg)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$(cd "$here/../.." && pwd)/.cache/conformance/jpeg"
[[ -f "$dir/testorig.jpg" ]] || { echo "run Tools/conformance/fetch.sh first" >&2; exit 1; }
if ! command -v djpeg >/dev/null || ! command -v jpegtran >/dev/null; then
  SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libjpeg-turbo-progs >/dev/null
fi
cd "$dir"
mkdir -p ref
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

md5() { md5sum | cut -d' ' -f1; }
# ppm_cut FILE MODE ARGS: print md5 of FILE with rows y0..y1 removed
# ("skip y0 y1") or of the WxH region at x,y ("crop w h x y"), as djpeg writes it.
ppm_cut() {
  python3 - "$@" <<'PY'
import hashlib, sys
f, mode, *a = sys.argv[1:]; a = list(map(int, a))
m = open(f, 'rb').read().split(maxsplit=4); W, H, px = int(m[1]), int(m[2]), m[4]
rows = [px[y*W*3:(y+1)*W*3] for y in range(H)]
if mode == 'skip':
    rows = rows[:a[0]] + rows[a[1]+1:]; w = W
else:
    w, h, x, y = a; rows = [r[x*3:(x+w)*3] for r in rows[y:y+h]]
out = b'P6\n%d %d\n255\n' % (w, len(rows)) + b''.join(rows)
print(hashlib.md5(out).hexdigest())
PY
}

opts="-dct int -ppm"   # = djpeg defaults (islow DCT, fancy upsampling), PPM out
rows=()
for stem in testorig testimgint testimgari; do
  djpeg $opts -outfile "ref/$stem.ppm" "$stem.jpg"
  djpeg -outfile "$tmp/$stem.default.ppm" "$stem.jpg"     # no options at all
  cmp -s "ref/$stem.ppm" "$tmp/$stem.default.ppm" || { echo "$stem: -dct int differs from default" >&2; exit 1; }
done

# testorig.jpg: full decode minus rows 15..31 == upstream skip test output.
a=$(djpeg -dct int -skip 15,31 -ppm testorig.jpg | md5)
b=$(ppm_cut ref/testorig.ppm skip 15 31)
if [[ $a == c4c65c1e43d7275cd50328a61e6534f0 && $b == "$a" ]]; then
  rows+=("testorig.jpg	ref/testorig.ppm	$opts	verified:cmp-default+upstream-md5(skip15,31)")
fi
# testimgari.jpg (arithmetic): skip and crop tests.
a=$(djpeg -dct int -skip 16,139 -ppm testimgari.jpg | md5)
b=$(ppm_cut ref/testimgari.ppm skip 16 139)
djpeg -dct int -crop 53x53+4+4 -ppm -outfile "$tmp/crop.ppm" testimgari.jpg
c=$(md5 < "$tmp/crop.ppm")
read -r cw ch < <(head -n 2 "$tmp/crop.ppm" | tail -n 1)  # djpeg widens x to iMCU
d=$(ppm_cut ref/testimgari.ppm crop "$cw" "$ch" 0 4)
ari_ok=0
if [[ $a == 087c6b123db16ac00cb88c5b590bb74a && $b == "$a" &&
      $c == 886c6775af22370257122f8b16207e6d && $d == "$c" &&
      $(md5 < testimgari.jpg) == e986fb0a637a8d833d96e8a6d6d84ea1 ]]; then
  ari_ok=1
  rows+=("testimgari.jpg	ref/testimgari.ppm	$opts	verified:cmp-default+upstream-md5(skip16,139;crop53x53+4+4)")
fi
# testimgint.jpg is the Huffman transcode of testimgari.jpg: same coefficients.
if [[ $ari_ok == 1 && $(md5 < testimgint.jpg) == 9a68f56bc76e466aa7e52f415d0f4a5f &&
      $(jpegtran testimgari.jpg | md5) == 9a68f56bc76e466aa7e52f415d0f4a5f ]] &&
   cmp -s ref/testimgint.ppm ref/testimgari.ppm; then
  rows+=("testimgint.jpg	ref/testimgint.ppm	$opts	verified:cmp-default+cmp(ref/testimgari.ppm)")
fi
# testorig12.jpg: 12-bit samples; 8-bit djpeg (and forcezoom) refuse it.
if ! djpeg -ppm testorig12.jpg >/dev/null 2>"$tmp/err" && grep -q "precision 12" "$tmp/err"; then
  rows+=("testorig12.jpg	-	-	unsupported-12bit")
fi

{ printf 'jpg\treference\tdjpeg_options\tstatus\n'; printf '%s\n' "${rows[@]}"; } > manifest.tsv
echo "jpegref: ${#rows[@]} verified rows in $dir/manifest.tsv"
cat manifest.tsv
