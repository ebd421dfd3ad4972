#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu_test.sh TARGET: the router target's pure tests under qemu-user
# (qemu-TARGET-static), as one TAP stream; make cross-check-TARGET and
# make check (scripts/check.sh) run it after make cross-TARGET.
#
#  - build/TARGET/tests/unit*/ *_test: every sub-test renumbered as
#    "unit/NAME: ...". Under qemu-user the guest's seccomp() does not reach
#    the kernel and its namespaces are not real: the tests that load a
#    filter skip (UJAIL_TEST_NO_SECCOMP); parsing, compiling, simulating,
#    the BPF dumper, the syscall tables, ujail's options, paths, accounts,
#    capability names and ELF reader run.
#  - ujail-seccomp compile on the target, for its own architecture, writes
#    the same program file, byte for byte, as the host's ujail-seccomp
#    compile -a TARGET (build/bin/ujail-seccomp), for every policy of
#    tests/seccomp/good and compare; ujail-seccomp sim on the target
#    decides as the host's for a table of calls, negative arguments
#    included (on mipsel, a 32-bit ABI, -1 and 0xffffffff alike).
#  - ujail, utrace and seccomp-trace answer --help; utrace's ebpf backend
#    says it is not built.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:?usage: qemu_test.sh TARGET}
case $target in
aarch64 | mipsel) ;;
*) echo "qemu_test.sh: $target: aarch64 or mipsel" >&2; exit 2 ;;
esac
qemu=qemu-$target-static
command -v "$qemu" >/dev/null || qemu=qemu-$target
command -v "$qemu" >/dev/null || { echo "qemu_test.sh: no $qemu (qemu-user-static)" >&2; exit 1; }
xb=$top/build/$target
host=$top/build/bin/ujail-seccomp
run() { "$qemu" "$@"; }
export UJAIL_TEST_NO_SECCOMP="qemu-user: no seccomp filter reaches the kernel"

n=0
failed=0
ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# $target under $("$qemu" --version | head -n 1)"

# The unit tests, their results renumbered into this stream.
for t in "$xb"/tests/unit/*_test "$xb"/tests/unit-ujail/*_test; do
	[ -x "$t" ] || continue
	name=$(basename "$(dirname "$t")")/$(basename "$t" _test)
	args=()
	[ "$name" = unit/policy_corpus ] && args=("$top/tests/seccomp/bad")
	(cd "$tmp" && timeout 900 "$qemu" "$t" "${args[@]}") >"$tmp/out" 2>&1
	rc=$?
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$tmp/out" | tail -n 1)
	seen=$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/out")
	grep -q '^not ok ' "$tmp/out" && failed=1
	awk -v n="$n" -v name="$name" '
		/^(not )?ok / {
			sub(/^ok [0-9]* *-? */, "ok " ++n " - " name ": ")
			sub(/^not ok [0-9]* *-? */, "not ok " ++n " - " name ": ")
			print
			next
		}
		/^#/' "$tmp/out"
	n=$((n + seen))
	if [ "$rc" != 0 ] || [ -z "$plan" ] || [ "$plan" != "$seen" ]; then
		ok 1 "$name: exited with status $rc, ${plan:-no} planned, $seen reported"
		tail -n 5 "$tmp/out" | sed 's/^/# /'
	fi
done

# compile: the target's own program equals the host's cross-compiled one.
# A policy's one-line "architectures" list names the target instead (they
# were written for x86_64).
common=(--caps all --kernel 6.12)
arch=SCMP_ARCH_${target^^}
if [ -x "$host" ]; then
	for p0 in "$top"/tests/seccomp/good/*.json "$top"/tests/seccomp/compare/*.json; do
		b=$(basename "$p0" .json)
		p=$tmp/$b.json
		sed "s/\"architectures\": \[[^]]*\]/\"architectures\": [ \"$arch\" ]/" "$p0" >"$p"
		(cd "$tmp" && run "$xb/bin/ujail-seccomp" compile "${common[@]}" "$p" -o "$tmp/$b.t") \
			>"$tmp/t.err" 2>&1
		trc=$?
		"$host" compile -a "$target" "${common[@]}" "$p" -o "$tmp/$b.h" >"$tmp/h.err" 2>&1
		hrc=$?
		if [ $trc = 0 ] && [ $hrc = 0 ]; then
			cmp -s "$tmp/$b.t" "$tmp/$b.h"
			ok $? "compile $b on $target: the host's compile -a $target, byte for byte"
		else
			[ $trc = $hrc ] && cmp -s "$tmp/t.err" "$tmp/h.err"
			ok $? "compile $b on $target: fails as on the host (status $trc, host $hrc)"
		fi
	done
else
	ok 0 "compile on $target # SKIP $host not built (make userspace)"
fi

# sim: the same decisions, native on the target and simulated on the host.
sims=(
	"getuid"
	"read 0 0 0"
	"socket 1"
	"socket 2"
	"socket 3"
	"openat -- -100 0 0"
	"openat 4294967196 0 0"
	"personality 4294967295"
	"personality -- -1"
	"clone 0x10000000"
	"clone 0x100"
	"kill 5 9"
	"kill 5 15"
	"mmap 0 4096"
	"mmap 0 0x40000000"
)
pol=$tmp/args-oci.json
sed "s/\"architectures\": \[[^]]*\]/\"architectures\": [ \"$arch\" ]/" \
	"$top/tests/seccomp/good/args-oci.json" >"$pol"
sims_done=()
for s in "${sims[@]}"; do
	read -r -a a <<<"$s"
	t=$(cd "$tmp" && run "$xb/bin/ujail-seccomp" sim "${common[@]}" "$pol" "${a[@]}" 2>&1)
	if [ -x "$host" ]; then
		h=$("$host" sim -a "$target" "${common[@]}" "$pol" "${a[@]}" 2>&1)
		[ "$t" = "$h" ]
		ok $? "sim args-oci $s on $target: '$t' (host: '$h')"
	else
		[ -n "$t" ]
		ok $? "sim args-oci $s on $target: '$t'"
	fi
	sims_done+=("$t")
done
# -1 and 0xffffffff: one value on a 32-bit ABI, two on a 64-bit one.
neg=${sims_done[7]} pos=${sims_done[8]}
at_neg=${sims_done[5]} at_pos=${sims_done[6]}
if [ "$target" = mipsel ]; then
	[ "$neg" = "$pos" ] && [ "$at_neg" = "$at_pos" ]
	ok $? "mipsel (32-bit): personality 0xffffffff and -1 decide alike ($neg), openat -100 and 0xffffff9c alike ($at_neg)"
else
	[ "$at_neg" != "$at_pos" ]
	ok $? "$target (64-bit): openat -100 ($at_neg) and 0xffffff9c ($at_pos) differ"
fi

# The commands start and answer.
for c in ujail ujail-seccomp utrace; do
	run "$xb/bin/$c" --help >"$tmp/help" 2>&1
	rc=$?
	[ $rc = 0 ] && [ -s "$tmp/help" ]
	ok $? "$c --help on $target (status $rc)"
done
run "$xb/bin/utrace" --backend ebpf -o "$tmp/p.json" -- /bin/true >"$tmp/u" 2>&1
grep -q "without the ebpf backend" "$tmp/u"
ok $? "utrace --backend ebpf on $target: not built, said so"

echo "1..$n"
exit $failed
