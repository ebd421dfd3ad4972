#!/bin/bash
# Boot a kernel in QEMU with a busybox initramfs, run test programs in the
# guest and collect their TAP output.
#
#   scripts/vm.sh [--arch x86_64|aarch64|mipsel] --kernel IMAGE --out DIR
#                 [--file PATH]... [--modules DIR] [--insmod MODULE]... [--host-file PATH]...
#                 [--guest-file HOST=GUEST]... [--append ARGS]
#                 [--timeout SECONDS] [--mem MB] [--virtio mmio|pci]
#                 --run 'NAME: COMMAND'...
#
# --arch picks the machine (x86_64 by default):
#   x86_64   qemu-system-x86_64 -M pc, a bzImage; console ttyS0, output ttyS1
#   aarch64  qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2, an Image;
#            console ttyAMA0 (virt's one PL011), output on a virtio console
#            (virtio-mmio, or --virtio pci for Debian's stock kernels, whose
#            virtio-mmio transport is a module)
#   mipsel   qemu-system-mipsel -M malta (one 24Kf), a 32-bit vmlinux;
#            console ttyS0, output ttyS1
# The initramfs has that architecture's busybox: the host's busybox-static
# on x86_64, Debian's busybox-static for arm64 or mipsel otherwise
# (scripts/target-deb.sh).
#
# --file copies a (static) program or data file to /opt/tests in the guest;
# --host-file copies a host file to the same absolute path in the guest,
# with the symlinks that lead to it (shared libraries, ld.so);
# --guest-file copies host file HOST (its contents) to the absolute path
# GUEST in the guest (a target's ld.so and libc from Debian's cross
# packages, which live elsewhere on the host);
# --insmod loads MODULE (a .ko for the guest's kernel) before anything
# else, in the order given: the drivers a kernel has as modules but the
# guest needs to be heard at all (Debian's arm64 6.1: virtio and its
# console, where the run list's output goes);
# --run runs COMMAND there with /opt/tests as the working directory, its
# output is DIR/NAME.tap. The kernel console goes to DIR/console.log.
#
# Fails (exit 1) when a command exits non-zero or prints "not ok", when the
# guest does not finish within the timeout, or when the kernel log shows an
# Oops, BUG, WARNING, KASAN or lockdep report; the kernel log is then
# printed. Uses KVM only when a probe boot shows it works (see vm_accel).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
virtio=mmio arch=x86_64 kernel="" out="" modules="" append="" timeout=300 mem=512
files=() host_files=() guest_files=() runs=() early=()

# Once --out is known, a guest that cannot start still leaves a failed
# result there, so a results summary counts it rather than nothing.
die() {
	echo "vm.sh: $*" >&2
	[ -z "$out" ] || ! [ -d "$out" ] ||
		echo "not ok 1 guest did not start: $*" >"$out/vm.tap"
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--file) files+=("$2"); shift 2 ;;
	--host-file) host_files+=("$2"); shift 2 ;;
	--guest-file) guest_files+=("$2"); shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--insmod) early+=("$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--virtio) virtio=$2; shift 2 ;;
	--run) runs+=("$2"); shift 2 ;;
	*) die "unknown option '$1'" ;;
	esac
done
[ -n "$out" ] || die "--out is required"
rm -rf "$out"
mkdir -p "$out"
[ -n "$kernel" ] && [ -r "$kernel" ] || die "--kernel: '$kernel' is not a readable kernel image"
[ ${#runs[@]} -gt 0 ] || die "nothing to --run"
case $virtio in
mmio) virtio_serial=virtio-serial-device ;;
pci) virtio_serial=virtio-serial-pci ;;
*) die "--virtio: '$virtio' is not mmio or pci" ;;
esac
case $arch in
x86_64)
	qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86 console=ttyS0 output=/dev/ttyS1
	busybox=/bin/busybox	# from busybox-static
	[ -x "$busybox" ] || die "busybox-static is not installed (scripts/deps.sh)"
	machine=(-smp 2 -serial "file:$out/console.log" -serial "file:$out/tests.log") ;;
