#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# OpenWrt's jailed services as procd starts them: the exact argv procd's
# jail_run() builds for dnsmasq, ntpd, hostapd, odhcpd, urngd, umdns and a
# procd.sh service, replayed by /sbin/ujail in a root shaped like a
# router's, with a probe (tests/ujail/probes) in each service's place that
# reports what the service needs: uid and gid, capabilities, which paths
# exist and are writable, the policy in force, and that a caps-only service
# still cannot undo its jail. Prints TAP. POSIX sh: the checks run inside
# the router root under its busybox.
#
# The router root is a tmpfs, entered in a private mount namespace (mount
# --move onto /, then chroot, as switch_root does), holding what OpenWrt
# has: its users and groups, /var -> tmp and /tmp/run -> /run (so
# /var/run/x reaches /run/x through two links), a ubus socket and /dev/log
# (probes listening), /etc/capabilities/*.json and /etc/seccomp/umdns.json
# as OpenWrt ships them, the optional files dnsmasq lists but a default
# image lacks (/etc/ethers, trust-anchors.conf) absent, and ujail installed
# where procd looks (/sbin/ujail, /lib/ujail/ujail-keeper,
# /lib/musl/libpreload-seccomp.so).
#
# Runs on x86_64 and in the router targets' guests (aarch64, mipsel:
# scripts/check-target.sh), all with the machine's own programs; what
# differs between them is found at run time: musl's loader (staged under
# its own name, the probes' PT_INTERP), SIGSYS's number (12 on MIPS, 31
# elsewhere), and whether open(2) exists (aarch64 has only openat).
#
# Environment (defaults: the build tree and the host's files):
#   UJAIL         a static ujail          UJAIL_KEEPER  its keeper
#   SHIM_MUSL     the musl preload shim   UJAIL_PROBES  probe, probe-musl
#   BUSYBOX       a static busybox        TAP_SH        tests/lib/tap.sh
#   MUSL_LD       musl's loader for the probes (default: the one
#                 /lib/ld-musl-*.so.1 there is: ld-musl-x86_64.so.1,
#                 ld-musl-aarch64.so.1, ld-musl-mipsel.so.1 for our
#                 hard-float mipsel; OpenWrt's soft-float is -mipsel-sf)
# `local` is not POSIX but dash and busybox ash have it.
# shellcheck disable=SC2317,SC3043
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# ---- outside: build the router root, run the checks in it ----

U_SRC=${UJAIL:-$top/build/bin/ujail}
KEEPER=${UJAIL_KEEPER:-$(dirname "$U_SRC")/../lib/ujail/ujail-keeper}
SHIM_MUSL=${SHIM_MUSL:-$(dirname "$U_SRC")/../lib/musl/libpreload-seccomp.so}
PROBES=${UJAIL_PROBES:-$top/build/tests/ujail/probes}
BUSYBOX=${BUSYBOX:-/bin/busybox}
first_of() { echo "$1"; }
# With no loader there, the pattern itself: "missing" below names it.
MUSL_LD=${MUSL_LD:-$(first_of /lib/ld-musl-*.so.1)}
TAP=${TAP_SH:-$top/tests/lib/tap.sh}

# OpenWrt's users (base-files) and the services' own.
router_accounts() {
	cat >"$1/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/ash
daemon:*:1:1:daemon:/var:/bin/false
network:*:101:101:network:/var:/bin/false
ntp:x:123:123:ntp:/var/run/ntp:/bin/false
dnsmasq:x:453:453:dnsmasq:/var/run/dnsmasq:/bin/false
odhcpd:x:454:454:odhcpd:/var:/bin/false
urngd:x:455:455:urngd:/var:/bin/false
ubus:x:81:81:ubus:/var/run/ubus:/bin/false
nobody:*:65534:65534:nobody:/var:/bin/false
EOF
	cat >"$1/etc/group" <<'EOF'
root:x:0:
daemon:x:1:
network:x:101:
ntp:x:123:
dnsmasq:x:453:
odhcpd:x:454:
urngd:x:455:
ubus:x:81:
nogroup:x:65534:
EOF
	printf 'root:%s:19000:0:99999:7:::\n' '$1$secret' >"$1/etc/shadow"
	chmod 600 "$1/etc/shadow"
}

