#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The text-patching stress, while a syscall loop runs on every CPU:
#  1. RUNS runs of utrace --backend ebpf. Each attaches utrace's counter to
#     the sys_enter and sched_process_fork tracepoints and detaches it, so
#     the kernel rewrites their static-key jumps and static calls with int3
#     (text_poke_bp) under CPUs that are in syscall entry all the time.
#  2. FLIPS attach+detach cycles of an empty program on sys_enter (tpflip):
#     the same patching without utrace's load time in between.
# A guest whose CPU emulation keeps running stale copies of patched code
# (multi-threaded TCG before QEMU 8.1, see scripts/vm_accel) hangs or
# oopses here; the runner's timeout and kernel-log check report it.
# POSIX sh, for the busybox guest. Prints TAP.
#
# Environment: UTRACE (default: utrace in PATH), TPFLIP (default: tpflip in
# PATH), RUNS (default 100), FLIPS (default 500), TAP_SH (tests/lib/tap.sh).
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "${TAP_SH:-$top/tests/lib/tap.sh}"
U=${UTRACE:-utrace}
F=${TPFLIP:-tpflip}
runs=${RUNS:-100}
flips=${FLIPS:-500}
tmp=$(mktemp -d) || exit 1
loaders=""
stop_load() {
	# shellcheck disable=SC2086
	[ -z "$loaders" ] || kill $loaders 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap stop_load EXIT

cpus=$(grep -c '^processor' /proc/cpuinfo)
for _ in $(seq "$cpus"); do
	dd if=/dev/zero of=/dev/null bs=1 2>/dev/null &
	loaders="$loaders $!"
done

# utrace_runs: RUNS counted runs of true; the first failure is reported.
utrace_runs() {
	i=0
	while [ $i -lt "$runs" ]; do
		i=$((i + 1))
		if ! "$U" --backend ebpf -o "$tmp/p.json" -- true 2>"$tmp/err" ||
			! grep -q '"exit_group"' "$tmp/p.json"; then
			echo "# run $i of $runs failed:"
			sed 's/^/#   /' "$tmp/err"
			return 1
		fi
	done
}

start=$(date +%s)
check "$runs utrace --backend ebpf runs beside a syscall loop on each of $cpus CPUs" utrace_runs
echo "# $runs runs took $(( $(date +%s) - start )) s"
flip() { "$F" "$flips" >"$tmp/flip" 2>&1; }
check "$flips attach+detach cycles on sys_enter beside the same loops" flip
sed 's/^/# /' "$tmp/flip"
tap_exit
