#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# known_failures.sh LIST COMMAND...: run a TAP-printing COMMAND (a kselftest)
# and mark the failures LIST names as TAP TODO ("not ok N NAME # TODO WHY"),
# which scripts/tap-summary reports apart, neither passed nor failed. LIST
# has one "NAME WHY" line per test ('#' lines are comments). Exits 0 only
# when every failure is listed; a listed test that passes prints as it is.
list=${1:?usage: known_failures.sh LIST COMMAND...}
shift
[ -r "$list" ] || { echo "known_failures.sh: $list: cannot read" >&2; exit 2; }
out=$(mktemp) || exit 2
"$@" >"$out" 2>&1
rc=$?
unlisted=0 listed=0
while IFS= read -r line; do
	case $line in
	"not ok "*)
		name=${line#not ok }
		name=${name#* }
		why=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$list")
		if [ -n "$why" ]; then
			line="$line # TODO $why"
			listed=$((listed + 1))
		else
			unlisted=1
		fi
		;;
	esac
	printf '%s\n' "$line"
done <"$out"
# The harness fails when a test fails: then its totals must count exactly
# the listed failures (a crash or an error is not a known failure).
failed=$(sed -n 's/^# Totals: .* fail:\([0-9]*\).*/\1/p' "$out")
rm -f "$out"
[ "$unlisted" = 0 ] || exit 1
[ "$rc" = 0 ] || [ "$failed" = "$listed" ] || exit 1
exit 0
