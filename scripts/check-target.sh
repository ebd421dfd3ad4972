#!/bin/bash
# make check-aarch64, make check-mipsel: a router target's patched kernel in
# a QEMU system guest under TCG (scripts/vm.sh --arch TARGET), with the
# target's own programs: log_errno and the kernel's seccomp_bpf, Landlock's
# ABI, jailfs (loaded, kselftests, fsx, a short stress, unloaded), then
# ujail-seccomp run (tests/seccomp/run_test.sh), ujail's jail suite and
# OpenWrt's services in a router's root (tests/ujail/router_test.sh), each
# with both root backends (bind and UJAIL_FS=jailfs), and utrace with the
# ptrace backend; for aarch64 also Debian's stock arm64 cloud kernels 6.12
# and 6.1 (below). Ends with "N passed, N failed".
#
#   scripts/check-target.sh aarch64|mipsel [RESULTS_DIR]
#
# With RESULTS_DIR (make check passes its own), the results go there
# (vm-TARGET/, build-vm-TARGET.*) and no summary is printed; alone, they go
# to build/results-TARGET/.
#
# The guest's /opt/tests has the x86_64 guests' layout (scripts/vm-runs.sh):
# the target's static ujail-seccomp (also at /sbin, where the targets' shims
# run it), both shims under lib/ (musl: the product's; glibc: a test build),
# the sysprobe programs, vm-ujail/{bin/ujail,lib/ujail/ujail-keeper,lib/...}
# and the probes. Dynamic programs find the target's ld.so and libc where a
# Debian or OpenWrt root has them: glibc's from libc6-ARCH-cross, musl's
# from the target's sysroot.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
t=${1:-}
case $t in
aarch64) image=build/kernel/out-aarch64/Image triple=aarch64-linux-gnu karch=arm64
	ld_glibc=ld-linux-aarch64.so.1 ld_musl=ld-musl-aarch64.so.1 ;;
mipsel) image=build/kernel/out-mipsel/vmlinux triple=mipsel-linux-gnu karch=mips
	ld_glibc=ld.so.1 ld_musl=ld-musl-mipsel.so.1 ;;
*) echo "check-target.sh: usage: check-target.sh aarch64|mipsel [RESULTS_DIR]" >&2; exit 2 ;;
esac
results=${2:-}
own=0
if [ -z "$results" ]; then
	own=1
	results=$top/build/results-$t
	rm -rf "$results"
fi
mkdir -p "$results"
# shellcheck source=scripts/vm-runs.sh
. "$top/scripts/vm-runs.sh"
X=$top/build/$t
XT=$X/tests/vm

build_label="$t"
# shellcheck source=scripts/build-step.sh
. "$top/scripts/build-step.sh"

# One of Debian's stock arm64 kernels in the aarch64 guest (see below).
stock_guest() {	# stock_guest SERIES
	local series=$1 stock sdir m early=() only612=() jailfs_jail=()
	# utrace_run's utrace is the target's (musl, ptrace); the eBPF
	# counter's build is another program (tests/cross/vm.mk).
	local ut_ebpf=/opt/tests/utrace-ebpf
	stock=$(scripts/stock-kernel.sh "$series" arm64 2>>"$results/stock-$t.log") || {
		echo "not ok 1 stock $series arm64 kernel: see stock-$t.log" \
			>"$results/build-stock-$series-$t.tap"
		return
	}
	sdir=$(dirname "$stock")
	while read -r m; do
		early+=(--insmod "$sdir/virtio/$m")
	done <"$sdir/virtio/order"
	# As on x86_64, 6.1 leaves out the kernel's suite (6.12's), the
	# fallbacks' and utrace's ptrace runs (the same code as on 6.12); and,
	# for time, the jail suite on jailfs (the module's own tests run).
	if [ "$series" = 6.12 ]; then
		only612=(--run 'seccomp_bpf: ./seccomp_bpf'
			--run "seccomp_run: EXPECT_AUDIT=1 $seccomp_run"
			--run "utrace-ptrace: UTRACE_BACKEND=ptrace $utrace_run")
		jailfs_jail=(--run "ujail_jail_jailfs: ${ujail_run/chroot . env/chroot . env UJAIL_FS=jailfs}")
	fi
	echo "== qemu: $t, stock $series"
	scripts/vm.sh --arch "$t" --virtio pci --kernel "$stock" "${early[@]}" \
		--out "$results/vm-$t-stock-$series" \
		--timeout "${UJAIL_TARGET_TIMEOUT:-2400}" "${files[@]}" "${runtime[@]}" \
		--file "$top/build/jailfs/stock-$series-arm64/jailfs.ko" \
		--file "$XT/log_errno_absent_test" --file "$XT/utrace-ebpf" \
		--file "$XT/tpflip" --file tests/runner/tcg_stress.sh \
		--run 'log_errno_absent: ./log_errno_absent_test' \
		--run "utrace: UTRACE_BACKEND=ebpf ${utrace_run/UTRACE=\/opt\/tests\/utrace /UTRACE=$ut_ebpf }" \
		"${only612[@]}" \
		--run "tcg_stress: UTRACE=$ut_ebpf ${tcg_stress_run#tcg_stress: }" \
		--run "ujail_setup: $ujail_setup" \
		--run "ujail_jail: $ujail_run" \
		"${jailfs_runs[@]}" "${jailfs_jail[@]}" "${jailfs_rmmod[@]}"
}

