#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ujail end to end, on the host, as root: a jailed probe (tests/ujail/probes)
# tries to escape or to keep privileges, and prints what it got; ujail's exit
# statuses, signals, pid file, -U/-G/-C/-S, procd's command line, errors,
# and nothing left behind after 200 jails. Prints TAP. POSIX sh (dash on
# the host, busybox ash in the QEMU guest: scripts/check.sh).
#
# Environment (defaults: the build tree; make ujail-jail-tests builds it):
#   UJAIL         the ujail command
#   UJAIL_PROBES  directory of probe, probe-glibc, probe-musl, pty_run
#   UJAIL_SECCOMP ujail-seccomp (its mode: log-errno or notify)
#   TAP_SH        tests/lib/tap.sh
#   CYCLES        start/kill cycles of the leak check (200)
# `local` is not POSIX but dash and busybox ash have it.
# shellcheck disable=SC2317,SC3043
top=$(cd "$(dirname "$0")/../.." && pwd)
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
# shellcheck source=tests/lib/tap.sh
. "${TAP_SH:-$top/tests/lib/tap.sh}"
U=${UJAIL:-$top/build/bin/ujail}
P=${UJAIL_PROBES:-$top/build/tests/ujail/probes}
US=${UJAIL_SECCOMP:-$top/build/bin/ujail-seccomp}
CYCLES=${CYCLES:-200}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi
for f in "$U" "$P/probe" "$P/probe-glibc" "$P/probe-musl" "$P/pty_run"; do
	[ -x "$f" ] || { echo "Bail out! $f missing: make ujail-jail-tests"; exit 1; }
done

# Every jailed process carries $marker in its command line: the service
# (an extra argument the probe ignores) and, through -n, ujail's keepers.
marker=ujail-test-$$
tmp=$(mktemp -d /tmp/ujail-jail-test.XXXXXX) || exit 1
helper_pid=
cleanup() {
	[ -n "$helper_pid" ] && kill "$helper_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

cat >"$tmp/deny.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13 } ] }
JSON
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [ { "names": ["nosuchcall"] } ] }' \
	>"$tmp/bad.json"
cat >"$tmp/caps.json" <<'JSON'
{ "bounding": ["CAP_NET_BIND_SERVICE"], "effective": ["CAP_NET_BIND_SERVICE"],
  "inheritable": ["CAP_NET_BIND_SERVICE"], "permitted": ["CAP_NET_BIND_SERVICE"],
  "ambient": ["CAP_NET_BIND_SERVICE"] }
JSON
echo "host data" >"$tmp/ro.txt"
mkdir "$tmp/rwdir"

# ---- helpers: each one check ----

# out_is WANT CMD...: CMD's stdout is WANT.
out_is() {
	local want="$1" got
	shift
	got=$("$@" 2>"$tmp/err")
	[ "$got" = "$want" ] && return 0
	echo "# want '$want', got '$got' ($(head -c 300 "$tmp/err"))"
	return 1
}

# rc_is WANT CMD...: CMD exits with WANT.
rc_is() {
	local want="$1" rc
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] && return 0
	echo "# exit status $rc, want $want ($(head -c 300 "$tmp/err"))"
	return 1
}

# err_has TEXT: the last command's stderr names TEXT.
err_has() {
	grep -qF -- "$1" "$tmp/err" && return 0
	echo "# stderr lacks '$1': $(head -c 300 "$tmp/err")"
	return 1
}

jail() { "$U" -n probe "$@"; }

# Processes with $marker in their command line (the scan itself has none).
jailed_processes() {
	local f n=0 cmd
	for f in /proc/[0-9]*/cmdline; do
		cmd=$(tr '\0' ' ' 2>/dev/null <"$f")
		case $cmd in *"$marker"*) n=$((n + 1)) ;; esac
	done
	echo "$n"
}

nothing_left() {
	local n
	n=$(jailed_processes)
	[ "$n" = 0 ] || { echo "# $n jailed processes left"; return 1; }
	n=$(find /tmp -maxdepth 1 -name 'ujail-root.*' | wc -l)
	[ "$n" = 0 ] || { echo "# $n scratch directories left in /tmp"; return 1; }
}

