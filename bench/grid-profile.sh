#!/usr/bin/env bash
# Where the CPU goes when forcezoom decodes a whole HEIC grid (issue 25's gt12 and gf12 rows):
# perf samples of `thumb --no-embedded-thumbnail` and `fit` of .cache/heicgrid/grid-12mp.heic,
# by library and by function, with libde265 (Debian's is stripped) rebuilt from Debian's own
# source with symbols and preloaded, and the floor that follows: libde265's CPU alone spread
# over the cores. Run by hand on a quiet machine (it is a profile, not a test):
#   bench/grid-profile.sh            # needs perf (linux-perf), cmake, deb-src for bookworm
# Output: a table on stdout; the raw profiles in .cache/profile/.
set -euo pipefail
cd "$(dirname "$0")/.."
FZ=${FZ:-.build/release/forcezoom}
G=.cache/heicgrid/grid-12mp.heic
P=.cache/profile
mkdir -p "$P"
[ -x "$FZ" ] || { echo "grid-profile: build $FZ first (make release)" >&2; exit 1; }
[ -f "$G" ] || { echo "grid-profile: make heicgrids-bench first" >&2; exit 1; }
command -v perf >/dev/null || { echo "grid-profile: perf is needed (apt-get install linux-perf)" >&2; exit 1; }
lib="$P/libde265/b/libde265/libde265.so"
if [ ! -f "$lib" ]; then
  command -v cmake >/dev/null || { echo "grid-profile: cmake is needed (apt-get install cmake)" >&2; exit 1; }
  version=$(dpkg-query -W -f '${source:Upstream-Version}' libde265-0)
  (cd "$P" && apt-get source --download-only "libde265=$(dpkg-query -W -f '${Version}' libde265-0)" >/dev/null 2>&1 ||
     apt-get source --download-only libde265/bookworm >/dev/null)
  rm -rf "$P/libde265" && mkdir -p "$P/libde265"
  tar xzf "$P/libde265_${version}.orig.tar.gz" -C "$P/libde265" --strip-components 1
  (cd "$P/libde265" && mkdir -p b && cd b &&
     cmake .. -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENABLE_SDL=OFF -DENABLE_DECODER=OFF -DENABLE_ENCODER=OFF >/dev/null &&
     make -j"$(nproc)" >/dev/null)
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The median wall time of 5 runs of a shell command, in ms.
median() { hyperfine -N -w 1 -r 5 --export-json "$out/h.json" "$1" >/dev/null 2>&1 || hyperfine -w 1 -r 5 --export-json "$out/h.json" "$1" >/dev/null
  python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$out/h.json"; }
profile() {  # NAME TARGET-RATIO PEER-COMMAND COMMAND...
  local name=$1 ratio=$2 peer=$3; shift 3
  LD_PRELOAD="$PWD/$lib" perf record -q -F 2000 -o "$P/$name.perf" "$@" 2>/dev/null
  perf stat -x, -e task-clock -o "$P/$name.stat" env LD_PRELOAD="$PWD/$lib" "$@" 2>/dev/null
  local wall cpu
  read -r wall cpu < <(LD_PRELOAD="$PWD/$lib" /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 |
    awk '{print $1 * 1000, ($2 + $3) * 1000}')
  echo "## $name: ${wall} ms wall, ${cpu} ms CPU"
  perf report -i "$P/$name.perf" --no-children --sort dso -g none --percent-limit 1 2>/dev/null |
    grep '%' | awk '{printf "  %-24s %s\n", $2, $1}'
  echo "  top functions:"
  perf report -i "$P/$name.perf" --no-children --sort dso,symbol -g none 2>/dev/null | grep '%' |
    awk 'NR <= 8 {printf "    %-8s %-20s %.70s\n", $1, $2, $4}'
  local share
  share=$(perf report -i "$P/$name.perf" --no-children --sort dso -g none 2>/dev/null | awk '/libde265/ {print $1}' |
    tr -d '%')
  local peer_ms
  peer_ms=$(median "$peer")
  awk -v s="$share" -v c="$cpu" -v n="$(nproc)" -v p="$peer_ms" -v r="$ratio" 'BEGIN {
    d = s / 100 * c; printf "  libde265 alone: %.0f ms CPU, %.1f ms a tile of 48; on %d cores at least %.0f ms\n", d, d / 48, n, d / n
    printf "  peer: %d ms; the %sx target needs %.0f ms\n", p, r, p / r }'
}
v="$out/v"
profile thumb 1.7 "vipsthumbnail $G -s 256 -o $out/%s.vips.png" "$FZ" thumb "$G" --size 256 --no-embedded-thumbnail --out "$out/t" --quiet
profile fit 2 "sh -c 'vips thumbnail $G $v-t.v 2532 --height 1170 && vips rot $v-t.v $v-r.v d90 && vips gravity $v-r.v $out/vips.png centre 1170 2532 --extend black'" "$FZ" fit "$G" --screen 1170x2532 --orientation landscape-left --background black -o "$out/f.png"