# capabilities(7) sets in procd's format, the same list in all five.
caps_file() {
	local list="$1"
	printf '{ "bounding": [%s], "effective": [%s], "inheritable": [%s],\n' "$list" "$list" "$list"
	printf '  "permitted": [%s], "ambient": [%s] }\n' "$list" "$list"
}

# As OpenWrt ships them: ntpd's (NET_BIND_SERVICE, SYS_TIME), hostapd's
# wpad.json, urngd's (SYS_ADMIN, for RNDADDENTROPY); odhcpd's modelled on
# wpad.json. umdns' policy is OpenWrt's package/network/services/umdns/
# files/umdns.json: every architecture's names in one file (fcntl64 and
# sigreturn do not exist on x86_64 or aarch64, open, time, pipe, poll,
# epoll_create and epoll_wait not on aarch64).
router_policies() {
	local e="$1/etc"
	caps_file '"CAP_NET_BIND_SERVICE", "CAP_SYS_TIME"' >"$e/capabilities/ntpd.json"
	caps_file '"CAP_NET_ADMIN", "CAP_NET_BIND_SERVICE", "CAP_NET_RAW"' \
		>"$e/capabilities/wpad.json"
	caps_file '"CAP_NET_ADMIN", "CAP_NET_BIND_SERVICE", "CAP_NET_RAW"' \
		>"$e/capabilities/odhcpd.json"
	caps_file '"CAP_SYS_ADMIN"' >"$e/capabilities/urngd.json"
	cat >"$e/seccomp/umdns.json" <<'EOF'
{
	"defaultAction": "SCMP_ACT_KILL_PROCESS",
	"syscalls": [ { "names": [ "read", "write", "writev", "open", "close", "time", "brk",
		"ioctl", "uname", "bind", "connect", "getsockname", "recvmsg", "recvfrom",
		"sendmsg", "sendto", "setsockopt", "socket", "pipe", "poll", "fcntl64", "fstat",
		"epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
		"rt_sigaction", "sigreturn", "rt_sigreturn", "rt_sigprocmask", "exit_group",
		"exit", "fcntl", "clock_gettime" ], "action": "SCMP_ACT_ALLOW" } ]
}
EOF
	cat >"$e/seccomp/svc.json" <<'EOF'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13 } ] }
EOF
}

# The files procd's argv names, and a few it does not (which no jail may see).
router_files() {
	local r="$1"
	echo UTC0 >"$r/etc/TZ"
	echo 'domain-needed' >"$r/etc/dnsmasq.conf"
	echo '127.0.0.1 localhost' >"$r/etc/hosts"
	: >"$r/tmp/dhcp.leases"
	mkdir -p "$r/tmp/dnsmasq.d" "$r/tmp/hosts" "$r/tmp/resolv.conf.d" "$r/tmp/etc"
	echo '10.0.0.1 router.lan' >"$r/tmp/hosts/dhcp.cfg01411c"
	echo 'nameserver 10.0.0.1' >"$r/tmp/resolv.conf.d/resolv.conf.auto"
	ln -s /tmp/resolv.conf.d/resolv.conf.auto "$r/etc/resolv.conf"
	echo 'port=53' >"$r/tmp/etc/dnsmasq.conf.cfg01411c"
	echo 'bogus' >"$r/usr/share/dnsmasq/dhcpbogushostname.conf"
	echo 'rfc6761' >"$r/usr/share/dnsmasq/rfc6761.conf"
	echo 'json_init() { :; }' >"$r/usr/share/libubox/jshn.sh"
	echo "config wifi-device radio0" >"$r/etc/config/wireless"
	echo "config umdns" >"$r/etc/umdns/umdns.conf"
	printf '#!/bin/sh\necho dhcp-script ran\n' >"$r/usr/lib/dnsmasq/dhcp-script.sh"
	printf '#!/bin/sh\necho hotplug ran\n' >"$r/usr/sbin/ntpd-hotplug"
	cat >"$r/usr/share/svc/svc.sh" <<'EOF'
#!/bin/sh
id >"$1/id"
if mkdir "$1/d" 2>/dev/null; then echo made; else echo denied; fi >"$1/mkdir"
if [ -e /etc/shadow ]; then echo visible; else echo absent; fi >"$1/shadow"
ls /proc >"$1/proc"
EOF
	chmod 755 "$r/usr/lib/dnsmasq/dhcp-script.sh" "$r/usr/sbin/ntpd-hotplug" "$r/usr/share/svc/svc.sh"
	mkdir -p "$r/run/dnsmasq" "$r/run/hostapd" "$r/run/ubus" "$r/tmp/svc-out"
	chown 101:101 "$r/run/hostapd"
	chown 65534:65534 "$r/tmp/svc-out"
}

