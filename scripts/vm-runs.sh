# The commands scripts/check.sh and scripts/check-target.sh run in their
# QEMU guests (scripts/vm.sh --run), sourced by both: the layout under
# /opt/tests they expect is the same on every architecture.
# shellcheck shell=bash disable=SC2034

# ujail-seccomp run (tests/seccomp/run_test.sh): the static command, both
# shims under /opt/tests/lib, the sysprobe programs in /opt/tests.
seccomp_run='UJAIL_SECCOMP=/opt/tests/ujail-seccomp TAP_SH=/opt/tests/tap.sh SYSPROBE_DIR=/opt/tests'
seccomp_run+=' SHIM_GLIBC=/opt/tests/lib/libpreload-seccomp.so'
seccomp_run+=' SHIM_MUSL=/opt/tests/lib/musl/libpreload-seccomp.so sh run_test.sh'

# ujail's escape suite (tests/ujail/jail_test.sh): see scripts/check.sh for
# why it runs in a bind mount of / moved over /.
ujail_setup='printf "root:x:0:0::/:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n" >/etc/passwd'
ujail_setup+=' && printf "root:x:0:\nnogroup:x:65534:\n" >/etc/group'
ujail_setup+=' && mkdir -p /dev/pts /newroot && mount -t devpts devpts /dev/pts'
ujail_setup+=' && mount --bind / /newroot && mount --rbind /dev /newroot/dev'
ujail_setup+=' && mount -t proc proc /newroot/proc && mount -t sysfs sys /newroot/sys'
# The jails' cgroups (tests/ujail/jail_test.sh): a cgroup2 with the controllers.
ujail_setup+=' && mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup'
ujail_setup+=' && mount --bind /tmp /newroot/tmp && syslogd -O /tmp/messages'
ujail_setup+=' && mkdir -p /newroot/var/run/ubus'
ujail_setup+=' && unshare -m sh -c "mount --bind /newroot/var/run/ubus /dev && syslogd -O /tmp/ubus.log"'
ujail_setup+=' && sleep 1 && mv /newroot/var/run/ubus/log /newroot/var/run/ubus/ubus.sock'
ujail_run='unshare -m sh -c "cd /newroot && mount --move . / && exec chroot . env'
ujail_run+=' UJAIL=/opt/tests/vm-ujail/bin/ujail UJAIL_PROBES=/opt/tests/probes'
ujail_run+=' UJAIL_SECCOMP=/opt/tests/ujail-seccomp TAP_SH=/opt/tests/tap.sh sh /opt/tests/jail_test.sh"'
# OpenWrt's services in a router-shaped root (tests/ujail/router_test.sh
# builds it in a private mount namespace of its own).
router_run='env UJAIL=/opt/tests/vm-ujail/bin/ujail UJAIL_PROBES=/opt/tests/probes'
router_run+=' TAP_SH=/opt/tests/tap.sh sh /opt/tests/router_test.sh'

# utrace (tests/utrace/utrace_test.sh), static round-trip programs.
utrace_run='UTRACE=/opt/tests/utrace UTRACE_PROGS=/opt/tests/utrace-progs UJAIL_SECCOMP=/opt/tests/ujail-seccomp'
utrace_run+=' UJAIL= RT_SUFFIX=-static TAP_SH=/opt/tests/tap.sh sh utrace_test.sh'

# The kernels utrace's eBPF counter runs on also get a bounded version of
# the text-patching stress (scripts/tcg-stress.sh runs it in rounds): the
# guests' TCG mode (scripts/vm_accel) must keep them up under it. utrace
# and tpflip from PATH (/opt/tests) unless UTRACE= is put before it.
tcg_stress_run='tcg_stress: RUNS=20 FLIPS=300 TAP_SH=/opt/tests/tap.sh sh tcg_stress.sh'

# jailfs: loaded, its kselftests, fsx and a short stress, then unloaded.
jailfs_runs=(
	--run 'jailfs_insmod: insmod /opt/tests/jailfs.ko && grep -qw jailfs /proc/filesystems && echo "ok 1 jailfs loaded"'
	--run 'jailfs_mount: ./jailfs_mount_test'
	--run 'jailfs_ops: ./jailfs_ops_test'
	--run 'jailfs_fsx: ./jailfs_fsx_test'
	--run 'jailfs_stress: JAILFS_STRESS_SECONDS=10 ./jailfs_stress_test'
)
jailfs_rmmod=(--run 'jailfs_rmmod: rmmod jailfs && ! grep -qw jailfs /proc/filesystems && echo "ok 1 jailfs unloaded"')
