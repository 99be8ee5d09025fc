#!/usr/bin/env bash
# cached.sh 'NAME...' 'INPUT...' [COMMAND...]: makes generated test data once per content of
# the files that make it. NAMEs are folders under .cache/ that COMMAND fills (conformance,
# formats, jxl...); INPUTs are the files that decide what it writes (its scripts and the files
# they read). Their sha256 (with $CACHED_KEY, for a version that is not in a file) names the
# data: a stamp .inputs-sha256 in each folder holds it, and COMMAND runs only when a stamp
# differs, so `make test` never remakes unchanged data and remakes it when a script changes.
#
# Where the data lives:
# - .cache/NAME a real folder (a clone that made its data before this script, or a worktree
#   whose .cache links to another checkout's): it is used in place, as it always was; the
#   scripts' own stamps keep what is already there, and the hash stamp is written beside them.
# - otherwise (a fresh clone; CI): .cache/NAME is a symbolic link to
#   ${FORCEZOOM_DATA_CACHE:-$HOME/.cache/forcezoom}/NAME-HASH, outside the clone, so that a
#   later clone on the same machine finds it made. A changed script gives a new HASH, so a new
#   empty folder the scripts fill from scratch; folders of a NAME unused for 30 days are removed.
#   Two clones making the same data wait for each other (flock on the store).
# Without COMMAND, only the links are made (data that a target keeps adding to: .cache/deb-test).
set -euo pipefail
names=$1
inputs=$2
shift 2
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
store=${FORCEZOOM_DATA_CACHE:-${HOME:-/root}/.cache/forcezoom}

# The hash of every input (by name and content, sorted), the names and $CACHED_KEY.
# shellcheck disable=SC2086  # the input list is words on purpose
hash=$({
  if [ -n "$inputs" ]; then
    find $inputs -type f ! -name "*.pyc" ! -path "*/__pycache__/*" -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
  fi
  echo "names: $names"
  echo "key: ${CACHED_KEY:-}"
} | sha256sum | cut -c1-16)

mkdir -p .cache
in_place=0
for name in $names; do
  if [ -d ".cache/$name" ] && [ ! -L ".cache/$name" ]; then in_place=1; fi
done

up_to_date() {
  for name in $names; do
    [ "$(cat ".cache/$name/.inputs-sha256" 2>/dev/null)" = "$hash" ] || return 1
  done
}

stamp() { for name in $names; do echo "$hash" > ".cache/$name/.inputs-sha256"; done; }

if [ $in_place = 1 ]; then
  if [ $# -eq 0 ] || up_to_date; then
    echo "cached: .cache/{${names// /,}} up to date (inputs $hash)"
    exit 0
  fi
  "$@"
  stamp
  exit 0
fi

mkdir -p "$store"
for name in $names; do
  target="$store/$name-$hash"
  mkdir -p "$target"
  touch "$target"
  if [ "$(readlink ".cache/$name" 2>/dev/null)" != "$target" ]; then ln -sfn "$target" ".cache/$name"; fi
  find "$store" -mindepth 1 -maxdepth 1 -name "$name-*" ! -name "$name-$hash" ! -name "$name-$hash.lock" \
    -mtime +30 -exec rm -rf {} + 2>/dev/null || true
done
[ $# -eq 0 ] && exit 0
first=${names%% *}
exec 9> "$store/$first-$hash.lock"
flock 9
if up_to_date; then
  echo "cached: .cache/{${names// /,}} -> $store (inputs $hash), made before"
  exit 0
fi
"$@"
stamp
echo "cached: made .cache/{${names// /,}} in $store (inputs $hash)"
