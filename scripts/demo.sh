#!/bin/bash
# make demo: boot the patched kernel in QEMU and show a program hitting a
# denied syscall: the errno it gets and the kernel's log line; then a real
# service (busybox httpd) running under a policy file with ujail-seccomp;
# what it calls, learnt by ujail --trace; then the same httpd in a whole
# ujail jail: a jailfs root, a user namespace, a veth pair, cgroup limits,
# the policy, and a second service joining it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s kernel demo-programs userspace ujail-vm "$top/build/jailfs/patched/jailfs.ko"
# ujail finds its keeper at ../lib/ujail from its binary.
rm -rf build/demo-ujail && mkdir -p build/demo-ujail/bin build/demo-ujail/lib/ujail
cp build/bin-static/ujail build/demo-ujail/bin/
cp build/lib/ujail/ujail-keeper build/demo-ujail/lib/ujail/
# Part 3 runs in a bind mount of / moved over / (pivot_root refuses the
# initramfs), with cgroup2 mounted for the jail's limits.
setup='mkdir -p /newroot && mount --bind / /newroot && mount --rbind /dev /newroot/dev'
setup+=' && mount -t proc proc /newroot/proc && mount -t sysfs sys /newroot/sys'
setup+=' && mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup && mount --bind /tmp /newroot/tmp'
jail='unshare -m sh -c "cd /newroot && mount --move . / && exec chroot . sh /opt/tests/jail.sh"'
echo "Booting the patched kernel in QEMU (TCG, a few seconds)..."
if ! scripts/vm.sh --kernel build/kernel/out-patched/bzImage --out build/demo \
	--file build/demo-bin/deny --file scripts/demo/guest.sh --timeout 120 \
	--file build/bin-static/ujail-seccomp --file scripts/demo/httpd.json \
	--file build/demo-ujail --file build/jailfs/patched/jailfs.ko --file scripts/demo/jail.sh \
	--run 'demo: sh ./guest.sh' --run "setup: $setup" --run "jail: $jail" \
	>build/demo.log 2>&1; then
	cat build/demo.log
	exit 1
fi
cat build/demo/demo.tap build/demo/jail.tap
