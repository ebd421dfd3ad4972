#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sysroot_test.sh TARGET...: scripts/cross-sysroot.sh's cache, after make
# cross-TARGET built (or found) the target's sysroot. A sysroot names the
# directory it was built in (musl-gcc.specs, the .pc files), so:
#  - the cached entry records that directory in .done, and --check links it;
#  - a copy of it in another cache is not used (it would compile against
#    the first directory, which may be gone: a CI run failed so), and
#    --check says it would have to be built;
#  - the same copy with .done naming where it now is, is used (the check
#    is .done's directory, nothing else);
#  - bad arguments: a clear error and a non-zero exit.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || { echo "usage: sysroot_test.sh TARGET..." >&2; exit 2; }
script=$top/scripts/cross-sysroot.sh

n=0
failed=0
ok() {	# ok STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sysroot_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for t in "$@"; do
	"$script" --check "$t" "$tmp/$t-link" 2>"$tmp/err"
	st=$?
	ok $((st != 0)) "$t: the sysroot make cross-$t left is found without a build"
	entry=$(readlink "$tmp/$t-link" || true)
	[ -n "$entry" ] && [ "$(cat "$entry/.done" 2>/dev/null)" = "$entry" ]
	ok $? "$t: its .done names its own directory ($entry)"
	grep -qF "$entry/include" "$entry/lib/musl-gcc.specs" 2>/dev/null
	ok $? "$t: musl-gcc.specs names that directory too (why a copy is not used)"

	copy=$tmp/cache-$t
	mkdir -p "$copy"
	cp -a "$entry" "$copy/"
	UJAIL_CROSS_CACHE=$copy "$script" --check "$t" "$tmp/$t-copy" 2>"$tmp/err"
	st=$?
	ok $((st != 3)) "$t: a copy in another cache is not used: --check exits 3 (got $st)"
	grep -q "built in another directory" "$tmp/err"
	ok $? "$t: ... and says why: $(head -n 1 "$tmp/err")"
	[ ! -e "$tmp/$t-copy" ]
	ok $? "$t: ... and links nothing"

	copied=$copy/$(basename "$entry")
	echo "$copied" >"$copied/.done"
	UJAIL_CROSS_CACHE=$copy "$script" --check "$t" "$tmp/$t-copy" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && [ "$(readlink "$tmp/$t-copy")" = "$copied" ]
	ok $? "$t: the copy with .done naming its directory is used (exit $st)"
done

"$script" --check sparc "$tmp/x" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "sparc: unknown target" "$tmp/err"
ok $? "unknown target: exit 1 and named ($(head -n 1 "$tmp/err"))"
"$script" --check 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "usage:" "$tmp/err"
ok $? "no target: the usage, exit 1"

echo "1..$n"
[ $failed -eq 0 ]