aarch64)
	qemu=qemu-system-aarch64 qemu_pkg=qemu-system-arm console=ttyAMA0 output=/dev/hvc0
	busybox=$("$top/scripts/target-deb.sh" aarch64 busybox-static)/bin/busybox || die "no busybox for aarch64"
	# shellcheck disable=SC2054	# QEMU's option lists are comma-separated
	machine=(-M virt -cpu cortex-a57 -smp 2 -serial "file:$out/console.log"
		-device "$virtio_serial" -chardev "file,id=tests,path=$out/tests.log"
		-device virtconsole,chardev=tests) ;;
mipsel)
	qemu=qemu-system-mipsel qemu_pkg=qemu-system-mips console=ttyS0 output=/dev/ttyS1
	busybox=$("$top/scripts/target-deb.sh" mipsel busybox-static)/bin/busybox || die "no busybox for mipsel"
	machine=(-M malta -serial "file:$out/console.log" -serial "file:$out/tests.log") ;;
*) die "--arch: '$arch' is not x86_64, aarch64 or mipsel" ;;
esac
command -v "$qemu" >/dev/null || die "$qemu is not installed (apt-get install $qemu_pkg; scripts/deps.sh)"

root=$out/initramfs
mkdir -p "$root"/{bin,dev,proc,sys,tmp,opt/tests,etc}
cp "$busybox" "$root/bin/busybox"
for f in "${files[@]}"; do
	[ -e "$f" ] || die "--file: '$f' does not exist"
	cp -a "$f" "$root/opt/tests/"