# Wait (5 s at most) for pid file $1; its pid on stdout.
wait_pidfile() {
	local i
	local i=0
	while [ $i -lt 500 ]; do
		[ -s "$1" ] && { cat "$1"; return 0; }
		sleep 0.01
		i=$((i + 1))
	done
	return 1
}

# Start `probe ARGS $marker` in a jail with pid file $tmp/pid, in the background.
start_jail() {
	rm -f "$tmp/pid"
	# ujail itself, not a subshell: $jail_pid gets the signals.
	"$U" -n "$marker" -P "$tmp/pid" "$@" "$marker" >/dev/null 2>&1 &
	jail_pid=$!
	service_pid=$(wait_pidfile "$tmp/pid")
}

# ---- exit statuses ----
check "exit status 0" rc_is 0 jail -- "$P/probe" exit 0
check "exit status 3" rc_is 3 jail -- "$P/probe" exit 3
check "killed by SIGKILL: 128+9" rc_is 137 jail -- "$P/probe" raise 9
check "killed by SIGTERM: 128+15" rc_is 143 jail -- "$P/probe" raise 15
check "dynamic glibc program: libraries staged" rc_is 0 jail -- "$P/probe-glibc" exit 0
check "dynamic musl program: libraries staged" rc_is 0 jail -- "$P/probe-musl" exit 0
# The root: a writable tmpfs with the bind backend, read-only (but for -w
# paths) with jailfs.
root_mkdir=ok
[ "${UJAIL_FS:-bind}" = jailfs ] && root_mkdir=EROFS
check "command found through PATH" out_is "$root_mkdir" env PATH="$P:/usr/bin:/bin" "$U" -- \
	probe mkdir /x

