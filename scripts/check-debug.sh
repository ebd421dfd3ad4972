#!/bin/bash
# make check-debug: jailfs on the debug kernel (the patched kernel with
# KASAN, lockdep and kmemleak): loaded, its kselftests and fsx, the
# concurrent stress for a minute, unloaded; then kmemleak is asked for what
# leaked. A KASAN or lockdep report in the kernel log fails the run
# (scripts/vm.sh). Ends with "N passed, N failed".
#
#   scripts/check-debug.sh [RESULTS_DIR]
#
# With RESULTS_DIR (make check passes its own), the results go there and no
# summary is printed; alone, they go to build/results-debug/.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
T=$top/build/tests
results=${1:-}
own=0
if [ -z "$results" ]; then
	own=1
	results=$top/build/results-debug
	rm -rf "$results"
fi
mkdir -p "$results"
STRESS_SECONDS=${JAILFS_STRESS_SECONDS:-60}

build_label=debug
# shellcheck source=scripts/build-step.sh
. "$top/scripts/build-step.sh"

ok=1
build_step kernel-debug make -s kernel-debug || ok=0
build_step jailfs-debug make -s jailfs-debug jailfs-kselftests || ok=0

# kmemleak: what the boot leaked is cleared first; after the tests and the
# unload, two scans (an object must stay unreferenced across scans to be
# reported) and the report must be empty. vm.sh's vm.tap says whether the
# guest finished and its kernel log has no report.
kml=/sys/kernel/debug/kmemleak
kml_clear="mount -t debugfs none /sys/kernel/debug && echo clear >$kml && echo 'ok 1 kmemleak on, what the boot leaked cleared'"
kml_scan="sleep 6; echo scan >$kml; sleep 6; echo scan >$kml; leaks=\$(cat $kml);"
kml_scan+=" if [ -z \"\$leaks\" ]; then echo 'ok 1 kmemleak: nothing leaked';"
kml_scan+=" else echo \"\$leaks\" | head -n 60 | sed 's/^/# /'; echo 'not ok 1 kmemleak: leaks reported'; fi"

if [ $ok = 1 ]; then
	echo "== qemu: debug (the stress runs ${STRESS_SECONDS} s)"
	scripts/vm.sh --kernel build/kernel/out-debug/bzImage --out "$results/vm-debug" \
		--timeout 2400 --mem 1536 \
		--file build/jailfs/debug/jailfs.ko --file "$T/jailfs_mount_test" \
		--file "$T/jailfs_ops_test" --file "$T/jailfs_fsx_test" \
		--file "$T/jailfs_stress_test" \
		--run "kmemleak_clear: $kml_clear" \
		--run 'jailfs_insmod: insmod /opt/tests/jailfs.ko && grep -qw jailfs /proc/filesystems && echo "ok 1 jailfs loaded"' \
		--run 'jailfs_mount: ./jailfs_mount_test' \
		--run 'jailfs_ops: ./jailfs_ops_test' \
		--run 'jailfs_fsx: ./jailfs_fsx_test' \
		--run "jailfs_stress: JAILFS_STRESS_SECONDS=$STRESS_SECONDS ./jailfs_stress_test" \
		--run 'jailfs_rmmod: rmmod jailfs && ! grep -qw jailfs /proc/filesystems && echo "ok 1 jailfs unloaded"' \
		--run "kmemleak_scan: $kml_scan"
fi

[ $own = 1 ] || exit 0
exec scripts/tap-summary "$results"
