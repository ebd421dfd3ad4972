#!/bin/bash
# The QEMU runner must catch what it is there to catch: a "not ok", a
# non-zero exit without TAP, a hung guest and a kernel crash; and not take
# a cgroup's OOM kill for a crash. Boots Debian's
# stock 6.12 kernel (no build needed); --insmod loads one of its modules.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=$("$top/scripts/stock-kernel.sh" 6.12) || exit 1
work=$top/build/runner-selftest
. "$top/tests/lib/tap.sh"

echo "1..19"
rm -rf "$work" && mkdir -p "$work/modules/extra"
echo marker >"$work/modules/extra/probe.ko"
# A module of the stock kernel's, for --insmod (busybox's insmod takes it
# uncompressed).
kmod=$(find "$(dirname "$kernel")/root/lib/modules" -name 'binfmt_misc.ko*' | head -n 1)
case $kmod in
*.xz) xz -dc "$kmod" >"$work/binfmt_misc.ko" ;;
*) cp "$kmod" "$work/binfmt_misc.ko" ;;
esac
"$top/scripts/vm.sh" --kernel "$kernel" --out "$work/mixed" --timeout 120 \
	--modules "$work/modules" --host-file /lib64/ld-linux-x86-64.so.2 \
	--insmod "$work/binfmt_misc.ko" \
	--guest-file "$work/modules/extra/probe.ko=/lib/other/copy.ko" \
	--run 'good: echo "ok 1 fine"' \
	--run 'insmod: grep -o "^binfmt_misc " /proc/modules' \
	--run 'modules: cat /lib/modules/extra/probe.ko' \
	--run 'hostfile: test -L /lib64/ld-linux-x86-64.so.2 && test -f /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 && echo present' \
	--run 'guestfile: cat /lib/other/copy.ko' \
	--run 'bad: echo "not ok 1 broken"' \
	--run 'crashed: exit 3' >"$work.mixed.log" 2>&1
rc=$?
check "a failing test makes the runner fail" test $rc = 1
# Multi-threaded TCG before QEMU 8.1 (9.1 for blocks that cross a page)
# runs stale copies of code the guest kernel has patched (scripts/vm_accel):
# there, TCG guests get one thread.
qemu=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9]*\.[0-9]*\).*/\1/p')
want=tcg
[ "$(printf '%s\n9.1\n' "$qemu" | sort -V | head -n 1)" = 9.1 ] || want=tcg,thread=single
[ "$(cat "$top/build/vm-accel")" = tcg ] || want=kvm
check "QEMU $qemu, $(cat "$top/build/vm-accel"): the guest runs under -accel $want" \
	grep -q "under $want: good" "$work.mixed.log"
check "a passing program's TAP is kept" grep -qx 'ok 1 fine' "$work/mixed/good.tap"
check "--modules puts the tree at /lib/modules in the guest" grep -qx marker "$work/mixed/modules.tap"
check "--host-file copies a host file and its symlinks to the same path" \
	grep -qx present "$work/mixed/hostfile.tap"
check "--guest-file copies a host file to another path in the guest" \
	grep -qx marker "$work/mixed/guestfile.tap"
check "--insmod loads a module before the run list" grep -qx 'binfmt_misc ' "$work/mixed/insmod.tap"
check "a 'not ok' is reported" grep -qx 'not ok 1 broken' "$work/mixed/bad.tap"
check "a non-zero exit without TAP counts as a failure" \
	grep -q '^not ok 1 crashed exited with status 3' "$work/mixed/crashed.tap"

"$top/scripts/vm.sh" --kernel "$kernel" --out "$work/hang" --timeout 25 \
	--run 'hang: sleep 600' >"$work.hang.log" 2>&1
rc=$?
check "a hung guest fails the run" test $rc = 1
check "the timeout is named" grep -q 'guest timed out after 25s' "$work.hang.log"

"$top/scripts/vm.sh" --arch sparc --kernel "$kernel" --out "$work/arch" --run 'x: true' \
	>"$work.arch.log" 2>&1
rc=$?
check "--arch: an unknown machine is a usage error naming the choices" \
	eval 'test $rc = 2 && grep -q "x86_64, aarch64 or mipsel" "$work.arch.log"'

# An earlier run's result in --out, which must not be counted again.
mkdir -p "$work/noko" && echo "ok 1 stale" >"$work/noko/stale.tap"
"$top/scripts/vm.sh" --kernel "$kernel" --out "$work/noko" --insmod "$work/none.ko" --run 'x: true' \
	>"$work.noko.log" 2>&1
rc=$?
check "--insmod: a missing module is a usage error naming it" \
	eval 'test $rc = 2 && grep -q "none.ko. is not a file" "$work.noko.log"'
check "a guest that cannot start leaves a failed result in --out" \
	grep -q '^not ok 1 guest did not start: --insmod' "$work/noko/vm.tap"
check "  and no earlier result there" test ! -e "$work/noko/stale.tap"

"$top/scripts/vm.sh" --kernel "$kernel" --out "$work/panic" --timeout 120 \
	--run 'panic: echo c >/proc/sysrq-trigger' >"$work.panic.log" 2>&1
rc=$?
check "a kernel crash fails the run" test $rc = 1
check "the kernel log is printed on failure" grep -q 'Kernel panic' "$work.panic.log"
# A shell doubling a string in a cgroup with memory.max 8M: OOM-killed.
memcg_oom='mount -t cgroup2 none /sys/fs/cgroup && echo +memory >/sys/fs/cgroup/cgroup.subtree_control'
memcg_oom+=' && mkdir /sys/fs/cgroup/hog && echo 8M >/sys/fs/cgroup/hog/memory.max'
# shellcheck disable=SC2016 # $$, $x and $? expand in the guest
memcg_oom+=' && { sh -c '"'"'echo $$ >/sys/fs/cgroup/hog/cgroup.procs; x=x; while :; do x=$x$x; done'"'"'; echo "ok 1 hog ended: $?"; }'
"$top/scripts/vm.sh" --kernel "$kernel" --out "$work/oom" --timeout 120 \
	--run "oom: $memcg_oom" >"$work.oom.log" 2>&1
rc=$?
check "a memory cgroup's OOM kill is not a crash" test $rc = 0
check "  the hog was killed (128+9)" grep -qx 'ok 1 hog ended: 137' "$work/oom/oom.tap"
tap_exit