# busybox as the shell and tools; the services are probes; ujail where procd looks.
router_programs() {
	local r="$1" t
	cp "$BUSYBOX" "$r/bin/busybox"
	for t in sh ash cat id ls mkdir echo readlink grep sed tr rm sleep kill test env head ps; do
		ln -s busybox "$r/bin/$t"
	done
	ln -s ../../bin/busybox "$r/usr/bin/env"
	ln -s ../../bin/busybox "$r/usr/bin/logger"
	cp "$MUSL_LD" "$r/lib/$(basename "$MUSL_LD")"
	for t in dnsmasq ntpd hostapd odhcpd urngd; do
		cp "$PROBES/probe" "$r/usr/sbin/$t"
	done
	cp "$PROBES/probe-musl" "$r/usr/sbin/umdns"
	cp "$PROBES/probe-musl" "$r/usr/bin/jshn"
	cp "$PROBES/probe-musl" "$r/bin/ubus"
	cp "$PROBES/probe" "$r/bin/probe"
	cp "$U_SRC" "$r/sbin/ujail"
	cp "$KEEPER" "$r/lib/ujail/ujail-keeper"
	cp "$SHIM_MUSL" "$r/lib/musl/libpreload-seccomp.so"
	cp "$self" "$r/tests/router_test.sh"
	cp "$TAP" "$r/tests/tap.sh"
	cp "$(dirname "$TAP")/checks.sh" "$r/tests/checks.sh"
}

# /dev with the nodes ujail binds into its jails, /proc, /sys.
router_kernel_fs() {
	local r="$1" n
	mount -t tmpfs -o mode=755 dev "$r/dev"
	for n in null zero full random urandom tty; do
		: >"$r/dev/$n"
		mount --bind "/dev/$n" "$r/dev/$n"
	done
	mkdir "$r/dev/pts" "$r/dev/shm"
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys"
}

build_router() {
	local r="$1"
	mount -t tmpfs -o mode=755 router "$r" || return 1
	mkdir -p "$r/bin" "$r/sbin" "$r/lib/ujail" "$r/lib/musl" "$r/usr/bin" "$r/usr/sbin" \
		"$r/usr/lib/dnsmasq" "$r/usr/share/dnsmasq" "$r/usr/share/libubox" \
		"$r/usr/share/svc" "$r/etc/capabilities" "$r/etc/seccomp" "$r/etc/config" \
		"$r/etc/umdns" "$r/tmp" "$r/run" "$r/proc" "$r/sys" "$r/dev" "$r/tests"
	chmod 1777 "$r/tmp"
	ln -s tmp "$r/var"
	ln -s /run "$r/tmp/run"
	router_accounts "$r"
	router_policies "$r"
	router_files "$r"
	router_programs "$r"
	router_kernel_fs "$r"
}

# In the private mount namespace: the root, its daemons, the checks.
outside() {
	local r="$1" rc ubusd logd
	if ! build_router "$r"; then
		echo "Bail out! cannot build the router root in $r"
		exit 1
	fi
	"$PROBES/probe" unix-listen "$r/run/ubus/ubus.sock" stream >/dev/null 2>&1 & ubusd=$!
	"$PROBES/probe" unix-listen "$r/dev/log" dgram >/dev/null 2>&1 & logd=$!
	# The services bind on the loopback (a guest may have it down).
	ifconfig lo up 2>/dev/null || ip link set lo up 2>/dev/null
	sleep 0.3
	cd "$r" && mount --move . / && chroot . /bin/sh /tests/router_test.sh --inside "$ubusd"
	rc=$?
	kill "$ubusd" "$logd" 2>/dev/null
	exit "$rc"
}

# ---- inside the router root ----

