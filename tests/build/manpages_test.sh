#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The man pages of utrace, ujail-seccomp (and seccomp-trace) and jailfs
# render without a warning and document every option their programs'
# --help lists (every command's, for ujail-seccomp) and every jailfs mount
# key. ujail.8 has its own test (tests/unit-ujail/manpage_test.sh). TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
bin=${BIN:-$top/build/bin}

# renders PAGE: man and groff print no warning.
renders() {
	local out
	out=$( { LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$1" >/dev/null; } 2>&1;
		groff -t -man -ww -z "$1" 2>&1)
	[ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed 's/^/# /'
	return 1
}

# help_options CMD...: the options CMD's --help lists (-x and --long).
help_options() {
	"$@" --help 2>&1 | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | tr -d ' ,' |
		sed -E 's/^(-[a-zA-Z])(--)/\1 \2/' | tr ' ' '\n' | sort -u
}

# documents PAGE OPTION...: each is in PAGE as groff writes it (\-x, \-\-long).
documents() {
	local page=$1 o missing=()
	shift
	for o in "$@"; do
		grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$page" || missing+=("$o")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "# not in $(basename "$page"): ${missing[*]}"
	return 1
}

utrace_page=$top/tools/utrace/utrace.8
seccomp_page=$top/userspace/seccomp/ujail-seccomp.8
jailfs_page=$top/kernel/jailfs/jailfs.5
for p in "$utrace_page" "$seccomp_page" "$jailfs_page"; do
	check "$(basename "$p") renders without a warning" renders "$p"
done

opts=$(help_options "$bin/utrace")
check "utrace --help lists options ($(echo $opts | wc -w))" test "$(echo $opts | wc -w)" -ge 10
# shellcheck disable=SC2086
check "utrace.8 documents every option of utrace --help" documents "$utrace_page" $opts

opts=$( { for c in compile dump check sim run mode; do help_options "$bin/ujail-seccomp" "$c"; done;
	help_options "$bin/seccomp-trace"; } | sort -u)
check "ujail-seccomp's commands list options ($(echo $opts | wc -w))" \
	test "$(echo $opts | wc -w)" -ge 12
# shellcheck disable=SC2086
check "ujail-seccomp.8 documents every option of every command and of seccomp-trace" \
	documents "$seccomp_page" $opts
cmds=$("$bin/ujail-seccomp" --help | sed -nE 's/^  ([a-z]+)  .*/\1/p')
# shellcheck disable=SC2086
check "ujail-seccomp.8 documents every command ($(echo $cmds | wc -w))" documents "$seccomp_page" $cmds

# jailfs' keys, from the module's own table, and mount(2)'s short forms.
keys=$(cat "$top"/kernel/jailfs/*.c |
	sed -nE 's/^[[:space:]]*\[JAILFS_[A-Z]+\] = "([a-z_]+)",/\1/p' | sort -u)
check "jailfs' key table read ($(echo $keys | wc -w) keys)" test "$(echo $keys | wc -w)" -ge 3
# shellcheck disable=SC2086
check "jailfs.5 documents every key" documents "$jailfs_page" $(printf '%s= ' $keys) ro= rw=
echo "1..$tap_n"
tap_exit
