#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# utrace's cost next to strace's: start-to-exit time of syscall-heavy
# workloads untraced, under utrace with its two backends (ebpf: counted in
# the kernel, no stop; ptrace: one stop per syscall) and under
# "strace -f -c" (two stops per syscall), as ratios to the untraced run;
# and the overheads (traced - untraced) of utrace as shares of strace's.
# utrace's times include loading its eBPF counter. N (default 5) rounds;
# in each, the four cases of a workload run one after the other (so that a
# change in the machine's load hits all alike); the median per case.
# Output: stdout and build/bench/utrace_bench.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=$top/build
out=$B/bench/utrace_bench.txt
N=${N:-5}
CALLS=${CALLS:-100000}
UTRACE=$B/bin/utrace
TIMER=$B/bench/spawn_time
LOOP=$B/bench/sysloop
BB=$(command -v busybox || true)

die() { echo "utrace_bench: $*" >&2; exit 1; }
command -v strace >/dev/null || die "strace missing: install the Debian package strace (scripts/deps.sh)"
[ -n "$BB" ] || die "busybox missing: install busybox-static (scripts/deps.sh)"
[ -x "$UTRACE" ] || die "$UTRACE missing: run make utrace"
[ "$(id -u)" = 0 ] || die "the ebpf backend needs root (CAP_BPF, CAP_PERFMON)"
for prog in "$TIMER" "$LOOP"; do
	if [ ! -x "$prog" ] || [ "$prog" -ot "bench/$(basename "$prog").c" ]; then
		make -s "$prog" || die "cannot build $prog"
	fi
done
tmp=$(mktemp -d /tmp/utrace_bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$out")"

# once COMMAND...: one start-to-exit time in ms.
once() {
	"$TIMER" -n 1 -w 0 -- "$@" | awk '{ print $1 }'
}

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

workloads=(
	"getppid x $CALLS (static)|$LOOP $CALLS"
	"busybox find /usr (fs walk)|$BB find /usr"
	"busybox sh: 200 fork+exec|$BB sh -c 'i=0; while [ \$i -lt 200 ]; do $BB true; i=\$((i+1)); done'"
)

{
	echo "Start-to-exit time, median of $N interleaved rounds (ms); ratio to the untraced run"
	printf '%-34s %9s %9s %9s %9s %7s %7s %7s %8s %8s\n' workload untraced ebpf ptrace \
		strace ebpf/x ptr/x str/x "ebpf ov" "ptr ov"
	for w in "${workloads[@]}"; do
		name=${w%%|*}
		cmd=${w#*|}
		: >"$tmp/plain"; : >"$tmp/eb"; : >"$tmp/pt"; : >"$tmp/st"
		eval "once $cmd" >/dev/null	# warm the caches
		for _ in $(seq "$N"); do
			eval "once $cmd" >>"$tmp/plain"
			eval "once $UTRACE -b ebpf -o $tmp/p.json -- $cmd" >>"$tmp/eb"
			eval "once $UTRACE -b ptrace -o $tmp/p.json -- $cmd" >>"$tmp/pt"
			eval "once strace -f -c -o /dev/null $cmd" >>"$tmp/st"
		done
		awk -v n="$name" -v p="$(median "$tmp/plain")" -v e="$(median "$tmp/eb")" \
			-v t="$(median "$tmp/pt")" -v s="$(median "$tmp/st")" 'BEGIN {
			printf "%-34s %9.2f %9.2f %9.2f %9.2f %7.2f %7.2f %7.2f %7.1f%% %7.1f%%\n",
				n, p, e, t, s, e / p, t / p, s / p,
				100 * (e - p) / (s - p), 100 * (t - p) / (s - p) }'
	done
	echo
	echo "ebpf ov, ptr ov: utrace's overhead (utrace - untraced) with that backend as a"
	echo "share of strace's (strace - untraced); target: under 50%."
} | tee "$out"
