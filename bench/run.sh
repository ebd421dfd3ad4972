#!/bin/bash
# make bench: seccomp's cost per syscall on the patched kernel, the same
# kernel built without the patch ("vanilla", same config) and Debian's stock
# 6.12 kernel, all in QEMU. TCG emulates the CPU, so compare ratios within
# one run, not absolute times. Then the policy compiler against libseccomp
# on the host kernel (real CPU; make bench-policy runs only that part),
# ujail next to bubblewrap and unshare(1) (make bench-ujail), and what each
# namespace and the cgroup add to a jail's start-up, on the host and, for
# the cgroup limits a cgroup v1 host cannot give, on the patched kernel in
# QEMU (make bench-ns, make bench-ns-qemu).
# Raw output stays in build/bench/.
# CALLS (default 1000000) and BOOTS (default 3) tune the run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build/bench
calls=${CALLS:-1000000}
boots=${BOOTS:-3}

make -s kernel kernel-vanilla bench-programs
stock=$(scripts/stock-kernel.sh 6.12)
declare -A kernels=(
	[patched]=build/kernel/out-patched/bzImage
	[vanilla]=build/kernel/out-vanilla/bzImage
	[stock-6.12]=$stock
)
order=(patched vanilla stock-6.12)

# Boots of one kernel differ a lot under TCG: boot each kernel $boots times,
# interleaved, and keep the best figure of each case.
for b in $(seq 1 "$boots"); do
	for k in "${order[@]}"; do
		scripts/vm.sh --kernel "${kernels[$k]}" --out "$out/$k.$b" --timeout 900 \
			--file "$out/log_errno_bench" --file build/tests/seccomp_benchmark \
			--run "paths: ./log_errno_bench $calls" \
			--run "seccomp_benchmark: ./seccomp_benchmark $calls; echo \"# exit status \$?\"" \
			>"$out/$k.$b.log" 2>&1 ||
			{ cat "$out/$k.$b.log"; echo "bench: the $k run failed" >&2; exit 1; }
	done
done

value() {	# value KERNEL CASE: best over the boots
	cat "$out/$1".*/paths.tap | awk -v c="$2" '$1 == "case" && $2 == c {
		if ($3 == "n/a") na = 1; else if (best == "" || $3 < best) best = $3 }
		END { print na ? "n/a" : best }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
benchmark() {	# benchmark KERNEL: seccomp_benchmark's timings, best over the boots
	cat "$out/$1".*/seccomp_benchmark.tap | sed -n 's/^# \(getpid .*\): \([0-9]*\) ns$/\1|\2/p' |
		awk -F'|' '!($1 in best) { order[n++] = $1; best[$1] = $2 }
			$2 < best[$1] { best[$1] = $2 }
			END { for (i = 0; i < n; i++) printf "    %-40s %6d ns\n", order[i], best[order[i]] }'
}
echo
echo "seccomp cost per syscall, ns per call in QEMU/TCG, $calls calls, best of 3 rounds x $boots boots"
printf '%-28s' case; for k in "${order[@]}"; do printf '%12s' "$k"; done; echo
for c in allowed/no-filter allowed/cacheable-filter allowed/arg-reading-filter \
	denied/errno denied/log_errno denied/log_errno-silenced; do
	printf '%-28s' "$c"
	for k in "${order[@]}"; do printf '%12s' "$(value "$k" "$c")"; done
	echo
done
echo
echo "ratios (same run)"
printf '  %-58s %s\n' "denied: log_errno / errno (patched)" \
	"$(ratio "$(value patched denied/log_errno)" "$(value patched denied/errno)")"
printf '  %-58s %s\n' "denied: log_errno silenced / errno (patched)" \
	"$(ratio "$(value patched denied/log_errno-silenced)" "$(value patched denied/errno)")"
for c in allowed/no-filter allowed/cacheable-filter allowed/arg-reading-filter denied/errno; do
	printf '  %-58s %s\n' "$c: patched / vanilla" \
		"$(ratio "$(value patched "$c")" "$(value vanilla "$c")")"
done
echo
echo "the kernel's seccomp_benchmark ($calls getpid calls per case), best of $boots boots:"
for k in "${order[@]}"; do
	echo "  $k:"
	benchmark "$k"
done
echo
echo "seccomp policies on the host kernel ($(uname -r)): ujail's compiler against libseccomp $(dpkg-query -W -f '${Version}' libseccomp-dev 2>/dev/null)"
build/bench/policy_bench "$calls" | tee "$out/policy_bench.txt"
echo
bench/ujail_bench.sh
echo
bench/ujail_ns_bench.sh
echo
bench/ujail_ns_bench.sh --qemu
