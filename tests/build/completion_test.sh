#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# contrib/bash-completion/ujail: every option each program's --help lists
# completes; --join offers the running jails' names only (not a dead
# jail's record); -S and -C offer JSON files; ujail-seccomp's commands;
# utrace's formats and backends. TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
bin=${BIN:-$top/build/bin}
# shellcheck source=contrib/bash-completion/ujail
. "$top/contrib/bash-completion/ujail"
tmp=$(mktemp -d)
locker=
trap '[ -n "$locker" ] && kill "$locker" 2>/dev/null; rm -rf "$tmp"' EXIT

# complete_words FUNCTION WORD...: what FUNCTION offers for the last WORD.
complete_words() {
	local fn=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	"$fn"
	printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

help_options() {
	"$@" --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | tr -d ' ,' |
		sed -E 's/^(-[a-zA-Z])(--)/\1 \2/' | tr ' ' '\n' | sort -u
}

# offers_all FUNCTION "WORDS" OPTION...: after WORDS, each OPTION completes from "-".
offers_all() {
	local fn=$1 words=$2 got o missing=()
	shift 2
	# shellcheck disable=SC2086
	got=$(complete_words "$fn" $words -)
	for o in "$@"; do
		grep -qx -- "$o" <<<"$got" || missing+=("$o")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "# not offered: ${missing[*]}"
	return 1
}

# shellcheck disable=SC2046
check "ujail: every option of --help" offers_all _ujail ujail $(help_options "$bin/ujail")
# shellcheck disable=SC2046
check "ujail-seccomp: every option of every command" offers_all _ujail_seccomp "ujail-seccomp run" \
	$(for c in compile dump check sim run; do help_options "$bin/ujail-seccomp" "$c"; done)
# shellcheck disable=SC2046
check "seccomp-trace: every option of --help" offers_all _ujail_seccomp seccomp-trace \
	$(help_options "$bin/seccomp-trace")
# shellcheck disable=SC2046
check "utrace: every option of --help" offers_all _utrace utrace $(help_options "$bin/utrace")

# Two records: one a running jail holds locked, one of a dead jail.
export UJAIL_RUNDIR=$tmp/run
mkdir -p "$UJAIL_RUNDIR"
: >"$UJAIL_RUNDIR/web@123"
: >"$UJAIL_RUNDIR/gone@456"
flock "$UJAIL_RUNDIR/web@123" sleep 60 & locker=$!
sleep 0.2
check "--join: the running jail's name, not the dead one's" \
	test "$(complete_words _ujail ujail --join '')" = web

mkdir "$tmp/p" && : >"$tmp/p/deny.json" && : >"$tmp/p/notes.txt"
check "-S: JSON files, not others" \
	test "$(cd "$tmp/p" && complete_words _ujail ujail -S '')" = deny.json
check "-C: JSON files too" test "$(cd "$tmp/p" && complete_words _ujail ujail -C d)" = deny.json
check "--fs: the backends" test "$(complete_words _ujail ujail --fs '' | tr '\n' ' ')" = \
	"auto bind jailfs "
check "after --: the service's arguments are files" \
	test "$(cd "$tmp/p" && complete_words _ujail ujail -p -- /bin/cat n)" = notes.txt
check "ujail-seccomp: the commands first" \
	test "$(complete_words _ujail_seccomp ujail-seccomp c | tr '\n' ' ')" = "check compile "
check "ujail-seccomp -a: the architectures" \
	grep -qx mipsel <(complete_words _ujail_seccomp ujail-seccomp compile -a '')
check "utrace --format: oci and legacy" \
	test "$(complete_words _utrace utrace --format '' | tr '\n' ' ')" = "legacy oci "
echo "1..$tap_n"
tap_exit
