#!/bin/bash
# make check: build everything, run every test on the host and in QEMU, and
# end with "N passed, N failed". Results (TAP, logs, guest kernel logs) are
# kept under build/results/.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
results=$top/build/results
T=$top/build/tests
rm -rf "$results"
mkdir -p "$results"
start=$(date +%s)
# The guests' run lists shared with scripts/check-target.sh.
# shellcheck source=scripts/vm-runs.sh
. "$top/scripts/vm-runs.sh"

say() { printf '\n== %s (%ds)\n' "$*" $(( $(date +%s) - start )); }

# A build step is one TAP result; its log is kept, and shown if it fails.
build_step() {	# build_step NAME COMMAND...
	local name=$1; shift
	say "build: $name"
	if "$@" >"$results/build-$name.log" 2>&1; then
		tail -n 3 "$results/build-$name.log"
		echo "ok 1 build $name" >"$results/build-$name.tap"
		return 0
	fi
	tail -n 40 "$results/build-$name.log"
	echo "not ok 1 build $name" >"$results/build-$name.tap"
	return 1
}

host_suite() {	# host_suite NAME COMMAND...
	local name=$1 tap rc; shift
	tap=$results/host-$name.tap
	say "host: $name"
	"$@" >"$tap" 2>&1
	rc=$?
	cat "$tap"
	# A suite that fails without saying which test failed still counts.
	if [ $rc != 0 ] && ! grep -q '^not ok' "$tap"; then
		echo "not ok 1 $name exited with status $rc" | tee -a "$tap"
	fi
}

vm_suite() {	# vm_suite NAME KERNEL VM.SH-ARGS...
	local name=$1 kernel=$2; shift 2
	say "qemu: $name"
	"$top/scripts/vm.sh" --kernel "$kernel" --out "$results/vm-$name" "$@"
}

built=1
build_step kernel make -s kernel || built=0
build_step kernel-audit make -s kernel-audit || built=0
build_step kernel-nolog make -s kernel-nolog || built=0
build_step kselftests make -s kselftests || built=0
usr=1
build_step userspace make -s userspace unit-tests seccomp-progs seccomp-compare || usr=0
build_step ujail make -s ujail ujail-lib ujail-unit-tests ujail-root-tests ujail-jail-tests ujail-vm || usr=0
build_step utrace make -s utrace-tests runner-progs || usr=0
build_step clang make -s clang-check ujail-clang-check utrace-clang-check
fz=1
build_step fuzz make -s fuzz-build || fz=0
# make install's own builds (the dynamic ujail, the shims of a layout).
build_step install make -s install-build || usr=0
# The Debian packages (scripts/deb.sh), for tests/build/packages_test.sh.
pk=0
build_step packages make -s deb && pk=1
# The router targets' userspace (scripts/cross.mk), musl, static.
cross=""
for t in aarch64 mipsel; do
	build_step "cross-$t" make -s "cross-$t" && cross="$cross $t"
done
jf=1
build_step jailfs make -s jailfs jailfs-kselftests || jf=0
stock612=$(scripts/stock-kernel.sh 6.12 2>"$results/stock.log") || built=0
stock61=$(scripts/stock-kernel.sh 6.1 2>>"$results/stock.log") || built=0

host_suite checkpatch tests/build/checkpatch_test.sh
host_suite jailfs-dkms tests/build/jailfs_dkms_test.sh
host_suite kernel-series tests/build/kernel_series_test.sh
host_suite vm-runner tests/runner/vm_runner_test.sh
# Each fuzz target for a bounded time (make fuzz runs them longer); a
# crash's reproducer is kept in build/results/fuzz.
[ $fz = 1 ] && host_suite fuzz tests/fuzz/run.sh --seconds "${UJAIL_FUZZ_SECONDS:-45}" \
	--out "$results/fuzz"

