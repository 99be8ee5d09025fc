#!/usr/bin/env bash
# fuzz-replay (make fuzz-replay, so CI's test-sanitize): every distinct file of the given folders
# once through the ASan fuzz target. libFuzzer given files, not folders, runs each once and stops,
# with fuzz's limits; a crash, leak, timeout or over-large allocation fails the replay and names
# the file.
# Why this script and not one xargs line: the seeds hold a copy of the hostile set (make-seeds.py
# regenerates it as seeds), so a third of the files were run twice; and one libFuzzer process is
# one core. Files are taken once by their sha256, and run in batches of 10 on every core, each
# batch's output in a file of its own so that a failure's report is not interleaved with another
# batch's. 885 files, 254 s on one core before; 561 distinct files on 2 cores after.
# Usage: Tools/fuzz/replay.sh FUZZ_BINARY LOG FOLDER...
set -euo pipefail
bin=$1 log=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find -L "$@" -type f ! -name MANIFEST.tsv -print0 | sort -z >"$work/all"
# sha256sum -z: NUL-ended lines, names not escaped ("HASH  NAME"); the first name of a hash wins.
xargs -0 sha256sum -z <"$work/all" |
  awk 'BEGIN { RS = ORS = "\0" } { h = substr($0, 1, 64); if (!(h in seen)) { seen[h] = 1; print substr($0, 67) } }' \
    >"$work/distinct"
total=$(tr -cd '\0' <"$work/all" | wc -c)
distinct=$(tr -cd '\0' <"$work/distinct" | wc -c)
echo "fuzz-replay: $total files, $distinct distinct, on $(nproc) cores"

mkdir "$work/logs"
status=0
# shellcheck disable=SC2016  # $0 and $@ belong to the batch's sh
xargs -0 -n 10 -P "$(nproc)" sh -c '
  out=$(mktemp "$0/batch.XXXXXX")
  "$@" >"$out" 2>&1 || { echo "$out" >>"$0/../failed"; exit 1; }' "$work/logs" \
  "$bin" -timeout=120 -rss_limit_mb=2048 -malloc_limit_mb=512 -artifact_prefix=.cache/fuzz/artifacts/ \
  <"$work/distinct" || status=$?

cat "$work"/logs/batch.* >"$log"
if [ "$status" -ne 0 ]; then
  if [ -f "$work/failed" ]; then
    while read -r failed; do tail -n 60 "$failed"; done <"$work/failed"
  fi
  echo "fuzz-replay: FAILED (all of it in $log)"
  exit 1
fi
echo "fuzz-replay: $(grep -c '^Executed ' "$log") files executed, no finding"
