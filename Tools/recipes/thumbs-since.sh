#!/bin/sh
# Thumbnails of the photos added or changed since the last run (cron it). PHOTOS, THUMBS:
# the library and where its thumbnails go. The stamp moves on when every input left to do
# is one that was left to do last time too (a broken file, not a full disk or a Ctrl-C);
# such a file is tried again when it changes (its time moves past the stamp).
set -u
PHOTOS=${PHOTOS:-$HOME/Pictures}
THUMBS=${THUMBS:-$HOME/thumbs}
mkdir -p "$THUMBS" && THUMBS=$(cd "$THUMBS" && pwd) && cd "$PHOTOS" || exit 2
S=$THUMBS/.since
mkdir -p "$S"
[ -e "$S/stamp" ] || touch -d @0 "$S/stamp"
touch "$S/next"          # before find: what changes during the run is taken next time
find . -type f -newer "$S/stamp" -print0 > "$S/list"
thumb() {
  forcezoom thumb --from "$S/list" -0 --out "$THUMBS" --name '%d/%s.jpg' --size 320 \
    --journal "$S/journal.jsonl" -q "$@"
}
thumb --skip-existing   # a photo listed again is redone only if it changed since its thumbnail
status=$?
# Left to do: every input whose last journal line is not "ok" (it failed, or was never reached).
thumb --resume --dry-run | sort > "$S/todo"
[ -e "$S/todo.last" ] || : > "$S/todo.last"
if [ -z "$(comm -23 "$S/todo" "$S/todo.last")" ]; then
  mv "$S/next" "$S/stamp" && : > "$S/todo.last"
else
  mv "$S/todo" "$S/todo.last"
fi
exit $status
