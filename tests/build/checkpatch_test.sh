#!/bin/bash
# Every patch of the series, and every source file of jailfs, is
# checkpatch.pl --strict clean (CamelCase only for names the kernel already
# defines). Runs the
# extracted tree's checkpatch from inside that tree (as a kernel developer
# would), with absolute paths. Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/build/kernel/src
[ -x "$src/scripts/checkpatch.pl" ] || "$top/scripts/kernel.sh" src patched || exit 1
patches=("$top"/kernel/seccomp/*.patch)
sources=("$top"/kernel/jailfs/*.[ch] "$top"/tests/kselftest/jailfs/*.[ch])
echo "1..$(( ${#patches[@]} + ${#sources[@]} ))"
n=0 failed=0
# checkpatch cannot know the kernel's own CamelCase names (MIPS'
# __NR_O32_Linux): a patch may use those, found in headers it does not
# touch, never bring new ones.
kernel_camelcase() {	# kernel_camelcase PATCH: ignorable CamelCase only
	local name touched
	touched=$(sed -n 's|^+++ b/||p' "$1")
	for name in $(perl scripts/checkpatch.pl --strict --no-tree --types CAMELCASE "$1" 2>/dev/null |
		sed -n 's/^CHECK: Avoid CamelCase: <\(.*\)>$/\1/p' | sort -u); do
		if ! grep -rlw -- "$name" arch/*/include include | grep -qvxF "$touched"; then
			echo "CamelCase name $name is not one the kernel already has"
			return 1
		fi
	done
}
# The tree is an extracted tarball without git history, in which checkpatch
# cannot look up the commit of a Fixes: tag and so warns about every one
# (UNKNOWN_COMMIT_ID): such an id is checked against upstream by hand.
for p in "${patches[@]}"; do
	n=$((n + 1))
	if out=$(cd "$src" && kernel_camelcase "$p" &&
		perl scripts/checkpatch.pl --strict --no-tree --ignore CAMELCASE,UNKNOWN_COMMIT_ID "$p" 2>&1); then
		echo "ok $n checkpatch --strict $(basename "$p")"
	else
		echo "not ok $n checkpatch --strict $(basename "$p")"
		printf '%s\n' "$out" | sed 's/^/# /'
		failed=1
	fi
done
for f in "${sources[@]}"; do
	n=$((n + 1))
	if out=$(cd "$src" && perl scripts/checkpatch.pl --strict --no-tree -f "$f" 2>&1); then
		echo "ok $n checkpatch --strict -f ${f#"$top"/}"
	else
		echo "not ok $n checkpatch --strict -f ${f#"$top"/}"
		printf '%s\n' "$out" | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
