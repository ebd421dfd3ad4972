#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ujail-seccomp under valgrind (memcheck): no invalid access and no leak in
# parsing, compiling, dumping and simulating, on good policies and on every
# malformed one. Prints TAP. (valgrind 3.19 does not know the seccomp
# syscall, so the runner is checked with an ASan build instead: check.sh.)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
U=$top/build/bin/ujail-seccomp
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# memcheck VALGRIND-EXIT... -- ARGS: ok when valgrind reports no error and
# the command's exit status is one of those given.
memcheck() {
	local want=() rc
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --trace-children=no \
		"$U" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	for w in "${want[@]}"; do [ $rc = "$w" ] && return 0; done
	sed 's/^/# /' "$tmp/err" | head -20
	return 1
}

for p in "$top"/tests/seccomp/good/*.json; do
	n=$(basename "$p")
	check "check $n" memcheck 0 -- check -a x86_64 "$p"
	check "dump $n" memcheck 0 -- dump -a x86_64 "$p"
	check "sim $n" memcheck 0 -- sim -a x86_64 "$p" openat 0xffffff9c 0 0
	check "compile $n" memcheck 0 -- compile -a x86_64 "$p" -o "$tmp/p.bpf"
	check "dump of the program of $n" memcheck 0 -- dump "$tmp/p.bpf"
done
# Bad policies: the error path frees everything too (exit 1, not 99).
for p in "$top"/tests/seccomp/bad/*.json; do
	check "rejects $(basename "$p")" memcheck 1 -- check --strict -a x86_64 "$p"
done
check "usage error" memcheck 2 -- compile --no-such-option
echo "1..$tap_n"
tap_exit