inside() {
	ubusd=$1
	# shellcheck source=tests/lib/tap.sh
	. /tests/tap.sh
	# shellcheck source=tests/lib/checks.sh
	. /tests/checks.sh
	U=/sbin/ujail
	tmp=/tmp/checks
	mkdir -p "$tmp"
	# What open_by_handle_at gives a jail: EPERM, unless the kernel has none.
	no_handle=EPERM
	[ "$("$U" -c --keep-caps -- /bin/probe open-by-handle /etc/TZ 2>/dev/null)" = ENOSYS ] &&
		no_handle=ENOSYS
	dnsmasq_checks
	ntpd_checks
	caps_only_checks hostapd 101 wpad.json -c
	caps_only_checks odhcpd 454 odhcpd.json -c
	urngd_checks
	umdns_checks
	procd_sh_checks
	echo "1..$tap_n"
	tap_exit
}

quiet() { [ ! -s "$tmp/err" ] || { echo "# stderr: $(head -c 300 "$tmp/err")"; return 1; }; }

cap_line() {	# cap_line SET CMD...: the service's capability set SET, in hex
	local set="$1"
	shift
	"$@" caps 2>/dev/null | sed -n "s/^Cap$set:[[:space:]]*//p"
}

nnp_line() { "$@" caps 2>/dev/null | sed -n 's/^NoNewPrivs:[[:space:]]*//p'; }

# What undoes a jail stays out of reach, whatever shape the jail has.
escape_checks() {	# escape_checks NAME CMD...
	local name="$1" mod
	shift
	check "$name: cannot mount" out_is EPERM "$@" mount-tmpfs /tmp
	check "$name: cannot open by handle (EPERM, or ENOSYS: no CONFIG_FHANDLE)" \
		out_is "$no_handle" "$@" open-by-handle /etc/TZ
	mod=$("$@" init-module 2>/dev/null)
	check "$name: cannot load modules (EPERM, or ENOSYS: none)" \
		sh -c "[ '$mod' = EPERM ] || [ '$mod' = ENOSYS ]"
}

# dnsmasq: procd_add_jail dnsmasq ubus log, its paths from the config.
# $JAIL_EXEC=exec makes a background call's $! ujail itself, to stop it.
dnsmasq_jail() {
	${JAIL_EXEC:-} "$U" -t 5 -n dnsmasq -u -l -r /bin/ubus -r /etc/TZ -r /etc/dnsmasq.conf -r /etc/ethers \
		-r /etc/group -r /etc/hosts -r /etc/passwd -w /tmp/dhcp.leases -r /tmp/dnsmasq.d \
		-r /tmp/hosts/dhcp.cfg01411c -r /tmp/resolv.conf.d -r /usr/bin/env -r /usr/bin/jshn \
		-r /usr/lib/dnsmasq/dhcp-script.sh -r /usr/share/dnsmasq/dhcpbogushostname.conf \
		-r /usr/share/dnsmasq/rfc6761.conf -r /usr/share/dnsmasq/trust-anchors.conf \
		-r /usr/share/libubox/jshn.sh -r /var/etc/dnsmasq.conf.cfg01411c \
		-w /var/run/dnsmasq/ -- /usr/sbin/dnsmasq "$@"
}