# Milliseconds since boot (/proc/uptime: busybox date has no %N).
now_ms() {
	local up
	read -r up _ </proc/uptime
	echo $((${up%.*}${up#*.} * 10))
}

# ---- signals ----
start_jail -t 5 -- "$P/probe" sleep
check "-P: pid file holds the service's host pid" \
	sh -c "tr '\0' ' ' </proc/$service_pid/cmdline | grep -q '^$P/probe sleep'"
kill -TERM "$jail_pid"; wait "$jail_pid"; rc=$?
check "SIGTERM forwarded: service ends with 128+15" test "$rc" = 143
check "-P: pid file removed at the end" test ! -e "$tmp/pid"
start_jail -- "$P/probe" sleep
kill -USR1 "$jail_pid"; wait "$jail_pid"; rc=$?
check "SIGUSR1 forwarded" test "$rc" = $((128 + 10))
start_jail -t 1 -- "$P/probe" sleep-ignore-term
t0=$(now_ms)
kill -TERM "$jail_pid"; wait "$jail_pid"; rc=$?
ms=$(($(now_ms) - t0))
check "-t 1: SIGTERM ignored, SIGKILL after 1 s (128+9, ${ms} ms)" \
	test "$rc" = 137 -a "$ms" -ge 900 -a "$ms" -lt 4000
start_jail -- "$P/probe" sleep
kill -KILL "$jail_pid"; wait "$jail_pid" 2>/dev/null
sleep 0.3
check "ujail SIGKILLed: the jail dies with it" nothing_left
# ---- what stays resident: ujail-keeper, outside and as the jail's PID 1 ----
comm_of() { cat "/proc/$1/comm"; }
# The parent of $1, from /proc/PID/stat (after the command name's ") ").
parent_of() {
	local st
	read -r st <"/proc/$1/stat"
	st=${st##*) }; st=${st#* }; echo "${st%% *}"
}
start_jail -- "$P/probe" sleep
check "while the service runs, ujail is ujail-keeper" out_is ujail-keeper comm_of "$jail_pid"
check "  and so is the jail's PID 1" out_is ujail-keeper comm_of "$(parent_of "$service_pid")"
check "  whose parent is the outer keeper" out_is "$jail_pid" parent_of "$(parent_of "$service_pid")"
kill -TERM "$jail_pid"; wait "$jail_pid"
check "no ujail-keeper: 1" rc_is 1 env UJAIL_KEEPER=/nonexistent/keeper "$U" -- "$P/probe" exit 0
check "  message names it" err_has "/nonexistent/keeper"
K=${UJAIL_KEEPER:-$(dirname "$U")/../lib/ujail/ujail-keeper}
check "ujail-keeper by hand: usage, 2" rc_is 2 "$K"
check "  says it is ujail's" err_has "started by ujail(8) only"
check "ujail-keeper watch with a closed descriptor: 2" rc_is 2 "$K" watch x 1 77 0 ""
check "ujail-keeper init with a bad pid: 2" rc_is 2 "$K" init x 0
check "zombies reaped by the jail's PID 1" out_is "zombies=0" jail -p -- "$P/probe" orphans 5

# ---- isolation ----
check "pid namespace: /proc shows the jail's pids only" out_is "1 2 " jail -p -- "$P/probe" pids
check "pid namespace: host pid invisible to kill()" out_is "ESRCH" jail -- "$P/probe" kill $$
check "unstaged file: ENOENT" out_is "ENOENT" jail -- "$P/probe" open /etc/shadow
check "unstaged directory: ENOENT" out_is "ENOENT" jail -- "$P/probe" open "$self"
check "/proc/timer_list masked" out_is "0" jail -p -- "$P/probe" read /proc/timer_list
# (A kernel without CONFIG_KEYS has no /proc/keys: ENOENT in the jail too.)
keys=0; [ -e /proc/keys ] || keys=ENOENT
check "/proc/keys masked" out_is "$keys" jail -p -- "$P/probe" read /proc/keys
check "/proc/sys read-only" out_is "EROFS" jail -p -- "$P/probe" write /proc/sys/kernel/domainname
jail_ro() { jail -r "$tmp/ro.txt" -p -- "$P/probe" "$@"; }
check "-r file: unwritable" out_is "EROFS" jail_ro write "$tmp/ro.txt"
check "-r file: remount rw refused" out_is "EPERM" jail_ro remount-rw "$tmp/ro.txt"
check "-r file: mount refused" out_is "EPERM" jail_ro mount-tmpfs "$tmp"
check "-r file: umount refused" out_is "EPERM" jail_ro umount "$tmp/ro.txt"
check "pivot_root refused" out_is "EPERM" jail_ro pivot
check "chroot(\"..\") refused" out_is "EPERM" jail_ro chroot
check "-r file: host copy intact" test "$(cat "$tmp/ro.txt")" = "host data"
check "-w directory: writable, seen on the host" \
	sh -c "'$U' -w '$tmp/rwdir' -- '$P/probe' write '$tmp/rwdir/new' >/dev/null && test -e '$tmp/rwdir/new'"
check "-o: read-only root" out_is "EROFS" jail -o -- "$P/probe" mkdir /x
check "-h: hostname" out_is "jailhost" jail -h jailhost -- "$P/probe" hostname
check "-N: lo up" out_is "ok" jail -N -- "$P/probe" bind 8080

# ---- privileges ----
check "capabilities dropped, no_new_privs (-c)" \
	out_is "$(printf 'CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1')" \
	jail -c -p -- "$P/probe" status
exec 7</dev/null
check "descriptors: only 0 1 2 (caller's fd 7 not leaked)" out_is "0 1 2 " jail -p -- "$P/probe" fds
exec 7<&-
check "TIOCSTI into the caller's terminal fails" \
	sh -c "'$P/pty_run' '$U' -- '$P/probe' tiocsti | tr -d '\r' | grep -qE 'TIOCSTI on 0: (EPERM|EIO|ENOTTY)'"
check "ptrace of the jail's PID 1 refused" out_is "EPERM" jail -p -- "$P/probe" ptrace 1
check "-U/-G: ids" out_is "uid=65534 gid=65534 groups=0" jail -U nobody -G nogroup -- "$P/probe" id
# busybox's setpriv (the guest) has no --groups.
if setpriv --groups=4,24 -- true 2>/dev/null; then
	check "no -U/-G: the caller's supplementary groups dropped" out_is "uid=0 gid=0 groups=0" \
		setpriv --groups=4,24 -- "$U" -- "$P/probe" id
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n no -U/-G: the caller's supplementary groups dropped # SKIP no setpriv --groups"
fi
check "-U without -C: no capability left" \
	sh -c "'$U' -p -U nobody -- '$P/probe' status | grep -E '^Cap(Eff|Prm|Bnd|Amb)' | grep -vc ':.0000000000000000$' | grep -qx 0"
check "-U: the user's group" out_is "uid=65534 gid=65534 groups=0" jail -U nobody -- "$P/probe" id
check "-C: CAP_NET_BIND_SERVICE kept: port 80 as nobody" \
	out_is "ok" jail -N -U nobody -C "$tmp/caps.json" -- "$P/probe" bind 80
check "without -C: port 80 refused" out_is "EACCES" jail -N -- "$P/probe" bind 80
check "-C: only CAP_NET_BIND_SERVICE" \
	out_is "$(printf 'CapInh:\t0000000000000400\nCapPrm:\t0000000000000400\nCapEff:\t0000000000000400\nCapBnd:\t0000000000000400\nCapAmb:\t0000000000000400\nNoNewPrivs:\t0')" \
	jail -U nobody -C "$tmp/caps.json" -p -- "$P/probe" status
check "environment: only -e names" out_is "KEEP=me" env KEEP=me DROP=x "$U" -e KEEP -e UNSET -- "$P/probe" env

# ---- seccomp ----
check "-S static program: denied call gets the errno" out_is "EACCES" jail -S "$tmp/deny.json" -- "$P/probe" mkdir /x
check "-S dynamic glibc program: denied call gets the errno" out_is "EACCES" jail -S "$tmp/deny.json" -- "$P/probe-glibc" mkdir /x
check "-S dynamic musl program: denied call gets the errno" out_is "EACCES" jail -S "$tmp/deny.json" -- "$P/probe-musl" mkdir /x
check "-S: shim's variables gone before main()" out_is "" jail -S "$tmp/deny.json" -- "$P/probe-glibc" env
check "-S: no descriptor left by the shim" out_is "0 1 2 " jail -p -S "$tmp/deny.json" -- "$P/probe-glibc" fds
check "-S: no_new_privs set" sh -c "'$U' -p -S '$tmp/deny.json' -- '$P/probe' status | grep -q 'NoNewPrivs:.1'"

cat >"$tmp/logdeny.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_LOG_ERRNO", "errnoRet": 13 } ] }
JSON
for p in probe probe-glibc probe-musl; do
	check "-S LOG_ERRNO rule, $p: the errno" \
		out_is "EACCES" jail -S "$tmp/logdeny.json" -- "$P/$p" mkdir /x
	check "-S LOG_ERRNO rule, $p: zombies reaped" \
		out_is "zombies=0" jail -p -S "$tmp/logdeny.json" -- "$P/$p" orphans 3
done
# Without the kernel's log_errno action the jail's PID 1 logs the denials.
if ! "$US" mode 2>/dev/null | grep -q '^log-errno'; then
	jail -p -S "$tmp/logdeny.json" -- "$P/probe-glibc" mkdir /x >/dev/null 2>"$tmp/err"
	check "-S notify mode: denial logged by the jail's PID 1" err_has "jail probe: probe-glibc[2] denied syscall mkdir"
fi

# ---- procd's command line ----
sleep 100 & helper_pid=$!
# procd's options; -l and -u where /dev/log and ubus's socket exist.
procd_jail() {
	set -- -t 5 -n procdsvc -h svchost -S "$tmp/deny.json" -U nobody -G nogroup \
		-C "$tmp/caps.json" -c -p -s -o -N -F -P "$tmp/procd.pid" -E -e KEEP \
		-r "$tmp/ro.txt" -w "$tmp/rwdir" -j "$helper_pid:ipc"
	[ -S /dev/log ] && set -- "$@" -l
	[ -S /var/run/ubus/ubus.sock ] && set -- "$@" -u
	env KEEP=1 "$U" "$@" -- "$P/probe-glibc" id
}
check "procd's argv starts the service" out_is "uid=65534 gid=65534 groups=0" procd_jail
check "-j pid:ipc joins the namespace" out_is "$(readlink "/proc/$helper_pid/ns/ipc")" \
	"$U" -p -j "$helper_pid:ipc" -- "$P/probe" ns ipc
kill "$helper_pid"; wait "$helper_pid" 2>/dev/null; helper_pid=
# A process that is PID 1 of its own pid and net namespaces, to join.
unshare -p -f -n "$P/probe" sleep "$marker" >/dev/null 2>&1 & helper_pid=$!
sleep 0.3
# Its child (busybox has no pgrep): in /proc/PID/stat, the parent follows
# the state, after the command name's ") ".
for f in /proc/[0-9]*/stat; do
	read -r st 2>/dev/null <"$f" || continue
	st=${st##*) }; ppid=${st#* }; ppid=${ppid%% *}
	[ "$ppid" = "$helper_pid" ] && { ns_init=${f#/proc/}; ns_init=${ns_init%/stat}; }
done
check "-j pid:pid,net: the jail's processes in that pid namespace" \
	out_is "1 2 3 " "$U" -p -j "$ns_init:pid,net" -- "$P/probe" pids
check "-j pid:net joins the network namespace" out_is "$(readlink "/proc/$ns_init/ns/net")" \
	"$U" -p -j "$ns_init:net" -- "$P/probe" ns net
kill -KILL "$ns_init"; wait "$helper_pid" 2>/dev/null; helper_pid=

# ---- errors: clear, right status, nothing started or left ----
check "refused option -y: 2" rc_is 2 "$U" -y -- "$P/probe" exit 0
check "unknown option: 2" rc_is 2 "$U" --bogus -- "$P/probe" exit 0
check "no command: 2" rc_is 2 "$U" -n x
check "command not found: 127" rc_is 127 "$U" -- /nonexistent/cmd
check "  message names it" err_has "/nonexistent/cmd"
check "not executable: 127" rc_is 127 "$U" -- "$tmp/ro.txt"
check "missing -r path: 1" rc_is 1 "$U" -r /nonexistent/path -- "$P/probe" write "$tmp/rwdir/ran"
check "  message names it" err_has "/nonexistent/path"
check "missing -C file: 1" rc_is 1 "$U" -C /nonexistent/caps.json -- "$P/probe" exit 0
check "  message names it" err_has "/nonexistent/caps.json"
check "bad -S policy: 1" rc_is 1 "$U" -S "$tmp/bad.json" -w "$tmp/rwdir" -- "$P/probe" write "$tmp/rwdir/ran"
check "  message names it" err_has "$tmp/bad.json"
check "unknown -U user: 1" rc_is 1 "$U" -U nosuchuser-ujail -- "$P/probe" exit 0
check "  message names it" err_has "nosuchuser-ujail"
check "bad --fs value: 2" rc_is 2 "$U" --fs=nfs -- "$P/probe" exit 0
check "  message names it" err_has "--fs 'nfs'"
check "bad UJAIL_FS value: 1" rc_is 1 env UJAIL_FS=nfs "$U" -- "$P/probe" exit 0
check "  message names it" err_has "UJAIL_FS=nfs"
if ! grep -qw jailfs /proc/filesystems; then
	check "--fs=jailfs without jailfs in the kernel: 1" rc_is 1 "$U" --fs=jailfs -- \
		"$P/probe" write "$tmp/rwdir/ran"
	check "  message says so" err_has "no jailfs filesystem"
fi
check "-d 1 says which backend staged the root" rc_is 0 "$U" -d 1 -- "$P/probe" exit 0
check "  it is ${UJAIL_FS:-bind}" err_has "root staged through ${UJAIL_FS:-bind}"
check "failed jails started nothing" test ! -e "$tmp/rwdir/ran"
check "failed jails left nothing" nothing_left

# ---- 200 jails started and killed: nothing left behind ----
mounts_before=$(wc -l </proc/self/mountinfo)
# The test shell's descriptors, listed by the shell itself (no subshell, no pipe).
shell_fds() {
	local f
	fds=
	for f in "/proc/$$/fd/"*; do fds="$fds${f##*/} "; done
}
shell_fds; fds_before=$fds
i=0
while [ $i -lt "$CYCLES" ]; do
	i=$((i + 1))
	start_jail -t 1 -- "$P/probe" sleep
	if [ $((i % 4)) = 0 ]; then kill -KILL "$jail_pid"; else kill -TERM "$jail_pid"; fi
	wait "$jail_pid" 2>/dev/null
done
sleep 0.3
check "$CYCLES start/kill cycles: no mount left" test "$(wc -l </proc/self/mountinfo)" = "$mounts_before"
check "$CYCLES start/kill cycles: no process or scratch directory left" nothing_left
shell_fds
check "$CYCLES start/kill cycles: no descriptor left (before: $fds_before, after: $fds)" \
	test "$fds" = "$fds_before"

echo "1..$tap_n"
tap_exit
