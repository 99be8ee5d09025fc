#!/usr/bin/env bash
# dlopen-depends.sh FZ: the Depends entries of the libraries FZ opens with dlopen on first use
# (libheif, libjxl, libtiff, libraw: CFZHeif, CFZJXL, CFZTIFF, CFZRaw), which dpkg-shlibdeps
# cannot see in the ELF. They come from the format registry itself (`FormatLibrary`, through
# `forcezoom info --formats --json`: each record's library.depends, several packages split), so the package cannot
# disagree with the binary; printed once each, in the registry's order, joined by ", ".
# make-deb.sh appends them to dpkg-shlibdeps' list; LibraryDependsCLITests checks them.
set -euo pipefail
FZ=$1
list=$("$FZ" info --formats --json | grep -o '"depends":"[^"]*"' | sed 's/^"depends":"//; s/"$//; s/, /\n/g' | awk '!seen[$0]++')
[[ -n $list ]] || { echo "dlopen-depends: $FZ info --formats --json names no library" >&2; exit 1; }
printf '%s\n' "$list" | paste -sd, | sed 's/,/, /g'
