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
# shellcheck source=tests/lib/checks.sh
. "$(dirname "${TAP_SH:-$top/tests/lib/tap.sh}")/checks.sh"
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
cg_parent=
cleanup() {
	[ -n "$helper_pid" ] && kill "$helper_pid" 2>/dev/null
	[ -n "$cg_parent" ] && rmdir "$cg_parent"/* "$cg_parent" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# Named jails' records go here, not in /var/run/ujail: a jail SIGKILLed in a
# test leaves its record behind (it is stale, but it is a file).
UJAIL_RUNDIR=$tmp/run; export UJAIL_RUNDIR

cat >"$tmp/deny.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13 } ] }
JSON
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [ { "names": ["nosuchcall"] } ] }' \
	>"$tmp/bad.json"
cat >"$tmp/noexec.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["execve", "execveat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1 } ] }
JSON
cat >"$tmp/caps.json" <<'JSON'
{ "bounding": ["CAP_NET_BIND_SERVICE"], "effective": ["CAP_NET_BIND_SERVICE"],
  "inheritable": ["CAP_NET_BIND_SERVICE"], "permitted": ["CAP_NET_BIND_SERVICE"],
  "ambient": ["CAP_NET_BIND_SERVICE"] }
JSON
echo "host data" >"$tmp/ro.txt"
mkdir "$tmp/rwdir"

jail() { "$U" -n probe "$@"; }
# A member of the running jail named $marker (start_jail).
sj() { "$U" --join "$marker" "$@"; }
# skip N REASON: N checks skipped.
skip() {
	local i=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1)); tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $2"
	done
}

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
	n=$(find /tmp /dev/shm -maxdepth 1 -name 'ujail-root.*' 2>/dev/null | wc -l)
	[ "$n" = 0 ] || { echo "# $n scratch directories left in /tmp or /dev/shm"; return 1; }
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
# A -r program brings its loader and libraries, a -r script its interpreter
# (and the interpreter's), as the command does (procd's ujail does the same).
check "-r dynamic program: libraries staged" rc_is 5 \
	jail -r "$P/probe-glibc" -- "$P/probe" exec "$P/probe-glibc" exit 5
printf '#!%s id\n' "$P/probe-musl" >"$tmp/script.sh"; chmod 755 "$tmp/script.sh"
check "-r #! script: interpreter and its libraries staged" out_is "uid=0 gid=0 groups=0" \
	jail -r "$tmp/script.sh" -- "$P/probe" exec "$tmp/script.sh"
# musl's loader of this machine (ld-musl-x86_64, -aarch64, -mipsel), if any.
musl_ld=$(ls /lib/ld-musl-*.so.1 2>/dev/null | head -n 1)
check "-r shared library: staged, no warning" rc_is 0 \
	jail -r "${musl_ld:-$P/probe}" -- "$P/probe" exit 0
check "  stderr quiet" test ! -s "$tmp/err"
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
# The pid file's directory may be writable by others (a service's own):
# nothing planted there may lead root's write or unlink elsewhere.
# pid_jail FILE [CMD]: a sleeping service with -P FILE; CMD runs once its
# pid is in FILE, then the jail gets SIGTERM.
pid_jail() {
	local i=0
	"$U" -n "$marker" -P "$1" -- "$P/probe" sleep "$marker" >/dev/null 2>&1 &
	jail_pid=$!
	# A pid, not what was planted there before.
	while ! grep -qx '[0-9][0-9]*' "$1" 2>/dev/null && [ $i -lt 500 ]; do
		sleep 0.01; i=$((i + 1))
	done
	[ -z "${2:-}" ] || eval "$2"
	kill -TERM "$jail_pid"; wait "$jail_pid"
}
printf 'victim\n' >"$tmp/victim"
ln -sfn "$tmp/victim" "$tmp/pidlink"
pid_jail "$tmp/pidlink"
check "-P over a planted symbolic link: its target untouched" out_is victim cat "$tmp/victim"
ln -f "$tmp/victim" "$tmp/pidhard"
pid_jail "$tmp/pidhard"
check "-P over a planted hard link: the other file untouched" out_is victim cat "$tmp/victim"
pid_jail "$tmp/pidswap" 'printf "mine\n" >"$tmp/other" && mv "$tmp/other" "$tmp/pidswap"'
check "-P: a file put in the pid file's place is not removed at the end" \
	out_is mine cat "$tmp/pidswap"
check "  and no temporary file is left beside it" \
	out_is "" sh -c "ls -A '$tmp' | grep '^\\.pid'"
start_jail -- "$P/probe" sleep
kill -USR1 "$jail_pid"; wait "$jail_pid"; rc=$?
# 128 + SIGUSR1: 138, 144 on MIPS (this shell's own death by it says).
usr1_rc=$(exec 2>/dev/null; sh -c 'kill -USR1 $$'; echo $?)
check "SIGUSR1 forwarded ($usr1_rc)" test "$rc" = "$usr1_rc"
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
# A dynamic program's files are named through their links too (/bin/cat,
# /usr/bin/cat): each is staged once, not mounted twice on itself.
mounted_twice() { jail -p -- /bin/cat /proc/self/mountinfo | awk '{ print $5 }' | sort | uniq -d; }
check "a dynamic command: no mount point mounted twice" out_is "" mounted_twice
jail_ro() { jail -r "$tmp/ro.txt" -p -- "$P/probe" "$@"; }
check "-r file: unwritable" out_is "EROFS" jail_ro write "$tmp/ro.txt"
check "-r file: remount rw refused" out_is "EPERM" jail_ro remount-rw "$tmp/ro.txt"
check "-r file: mount refused" out_is "EPERM" jail_ro mount-tmpfs "$tmp"
check "-r file: umount refused" out_is "EPERM" jail_ro umount "$tmp/ro.txt"
check "pivot_root refused" out_is "EPERM" jail_ro pivot
check "chroot escape (chroot /dev, cd .. up, chroot .): still in the jail" out_is "ENOENT" \
	jail_ro chroot-escape "$self"
check "-r file: host copy intact" test "$(cat "$tmp/ro.txt")" = "host data"
check "-w directory: writable, seen on the host" \
	sh -c "'$U' -w '$tmp/rwdir' -- '$P/probe' write '$tmp/rwdir/new' >/dev/null && test -e '$tmp/rwdir/new'"
check "-o: read-only root" out_is "EROFS" jail -o -- "$P/probe" mkdir /x
check "-h: hostname" out_is "jailhost" jail -h jailhost -- "$P/probe" hostname
check "-N: lo up" out_is "ok" jail -N -- "$P/probe" bind 8080

# ---- privileges ----
check "-U nobody -c: capabilities dropped, no_new_privs" \
	out_is "$(printf 'CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1')" \
	sh -c "'$U' -U nobody -c -p -- '$P/probe' status | grep -v CapBnd"
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
	sh -c "'$U' -p -U nobody -- '$P/probe' status | grep -E '^Cap(Eff|Prm|Amb)' | grep -vc ':.0000000000000000$' | grep -qx 0"
check "-U: the user's group" out_is "uid=65534 gid=65534 groups=0" jail -U nobody -- "$P/probe" id
check "-C: CAP_NET_BIND_SERVICE kept: port 80 as nobody" \
	out_is "ok" jail -N -U nobody -C "$tmp/caps.json" -- "$P/probe" bind 80
check "root without -C: keeps what a daemon needs (port 80), as under procd" \
	out_is "ok" jail -N -- "$P/probe" bind 80
check "-C: only CAP_NET_BIND_SERVICE" \
	out_is "$(printf 'CapInh:\t0000000000000400\nCapPrm:\t0000000000000400\nCapEff:\t0000000000000400\nCapBnd:\t0000000000000400\nCapAmb:\t0000000000000400\nNoNewPrivs:\t0')" \
	jail -U nobody -C "$tmp/caps.json" -p -- "$P/probe" status
# Without -C a root service keeps its capabilities but those that undo a
# jail (ujail.8); the caps-only shape (-c: no namespace, the host's
# filesystem) is where that matters most.
cap_hex() {	# cap_hex SET ARGS...: the service's capability set SET, in hex
	local set="$1"
	shift
	"$U" -n probe "$@" -- "$P/probe" caps 2>/dev/null | sed -n "s/^Cap$set:\t//p"
}
caps_are() {	# caps_are 0|1 HEX CAPNO...: each bit CAPNO of HEX is 0 (or 1)
	local want="$1" hex="$2" c
	shift 2
	for c in "$@"; do
		[ $(( (0x${hex:-0} >> c) & 1 )) = "$want" ] || { echo "# cap $c: not $want in $hex"; return 1; }
	done
}
bnd=$(cap_hex Bnd -c)
check "root without -C: bounding set lacks CAP_SYS_ADMIN, SYS_MODULE, SYS_PTRACE, DAC_READ_SEARCH" \
	caps_are 0 "$bnd" 21 16 19 2
check "  and keeps CAP_NET_BIND_SERVICE, SETUID, SETGID, NET_RAW" caps_are 1 "$bnd" 10 7 6 13
check "  --keep-caps keeps them" caps_are 1 "$(cap_hex Bnd -c --keep-caps)" 21 16 19 2
mkdir -p "$tmp/mnt"
check "caps-only root service: cannot mount" out_is EPERM jail -c -- "$P/probe" mount-tmpfs "$tmp/mnt"
umount "$tmp/mnt" 2>/dev/null
if [ "$(jail -c --keep-caps --no-baseline -- "$P/probe" open-by-handle "$tmp/ro.txt")" = ENOSYS ]; then
	for t in "  cannot open by handle" "  --keep-caps: the baseline still denies it" \
		"  --keep-caps --no-baseline can"; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n $t # SKIP kernel without CONFIG_FHANDLE"
	done
else
	check "  cannot open by handle" out_is EPERM jail -c -- "$P/probe" open-by-handle "$tmp/ro.txt"
	check "  --keep-caps: the baseline still denies it" out_is EPERM \
		jail -c --keep-caps -- "$P/probe" open-by-handle "$tmp/ro.txt"
	check "  --keep-caps --no-baseline can" out_is ok \
		jail -c --keep-caps --no-baseline -- "$P/probe" open-by-handle "$tmp/ro.txt"
fi
"$P/probe" sleep "$marker" >/dev/null 2>&1 & tracee=$!
check "  cannot ptrace a host process" out_is EPERM jail -c -- "$P/probe" ptrace "$tracee"
kill "$tracee"; wait "$tracee" 2>/dev/null
if [ "$("$U" -c --keep-caps -- "$P/probe" init-module 2>/dev/null)" = ENOSYS ]; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n caps-only root service: cannot load modules # SKIP kernel without modules"
else
	check "  cannot load modules" out_is EPERM jail -c -- "$P/probe" init-module
fi
# -C as procd reads it: a set the file does not name stays as it is, other
# keys are ignored, and a root service keeps its permitted and effective
# sets (its bounding set after execve) even with "ambient": [].
printf '{ "bounding": ["CAP_NET_RAW", "CAP_SETUID"], "ambient": [], "comment": "ntpd-like" }\n' \
	>"$tmp/caps-root.json"
check "-C, root, ambient []: permitted = the bounding set" out_is 0000000000002080 \
	cap_hex Prm -p -C "$tmp/caps-root.json"
check "  effective too" out_is 0000000000002080 cap_hex Eff -p -C "$tmp/caps-root.json"
check "  an extra key is ignored" rc_is 0 jail -C "$tmp/caps-root.json" -- "$P/probe" exit 0
printf '{ "effective": [], "comment": 1 }\n' >"$tmp/caps-nobnd.json"
check "-C without a bounding set: the default one" out_is "$bnd" cap_hex Bnd -C "$tmp/caps-nobnd.json"
check "environment: only -e names" out_is "KEEP=me" env KEEP=me DROP=x "$U" -e KEEP -e UNSET -- "$P/probe" env

# ---- user namespace (-f) ----
# The jail's root is an unprivileged host id, whatever capabilities -C
# gives it: what needs the host's root must still fail.
allcaps=
for c in CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP \
	NET_BIND_SERVICE NET_ADMIN NET_RAW SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE \
	SYS_ADMIN SYS_BOOT SYS_TIME MKNOD AUDIT_CONTROL SETFCAP MAC_ADMIN SYSLOG; do
	allcaps="$allcaps${allcaps:+, }\"CAP_$c\""
done
printf '{ "bounding": [%s], "effective": [%s], "inheritable": [%s], "permitted": [%s], "ambient": [%s] }\n' \
	"$allcaps" "$allcaps" "$allcaps" "$allcaps" "$allcaps" >"$tmp/allcaps.json"
mkdir "$tmp/nobody_dir" "$tmp/mapped_dir" "$tmp/root_dir"
chown 65534:65534 "$tmp/nobody_dir"
chown 265534:265534 "$tmp/mapped_dir"
echo secret >"$tmp/secret"
chmod 600 "$tmp/secret"
# The maps as the host sees them, one line with blanks squeezed: " 0
# HOSTID COUNT" (inside, the baseline's nested namespace shows "0 0 COUNT").
map_is() {
	local want="$1" file="$2" got
	shift 2
	start_jail "$@" -p -- "$P/probe" sleep
	got=$(tr -s ' ' <"/proc/$service_pid/$file" 2>&1)
	kill -TERM "$jail_pid"; wait "$jail_pid"
	[ "$got" = "$want" ] && return 0
	echo "# $file: want '$want', got '$got'"
	return 1
}
# host_owner_is WANT PATH: PATH's owner on the host.
host_owner_is() {
	local got
	got=$(stat -c %u:%g "$2" 2>&1)
	[ "$got" = "$1" ] && return 0
	echo "# $2: owner $got, want $1"
	return 1
}
fj() { jail -f -C "$tmp/allcaps.json" "$@"; }
check "-f: uid and gid 0 in the jail" out_is "uid=0 gid=0 groups=0" jail -f -- "$P/probe" id
check "-f: the jail's uid 0 is host uid 65534" map_is " 0 65534 1" uid_map -f
check "-f: the jail's gid 0 is host gid 65534" map_is " 0 65534 1" gid_map -f
check "--uid-map 200000:65536 implies -f" map_is " 0 200000 65536" uid_map --uid-map 200000:65536
check "--gid-map defaults to the uid map" map_is " 0 200000 65536" gid_map --uid-map 200000:65536
check "--gid-map 300000:10" map_is " 0 300000 10" gid_map --uid-map 200000:65536 --gid-map 300000:10
check "-f: a file the jail's root creates is host uid 65534's" \
	out_is "ok" jail -f -w "$tmp/nobody_dir" -- "$P/probe" write "$tmp/nobody_dir/f"
check "  on the host: 65534:65534" host_owner_is 65534:65534 "$tmp/nobody_dir/f"
check "  the jail sees it as its root's" out_is "0:0" jail -f -r "$tmp/nobody_dir" -- "$P/probe" owner "$tmp/nobody_dir/f"
# Each -f jail's own host ids (idrange.h): a line for its name, else one id
# of the pool chosen from its name (FNV-1a: ujail-idtest-a 820, -b 677).
printf '# ranges\nujail-idtest-own:400000:10\n*:300000:1000\n' >"$tmp/idranges"
UJAIL_IDRANGES=$tmp/idranges; export UJAIL_IDRANGES
check "-f, a line for the jail's name: its range" map_is " 0 400000 10" uid_map \
	-f -n ujail-idtest-own
check "  gids alike" map_is " 0 400000 10" gid_map -f -n ujail-idtest-own
check "-f, the pool: one id of it from the name" map_is " 0 300820 1" uid_map -f -n ujail-idtest-a
check "  another name, another id" map_is " 0 300677 1" uid_map -f -n ujail-idtest-b
mkdir "$tmp/own_dir"; chown 300820:300820 "$tmp/own_dir"
check "  a file the jail's root creates is its id's on the host" out_is ok \
	"$U" -n ujail-idtest-a -f -w "$tmp/own_dir" -- "$P/probe" write "$tmp/own_dir/f"
check "  on the host: 300820:300820" host_owner_is 300820:300820 "$tmp/own_dir/f"
check "  not writable by another jail's root" out_is EACCES \
	"$U" -n ujail-idtest-b -f -w "$tmp/own_dir" -- "$P/probe" write "$tmp/own_dir/g"
check "--uid-map still explicit" map_is " 0 200000 65536" uid_map -n ujail-idtest-a --uid-map 200000:65536
check "-f -U still as procd maps it" map_is " 0 65534 1" uid_map -n ujail-idtest-a -f -U nobody
# A pool of one id: every name hashes alike; a second name is refused while
# the first runs, the same name is not.
printf '*:310000:1\n' >"$tmp/idranges1"
# Its service runs (the pid file is written) once the id is claimed.
rm -f "$tmp/pool.pid"
UJAIL_IDRANGES=$tmp/idranges1 "$U" -n ujail-idtest-a -f -P "$tmp/pool.pid" -- \
	"$P/probe" sleep "$marker" >/dev/null 2>&1 & pool_jail=$!
wait_pidfile "$tmp/pool.pid" >/dev/null
check "  a pool id a running jail of another name holds: 1" rc_is 1 \
	env UJAIL_IDRANGES="$tmp/idranges1" "$U" -n ujail-idtest-b -f -- "$P/probe" exit 0
check "  message names both" err_has "is the running jail ujail-idtest-a's (its name and ujail-idtest-b hash alike)"
check "  the same name shares it" rc_is 0 \
	env UJAIL_IDRANGES="$tmp/idranges1" "$U" -n ujail-idtest-a -f -- "$P/probe" exit 0
kill -TERM "$pool_jail"; wait "$pool_jail" 2>/dev/null
check "  free again once it ended" rc_is 0 \
	env UJAIL_IDRANGES="$tmp/idranges1" "$U" -n ujail-idtest-b -f -- "$P/probe" exit 0
printf 'a:100:10\nb:105:10\n' >"$tmp/idranges2"
check "overlapping ranges: 1" rc_is 1 env UJAIL_IDRANGES="$tmp/idranges2" "$U" -f -- "$P/probe" exit 0
check "  message names them" err_has "idranges2:2: b overlaps a's range"
unset UJAIL_IDRANGES
check "--uid-map 200000:65536 -U nobody: the file is host uid 265534's" \
	out_is "ok" jail --uid-map 200000:65536 -U nobody -w "$tmp/mapped_dir" -- "$P/probe" write "$tmp/mapped_dir/f"
check "  on the host: 265534:265534" host_owner_is 265534:265534 "$tmp/mapped_dir/f"
check "-f, every capability: a host root directory is not writable" \
	out_is "EACCES" fj -w "$tmp/root_dir" -- "$P/probe" write "$tmp/root_dir/f"
check "-f, every capability: a host root 0600 file is not readable" \
	out_is "EACCES" fj -r "$tmp/secret" -- "$P/probe" open "$tmp/secret"
check "-f, every capability: no mount" out_is "EPERM" fj -w "$tmp/nobody_dir" -- "$P/probe" mount-tmpfs "$tmp/nobody_dir"
check "-f, every capability: no sethostname" out_is "EPERM" fj -- "$P/probe" sethostname evil
check "-f, every capability: no mknod" out_is "EPERM" fj -w "$tmp/nobody_dir" -- "$P/probe" mknod "$tmp/nobody_dir/null"
check "-f, every capability: no chown to an unmapped id" \
	out_is "EINVAL" fj -w "$tmp/nobody_dir" -- "$P/probe" chown "$tmp/nobody_dir/f" 1
check "-f, every capability: no ptrace of the jail's PID 1" out_is "EPERM" fj -p -- "$P/probe" ptrace 1
check "-f, every capability: no remount of the root" \
	out_is "EPERM" fj -- "$P/probe" remount-rw /
check "-f with every other namespace" out_is "uid=0 gid=0 groups=0" \
	jail -f -N -p -s -F -h jailhost -- "$P/probe" id
check "-f, dynamic glibc program" out_is "uid=0 gid=0 groups=0" jail -f -- "$P/probe-glibc" id
check "-f -S: denied call gets the errno" out_is "EACCES" jail -p -f -S "$tmp/deny.json" -- "$P/probe" mkdir /x
check "-f -U nobody, no map: runs as 0 in the jail, as procd does" \
	out_is "uid=0 gid=0 groups=0" jail -f -U nobody -- "$P/probe" id
check "  with a warning that names the host ids" err_has "runs as uid 65534 gid 65534 on the host"
check "  the jail's uid 0 is nobody's host uid" map_is " 0 65534 1" uid_map -f -U nobody
# Where the accounts have one (the guest's have root and nobody only).
if grep -q '^daemon:x:1:' /etc/passwd && grep -q '^nogroup:x:65534:' /etc/group; then
	check "-f -U daemon -G nogroup: the jail's uid 0 is daemon's host uid" \
		map_is " 0 1 1" uid_map -f -U daemon -G nogroup
	check "  and its gid 0 nogroup's host gid" map_is " 0 65534 1" gid_map -f -U daemon -G nogroup
fi
check "-f -U root, no map: 1" rc_is 1 jail -f -U root -- "$P/probe" exit 0
check "  message names the host's root" err_has "uid 0 would make the jail's root the host's root"
check "--uid-map 100000:10 -U nobody: an unmapped user: 1" \
	rc_is 1 jail --uid-map 100000:10 -U nobody -- "$P/probe" exit 0
check "  message says it is not mapped" err_has "uid 65534 is not mapped in the user namespace"
check "--uid-map 0: 2" rc_is 2 jail --uid-map 0 -- "$P/probe" exit 0
check "  message names the host's root" err_has "--uid-map '0': ID 0 would make the jail's root the host's root"
check "--gid-map 5:0: 2" rc_is 2 jail --gid-map 5:0 -- "$P/probe" exit 0
check "  message names COUNT" err_has "COUNT must be at least 1"
check "--uid-map 4294967290:10: 2" rc_is 2 jail --uid-map 4294967290:10 -- "$P/probe" exit 0
check "--uid-map abc: 2" rc_is 2 jail --uid-map abc -- "$P/probe" exit 0

# ---- seccomp ----
check "-S static program: denied call gets the errno" out_is "EACCES" jail -p -S "$tmp/deny.json" -- "$P/probe" mkdir /x
# Docker's "includes"/"excludes" caps are tested against the jail's bounding set.
cat >"$tmp/capcond.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13,
                  "excludes": { "caps": ["CAP_SYS_ADMIN"] } } ] }
JSON
check "-S excludes caps: the rule applies without CAP_SYS_ADMIN" out_is "EACCES" \
	jail -p -S "$tmp/capcond.json" -- "$P/probe" mkdir /x
check "  not with it (--keep-caps)" out_is "$root_mkdir" \
	jail -p --keep-caps -S "$tmp/capcond.json" -- "$P/probe" mkdir /x
check "-S dynamic glibc program: denied call gets the errno" out_is "EACCES" jail -p -S "$tmp/deny.json" -- "$P/probe-glibc" mkdir /x
check "-S dynamic musl program: denied call gets the errno" out_is "EACCES" jail -p -S "$tmp/deny.json" -- "$P/probe-musl" mkdir /x
check "-S: shim's variables gone before main()" out_is "" jail -S "$tmp/deny.json" -- "$P/probe-glibc" env
check "-S: no descriptor left by the shim" out_is "0 1 2 " jail -p -S "$tmp/deny.json" -- "$P/probe-glibc" fds
check "-S: no_new_privs set" sh -c "'$U' -p -S '$tmp/deny.json' -- '$P/probe' status | grep -q 'NoNewPrivs:.1'"

cat >"$tmp/logdeny.json" <<'JSON'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_LOG_ERRNO", "errnoRet": 13 } ] }
JSON
for p in probe probe-glibc probe-musl; do
	check "-S LOG_ERRNO rule, $p: the errno" \
		out_is "EACCES" jail -p -S "$tmp/logdeny.json" -- "$P/$p" mkdir /x
	check "-S LOG_ERRNO rule, $p: zombies reaped" \
		out_is "zombies=0" jail -p -S "$tmp/logdeny.json" -- "$P/$p" orphans 3
done
# Without the kernel's log_errno action the jail's PID 1 logs the denials.
if ! "$US" mode 2>/dev/null | grep -q '^log-errno'; then
	jail -p -S "$tmp/logdeny.json" -- "$P/probe-glibc" mkdir /x >/dev/null 2>"$tmp/err"
	check "-S notify mode: denial logged by the jail's PID 1" err_has "jail probe: probe-glibc[2] denied syscall mkdir"
fi

# ---- the baseline (ujail.8): in every jail, before any -S ----
# Each call: the baseline's errno in a root jail, the caps-only shape (-c),
# a dynamic program; the kernel's own answer with --no-baseline (and
# --keep-caps, so the host's root answers the same).
for t in unshare-user:EPERM clone-user:EPERM clone3:ENOSYS io-uring:ENOSYS bpf:EPERM \
	perf-event-open:EPERM userfaultfd:EPERM keyctl:EPERM "personality 400000:EPERM"; do
	a=${t%:*} e=${t##*:}
	# shellcheck disable=SC2086
	host=$("$P/probe" $a 2>&1)
	# shellcheck disable=SC2086
	check "baseline, root jail: $a: $e" out_is "$e" jail -p -- "$P/probe" $a
	# shellcheck disable=SC2086
	check "  caps-only jail (-c): $e" out_is "$e" jail -c -- "$P/probe" $a
	# shellcheck disable=SC2086
	check "  dynamic musl program: $e" out_is "$e" jail -p -- "$P/probe-musl" $a
	if [ "$host" = "$e" ]; then
		skip 2 "the host's root gets $e for $a too"
		continue
	fi
	# shellcheck disable=SC2086
	check "  --no-baseline: the kernel's answer, $host" out_is "$host" \
		jail -p --keep-caps --no-baseline -- "$P/probe" $a
	# shellcheck disable=SC2086
	check "  caps-only, --no-baseline: $host" out_is "$host" \
		jail -c --keep-caps --no-baseline -- "$P/probe" $a
done
check "baseline: personality query allowed" out_is ok jail -p -- "$P/probe" personality ffffffff
check "baseline: -f jail: unshare(CLONE_NEWUSER) EPERM" out_is EPERM jail -f -- "$P/probe" unshare-user
check "baseline: a root service keeps no_new_privs off (set-uid works)" \
	sh -c "'$U' -p -- '$P/probe' status | grep -q 'NoNewPrivs:.0'"
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [] }' >"$tmp/allow.json"
check "baseline: a -S policy allowing all does not lift it" out_is EPERM \
	jail -p -S "$tmp/allow.json" -- "$P/probe" unshare-user
check "  nor for a dynamic program (the shim's filter)" out_is ENOSYS \
	jail -p -S "$tmp/allow.json" -- "$P/probe-glibc" io-uring
check "  -S's own denials still apply" out_is EACCES jail -p -S "$tmp/deny.json" -- "$P/probe" mkdir /x
# A policy learnt with ptrace stops never sees what the baseline denies
# (clone3): its killing default must not turn the fallback into a death.
"$U" -n probe --trace "$tmp/learnt.json" --trace-backend ptrace -p -- "$P/probe" clone3 \
	>/dev/null 2>&1
check "  a -S policy that does not name clone3: ENOSYS, not its killing default" \
	out_is ENOSYS jail -p -S "$tmp/learnt.json" -- "$P/probe" clone3
printf '{ "no_baseline": true, "command": ["%s", "unshare-user"] }\n' "$P/probe" >"$tmp/nobase.json"
check "jail file no_baseline: true" out_is ok "$U" -p --config "$tmp/nobase.json"
check "UJAIL_BASELINE=off (procd cannot pass options)" out_is ok \
	env UJAIL_BASELINE=off "$U" -p -- "$P/probe" unshare-user
check "UJAIL_BASELINE=on" out_is EPERM env UJAIL_BASELINE=on "$U" -p -- "$P/probe" unshare-user
check "UJAIL_BASELINE=bogus: 1" rc_is 1 env UJAIL_BASELINE=bogus "$U" -- "$P/probe" exit 0
check "  message names it" err_has "UJAIL_BASELINE=bogus: must be on or off"
check "-d 1 names the baseline" rc_is 0 "$U" -d 1 -- "$P/probe" exit 0
check "  its filter" err_has "baseline on: seccomp filter denying"
check "--no-baseline: -d 1 says it is off" rc_is 0 "$U" -d 1 --no-baseline -- "$P/probe" exit 0
check "  and by what" err_has "baseline off (--no-baseline)"
# -f: nested user namespaces refused by the kernel itself (the filter aside:
# tried from the host, as root, in the service's namespace).
start_jail -f -- "$P/probe" sleep
check "-f: a user namespace below the service's: ENOSPC (max_user_namespaces)" \
	out_is ENOSPC "$P/probe" nest-userns "$service_pid"
kill -TERM "$jail_pid"; wait "$jail_pid"
start_jail -f --no-baseline -- "$P/probe" sleep
check "  --no-baseline: made" out_is ok "$P/probe" nest-userns "$service_pid"
kill -TERM "$jail_pid"; wait "$jail_pid"
# The service, with CAP_SYS_RESOURCE in its namespace and the host's /proc
# (caps-only -f), raises the limit it sees: its own namespace's, not the capping one.
r='"CAP_SYS_RESOURCE"'
printf '{ "bounding": [%s], "effective": [%s], "permitted": [%s], "inheritable": [%s], "ambient": [%s] }\n' \
	"$r" "$r" "$r" "$r" "$r" >"$tmp/resource.json"
rm -f "$tmp/pid"
"$U" -n "$marker" -P "$tmp/pid" -f -C "$tmp/resource.json" -- /bin/sh -c \
	"echo 1000 >/proc/sys/user/max_user_namespaces && exec '$P/probe' sleep $marker" \
	>/dev/null 2>"$tmp/err" & jail_pid=$!
service_pid=$(wait_pidfile "$tmp/pid")
sleep 0.2
check "-f, CAP_SYS_RESOURCE, limit raised inside: still ENOSPC" \
	out_is ENOSPC "$P/probe" nest-userns "$service_pid"
kill -TERM "$jail_pid"; wait "$jail_pid"
# Landlock (ABI 6, Linux 6.12+): abstract unix sockets and signals scoped.
ll=$("$P/probe" landlock-abi)
"$P/probe" abstract-listen "$marker" >"$tmp/abs.out" 2>&1 & helper_pid=$!
for _ in $(seq 50); do grep -q listening "$tmp/abs.out" && break; sleep 0.1; done
check "a host-side abstract socket: the host connects" out_is ok "$P/probe" abstract-connect "$marker"
check "  --no-baseline: a jail without -N connects" out_is ok \
	jail -p --no-baseline -- "$P/probe" abstract-connect "$marker"
case $ll in
[6-9] | [1-9][0-9])
	check "Landlock ABI $ll: a jail without -N cannot connect to it" out_is EPERM \
		jail -p -- "$P/probe" abstract-connect "$marker"
	check "  nor a caps-only jail" out_is EPERM jail -c -- "$P/probe" abstract-connect "$marker"
	check "  nor a dynamic program" out_is EPERM jail -p -- "$P/probe-glibc" abstract-connect "$marker"
	check "Landlock: a caps-only jail cannot signal a host process" out_is EPERM \
		jail -c -- "$P/probe" kill "$helper_pid"
	check "  --no-baseline can" out_is ok jail -c --no-baseline -- "$P/probe" kill "$helper_pid"
	check "  -d 1 names Landlock's ABI" rc_is 0 "$U" -d 1 -- "$P/probe" exit 0
	check "  and its scopes" err_has "Landlock ABI $ll scopes abstract unix sockets and signals"
	;;
*)
	skip 7 "Landlock ABI $ll: no scoping (needs ABI 6, Linux 6.12+)"
	check "no Landlock scoping: -d 1 says so" rc_is 0 "$U" -d 1 -- "$P/probe" exit 0
	check "  and why" err_has "Landlock scoping not available"
	;;
esac
# Members (--join) get the baseline too; a member signals the service.
start_jail -p -r "$P/probe" -- "$P/probe" sleep
check "--join member: unshare(CLONE_NEWUSER) EPERM" out_is EPERM sj -- "$P/probe" unshare-user
check "  io_uring ENOSYS" out_is ENOSYS sj -- "$P/probe" io-uring
check "  --no-baseline: allowed" out_is "$("$P/probe" io-uring)" sj --no-baseline -- "$P/probe" io-uring
check "  it may signal the service (no signal scope)" out_is ok sj -- "$P/probe" kill 2
case $ll in
[6-9] | [1-9][0-9])
	check "  a member of a jail without -N cannot reach the host's abstract socket" \
		out_is EPERM sj -- "$P/probe" abstract-connect "$marker" ;;
*)	skip 1 "Landlock ABI $ll: no scoping" ;;
esac
kill -TERM "$jail_pid"; wait "$jail_pid"
start_jail -p -f -r "$P/probe" -- "$P/probe" sleep
sj -f -- "$P/probe" sleep "$marker" >/dev/null 2>&1 & member_pid=$!
sleep 0.3
member_service=
for f in /proc/[0-9]*/cmdline; do
	case $(tr '\0' ' ' 2>/dev/null <"$f") in
	"$P/probe sleep $marker"*) d=${f%/cmdline}; [ "${d#/proc/}" != "$service_pid" ] && member_service=${d#/proc/} ;;
	esac
done
check "--join -f member: nested user namespaces ENOSPC" \
	out_is ENOSPC "$P/probe" nest-userns "${member_service:-none}"
kill -TERM "$member_pid" "$jail_pid"; wait "$member_pid"; wait "$jail_pid"
kill "$helper_pid"; wait "$helper_pid" 2>/dev/null; helper_pid=

# ---- procd's command line ----
sleep 100 & helper_pid=$!
# procd's options; -l and -u where /dev/log and ubus's socket exist (-D
# stages udebug's socket where there is one, as procd does).
procd_jail() {
	set -- -t 5 -n procdsvc -h svchost -S "$tmp/deny.json" -U nobody -G nogroup \
		-C "$tmp/caps.json" -c -p -s -D -o -N -F -P "$tmp/procd.pid" -E -e KEEP \
		-r "$tmp/ro.txt" -w "$tmp/rwdir" -j "$helper_pid:ipc"
	[ -S /dev/log ] && set -- "$@" -l
	[ -S /var/run/ubus/ubus.sock ] && set -- "$@" -u
	env KEEP=1 "$U" "$@" -- "$P/probe-glibc" id
}
check "procd's argv starts the service" out_is "uid=65534 gid=65534 groups=0" procd_jail
if [ ! -e /var/run/udebug.sock ]; then
	check "-D without a udebug socket: the service runs" rc_is 0 "$U" -d 1 -D -- "$P/probe" exit 0
	check "  -d 1 says it was not staged" err_has "-D: no udebug socket on the host"
fi
# ---- the namespace set: as procd's ujail, only what the options ask for ----
# hostapd, odhcpd and urngd get -U -G -C -c only: their credentials change,
# they keep the host's filesystem and namespaces.
host_ns() { readlink "/proc/self/ns/$1"; }
outside="$P/probe-glibc"	# a host file no jail here stages
check "-U -G -c only: the host's filesystem" out_is ok \
	jail -U nobody -G nogroup -c -- "$P/probe" open "$outside"
check "  the host's mount namespace" out_is "$(host_ns mnt)" jail -U nobody -- "$P/probe" ns mnt
check "  the host's pid namespace" out_is "$(host_ns pid)" jail -U nobody -- "$P/probe" ns pid
check "-S only: the host's filesystem, filtered" out_is "ok EACCES" sh -c \
	"'$U' -n probe -S '$tmp/deny.json' -- '$P/probe' open '$outside' | tr '\\n' ' ';
	 '$U' -n probe -S '$tmp/deny.json' -- '$P/probe' mkdir '$tmp/nsdir'"
check "-h only: new uts namespace" out_is nshost jail -h nshost -- "$P/probe" hostname
check "  and pid and ipc ones" sh -c "[ \"\$('$U' -h x -- '$P/probe' ns pid)\" != '$(host_ns pid)' ] &&
	[ \"\$('$U' -h x -- '$P/probe' ns ipc)\" != '$(host_ns ipc)' ]"
check "  on the host's filesystem" out_is ok jail -h nshost -- "$P/probe" open "$outside"
check "-r: a root of its own" out_is ENOENT jail -r "$P/probe" -- "$P/probe" open "$outside"
check "  in new mount and pid namespaces" sh -c "[ \"\$('$U' -r '$P/probe' -- '$P/probe' ns mnt)\" != '$(host_ns mnt)' ] &&
	[ \"\$('$U' -r '$P/probe' -- '$P/probe' ns pid)\" != '$(host_ns pid)' ]"
root_opts="-p -s -D -o --fs=auto"
[ -S /dev/log ] && root_opts="$root_opts -l"
[ -S /var/run/ubus/ubus.sock ] && root_opts="$root_opts -u"
for opt in $root_opts; do
	check "$opt: a root of its own" out_is ENOENT jail $opt -- "$P/probe" open "$outside"
done
check "no option at all: the default jail (a root of its own)" out_is ENOENT \
	"$U" -- "$P/probe" open "$outside"
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

# A -r cover over part of a -w path stays on its directory when the host
# renames it (an atomic configuration swap), as a bind mount does: the jail
# cannot write that directory through the -w path below the cover.
mkdir -p "$tmp/www/conf"
start_jail -w "$tmp/www:/www" -r "$tmp/www/conf:/www/conf" -r "$P/probe" -- "$P/probe" sleep
check "-r cover over a -w path: read-only" out_is EROFS \
	"$U" --join "$marker" -- "$P/probe" write /www/conf/x
mv "$tmp/www/conf" "$tmp/www/conf.old" && mkdir "$tmp/www/conf"
# The old name looked up first: with jailfs, its revalidation.
"$U" --join "$marker" -- "$P/probe" open /www/conf >/dev/null 2>&1
check "  still read-only after a host rename of the covered directory" out_is EROFS \
	"$U" --join "$marker" -- "$P/probe" write /www/conf.old/x
check "  nothing written in it on the host" test ! -e "$tmp/www/conf.old/x"
check "  the rest of the -w path writable" out_is ok \
	"$U" --join "$marker" -- "$P/probe" write /www/y
kill -TERM "$jail_pid"; wait "$jail_pid"

# A member's bare command name: a copy the jail can write (planted early in
# the search path by the service) is not taken for the read-only one.
mkdir -p "$tmp/lsbin"
start_jail -w "$tmp/lsbin:/usr/local/sbin" -r "$P/probe:/usr/bin/probe" -- "$P/probe" sleep
printf '#!/usr/bin/probe id\n' >"$tmp/lsbin/probe"; chmod 755 "$tmp/lsbin/probe"
check "--join: a bare name skips the copy the jail can write" rc_is 7 \
	"$U" --join "$marker" -- probe exit 7
cp "$P/probe" "$tmp/lsbin/onlyhere"
check "  only such a copy: 127" rc_is 127 "$U" --join "$marker" -- onlyhere exit 0
check "  message says why" err_has "onlyhere: the jail $marker has it only where the jail can write it"
check "  its path runs it" rc_is 3 "$U" --join "$marker" -- /usr/local/sbin/onlyhere exit 3
kill -TERM "$jail_pid"; wait "$jail_pid"

# ---- shared jails: ujail --join NAME ----
# Records of named jails are in $tmp/run (UJAIL_RUNDIR, set at the top), but
# for one look at the default.
# The service is dynamic (its libraries staged, no shim: no -S); members are
# the static probe, staged with -r.
start_jail -p -h sharedhost -N -r "$tmp/ro.txt" -r "$P/probe" -- "$P/probe-glibc" sleep
check "a named jail has a record, NAME@PID" test -s "$tmp/run/$marker@$jail_pid"
check "--join: the member in the jail's pid namespace" out_is "1 2 3 " sj -- "$P/probe" pids
check "  in its mount namespace" out_is "$(readlink "/proc/$service_pid/ns/mnt")" \
	sj -- "$P/probe" ns mnt
check "  in its network namespace" out_is "$(readlink "/proc/$service_pid/ns/net")" \
	sj -- "$P/probe" ns net
check "  in its uts namespace" out_is sharedhost sj -- "$P/probe" hostname
check "  sees the jail's staged file" out_is ok sj -- "$P/probe" open "$tmp/ro.txt"
check "  and no other host file" out_is ENOENT sj -- "$P/probe" open "$tmp/deny.json"
check "  its own -U" out_is "uid=65534 gid=65534 groups=0" sj -U nobody -- "$P/probe" id
check "  its own -e" out_is "KEEP=member" env KEEP=member "$U" --join "$marker" -e KEEP -- \
	"$P/probe" env
check "  its own -S policy" out_is EACCES sj -S "$tmp/deny.json" -- "$P/probe" mkdir /y
check "  the jail's service is not under it" out_is "$root_mkdir" sj -- "$P/probe" mkdir /z
check "  its own -f user namespace" out_is "uid=0 gid=0 groups=0" \
	sj -f -C "$tmp/allcaps.json" -- "$P/probe" id
check "  its exit status" rc_is 7 sj -- "$P/probe" exit 7
check "  a bare name found in the jail's PATH" rc_is 127 sj -- probe exit 0
check "  message: not in the jail" err_has "probe: no such executable in the jail $marker"
check "  a dynamic member runs on the jail's libraries" rc_is 0 sj -- "$P/probe-glibc" exit 0
# A member's filter is in force from its execve() on, dynamic or static: the
# jail's loader, libraries and constructors run under it (no shim needed).
check "dynamic member with -S: its own policy" out_is EACCES \
	sj -S "$tmp/deny.json" -- "$P/probe-glibc" mkdir /y
check "  in force at its execve: a policy denying it stops the member" rc_is 127 \
	sj -S "$tmp/noexec.json" -- "$P/probe-glibc" exit 0
"$U" --join "$marker" -- "$P/probe" sleep "$marker" >/dev/null 2>&1 & member_pid=$!
sleep 0.3
kill -TERM "$member_pid"; wait "$member_pid"; rc=$?
check "  SIGTERM forwarded to the member: 128+15" test "$rc" = 143
# -n is a label (dnsmasq's init script names every instance alike).
check "-n of a running jail: a second one runs beside it" rc_is 0 \
	"$U" -n "$marker" -p -- "$P/probe" exit 0
first_jail=$jail_pid first_service=$service_pid
"$U" -n "$marker" -p -r "$P/probe" -- "$P/probe" sleep "$marker" >/dev/null 2>&1 & second_jail=$!
for _ in $(seq 50); do [ -e "$tmp/run/$marker@$second_jail" ] && break; sleep 0.1; done
check "--join NAME with two running: 1, none picked" rc_is 1 sj -- "$P/probe" exit 0
check "  both listed with their pids" err_has "2 running jails answer to it"
check "  the first" err_has "$marker (ujail pid $first_jail"
check "  the second" err_has "$marker (ujail pid $second_jail"
check "--join PID (a ujail's) joins that one" out_is "$(readlink "/proc/$first_service/ns/mnt")" \
	"$U" --join "$first_jail" -- "$P/probe" ns mnt
check "--join NAME@PID too" out_is "$(readlink "/proc/$first_service/ns/mnt")" \
	"$U" --join "$marker@$first_jail" -- "$P/probe" ns mnt
# The first jail's record, its pid now another process's that calls itself
# the jail's keeper (what a reused pid looks like) and holds the record
# locked: --join refuses it.
forged=$marker-forged
: >"$tmp/run/$forged@$$"
"$P/probe" forge-keeper "$forged" "$tmp/run/$forged@$$" >/dev/null 2>&1 & forger=$!
for _ in $(seq 50); do
	case $(tr '\0' ' ' <"/proc/$forger/cmdline") in "ujail-keeper init"*) break ;; esac
	sleep 0.1
done
{ echo "$forger"; echo; sed -n 3p "$tmp/run/$marker@$first_jail"; } >"$tmp/run/$forged@$$"
check "--join a record whose PID 1's pid was reused: 1" rc_is 1 \
	"$U" --join "$forged" -- "$P/probe" ns mnt
check "  message: not the jail's PID 1" err_has "is not the jail's PID 1 any more"
kill "$forger"; wait "$forger" 2>/dev/null
rm -f "$tmp/run/$forged@$$"
kill -TERM "$second_jail"; wait "$second_jail" 2>/dev/null
check "  its record removed at its end" test ! -e "$tmp/run/$marker@$second_jail"
check "  the first jail is untouched" kill -0 "$jail_pid"
"$U" --join "$marker" -- "$P/probe" sleep "$marker" >/dev/null 2>&1 & member_pid=$!
sleep 0.3
kill -KILL "$service_pid"
sleep 0.5
check "the jail outlives its service while a member runs" kill -0 "$jail_pid"
check "  a new member still joins" rc_is 0 sj -- "$P/probe" exit 0
kill -TERM "$member_pid"; wait "$member_pid"
wait "$jail_pid"; rc=$?
check "  it ends with its last member, with its service's status (128+9)" test "$rc" = 137
check "  its record removed" test ! -e "$tmp/run/$marker@$jail_pid"
check "--join a jail that ended: 1" rc_is 1 sj -- "$P/probe" exit 0
check "  message says there is none" err_has "--join $marker: no running jail of that name or pid"
start_jail -- "$P/probe" sleep
kill -KILL "$jail_pid"; wait "$jail_pid" 2>/dev/null
sleep 0.3
check "ujail SIGKILLed: --join finds its record stale: 1" rc_is 1 sj -- "$P/probe" exit 0
check "  message says there is none" err_has "--join $marker: no running jail of that name or pid"
check "  the stale record is still there" test -e "$tmp/run/$marker@$jail_pid"
check "  a new jail of the name runs" rc_is 0 "$U" -n "$marker" -- "$P/probe" exit 0
check "  and removes the stale record" test ! -e "$tmp/run/$marker@$jail_pid"
check "--join with -r: 2" rc_is 2 "$U" --join x -r /tmp -- "$P/probe" exit 0
check "  message names it" err_has "--join x: -r/-w cannot be used with --join"
check "--join with -t: 2" rc_is 2 "$U" --join x -t 3 -- "$P/probe" exit 0
check "--join with --pids-max: 2" rc_is 2 "$U" --join x --pids-max 5 -- "$P/probe" exit 0
check "  message says why" err_has "shares the jail's cgroup and its limits"
check "--join NAME with '/': 2" rc_is 2 "$U" --join a/b -- "$P/probe" exit 0
unset UJAIL_RUNDIR
start_jail -- "$P/probe" sleep
check "the default record directory: /var/run/ujail" test -s "/var/run/ujail/$marker@$jail_pid"
kill -TERM "$jail_pid"; wait "$jail_pid"
check "  the record removed at the end" test ! -e "/var/run/ujail/$marker@$jail_pid"
UJAIL_RUNDIR=$tmp/run; export UJAIL_RUNDIR
check "UJAIL_RUNDIR's missing parents are made" rc_is 0 env UJAIL_RUNDIR="$tmp/deep/er/run" \
	"$U" -n "$marker" -- "$P/probe" exit 0
check "  the directory is there" test -d "$tmp/deep/er/run"
check "UJAIL_RUNDIR below a file: 1" rc_is 1 env UJAIL_RUNDIR="$tmp/ro.txt/run" \
	"$U" -n "$marker" -- "$P/probe" write "$tmp/rwdir/ran"
check "  message names it" err_has "jail records: mkdir $tmp/ro.txt/run: Not a directory"
check "  the service did not start" test ! -e "$tmp/rwdir/ran"
check "shared jails left nothing" nothing_left

# ---- cgroup v2: the jail's own cgroup, limits ----
# A cgroup2 is /sys/fs/cgroup (the QEMU guest: scripts/check.sh mounts it)
# or /sys/fs/cgroup/unified (a host with cgroup v1 too, mostly without
# controllers). The jails' cgroups go below $cg_parent, removed at the end.
cg_mount=
for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ -e "$d/cgroup.controllers" ] && { cg_mount=$d; break; }
done
if [ -n "$cg_mount" ] && mkdir "$cg_mount/$marker" 2>/dev/null; then
	cg_parent=$cg_mount/$marker
fi
cg_offered=$( [ -n "$cg_mount" ] && cat "$cg_mount/cgroup.controllers")
# skip N REASON: N results skipped.
# Cgroups left in $cg_parent (each jail's is a directory there).
cg_left() {
	local d n=0
	for d in "$cg_parent"/*/; do [ -d "$d" ] && n=$((n + 1)); done
	[ "$n" = 0 ] && return 0
	echo "# cgroups left:" "$cg_parent"/*/
	return 1
}
# The cgroup v2 line of /proc/PID/cgroup ("0::/path").
cg_of() { grep '^0::' "/proc/$1/cgroup"; }
cgj() { "$U" -n probe --cgroup-parent "$cg_parent" "$@"; }
# Limits need these controllers; io.weight needs io too.
offered() { case " $cg_offered " in *" $1 "*) return 0 ;; esac; return 1; }
cg_limits=
offered memory && offered pids && offered cpu && cg_limits=1
cg_io=
offered io && cg_io=1

