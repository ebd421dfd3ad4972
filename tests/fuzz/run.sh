#!/bin/bash
# Runs fuzz targets (build/fuzz/*_fuzz, make fuzz-build) for a bounded
# time each; one TAP result per target. A target first replays its seed
# corpus (tests/fuzz/corpus/TARGET, the regression inputs too), then
# fuzzes with its dictionary; what it finds is kept in
# build/fuzz/corpus/TARGET for the next run. A crash, leak, sanitizer
# report or timeout is "not ok", with the log's tail and the reproducer
# (OUT/TARGET-crash-..., replay: build/fuzz/TARGET_fuzz FILE) kept.
#
#   tests/fuzz/run.sh [--seconds N] [--out DIR] [TARGET...]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
seconds=60
out=$top/build/results/fuzz
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) break ;;
	esac
done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(policy compile jail_opts jailfs_opts)
mkdir -p "$out"
echo "1..${#targets[@]}"
n=0 failed=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	bin=$top/build/fuzz/${t}_fuzz
	seeds=$top/tests/fuzz/corpus/$t
	work=$top/build/fuzz/corpus/$t
	log=$out/$t.log
	dict=()
	[ -f "$top/tests/fuzz/$t.dict" ] && dict=(-dict="$top/tests/fuzz/$t.dict")
	mkdir -p "$work"
	# New inputs go to the first directory: the seeds stay as committed.
	# One input may take 10 s, one process 2 GB; -max_len: the largest
	# seed is 2 KB; policies of 16 KB still compile in milliseconds.
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
		-artifact_prefix="$out/$t-" -print_final_stats=1 "${dict[@]}" \
		"$work" "$seeds" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ $rc = 0 ]; then
		echo "ok $n fuzz $t: ${runs:-?} inputs in ${seconds}s, no crash"
		continue
	fi
	failed=1
	echo "not ok $n fuzz $t (exit $rc; log ${log#"$top"/})"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|compile_fuzz|.*runtime error)' "$log" | head -n 5 | sed 's/^/# /'
	for a in "$out/$t"-*; do
		[ -e "$a" ] && echo "# reproducer: ${a#"$top"/} (build/fuzz/${t}_fuzz ${a#"$top"/})"
	done
done
exit $failed
