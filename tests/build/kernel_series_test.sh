#!/bin/bash
# scripts/kernel.sh's handling of the patch series, on a scratch copy of the
# series and tree: it applies in order, a changed patch is re-applied in
# place on a clean tree, and a reject fails loudly and leaves a tree the
# next run can recover; W=1 warnings in the files it touches fail the build.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$top/build/series-test
. "$top/tests/lib/tap.sh"
has() { grep -qF -- "$2" "$work/kernel/src/$1"; }
lacks() { ! has "$@"; }
ksrc() { "$top/scripts/kernel.sh" src patched >"$work/log" 2>&1; }

rm -rf "$work"
mkdir -p "$work/series"
cp "$top"/kernel/seccomp/*.patch "$work/series/"
export UJAIL_SERIES_DIR=$work/series UJAIL_KERNEL_DIR=$work/kernel
first=$(ls "$work"/series/*.patch | head -n 1)
uapi=include/uapi/linux/seccomp.h

echo "1..10"
ksrc
check "the series applies to linux-source-6.12" test $? = 0
check "the kernel change is in the tree" has "$uapi" 'SECCOMP_RET_LOG_ERRNO'
check "the selftest change is in the tree" \
	has tools/testing/selftests/seccomp/seccomp_bpf.c 'LOG_ERRNO_capped'

# Change a patch: the tree gets the new text and loses the old, in place.
touch -d '2000-01-01' "$work/kernel/src/kernel/fork.c"
sed -i 's|returns an errno and logs \*/|returns an errno and logs it */|' "$first"
ksrc
check "a changed patch re-applies" has "$uapi" 'returns an errno and logs it */'
check "the old version of the patch is gone" lacks "$uapi" 'returns an errno and logs */'
check "re-applying does not re-extract the tree" \
	test "$(stat -c %Y "$work/kernel/src/kernel/fork.c")" = "$(date -d 2000-01-01 +%s)"

# A patch that no longer applies: a loud failure naming it, then recovery.
sed -i 's|^ #include <linux/audit.h>$| #include <linux/audio.h>|' "$first"
ksrc
rc=$?
check "a rejected patch fails the build, naming the patch" \
	eval "test $rc != 0 && grep -q 'does not apply' '$work/log' && grep -qF '$(basename "$first")' '$work/log'"
cp "$top"/kernel/seccomp/*.patch "$work/series/"
ksrc
check "fixing the patch recovers the same tree" \
	eval "test $? = 0 && grep -q 'returns an errno and logs \*/' '$work/kernel/src/$uapi' && ! find '$work/kernel/src' -name '*.rej' | grep -q ."

# The W=1 gate: warnings elsewhere in the tree are not ours to fix.
printf '%s\n' "$work/kernel/src/fs/namei.c:10:5: warning: no previous prototype" >"$work/build.log"
check "W=1 warnings in untouched files pass the gate" \
	"$top/scripts/kernel.sh" warnings "$work/build.log"
printf '%s\n' "$work/kernel/src/kernel/seccomp.c:1080:6: warning: unused variable 'x'" >>"$work/build.log"
check "a W=1 warning in a file the series touches fails the build" \
	eval "! '$top/scripts/kernel.sh' warnings '$work/build.log' 2>/dev/null"
rm -rf "$work"
tap_exit