# Bad values: usage errors, before anything is looked at.
check "--memory-max 12Q: 2" rc_is 2 "$U" --memory-max 12Q -- "$P/probe" exit 0
check "  message names it" err_has "--memory-max '12Q': expected BYTES"
check "--pids-max -1: 2" rc_is 2 "$U" --pids-max -1 -- "$P/probe" exit 0
check "  message names it" err_has "--pids-max '-1': expected a number of processes"
check "--cpu-max 0: 2" rc_is 2 "$U" --cpu-max 0 -- "$P/probe" exit 0
check "  message names it" err_has "--cpu-max '0': expected QUOTA[/PERIOD]"
check "--io-weight 0: 2" rc_is 2 "$U" --io-weight 0 -- "$P/probe" exit 0
check "  message names it" err_has "--io-weight '0': expected a weight from 1 to 10000"
echo '{ "pids_max": 0, "command": ["/bin/true"] }' >"$tmp/limits.json"
check "jail file pids_max 0: 2" rc_is 2 "$U" --config "$tmp/limits.json"
check "  message names it" err_has "$tmp/limits.json: pids_max: expected a number"
check "--cgroup-parent not in a cgroup2: 1" rc_is 1 "$U" --memory-max 16M \
	--cgroup-parent "$tmp/cg/x" -- "$P/probe" write "$tmp/rwdir/ran"
