#!/usr/bin/env bash
# lintian.sh DEB: lintian on the package, never as root where it can be helped. lintian unpacks
# and reads what it is given (a package is input, as much as an image); as root, `make deb` ran
# it as root. Run as root, it reads a copy in a private folder only an unprivileged user
# (nobody, or $LINTIAN_USER) can read, under setpriv (util-linux) with that user's uid and
# gid, no other groups, and a clean environment; as another user, it runs as that user.
# Where no such user exists it says so and runs as root.
# lintian fails on any error or warning; what it reports at the info level stays.
set -euo pipefail
DEB=$1
[[ -r $DEB ]] || { echo "lintian.sh: $DEB: no package; run make deb" >&2; exit 1; }
command -v lintian >/dev/null || { echo "lintian.sh: no lintian; run make deb-deps" >&2; exit 1; }
run=(lintian --fail-on error,warning)
if [[ $(id -u) != 0 ]]; then exec "${run[@]}" "$DEB"; fi
user=${LINTIAN_USER:-nobody}
if ! uid=$(id -u "$user" 2>/dev/null) || [[ $uid == 0 ]] || ! command -v setpriv >/dev/null; then
  echo "lintian.sh: no unprivileged user '$user' (or no setpriv): running lintian as root" >&2
  exec "${run[@]}" "$DEB"
fi
gid=$(id -g "$user")
work=$(mktemp -d /tmp/fz-lintian.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$DEB" "$work/"
chown -R "$uid:$gid" "$work"
chmod 700 "$work"
echo "lintian.sh: lintian as $user (uid $uid) on a copy in $work"
cd "$work"
setpriv --reuid="$uid" --regid="$gid" --clear-groups --reset-env \
  env HOME="$work" TMPDIR="$work" "${run[@]}" "$work/$(basename "$DEB")"