dnsmasq_checks() {
	local first
	check "dnsmasq: starts, /etc/ethers and trust-anchors.conf absent" rc_is 0 dnsmasq_jail exit 0
	check "dnsmasq:   quietly" quiet
	check "dnsmasq: root, no supplementary groups" out_is "uid=0 gid=0 groups=0" dnsmasq_jail id
	check "dnsmasq: binds a privileged port" out_is ok dnsmasq_jail bind 1
	check "dnsmasq: opens a raw socket" out_is ok dnsmasq_jail raw
	check "dnsmasq: drops to user dnsmasq itself" out_is ok dnsmasq_jail setuid 453
	check "dnsmasq: writes /var/run/dnsmasq/ (/var -> tmp, /tmp/run -> /run)" out_is ok \
		dnsmasq_jail write /var/run/dnsmasq/dnsmasq.pid
	check "dnsmasq:   the router sees it in /run/dnsmasq" test -e /run/dnsmasq/dnsmasq.pid
	check "dnsmasq: writes its leases" out_is ok dnsmasq_jail write /tmp/dhcp.leases
	check "dnsmasq: reads its configs" out_is ok dnsmasq_jail open /var/etc/dnsmasq.conf.cfg01411c
	check "dnsmasq: /etc/hosts read-only" out_is EROFS dnsmasq_jail write /etc/hosts
	check "dnsmasq: /etc/ethers absent" out_is ENOENT dnsmasq_jail exists /etc/ethers
	check "dnsmasq: /etc/shadow not there" out_is ENOENT dnsmasq_jail exists /etc/shadow
	check "dnsmasq: nor /etc/config" out_is ENOENT dnsmasq_jail exists /etc/config/wireless
	check "dnsmasq: the ubus socket" out_is ok dnsmasq_jail exists /var/run/ubus/ubus.sock
	check "dnsmasq: /dev/log" out_is ok dnsmasq_jail exists /dev/log
	check "dnsmasq: resolv.conf through OpenWrt's link" out_is ok dnsmasq_jail open /etc/resolv.conf
	check "dnsmasq: its DHCP script runs (#! /bin/sh staged)" out_is "dhcp-script ran" \
		dnsmasq_jail exec /usr/lib/dnsmasq/dhcp-script.sh
	check "dnsmasq: jshn runs (dynamic musl: loader staged)" rc_is 0 \
		dnsmasq_jail exec /usr/bin/jshn exit 0
	escape_checks dnsmasq dnsmasq_jail
	# The init script names every instance dnsmasq.
	JAIL_EXEC=exec dnsmasq_jail sleep >/dev/null 2>&1 & first=$!
	sleep 0.3
	check "dnsmasq: a second instance runs beside the first" rc_is 0 dnsmasq_jail exit 0
	check "dnsmasq:   the first still runs" kill -0 "$first"
	kill -TERM "$first"; wait "$first" 2>/dev/null
	check "dnsmasq:   it ended with its ujail" sh -c "! ps 2>/dev/null | grep -q '[d]nsmasq sleep'"
}

ntpd_jail() {
	"$U" -t 5 -n ntpd -U ntp -G ntp -C /etc/capabilities/ntpd.json -c -u -r /bin/ubus \
		-r /usr/bin/env -r /usr/bin/jshn -r /usr/sbin/ntpd-hotplug \
		-r /usr/share/libubox/jshn.sh -- /usr/sbin/ntpd "$@"
}

ntpd_checks() {
	check "ntpd: user ntp" out_is "uid=123 gid=123 groups=0" ntpd_jail id
	check "ntpd: NET_BIND_SERVICE and SYS_TIME" out_is 0000000002000400 cap_line Eff ntpd_jail
	check "ntpd:   and nothing more in its bounding set" out_is 0000000002000400 \
		cap_line Bnd ntpd_jail
	check "ntpd: no_new_privs" out_is 1 nnp_line ntpd_jail
	check "ntpd: binds port 123's kind (privileged)" out_is ok ntpd_jail bind 1
	check "ntpd: its hotplug script runs" out_is "hotplug ran" ntpd_jail exec /usr/sbin/ntpd-hotplug
	check "ntpd: the ubus socket" out_is ok ntpd_jail exists /var/run/ubus/ubus.sock
	check "ntpd: a root of its own" out_is ENOENT ntpd_jail exists /etc/config/wireless
}

# hostapd/wpad and odhcpd: -U -G -C -c only: credentials and capabilities,
# the router's filesystem and namespaces.
caps_only_checks() {	# caps_only_checks NAME UID CAPS-FILE [-c]
	local name="$1" uid="$2" caps="$3" nnp="$4"
	svc() { "$U" -t 5 -n "$name" -U "$name" -G "$name" -C "/etc/capabilities/$caps" ${nnp:+"$nnp"} \
		-- "/usr/sbin/$name" "$@"; }
	[ "$name" = hostapd ] && svc() { "$U" -t 5 -n hostapd -U network -G network \
		-C /etc/capabilities/wpad.json -c -- /usr/sbin/hostapd "$@"; }
	check "$name: its user" out_is "uid=$uid gid=$uid groups=0" svc id
	check "$name: NET_ADMIN, NET_BIND_SERVICE, NET_RAW" out_is 0000000000003400 cap_line Eff svc
	check "$name: the router's filesystem" out_is ok svc open /etc/config/wireless
	check "$name: the router's mount namespace" out_is "$(readlink /proc/self/ns/mnt)" svc ns mnt
	check "$name: the router's pid namespace" out_is "$(readlink /proc/self/ns/pid)" svc ns pid
	check "$name: the ubus socket where ubus has it" out_is ok svc exists /var/run/ubus/ubus.sock
	check "$name: opens a raw socket" out_is ok svc raw
	check "$name: /etc/shadow unreadable (no DAC override)" out_is EACCES svc open /etc/shadow
	check "$name: cannot ptrace a root daemon" out_is EPERM svc ptrace "$ubusd"
	escape_checks "$name" svc
	[ "$name" = hostapd ] && check "hostapd: writes /var/run/hostapd/" out_is ok \
		svc write /var/run/hostapd/wlan0
}