if build_step "vm-$t" make -s "vm-$t"; then
	# The trees the guest gets, as on x86_64 (scripts/check.sh).
	stage=$X/vm-stage
	rm -rf "$stage" && mkdir -p "$stage/lib/musl" "$stage/vm-ujail/bin" \
		"$stage/vm-ujail/lib/musl" "$stage/vm-ujail/lib/ujail"
	cp -a "$XT/utrace" "$stage/utrace-progs"
	cp "$XT/lib/libpreload-seccomp.so" "$stage/lib/"
	cp "$X/lib/libpreload-seccomp.so" "$stage/lib/musl/"
	cp "$X/bin/ujail" "$stage/vm-ujail/bin/"
	cp "$X/lib/ujail/ujail-keeper" "$stage/vm-ujail/lib/ujail/"
	cp "$XT/lib/libpreload-seccomp.so" "$stage/vm-ujail/lib/"
	cp "$X/lib/libpreload-seccomp.so" "$stage/vm-ujail/lib/musl/"
	files=()
	for f in "$XT"/log_errno_test "$XT"/seccomp_bpf "$XT"/landlock_abi_test \
		"$XT"/jailfs_{mount,ops,fsx,stress}_test \
		"$X/bin/ujail-seccomp" tests/seccomp/run_test.sh tests/lib/tap.sh \
		"$XT"/seccomp/sysprobe-{glibc,glibc-static,musl,musl-static} "$XT/seccomp/nostart" \
		"$stage/lib" "$stage/vm-ujail" tests/ujail/{jail,router}_test.sh tests/lib/checks.sh \
		"$XT/probes" "$X/bin/utrace" tests/utrace/utrace_test.sh "$stage/utrace-progs"; do
		files+=(--file "$f")
	done
	runtime=(
		--guest-file "$X/bin/ujail-seccomp=/sbin/ujail-seccomp"
		--guest-file "/usr/$triple/lib/$ld_glibc=/lib/$ld_glibc"
		--guest-file "/usr/$triple/lib/libc.so.6=/lib/$triple/libc.so.6"
		--guest-file "$top/build/sysroot/$t/lib/libc.so=/lib/$ld_musl"
	)
	# The kernel's suite, with the failures known on the target (its
	# *.known-failures list, each reported as TAP TODO) apart.
	bpf_run='seccomp_bpf: ./seccomp_bpf'
	known=tests/kselftest/arch/$karch.known-failures
	if [ -e "$known" ]; then
		files+=(--file tests/lib/known_failures.sh --file "$known")
		bpf_run="seccomp_bpf: sh known_failures.sh $(basename "$known") ./seccomp_bpf"
	fi
	# ujail's backend is auto: the bind runs go before jailfs is loaded.
	# The router's musl programs need the target's loader (hard-float on
	# mipsel: ld-musl-mipsel.so.1, where OpenWrt's routers have -sf).
	router_t="${router_run/env /env MUSL_LD=/lib/$ld_musl }"
	echo "== qemu: $t"
	scripts/vm.sh --arch "$t" --kernel "$image" --out "$results/vm-$t" \
		--timeout "${UJAIL_TARGET_TIMEOUT:-2400}" "${files[@]}" "${runtime[@]}" \
		--file "$top/build/jailfs/$t/jailfs.ko" \
		--run 'log_errno: ./log_errno_test' \
		--run "$bpf_run" \
		--run 'landlock: ./landlock_abi_test' \
		--run "seccomp_run: $seccomp_run" \
		--run "ujail_setup: $ujail_setup" \
		--run "ujail_jail: $ujail_run" \
		--run "ujail_router: $router_t" \
		"${jailfs_runs[@]}" \
		--run "ujail_jail_jailfs: ${ujail_run/chroot . env/chroot . env UJAIL_FS=jailfs}" \
		--run "ujail_router_jailfs: UJAIL_FS=jailfs $router_t" \
		"${jailfs_rmmod[@]}" \
		--run "utrace-ptrace: UTRACE_BACKEND=ptrace $utrace_run"
	# aarch64: Debian's stock arm64 cloud kernels too, unpatched, as the
	# x86_64 stock guests (scripts/check.sh): log_errno absent, utrace's
	# eBPF counter (a static glibc build with libbpf; the kernels have
	# BTF) and the text-patching stress, ujail's jail suite, and jailfs
	# built against Debian's arm64 headers (loaded, kselftests, fsx,
	# stress, unloaded); on 6.12 also the kernel's suite, the notify and
	# audit fallbacks, utrace's ptrace backend and the jail suite on
	# jailfs. 6.1 has its virtio drivers, console included, as modules:
	# the guest loads them first (vm.sh --insmod). The two guests take
	# about 7 and 5 minutes.
	if [ "$t" = aarch64 ] && build_step "stock-$t" make -s vm-stock-aarch64; then
		for series in 6.12 6.1; do
			stock_guest "$series"
		done
	fi
fi

[ $own = 1 ] || exit 0
exec scripts/tap-summary "$results"
