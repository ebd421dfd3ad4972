#!/bin/bash
# Boot a kernel ROUNDS times in QEMU and run tests/runner/tcg_stress.sh in
# each (RUNS utrace --backend ebpf runs, then FLIPS attach+detach cycles
# on sys_enter, beside a syscall loop on both vCPUs): the evidence for the
# TCG mode scripts/vm_accel picks. Prints one line per round and a tally;
# exits 1 if any round hung or crashed.
#
#   scripts/tcg-stress.sh [--kernel 6.1|6.12|PATH] [--rounds N] [--runs N]
#                         [--flips N] [--accel ACCEL] [--timeout SECONDS]
#
# Defaults: Debian's 6.1, 20 rounds of 20 runs and 300 flips (the README's
# counts), 600 s per round. --accel is QEMU's -accel (default: what
# scripts/vm_accel picks), e.g. tcg,thread=multi to reproduce the hang on
# QEMU 7.2. Each round's guest output is kept under
# build/tcg-stress/KERNEL-ACCEL/ROUND/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=6.1 rounds=20 runs=20 flips=300 accel="" timeout=600

die() { echo "tcg-stress.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--flips) flips=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
case $kernel in
6.1|6.12) image=$("$top/scripts/stock-kernel.sh" "$kernel") ;;
*) image=$kernel ;;
esac
[ -r "$image" ] || die "--kernel: '$image' is not a readable kernel image"
utrace=$top/build/bin-static/utrace tpflip=$top/build/tests/runner/tpflip
make -s -C "$top" "$utrace" "$tpflip" >/dev/null
[ -n "$accel" ] || accel=$("$top/scripts/vm_accel" "$image")

out=$top/build/tcg-stress/$(basename "$kernel")-${accel//[^a-z0-9=]/-}
rm -rf "$out" && mkdir -p "$out"
failed=0
echo "tcg-stress: $(basename "$image") ($kernel) under -accel $accel, $rounds rounds of $runs utrace runs and $flips flips"
for r in $(seq "$rounds"); do
	start=$(date +%s)
	if UJAIL_ACCEL=$accel "$top/scripts/vm.sh" --kernel "$image" --out "$out/$r" \
		--timeout "$timeout" --file "$utrace" --file "$tpflip" \
		--file "$top/tests/runner/tcg_stress.sh" --file "$top/tests/lib/tap.sh" \
		--run "stress: RUNS=$runs FLIPS=$flips TAP_SH=/opt/tests/tap.sh sh tcg_stress.sh" \
		>"$out/$r.log" 2>&1; then
		echo "round $r: ok ($(( $(date +%s) - start )) s)"
	else
		failed=$((failed + 1))
		why=$( { grep -ah -m1 -E 'soft lockup|Oops|Kernel panic' "$out/$r/console.log"
			grep -h -m1 -E 'timed out|not ok' "$out/$r.log"; } 2>/dev/null |
			tr -d '\r' | head -n 1 | cut -c1-160 || true)
		echo "round $r: FAILED ($(( $(date +%s) - start )) s): ${why:-see $out/$r.log}"
	fi
done
echo "tcg-stress: $failed of $rounds rounds failed"
[ $failed = 0 ]
