#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jailfs next to ujail's bind backend, overlayfs and bubblewrap
# (bench/jailfs_bench.c): root setup time and mount-table size for
# 10..5000 staged files, the cost of cloning the mount namespace
# afterwards, and file access through jailfs,
# through a bind mount and through a read-only overlayfs of the same lower
# tree (the test kernel has CONFIG_OVERLAY_FS=y), with the steps of an open
# measured one by one. jailfs is a module, and this host cannot load
# modules: the patched kernel boots in QEMU with scripts/vm.sh, the module
# is loaded there and everything is measured in the guest. Without KVM the
# CPU is emulated (TCG): compare the columns of one run, not absolute times.
#
# COUNTS (default "10 100 1000 5000"), RUNS (default 5), ACCESS (open/stat
# iterations, default 20000), EXECS (default 200) tune the run.
# Output: stdout and build/bench/jailfs_bench.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=$top/build
out=$B/bench/jailfs
counts=${COUNTS:-10 100 1000 5000}
runs=${RUNS:-5}
access=${ACCESS:-20000}
execs=${EXECS:-200}
kernel=$B/kernel/out-patched/bzImage
module=$B/jailfs/patched/jailfs.ko
prog=$B/bench/jailfs_bench

die() { echo "jailfs_bench: $*" >&2; exit 1; }
for f in "$kernel" "$module" "$prog"; do
	[ -e "$f" ] || die "$f missing: run make bench-jailfs"
done
bwrap=$(command -v bwrap) || die "bwrap missing: install the Debian package bubblewrap (scripts/deps.sh)"

# bwrap is dynamic: its libraries and loader go to the guest too.
host_files=(--host-file "$bwrap")
for lib in $(ldd "$bwrap" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	host_files+=(--host-file "$lib")
done

# pivot_root (bwrap's) refuses the initramfs root: run in a chroot on a
# bind mount of it, with /proc, /dev and /tmp as usual.
setup='insmod /opt/tests/jailfs.ko && mkdir -p /newroot && mount --bind / /newroot'
setup+=' && mount -t proc proc /newroot/proc && mount --rbind /dev /newroot/dev'
setup+=' && mount -t tmpfs tmp /newroot/tmp'
# shellcheck disable=SC2086
run="chroot /newroot /opt/tests/jailfs_bench -r $runs -a $access -x $execs -b $bwrap $counts"

mkdir -p "$B/bench"
rm -rf "$out"
scripts/vm.sh --kernel "$kernel" --out "$out" --timeout "${TIMEOUT:-3000}" --mem 2048 \
	--file "$module" --file "$prog" "${host_files[@]}" \
	--run "setup: $setup" --run "jailfs_bench: $run" >"$out.log" 2>&1 ||
	{ cat "$out.log"; cat "$out/jailfs_bench.tap" 2>/dev/null; die "the guest run failed"; }
tee "$B/bench/jailfs_bench.txt" <"$out/jailfs_bench.tap"