urngd_jail() {
	"$U" -t 5 -n urngd -U urngd -G urngd -C /etc/capabilities/urngd.json -- /usr/sbin/urngd "$@"
}

urngd_checks() {
	check "urngd: user urngd" out_is "uid=455 gid=455 groups=0" urngd_jail id
	check "urngd: SYS_ADMIN only (RNDADDENTROPY)" out_is 0000000000200000 cap_line Eff urngd_jail
	check "urngd: no -c, no no_new_privs" out_is 0 nnp_line urngd_jail
	check "urngd: the router's /dev" out_is ok urngd_jail exists /dev/urandom
}

umdns_jail() {
	"$U" -t 5 -n umdns -S /etc/seccomp/umdns.json -u -l -r /etc/umdns -- /usr/sbin/umdns "$@"
}

umdns_checks() {
	local sys
	sys=$(kill -l SYS)
	check "umdns: OpenWrt's policy (fcntl64, sigreturn) loads, the service runs" \
		rc_is 0 umdns_jail exit 0
	check "umdns:   quietly (names of other architectures)" quiet
	# musl's open() is open(2) where the kernel has it, else openat(2),
	# which OpenWrt's list lacks: on aarch64 umdns cannot open a file.
	if [ "$(uname -m)" = aarch64 ]; then
		check "umdns:   opening its config kills it (aarch64: openat, not in the list)" \
			rc_is $((128 + sys)) umdns_jail open /etc/umdns/umdns.conf
	else
		check "umdns:   it reads its config" out_is ok umdns_jail open /etc/umdns/umdns.conf
	fi
	check "umdns: a call its policy lacks kills it (SIGSYS: 128+$sys)" rc_is $((128 + sys)) \
		umdns_jail mkdir /tmp/x
}

# A service registered through procd.sh: procd_add_jail NAME log ubus procfs,
# a policy, a user, read-only programs, one writable folder.
procd_sh_checks() {
	local out=/tmp/svc-out
	check "procd.sh service: runs" rc_is 0 "$U" -t 5 -n svc -S /etc/seccomp/svc.json -U nobody \
		-p -u -l -r /bin/cat -r /bin/id -r /bin/ls -r /usr/share/svc/svc.sh -w "$out" \
		-r /usr/bin/logger -- /bin/sh /usr/share/svc/svc.sh "$out"
	check "procd.sh service: as nobody" out_is "uid=65534(nobody) gid=65534(nogroup)" \
		cat "$out/id"
	check "procd.sh service: its policy in force (mkdir denied)" out_is denied cat "$out/mkdir"
	check "procd.sh service: /etc/shadow not in its root" out_is absent cat "$out/shadow"
	check "procd.sh service: its own /proc (-p)" grep -qx self "$out/proc"
}

case "${1:-}" in
--inside)
	inside "$2"
	;;
--outside)
	outside "$2"
	;;
*)
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root"
		exit 0
	fi
	for f in "$U_SRC" "$KEEPER" "$SHIM_MUSL" "$PROBES/probe" "$PROBES/probe-musl" \
		"$BUSYBOX" "$MUSL_LD" "$TAP" "$(dirname "$TAP")/checks.sh"; do
		[ -e "$f" ] || { echo "Bail out! $f missing: make ujail-jail-tests"; exit 1; }
	done
	# The mount point outlives the namespace: made and removed out here.
	r=$(mktemp -d /tmp/ujail-router.XXXXXX) || exit 1
	unshare -m --propagation private sh "$self" --outside "$r"
	rc=$?
	rmdir "$r"
	exit "$rc"
	;;
esac