check "  message names it" err_has "--cgroup-parent: $tmp is not a cgroup v2 directory"
check "  nothing made there" test ! -e "$tmp/cg"
if [ ! -e /sys/fs/cgroup/cgroup.controllers ]; then
	check "no cgroup2 at the default parent: 1" rc_is 1 "$U" --pids-max 5 -- \
		"$P/probe" write "$tmp/rwdir/ran"
	check "  message says so" err_has "--pids-max: /sys/fs/cgroup is not a cgroup v2 directory"
fi

if [ -z "$cg_parent" ]; then
	skip 23 "no writable cgroup v2 (${cg_mount:-none mounted})"
else
	# A missing controller: clear, and nothing made.
	if [ -z "$cg_limits" ]; then
		check "controller missing: 1" rc_is 1 "$U" --memory-max 1M \
			--cgroup-parent "$cg_parent/x" -- "$P/probe" write "$tmp/rwdir/ran"
		check "  message names it and the controllers offered" \
			err_has "--memory-max: the cgroup v2 controller \"memory\" is not available in $cg_mount (cgroup.controllers lists: ${cg_offered:-nothing})"
		check "  no cgroup made" test ! -e "$cg_parent/x"
	else
		skip 3 "the controllers are there: no missing one to test"
	fi
	rel=${cg_parent#"$cg_mount"}
	start_jail --cgroup-parent "$cg_parent" -p -- "$P/probe" sleep
	check "--cgroup-parent: the service in PARENT/NAME-PID" \
		out_is "0::$rel/$marker-$jail_pid" cg_of "$service_pid"
	check "--join: the member in the jail's cgroup" out_is "0::$rel/$marker-$jail_pid" \
		sh -c "'$U' --join '$marker' -- '$P/probe' cat /proc/self/cgroup | grep '^0::'"
	check "  the outer keeper is not" sh -c "[ \"\$(grep '^0::' /proc/$jail_pid/cgroup)\" != '0::$rel/$marker-$jail_pid' ]"
	kill -KILL "$service_pid"; wait "$jail_pid"; rc=$?
	check "  service SIGKILLed: 128+9" test "$rc" = 137
	check "  and its cgroup removed" test ! -e "$cg_parent/$marker-$jail_pid"
	start_jail --cgroup-parent "$cg_parent" -t 1 -- "$P/probe" sleep-ignore-term
	kill -TERM "$jail_pid"; wait "$jail_pid"
	check "SIGTERM, SIGKILL after -t: cgroup removed" test ! -e "$cg_parent/$marker-$jail_pid"
	check "-F: the cgroup namespace's root is the jail's cgroup" out_is "0::/" \
		sh -c "'$U' --cgroup-parent '$cg_parent' -p -F -- '$P/probe' cat /proc/self/cgroup | grep '^0::'"
	check "without -F: the jail's cgroup is seen" \
		sh -c "'$U' -n cgsee --cgroup-parent '$cg_parent' -p -- '$P/probe' cat /proc/self/cgroup | grep -q '^0::$rel/cgsee-[0-9]*\$'"
	printf '#!/nonexistent/interpreter\n' >"$tmp/badkeeper"; chmod 755 "$tmp/badkeeper"
	check "the keeper cannot start: 1" rc_is 1 env UJAIL_KEEPER="$tmp/badkeeper" "$U" \
		--cgroup-parent "$cg_parent" -- "$P/probe" exit 0
	check "  no cgroup left" cg_left
	check "a failure in the jail (-r DST below a file): 1" rc_is 1 "$U" \
		--cgroup-parent "$cg_parent" -r /etc/passwd:/dev/null/x -- "$P/probe" exit 0
	check "  no cgroup left" cg_left
	check "a failure on the host (-U unknown): 1" rc_is 1 "$U" --cgroup-parent "$cg_parent/new" \
		-U nosuchuser-ujail -- "$P/probe" exit 0
	check "  the parent was not even made" test ! -e "$cg_parent/new"
	check "--cgroup-parent DIR made when missing" rc_is 0 "$U" --cgroup-parent "$cg_parent/a/b" \
		-- "$P/probe" exit 0
	check "  the jail's own cgroup gone, the parent kept" \
		sh -c "[ -d '$cg_parent/a/b' ] && ! ls -d '$cg_parent/a/b'/*/ >/dev/null 2>&1"
	rmdir "$cg_parent/a/b" "$cg_parent/a"
	start_jail --cgroup-parent "$cg_parent" -- "$P/probe" sleep
	kill -KILL "$jail_pid"; wait "$jail_pid" 2>/dev/null
	sleep 0.3
	check "ujail SIGKILLed: its jail's cgroup is empty" \
		sh -c "[ -z \"\$(cat '$cg_parent/$marker-$jail_pid/cgroup.procs')\" ]"
	check "  and removed by the next jail there" sh -c "'$U' --cgroup-parent '$cg_parent' \
		-- '$P/probe' exit 0 && [ ! -e '$cg_parent/$marker-$jail_pid' ]"
	check "cgroup jails left nothing" nothing_left
	check "  and no cgroup" cg_left
fi

if [ -z "$cg_parent" ] || [ -z "$cg_limits" ]; then
	skip 12 "no cgroup v2 with the memory, pids and cpu controllers (${cg_mount:-no cgroup2}: ${cg_offered:-none})"
else
	set -- --memory-max 16M --memory-high 12M --cpu-max 50% --pids-max 20
	[ -n "$cg_io" ] && set -- "$@" --io-weight 50
	start_jail --cgroup-parent "$cg_parent" "$@" -- "$P/probe" sleep
	d=$cg_parent/$marker-$jail_pid
	check "--memory-max 16M: memory.max" out_is 16777216 cat "$d/memory.max"
	check "--memory-high 12M: memory.high" out_is 12582912 cat "$d/memory.high"
	check "--cpu-max 50%: cpu.max" out_is "50000 100000" cat "$d/cpu.max"
	check "--pids-max 20: pids.max" out_is 20 cat "$d/pids.max"
	if [ -n "$cg_io" ]; then
		check "--io-weight 50: io.weight" sh -c "grep -qx 'default 50' '$d/io.weight'"
	else
		skip 1 "no io controller"
	fi
	kill -TERM "$jail_pid"; wait "$jail_pid"
	check "  the cgroup removed at the end" test ! -e "$d"
	check "fork bomb under --pids-max 20: contained" \
		sh -c "cgj() { '$U' -n '$marker' --cgroup-parent '$cg_parent' \"\$@\"; }; cgj --pids-max 20 -- '$P/probe' forkbomb '$marker' | grep -qE '^EAGAIN after 1?[0-9] forks\$'"
	check "  the host still forks" sh -c 'true & wait'
	check "  nothing left of it" nothing_left
	check "memory hog under --memory-max 16M: OOM-killed, 128+9" \
		rc_is 137 cgj --memory-max 16M -- "$P/probe" memhog 256
	check "  the same hog without the limit survives" out_is survived \
		cgj -- "$P/probe" memhog 64
	check "  no cgroup left" cg_left
fi

# ---- errors: clear, right status, nothing started or left ----
check "refused option -y: 2" rc_is 2 "$U" -y -- "$P/probe" exit 0
check "unknown option: 2" rc_is 2 "$U" --bogus -- "$P/probe" exit 0
check "no command: 2" rc_is 2 "$U" -n x
check "command not found: 127" rc_is 127 "$U" -- /nonexistent/cmd
check "  message names it" err_has "/nonexistent/cmd"
check "not executable: 127" rc_is 127 "$U" -- "$tmp/ro.txt"
# Init scripts list optional files (dnsmasq's /etc/ethers): procd skips them.
check "absent -r/-w paths are skipped" rc_is 0 "$U" -n probe -r /nonexistent/path \
	-w /nonexistent/dir/ -- "$P/probe" exit 0
check "  quietly" test ! -s "$tmp/err"
check "  -d 1 names them" rc_is 0 "$U" -n probe -d 1 -r /nonexistent/path \
	-w /nonexistent/dir/ -- "$P/probe" exit 0
check "  -r named" err_has "-r /nonexistent/path: not on the host: skipped"
check "  -w named" err_has "-w /nonexistent/dir: not on the host: skipped"
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

# ---- --veth: a veth pair to the host, on the test's own names and addresses ----
vh=ujt$$
vj=vj$$
# A kernel without veth (Debian's cloud kernels have it as a module the
# guest does not load): the section is skipped, with the reason.
veth_tests() {
# The probe does the traffic and the look-ups (busybox in the guest has no
# iproute2): "ifindex NAME" is ok while the host has NAME, ENODEV after.
net4="--host-addr 10.213.7.1/30 --jail-addr 10.213.7.2/30"
host_has() { out_is "$2" "$P/probe" ifindex "$1"; }
# host_up NAME WANT: wait (5 s at most) for the host's end NAME, up; its
# "ifaddr" is WANT.
host_up() {
	local i=0
	while [ $i -lt 50 ] && ! "$P/probe" ifaddr "$1" 2>/dev/null | grep -q '^up'; do
		sleep 0.1
		i=$((i + 1))
	done
	out_is "$2" "$P/probe" ifaddr "$1"
}
# shellcheck disable=SC2086
"$U" -n "$marker" --veth "$vh:$vj" $net4 -- "$P/probe" udp-echo 10.213.7.2 7207 "$marker" \
	>"$tmp/echo.out" 2>&1 &
jail_pid=$!
check "--veth: the host's end has --host-addr, up" host_up "$vh" "up 10.213.7.1/30"
check "--veth: a second jail with the same host name: 1" rc_is 1 "$U" --veth "$vh" -- "$P/probe" exit 0
check "  message says the host has it" err_has "--veth $vh: the host already has an interface $vh"
check "  the first jail's pair is left alone" host_has "$vh" ok
check "--veth: the host gets the jail's UDP answer" out_is "hello" "$P/probe" udp-ask 10.213.7.2 7207 hello
wait "$jail_pid"
check "--veth: the jailed echo ended with 0" test $? = 0 -a "$(cat "$tmp/echo.out")" = ok
check "--veth: the pair is gone when ujail returns" host_has "$vh" ENODEV
# shellcheck disable=SC2086
check "--veth: names and addresses as given, in the jail" out_is "up 10.213.7.2/30" \
	"$U" --veth "$vh:$vj" $net4 -- "$P/probe" ifaddr "$vj"
check "--veth HOST: the jail's end is eth0, up, no address" out_is "up" \
	"$U" --veth "$vh" -- "$P/probe" ifaddr eth0
check "--veth: lo up too" out_is "ok" "$U" --veth "$vh" -- "$P/probe" bind 8080
# A /32 in the jail: the host's end is reachable through --gateway only.
gw4="--host-addr 10.213.7.1/30 --jail-addr 10.213.7.2/32"
# shellcheck disable=SC2086
check "--gateway: the jail's default route" out_is "default via 10.213.7.1 dev eth0" \
	"$U" -p --veth "$vh" $gw4 --gateway 10.213.7.1 -- "$P/probe" route
# shellcheck disable=SC2086
check "without --gateway: the host is unreachable from a /32" out_is "ENETUNREACH" \
	"$U" --veth "$vh" $gw4 -- "$P/probe" udp-ask 10.213.7.1 7208 ping
"$P/probe" udp-echo 0.0.0.0 7208 >/dev/null 2>&1 & helper_pid=$!
# shellcheck disable=SC2086
check "--gateway: the jail reaches the host through its default route" out_is "ping" \
	"$U" --veth "$vh" $gw4 --gateway 10.213.7.1 -- "$P/probe" udp-ask 10.213.7.1 7208 ping
kill "$helper_pid" 2>/dev/null; wait "$helper_pid" 2>/dev/null; helper_pid=
echo "{\"veth\": \"$vh:$vj\", \"jail_addr\": \"10.213.7.2/30\", \"host_addr\": \"10.213.7.1/30\"}" \
	>"$tmp/veth.json"
check "jail file: veth, host_addr, jail_addr" out_is "up 10.213.7.2/30" \
	"$U" --config "$tmp/veth.json" -- "$P/probe" ifaddr "$vj"
if [ -e /proc/net/if_inet6 ]; then
	"$U" -n "$marker" --veth "$vh" --host-addr fd00:213::1/64 --jail-addr fd00:213::2/64 -- \
		"$P/probe" udp-echo fd00:213::2 7209 "$marker" >/dev/null 2>&1 &
	jail_pid=$!
	check "--veth IPv6: the host's end has --host-addr" host_up "$vh" "up fd00:213::1/64"
	check "--veth IPv6: the host gets the jail's UDP answer" out_is "six" \
		"$P/probe" udp-ask fd00:213::2 7209 six
	wait "$jail_pid"
else
	for d in "host's end has --host-addr" "host gets the jail's UDP answer"; do
		tap_n=$((tap_n + 1)); echo "ok $tap_n --veth IPv6: the $d # SKIP the kernel has no IPv6"
	done
fi
# Ended from outside: by a signal to the service, to ujail.
start_jail --veth "$vh" -- "$P/probe" sleep
kill -KILL "$service_pid"; wait "$jail_pid"; rc=$?
check "--veth: service SIGKILLed: 128+9, the pair gone at once" \
	test "$rc" = 137 -a "$("$P/probe" ifindex "$vh")" = ENODEV
start_jail -t 1 --veth "$vh" -- "$P/probe" sleep
kill -TERM "$jail_pid"; wait "$jail_pid"; rc=$?
check "--veth: ujail SIGTERMed: 128+15, the pair gone at once" \
	test "$rc" = 143 -a "$("$P/probe" ifindex "$vh")" = ENODEV
# Bad values: usage errors (2) name the option; setup errors (1) leave nothing.
check "--veth name too long: 2" rc_is 2 "$U" --veth abcdefghijklmnop -- "$P/probe" exit 0
check "  message says so" err_has "--veth 'abcdefghijklmnop': interface name longer than 15 characters"
check "--veth name with '/': 2" rc_is 2 "$U" --veth "$vh:a/b" -- "$P/probe" exit 0
check "  message says so" err_has "interface name with '/', ':' or '%'"
check "--host-addr without /LEN: 2" rc_is 2 "$U" --veth "$vh" --host-addr 10.0.0.1 -- "$P/probe" exit 0
check "  message says so" err_has "--host-addr '10.0.0.1': expected ADDR/LEN"
check "--jail-addr 300.1.1.1/24: 2" rc_is 2 "$U" --veth "$vh" --jail-addr 300.1.1.1/24 -- "$P/probe" exit 0
check "  message says so" err_has "--jail-addr '300.1.1.1/24': not an IPv4 or IPv6 address"
check "--gateway unparsable: 2" rc_is 2 "$U" --veth "$vh" --jail-addr 10.213.7.2/30 \
	--gateway 10.213.7.x -- "$P/probe" exit 0
check "  message says so" err_has "--gateway '10.213.7.x': not an IPv4 or IPv6 address"
check "--jail-addr without --veth: 2" rc_is 2 "$U" --jail-addr 10.213.7.2/30 -- "$P/probe" exit 0
check "  message says so" err_has "--jail-addr needs --veth"
check "--veth lo: the host has it: 1" rc_is 1 "$U" --veth lo -- "$P/probe" write "$tmp/rwdir/ran"
check "  message says so" err_has "--veth lo: the host already has an interface lo"
# The kernel refuses a broadcast gateway after the pair exists: it must go.
check "--gateway refused by the kernel: 1" rc_is 1 "$U" --veth "$vh" --jail-addr 10.213.7.2/30 \
	--gateway 10.213.7.3 -- "$P/probe" write "$tmp/rwdir/ran"
check "  message names it" err_has "--gateway 10.213.7.3: the default route:"
check "  and the pair is gone" host_has "$vh" ENODEV
check "failed --veth jails started nothing" test ! -e "$tmp/rwdir/ran"
check "failed --veth jails left nothing" nothing_left
}
if "$U" --veth "$vh" -- "$P/probe" exit 0 >/dev/null 2>"$tmp/err" ||
	! grep -q "create the pair: Operation not supported" "$tmp/err"; then
	veth_tests
else
	skip 37 "the kernel has no veth (CONFIG_VETH, or its module not loaded)"
fi

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