if [ $usr = 1 ]; then
	for t in "$T"/unit/*_test; do
		name=$(basename "$t" _test)
		case $name in
		policy_corpus) host_suite "unit-$name" "$t" tests/seccomp/bad ;;
		*) host_suite "unit-$name" "$t" ;;
		esac
	done
	for t in "$T"/unit-ujail/*_test; do
		host_suite "unit-ujail-$(basename "$t" _test)" "$t"
	done
	host_suite ujail-manpage tests/unit-ujail/manpage_test.sh
	host_suite manpages tests/build/manpages_test.sh
	host_suite completion tests/build/completion_test.sh
	host_suite ujail-rootfs "$T/ujail/rootfs_test"
	host_suite ujail-jail tests/ujail/jail_test.sh
	host_suite ujail-router tests/ujail/router_test.sh
	host_suite seccomp-valgrind tests/seccomp/valgrind_test.sh
	host_suite seccomp-profiles tests/seccomp/profiles_test.sh
	# Once per backend: ebpf (the default as root here) and ptrace.
	host_suite utrace env VALGRIND=valgrind tests/utrace/utrace_test.sh
	host_suite utrace-ptrace env UTRACE_BACKEND=ptrace tests/utrace/utrace_test.sh
	host_suite utrace-asan env UTRACE="$top/build/bin-asan/utrace" tests/utrace/utrace_test.sh
	host_suite utrace-asan-ptrace env UTRACE_BACKEND=ptrace UTRACE="$top/build/bin-asan/utrace" \
		tests/utrace/utrace_test.sh
	host_suite seccomp-run tests/seccomp/run_test.sh
	host_suite seccomp-procd tests/seccomp/procd_test.sh
	host_suite install tests/build/install_test.sh
	# Installed by apt into a fresh root; DKMS builds jailfs there for the
	# stock 6.12 headers, and the stock-6.12 guest loads that module.
	rm -f build/packages/dkms-stock-6.12/jailfs.ko
	host_suite packages env PACKAGES_BUILT=$pk tests/build/packages_test.sh
	host_suite seccomp-run-asan env UJAIL_SECCOMP="$top/build/bin-asan/ujail-seccomp" \
		SHIM_GLIBC="$top/build/lib/libpreload-seccomp.so" \
		SHIM_MUSL="$top/build/lib/musl/libpreload-seccomp.so" tests/seccomp/run_test.sh
fi
# Under qemu-user: the unit tests but kernel loads, compile and sim against
# the host's (tests/cross/qemu_test.sh).
for t in $cross; do
	[ $usr = 1 ] && host_suite "cross-$t" tests/cross/qemu_test.sh "$t"
done
# The sysroots' cache (scripts/cross-sysroot.sh): a copied entry is rebuilt.
# shellcheck disable=SC2086
[ -n "$cross" ] && host_suite cross-sysroot tests/cross/sysroot_test.sh $cross

# ujail-seccomp run in the guest: the static command, both shims (under
# /opt/tests/lib: the guest's /tmp is a fresh tmpfs, so build paths under
# /tmp would vanish), the test programs and the shared libraries they need.
vmlib=$top/build/vm-seccomp/lib
rm -rf "$vmlib" && mkdir -p "$vmlib/musl"
cp build/lib/libpreload-seccomp.so "$vmlib/" 2>/dev/null
cp build/lib/musl/libpreload-seccomp.so "$vmlib/musl/" 2>/dev/null
seccomp_vm=(
	--file "$top/build/bin-static/ujail-seccomp" --file tests/seccomp/run_test.sh
	--file tests/lib/tap.sh --file "$T/seccomp/nostart" --file "$vmlib"
	--host-file /lib64/ld-linux-x86-64.so.2 --host-file /lib/x86_64-linux-gnu/libc.so.6
	--host-file /lib/ld-musl-x86_64.so.1
)
for v in glibc glibc-static musl musl-static; do
	seccomp_vm+=(--file "$T/seccomp/sysprobe-$v")
done

# ujail's escape suite in the guest. pivot_root refuses the initramfs
# (rootfs), so it runs in a bind mount of / moved over / in a mount
# namespace of its own, as switch_root does: a plain chroot would do for
# pivot_root, but the kernel refuses user namespaces (-f) to a chrooted
# process. The static ujail sits
# in a tree with its shims and its keeper at ../lib, where it looks for them. The set-up
# writes passwd/group for -U/-G, mounts devpts for pty_run, and starts
# syslogd for /dev/log (-l) and a second one as a fake ubus socket (-u).
vmuj=$top/build/vm-ujail
rm -rf "$vmuj" && mkdir -p "$vmuj/bin" "$vmuj/lib/musl" "$vmuj/lib/ujail"
cp build/bin-static/ujail "$vmuj/bin/" 2>/dev/null
cp build/lib/ujail/ujail-keeper "$vmuj/lib/ujail/" 2>/dev/null
cp build/lib/libpreload-seccomp.so "$vmuj/lib/" 2>/dev/null
cp build/lib/musl/libpreload-seccomp.so "$vmuj/lib/musl/" 2>/dev/null
ujail_vm=(--file "$vmuj" --file tests/ujail/jail_test.sh --file tests/ujail/router_test.sh
	--file tests/lib/checks.sh --file "$T/ujail/probes")
# utrace in the guest: stock kernels have IA32 emulation (the test kernel
# and this host do not), so the i386 counts are checked there, with both
# backends (the stock kernel has BTF for the ebpf one). Static
# round-trip programs: the guest's ujail-seccomp has no shim beside it.
vmut=$top/build/vm-utrace
rm -rf "$vmut" && mkdir -p "$vmut" && cp -a "$T/utrace" "$vmut/utrace-progs" 2>/dev/null
utrace_vm=(
	--file "$top/build/bin-static/utrace" --file tests/utrace/utrace_test.sh
	--file "$vmut/utrace-progs"
)
# The kernels utrace's eBPF counter runs on also get a bounded version of
# the text-patching stress (tcg_stress_run, scripts/vm-runs.sh).
utrace_vm+=(--file "$T/runner/tpflip" --file tests/runner/tcg_stress.sh)
[ $usr = 1 ] || built=0

# jailfs in the guest: loaded, its kselftests, fsx and a short stress (the
# minute-long one runs on the debug kernel), then unloaded with nothing
# left holding it. On the patched kernel the ujail suite runs again with
# the jailfs backend.
[ $jf = 1 ] || built=0
jailfs_vm() {
	printf -- '--file\n%s\n' "$top/build/jailfs/$1/jailfs.ko" "$T/jailfs_mount_test" \
		"$T/jailfs_ops_test" "$T/jailfs_fsx_test" "$T/jailfs_stress_test"
}
mapfile -t jf_patched < <(jailfs_vm patched)
mapfile -t jf_stock612 < <(jailfs_vm stock-6.12)
# The module the jailfs-dkms package's DKMS build made (packages_test.sh),
# when it did: that one is loaded in the stock 6.12 guest.
dkms_ko=$top/build/packages/dkms-stock-6.12/jailfs.ko
if [ -s "$dkms_ko" ]; then
	jf_stock612[1]=$dkms_ko
	echo "stock-6.12: jailfs.ko from the jailfs-dkms package (DKMS)"
fi
mapfile -t jf_stock61 < <(jailfs_vm stock-6.1)

# Every guest is single-threaded TCG (scripts/vm_accel): one core each.
# aarch64's run (its kernel, then its guest and Debian's two stock arm64
# guests: the longest) goes on beside the x86_64 guests, the debug kernel
# and mipsel, which take about as long one after the other; its output is
# shown when it ends. The two touch different build directories.
# It runs in a process group of its own (setsid), which an interrupted
# make check ends whole: its guest included.
bg_target="" bg_pid=""
stop_bg() { [ -z "$bg_pid" ] || kill -TERM -- "-$bg_pid" 2>/dev/null || true; }
trap 'stop_bg; exit 130' INT
trap 'stop_bg; exit 143' TERM
case " $cross " in *" aarch64 "*)
	bg_target=aarch64 cross=${cross/aarch64/}
	say "qemu: aarch64 (kernel build and guests), in the background"
	setsid scripts/check-target.sh aarch64 "$results" </dev/null >"$results/target-aarch64.log" 2>&1 &
	bg_pid=$!
esac

if [ $built = 1 ]; then
	K=$top/build/kernel
	vm_suite patched "$K/out-patched/bzImage" --timeout 600 \
		--file "$T/log_errno_test" --file "$T/seccomp_bpf" "${seccomp_vm[@]}" "${ujail_vm[@]}" \
		--file "$T/landlock_abi_test" \
		--run 'log_errno: ./log_errno_test' \
		--run 'seccomp_bpf: ./seccomp_bpf' \
		--run 'landlock: ./landlock_abi_test' \
		--run "seccomp_run: $seccomp_run" \
		"${jf_patched[@]}" \
		--run "ujail_setup: $ujail_setup" \
		--run "ujail_jail: $ujail_run" \
		--run "ujail_router: $router_run" \
		"${jailfs_runs[@]}" \
		--run "ujail_jail_jailfs: ${ujail_run/chroot . env/chroot . env UJAIL_FS=jailfs}" \
		--run "ujail_router_jailfs: UJAIL_FS=jailfs $router_run" \
		"${jailfs_rmmod[@]}"
	# Every denial queues an audit record for kauditd, which prints it (no
	# auditd); past the backlog limit (64) the denying task sleeps until
	# kauditd catches up, which on a busy host made the flood test's
	# 100000 denials outlast its timeout. A limit above the flood keeps
	# the test about seccomp's rate limit, not the host's load.
	vm_suite audit "$K/out-audit/bzImage" --timeout 300 --mem 1024 \
		--append "audit_backlog_limit=200000" \
		--file "$T/log_errno_audit_test" --file "$T/log_errno_test" \
		--run 'log_errno_audit: ./log_errno_audit_test' \
		--run 'log_errno: ./log_errno_test'
	# The series with CONFIG_SECCOMP_LOG_ERRNO=n: the option really guards it.
	vm_suite nolog "$K/out-nolog/bzImage" --timeout 600 \
		--file "$T/log_errno_absent_test" --file "$T/seccomp_bpf" "${seccomp_vm[@]}" \
		--run 'log_errno_absent: ./log_errno_absent_test' \
		--run 'seccomp_bpf: ./seccomp_bpf' \
		--run "seccomp_run: $seccomp_run"
	# Debian's stock kernels: no patch, so log_errno must be absent, and
	# the kernel's suite with our selftest patch must still pass.
	# The fallbacks there: notify, and errno-log with its audit record.
	# ujail's escape suite too: the baseline on a stock kernel (Landlock
	# scoping where its lsm= list enables Landlock, skipped otherwise).
	vm_suite stock-6.12 "$stock612" --timeout 600 \
		--file "$T/log_errno_absent_test" --file "$T/seccomp_bpf" "${seccomp_vm[@]}" \
		"${utrace_vm[@]}" "${jf_stock612[@]}" "${ujail_vm[@]}" \
		--run 'log_errno_absent: ./log_errno_absent_test' \
		--run 'seccomp_bpf: ./seccomp_bpf' \
		--run "seccomp_run: EXPECT_AUDIT=1 $seccomp_run" \
		--run "utrace: UTRACE_BACKEND=ebpf $utrace_run" \
		--run "utrace-ptrace: UTRACE_BACKEND=ptrace $utrace_run" \
		--run "$tcg_stress_run" \
		--run "ujail_setup: $ujail_setup" \
		--run "ujail_jail: $ujail_run" \
		"${jailfs_runs[@]}" "${jailfs_rmmod[@]}"
	# Debian 12's default kernel: utrace's eBPF counter loads there too.
	vm_suite stock-6.1 "$stock61" --timeout 600 \
		--file "$T/log_errno_absent_test" "${jf_stock61[@]}" \
		"${utrace_vm[@]}" --file "$top/build/bin-static/ujail-seccomp" --file tests/lib/tap.sh \
		--host-file /lib64/ld-linux-x86-64.so.2 --host-file /lib/x86_64-linux-gnu/libc.so.6 \
		--host-file /lib/ld-musl-x86_64.so.1 "${ujail_vm[@]}" \
		--run 'log_errno_absent: ./log_errno_absent_test' \
		--run "utrace: UTRACE_BACKEND=ebpf $utrace_run" \
		--run "$tcg_stress_run" \
		--run "ujail_setup: $ujail_setup" \
		--run "ujail_jail: $ujail_run" \
		"${jailfs_runs[@]}" "${jailfs_rmmod[@]}"
fi

# jailfs on the KASAN, lockdep and kmemleak kernel, the minute-long stress
# (make check-debug): about 12 minutes of kernel build on a cold cache and
# 6 in QEMU. UJAIL_CHECK_DEBUG=0 leaves it out.
if [ "${UJAIL_CHECK_DEBUG:-1}" != 0 ]; then
	say "debug kernel: jailfs under KASAN, lockdep and kmemleak"
	scripts/check-debug.sh "$results"
fi

# The router targets' kernels in QEMU system guests under TCG, with the
# targets' own programs (scripts/check-target.sh builds them: kernel,
# jailfs, test programs; README.md, Routers).
for t in $cross; do
	say "qemu: $t (kernel build and guest)"
	scripts/check-target.sh "$t" "$results"
done
if [ -n "$bg_pid" ]; then
	say "qemu: waiting for $bg_target"
	wait "$bg_pid" || true	# its results are its TAP files
	bg_pid=""
	say "qemu: $bg_target (ran in the background)"
	cat "$results/target-$bg_target.log"
fi

say "summary"
exec scripts/tap-summary "$results"
