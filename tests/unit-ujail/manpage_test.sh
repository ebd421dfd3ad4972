#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ujail.8 renders without a warning, and documents every option and jail
# file key of the option table in options/option_table.c. Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
page=$top/userspace/ujail/ujail.8
src=$top/userspace/ujail/options/option_table.c

# no_output COMMAND...: ok when COMMAND succeeds and prints nothing on
# either stream (the warnings).
no_output() {
	local out

	out=$("$@" 2>&1 >/dev/null) && [ -z "$out" ] && return 0
	printf '%s\n' "$out" | sed 's/^/# /'
	return 1
}

# The option table's rows: STRING('n', "name", "name", ...) and the like.
rows=$(grep -E "^[[:space:]]*(STRING|FLAG|OTHER|REFUSED|LIMIT)\(" "$src")
letters=$(printf '%s\n' "$rows" | sed -nE "s/^[^(]*\('(.)'.*/\1/p")
# LIMIT("memory-max", "memory_max", ...) has no letter.
longs=$(printf '%s\n' "$rows" | sed -nE -e 's/^[^(]*LIMIT\("([a-z-]+)".*/\1/p' \
	-e 's/^[^(]*\([^,]+, "([a-z-]+)".*/\1/p')
keys=$(printf '%s\n' "$rows" | sed -nE -e 's/^[^(]*LIMIT\([^,]+, "([a-z_]+)".*/\1/p' \
	-e 's/^[^(]*\([^,]+, [^,]+, "([a-z_]+)".*/\1/p')

# documented PREFIX NAME...: each NAME is in the page after PREFIX.
documented() {
	local prefix=$1 name missing=()

	shift
	for name in "$@"; do
		grep -qF -- "$prefix$name" "$page" || missing+=("$name")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "# not in ujail.8: ${missing[*]}"
	return 1
}

# short_documented LETTER...: each is on a macro line (an option's
# heading, not an example) as \-X, not as the start of a longer word
# (\-\-name holds \-n).
short_documented() {
	local l missing=()

	for l in "$@"; do
		grep -qE -- "^\\..*\\\\-$l([^A-Za-z]|\$)" "$page" || missing+=("-$l")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "# not in ujail.8: ${missing[*]}"
	return 1
}

echo "1..6"
if command -v man >/dev/null; then
	check "man --warnings renders ujail.8 silently" no_output \
		env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page"
else
	echo "ok 1 # SKIP man is not installed"
	tap_n=1
fi
check "groff -man -ww finds nothing to warn about" no_output \
	groff -t -man -ww -z "$page"
check "the option table has rows ($(echo $letters | wc -w) letters)" \
	test "$(echo $letters | wc -w)" -ge 25
# shellcheck disable=SC2086
check "every short option is documented" short_documented $letters
# shellcheck disable=SC2086
check "every long option is documented" documented '\-\-' $(echo "$longs" | sed 's/-/\\-/g')
# shellcheck disable=SC2086
check "every jail file key is in the table" documented '' $(echo "$keys" | sed 's/$/|/')
tap_exit