done
# A symlink is copied as a link, then what it points to, recursively.
copy_host_path() {
	local path=$1 target
	case $path in /*) ;; *) die "--host-file: '$path' is not an absolute path" ;; esac
	[ -e "$path" ] || die "--host-file: '$path' does not exist"
	mkdir -p "$root$(dirname "$path")"
	if [ -L "$path" ]; then
		cp -P "$path" "$root$path"
		target=$(readlink "$path")
		case $target in /*) ;; *) target=$(dirname "$path")/$target ;; esac
		copy_host_path "$target"
	else
		cp -a "$path" "$root$path"
	fi
}
for f in "${host_files[@]}"; do copy_host_path "$f"; done
for f in "${guest_files[@]}"; do
	case $f in *=/*) ;; *) die "--guest-file: '$f' is not HOST=/GUEST/PATH" ;; esac
	[ -e "${f%%=*}" ] || die "--guest-file: '${f%%=*}' does not exist"
	mkdir -p "$root$(dirname "${f#*=}")"
	cp -L "${f%%=*}" "$root${f#*=}"
done
[ -z "$modules" ] || { mkdir -p "$root/lib"; cp -a "$modules" "$root/lib/modules"; }
mkdir -p "$root/lib/early"
for m in "${early[@]}"; do
	[ -f "$m" ] || die "--insmod: '$m' is not a file"
	cp "$m" "$root/lib/early/"
done

# The guest runs each command and frames its output on the second serial
# port, apart from the kernel console on the first.
{
	echo '#!/bin/busybox sh'
	echo '/bin/busybox --install -s /bin'
	echo 'export PATH=/bin:/opt/tests'
	echo 'mount -t proc proc /proc; mount -t sysfs sys /sys'
	echo 'mount -t devtmpfs dev /dev; mount -t tmpfs tmp /tmp'
	# A failure shows in the kernel console. The output's device opens
	# once its driver has bound and set it up, which goes on after
	# insmod returns (virtio_console adds its ports from a work queue;
	# until then the node may exist and fail with ENODEV). The probe is
	# true, not ":": a failed redirection of a special builtin ends ash.
	if [ ${#early[@]} -gt 0 ]; then
		for m in "${early[@]}"; do
			printf 'insmod /lib/early/%s || echo "init: insmod %s failed"\n' \
				"$(basename "$m")" "$(basename "$m")"
		done
		# shellcheck disable=SC2016 # $i expands in the guest
		printf 'i=0; until true 2>/dev/null >%s || [ $i = 30 ]; do sleep 1; i=$((i + 1)); done\n' "$output"
	fi
	echo "exec </dev/null >$output 2>&1"
	echo 'cd /opt/tests'
	for r in "${runs[@]}"; do
		name=${r%%:*}
		cmd=${r#*:}
		printf 'echo "### begin %s"\n' "$name"
		printf '( %s ); echo "### end %s $?"\n' "$cmd" "$name"
	done
	echo 'echo "### all done"'
	echo 'reboot -f'
} >"$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$out/initramfs.cpio"

accel=$("$top/scripts/vm_accel" "$kernel" "$arch")
echo "vm.sh: booting $(basename "$kernel") ($arch) under $accel: ${runs[*]%%:*}"
start=$(date +%s)
set +e
timeout --foreground -k 5 "$timeout" "$qemu" -accel "$accel" -m "$mem" \
	"${machine[@]}" -nodefaults -display none -no-reboot \
	-kernel "$kernel" -initrd "$out/initramfs.cpio" \
	-append "console=$console rdinit=/init panic=-1 oops=panic loglevel=7 $append" \
	</dev/null >"$out/qemu.log" 2>&1
qemu_rc=$?
set -e
echo "vm.sh: guest ran $(( $(date +%s) - start )) s"

failed=0
fail() { echo "vm.sh: FAIL: $*"; failed=1; }

[ $qemu_rc -eq 124 ] || [ $qemu_rc -eq 137 ] && fail "guest timed out after ${timeout}s"
[ $qemu_rc -eq 0 ] || [ $qemu_rc -eq 124 ] || [ $qemu_rc -eq 137 ] ||
	fail "qemu exited with $qemu_rc: $(tail -3 "$out/qemu.log")"
tr -d '\r' <"$out/tests.log" >"$out/tests.txt"
grep -q '^### all done' "$out/tests.txt" || fail "guest did not finish its run list"

for r in "${runs[@]}"; do
	name=${r%%:*}
	awk -v n="$name" '$0 == "### begin " n { on = 1; next }
		on && index($0, "### end " n " ") == 1 { exit }
		on { print }' "$out/tests.txt" >"$out/$name.tap"
	rc=$(sed -n "s/^### end $name \([0-9]*\)$/\1/p" "$out/tests.txt")
	if [ -z "$rc" ]; then
		fail "$name did not finish"
		echo "not ok 1 $name did not finish (guest died or timed out)" >>"$out/$name.tap"
	elif [ "$rc" != 0 ]; then
		fail "$name exited with status $rc"
		grep -q '^not ok' "$out/$name.tap" ||
			echo "not ok 1 $name exited with status $rc" >>"$out/$name.tap"
	fi
	grep -E '^(not )?ok ' "$out/$name.tap" | sed "s/^/  [$name] /" || true
done

# Lockdep's reports start with WARNING: or INFO: (its banner at boot,
# "RCU lockdep checking is enabled", is none).
bad='(Oops|BUG:|WARNING:|KASAN|INFO: possible|INFO: trying to register|DEBUG_LOCKS_WARN_ON|Kernel panic|general protection fault|Call Trace:)'
# A cgroup's memory limit at work (ujail's --memory-max) is no crash: its
# OOM report, from "invoked oom-killer" to "Memory cgroup out of memory:
# Killed process", is left out; a global OOM's report is kept.
without_memcg_oom() {
	awk '/invoked oom-killer:/ { held = 1; buf = "" }
	held { buf = buf $0 "\n"
		if (/Memory cgroup out of memory: Killed process/) { held = 0; buf = "" }
		else if (/Out of memory: Killed process/) { held = 0; printf "%s", buf }
		next }
	{ print }
	END { if (held) printf "%s", buf }'
}
report=$(tr -d '\r' <"$out/console.log" | without_memcg_oom | grep -E "$bad" | head -5 || true)
[ -z "$report" ] || fail "kernel log shows a crash or warning report:"$'\n'"$report"

# The guest itself as two more test results.
finished=ok; grep -q '^### all done' "$out/tests.txt" && [ "$qemu_rc" = 0 ] || finished="not ok"
clean=ok; [ -z "$report" ] || clean="not ok"
printf '%s 1 guest ran its run list and shut down in time\n%s 2 kernel log has no Oops, BUG, WARNING, KASAN or lockdep report\n' \
	"$finished" "$clean" >"$out/vm.tap"

if [ $failed -ne 0 ]; then
	echo "----- guest kernel log ($out/console.log) -----"
	tr -d '\r' <"$out/console.log" | tail -n 200
	echo "----- end of guest kernel log -----"
	exit 1
fi
exit 0
