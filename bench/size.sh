#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make size: make install into a temporary DESTDIR (PREFIX=/usr, the
# Debian package's), then each installed file's size (stripped, as
# installed) next to procd's (2c1834a, x86_64, stripped: ujail 132 KB,
# utrace 35 KB, libpreload-seccomp.so 35 KB = 202 KB, linked against
# libubox, ubus, uci and json-c), and the totals: the set every start or
# trace needs, and the plugins loaded only for the eBPF counter and --veth.
# MAKEFLAGS pass through (make -j). Exit status: 0, whatever the sizes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/ujail-size.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" install DESTDIR="$tmp" PREFIX=/usr >"$tmp/install.log" 2>&1 || {
	tail -n 20 "$tmp/install.log" >&2
	echo "size.sh: make install failed" >&2
	exit 1
}
root=$tmp/usr

# commas N: 123456 -> 123,456.
commas() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'; }

# The set: what procd's three files stand for. procd's column: its file's
# size, "-" where procd has no file of its own for it.
set_files=(bin/ujail:132 bin/ujail-seccomp:- bin/utrace:35 lib/ujail/libujail-seccomp.so.0:-
	lib/ujail/ujail-keeper:- lib/musl/libpreload-seccomp.so:35)
plugins=(lib/ujail/utrace-ebpf.so lib/ujail/ujail-veth.so)
other=(lib/libpreload-seccomp.so)

row() { printf '%-34s %10s  %s\n' "$@"; }
size_of() { stat -c %s "$root/$1"; }

row "file (PREFIX=/usr)" "bytes" "procd 2c1834a"
total=0
for e in "${set_files[@]}"; do
	f=${e%%:*} p=${e#*:}
	n=$(size_of "$f")
	total=$((total + n))
	row "$f" "$(commas "$n")" "$([ "$p" = - ] && echo - || echo "$p KB")"
done
row "total: the set" "$(commas "$total")" "202 KB"
row "" "$((total / 1024)) KiB" ""
ptotal=0
for f in "${plugins[@]}"; do
	n=$(size_of "$f")
	ptotal=$((ptotal + n))
	row "$f (plugin)" "$(commas "$n")" "-"
done
row "total: plugins (loaded when used)" "$(commas "$ptotal")" ""
for f in "${other[@]}"; do
	row "$f (glibc programs)" "$(commas "$(size_of "$f")")" "-"
done
