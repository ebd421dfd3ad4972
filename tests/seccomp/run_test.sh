#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ujail-seccomp run: the filter in force in glibc and musl programs, dynamic
# (preload shim) and static (installed before execve), in the mode the
# kernel gives (notify on a kernel without SECCOMP_RET_LOG_ERRNO, log-errno
# on the patched one) and in errno-log. POSIX sh: runs in the QEMU busybox
# guest too. Prints TAP.
#
# Environment (defaults: the build tree):
#   UJAIL_SECCOMP   the ujail-seccomp command
#   SYSPROBE_DIR    directory of sysprobe-{glibc,glibc-static,musl,musl-static}
#   VARIANTS        which of those to test
#   SHIM_GLIBC, SHIM_MUSL   the preload shims (default: found by ujail-seccomp)
#   TAP_SH          tests/lib/tap.sh
#
# $pre is empty or "--preload PATH": unquoted on purpose. The checks that
# eval a single-quoted condition expand it when they run; the helpers are
# called through check.
# shellcheck disable=SC2086,SC2016,SC2034,SC2317
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "${TAP_SH:-$top/tests/lib/tap.sh}"
U=${UJAIL_SECCOMP:-$top/build/bin/ujail-seccomp}
probes=${SYSPROBE_DIR:-$top/build/tests/seccomp}
variants=${VARIANTS:-glibc glibc-static musl musl-static}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Allow by default; one rule per action.
cat >"$tmp/deny.json" <<'EOF'
{
  "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [
    { "names": ["getuid"], "action": "SCMP_ACT_LOG_ERRNO", "errnoRet": 13 },
    { "names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1 },
    { "names": ["uname"], "action": "SCMP_ACT_KILL_PROCESS" },
    { "names": ["chdir"], "action": "SCMP_ACT_TRAP" },
    { "names": ["getpid"], "action": "SCMP_ACT_LOG" },
    { "names": ["getppid"], "action": "SCMP_ACT_ALLOW" },
    { "names": ["getgid"], "action": "SCMP_ACT_KILL" },
    { "names": ["getegid"], "action": "SCMP_ACT_TRACE", "errnoRet": 7 },
    { "names": ["dup"], "action": "SCMP_ACT_ERRNO", "errnoRet": 22,
      "args": [ { "index": 0, "value": 2, "op": "SCMP_CMP_EQ" } ] }
  ]
}
EOF
# The machine's numbers: a death by SIGSYS (128+31 on x86_64 and aarch64,
# 128+12 on MIPS) and ENOSYS (38; 89 on MIPS).
sigsys_rc=$(exec 2>/dev/null; sh -c 'kill -SYS $$'; echo $?)
enosys=38
# Start-up calls of the static libcs beyond x86_64's (names of other
# architectures are dropped quietly): MIPS sets its TLS pointer.
startup_extra=
case $(uname -m) in
mips*) enosys=89 startup_extra='"set_thread_area", ' ;;
esac

# Deny by default: exactly what the static libcs need (see run --help),
# stdio's calls and getppid.
cat >"$tmp/allow.json" <<EOF
{
  "defaultAction": "SCMP_ACT_LOG_ERRNO",
  "defaultErrnoRet": 1,
  "syscalls": [
    { "names": [${startup_extra}"execve", "brk", "arch_prctl", "set_tid_address",
                "set_robust_list", "rseq", "prlimit64", "readlink",
                "readlinkat", "getrandom", "mprotect", "exit_group",
                "newfstatat", "fstat", "ioctl", "write", "writev",
                "getppid"],
      "action": "SCMP_ACT_ALLOW" }
  ]
}
EOF
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [ { "names": ["getppid"], "action": "SCMP_ACT_NOPE" } ] }' \
	>"$tmp/bad.json"
# For commands whose own calls are not under test (busybox's sleep calls
# getgid, which deny.json kills).
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [ { "names": ["socket"], "action": "SCMP_ACT_ERRNO" } ] }' \
	>"$tmp/lenient.json"
printf 'ujailbpf\001\000\000\000' >"$tmp/truncated.bin"

mode=$("$U" mode | cut -d: -f1)
echo "# ujail-seccomp mode: $mode"

# run [RUN OPTIONS...] POLICY -- CMD...: output in $tmp/out, $tmp/err, $rc.
run() {
	"$U" run "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

out_has() { grep -qxF "$1" "$tmp/out"; }
out_empty() { [ ! -s "$tmp/out" ]; }
err_has() { grep -qE "$1" "$tmp/err"; }
err_lacks() { ! grep -qE "$1" "$tmp/err"; }
rc_is() { [ "$rc" -eq "$1" ]; }
dynamic() { case $1 in *static) return 1 ;; esac; }
show() { sed 's/^/# /' "$tmp/out" "$tmp/err"; }

# The shim given for a variant, if any.
shim_of() {
	case $1 in
	musl) echo "${SHIM_MUSL:-}" ;;
	glibc) echo "${SHIM_GLIBC:-}" ;;
	esac
}

# The shim a variant gets: given, or ujail-seccomp's default.
shim_path() {
	case $1 in
	musl) echo "${SHIM_MUSL:-$(dirname "$U")/../lib/musl/libpreload-seccomp.so}" ;;
	*) echo "${SHIM_GLIBC:-$(dirname "$U")/../lib/libpreload-seccomp.so}" ;;
	esac
}

# The denial line of notify mode, for the jail named "jtest".
denial_logged() {
	comm=$(printf '%.15s' "sysprobe-$1")
	err_has "^jail jtest: $comm\[[0-9]+\] denied syscall $2 \([0-9]+\)\$"
}

# In log-errno mode the kernel logs (patched kernels only); its lines are
# rate-limited (10 per 5 s), so once more after a pause.
kernel_logged() {
	comm=$(printf '%.15s' "sysprobe-$1")
	line="seccomp: log_errno comm=\"$comm\" .*name=$2 errno=$3"
	dmesg | grep -q "$line" && return
	sleep 6
	"$U" run $pre "$tmp/deny.json" -- "$probes/sysprobe-$1" getuid >/dev/null 2>&1
	dmesg | grep -q "$line"
}

# The number of syscall $1, as the compiled filter's dump shows it.
syscall_nr() {
	hex=$("$U" dump "$tmp/deny.json" | sed -n "s/.*#0x\([0-9a-f]*\) ($1).*/\1/p" | head -n 1)
	[ -n "$hex" ] && printf '%d' "0x$hex"
}

# SECCOMP_FILTER_FLAG_LOG: a type=1326 audit record (also rate-limited).
audit_logged() {
	comm=$(printf '%.15s' "sysprobe-$1")
	line="type=1326 .*comm=\"$comm\".* syscall=$(syscall_nr "$2") "
	dmesg | grep -q "$line" && return
	sleep 6
	"$U" run --mode errno-log $pre "$tmp/deny.json" -- "$probes/sysprobe-$1" "$2" >/dev/null 2>&1
	dmesg | grep -q "$line"
}

test_variant() {
	v=$1 p=$probes/sysprobe-$1 shim=$(shim_of "$1")
	pre=${shim:+--preload $shim}

	if [ ! -x "$p" ]; then
		check "$v: $p is built" false
		return
	fi

	run -n jtest $pre "$tmp/deny.json" -- "$p" getppid socket getuid getpid
	check "$v: allowed call works" out_has "getppid: ok"
	check "$v: ERRNO call fails with its errno" out_has "socket: errno 1 (Operation not permitted)"
	check "$v: LOG_ERRNO call fails with its errno" out_has "getuid: errno 13 (Permission denied)"
	check "$v: LOG call is allowed" out_has "getpid: ok"
	check "$v: exit status is the command's" rc_is 0
	check "$v: says which mode is in force" err_has "^ujail-seccomp: mode $mode: "
	case $mode in
	notify)
		check "$v: notify mode logs the denial" denial_logged "$v" getuid
		check "$v: notify mode logs only LOG_ERRNO denials" err_lacks "denied syscall socket"
		;;
	log-errno)
		check "$v: log-errno: the kernel logs the denial" kernel_logged "$v" getuid 13
		run -n jtest --mode notify $pre "$tmp/deny.json" -- "$p" getuid
		check "$v: notify forced: the errno" out_has "getuid: errno 13 (Permission denied)"
		check "$v: notify forced: the supervisor logs the denial" denial_logged "$v" getuid
		;;
	esac
	[ "$rc" -eq 0 ] || show

	run $pre "$tmp/deny.json" -- "$p" getppid uname getppid
	check "$v: KILL_PROCESS kills with SIGSYS ($sigsys_rc)" rc_is "$sigsys_rc"
	check "$v: nothing runs after the killed call" [ "$(grep -c . "$tmp/out")" -eq 1 ]

	run $pre "$tmp/deny.json" -- "$p" chdir:/
	check "$v: TRAP delivers SIGSYS ($sigsys_rc)" rc_is "$sigsys_rc"

	run $pre "$tmp/deny.json" -- "$p" getppid getgid getppid
	check "$v: KILL (thread) kills the single-threaded program with SIGSYS ($sigsys_rc)" rc_is "$sigsys_rc"
	check "$v: KILL: nothing runs after the killed call" [ "$(grep -c . "$tmp/out")" -eq 1 ]

	run $pre "$tmp/deny.json" -- "$p" getegid
	check "$v: TRACE without a tracer fails the call with ENOSYS" \
		out_has "getegid: errno $enosys (Function not implemented)"

	run $pre "$tmp/deny.json" -- "$p" dup:1 dup:2
	check "$v: argument check: dup(1) is allowed" out_has "dup: ok"
	check "$v: argument check: dup(2) fails with the rule's errno" \
		out_has "dup: errno 22 (Invalid argument)"

	run -n jtest --mode errno-log $pre "$tmp/deny.json" -- "$p" getuid
	check "$v: errno-log mode returns the errno" out_has "getuid: errno 13 (Permission denied)"
	check "$v: errno-log mode is announced" \
		err_has "^ujail-seccomp: mode errno-log: .*denials are logged by audit"
	check "$v: errno-log mode has no supervisor lines" err_lacks "denied syscall"
	# Kernels with audit and no auditd print the record (Debian's stock).
	[ "${EXPECT_AUDIT:-0}" = 1 ] &&
		check "$v: errno-log mode: the kernel's audit record names the call" \
			audit_logged "$v" getuid

	run $pre "$tmp/deny.json" -- "$p" env
	check "$v: no UJAIL_SECCOMP_* variable inside" eval '! grep -qE "^env: UJAIL_SECCOMP_(FD|FILE|NOTIFY_FD|MODE)=" "$tmp/out"'
	check "$v: no LD_PRELOAD inside" eval '! grep -q "^env: LD_PRELOAD=" "$tmp/out"'
	check "$v: the environment is passed on" grep -q "^env: PATH=" "$tmp/out"

	export SYSPROBE_CTOR=getuid
	run $pre "$tmp/deny.json" -- "$p" getuid
	unset SYSPROBE_CTOR
	if dynamic "$v"; then
		check "$v: constructors run before the filter" out_has "ctor getuid: ok"
	else
		check "$v: static: the filter is in force from execve on" \
			out_has "ctor getuid: errno 13 (Permission denied)"
	fi
	check "$v: main runs under the filter" out_has "getuid: errno 13 (Permission denied)"

	for m in $mode errno-log; do
		export SYSPROBE_THREAD=1
		run --mode "$m" $pre "$tmp/deny.json" -- "$p" thread:getuid thread:getppid
		unset SYSPROBE_THREAD
		check "$v: $m: a thread started by a constructor is filtered (TSYNC)" \
			eval 'out_has "thread getuid: errno 13 (Permission denied)" &&
			      out_has "thread getppid: ok"'
	done

	run -n jtest $pre "$tmp/allow.json" -- "$p" getppid socket
	check "$v: an allow-list policy runs the program" out_has "getppid: ok"
	check "$v: allow-list: the rest is denied" out_has "socket: errno 1 (Operation not permitted)"
	if [ "$mode" = notify ]; then
		check "$v: allow-list: only socket is denied (start-up calls allowed)" \
			[ "$(grep -c "denied syscall" "$tmp/err")" -eq 1 ]
		grep "denied syscall" "$tmp/err" | sed 's/^/# /'
	fi

	run $pre "$tmp/bad.json" -- "$p" getppid
	check "$v: bad policy: the command does not run" out_empty
	check "$v: bad policy: non-zero exit" [ "$rc" -ne 0 ]
	check "$v: bad policy: the error names the file" err_has "bad.json"

	run $pre "$tmp/truncated.bin" -- "$p" getppid
	check "$v: truncated program: the command does not run" out_empty
	check "$v: truncated program: non-zero exit with a reason" \
		eval '[ "$rc" -ne 0 ] && err_has "truncated"'

	dynamic "$v" || return 0

	run --preload /nonexistent/libpreload-seccomp.so "$tmp/deny.json" -- "$p" getppid
	check "$v: missing shim: the command does not run" out_empty
	check "$v: missing shim: the error names the path" \
		eval '[ "$rc" -ne 0 ] && err_has "/nonexistent/libpreload-seccomp.so"'

	shim=$(shim_path "$v")
	LD_PRELOAD=$shim "$p" getppid >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$v: inherited LD_PRELOAD without variables: the shim does nothing" \
		eval 'rc_is 0 && out_has "getppid: ok" && [ ! -s "$tmp/err" ]'

	# procd's non-jailed mode: a precompiled file named in the environment,
	# no runner, no supervisor: log-errno, or errno-log without the action.
	"$U" compile "$tmp/deny.json" -o "$tmp/deny.bin"
	UJAIL_SECCOMP_FILE=$tmp/deny.bin LD_PRELOAD=$shim "$p" getppid getuid socket env \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$v: shim alone with UJAIL_SECCOMP_FILE: allowed call works" out_has "getppid: ok"
	check "$v: shim alone: LOG_ERRNO call fails with its errno" \
		out_has "getuid: errno 13 (Permission denied)"
	check "$v: shim alone: ERRNO call fails with its errno" \
		out_has "socket: errno 1 (Operation not permitted)"
	check "$v: shim alone: its variables are gone inside" \
		eval '! grep -qE "^env: (UJAIL_SECCOMP_FILE|LD_PRELOAD)=" "$tmp/out" && rc_is 0'

	UJAIL_SECCOMP_FILE=$tmp/truncated.bin LD_PRELOAD=$shim "$p" getppid \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$v: shim with a bad program: status 127, main does not run" \
		eval 'rc_is 127 && out_empty && err_has "^libpreload-seccomp: .*truncated"'
}

# The offline commands, briefly (the unit tests cover the compiler).
test_commands() {
	"$U" compile "$tmp/deny.json" -o "$tmp/deny.bin"
	check "compile writes a program file" grep -q "^ujailbpf" "$tmp/deny.bin"
	check "sim on the program file: ERRNO" \
		eval '[ "$("$U" sim "$tmp/deny.bin" socket)" = "socket: ERRNO(1)" ]'
	check "sim on the policy: LOG_ERRNO" \
		eval '[ "$("$U" sim "$tmp/deny.json" getuid)" = "getuid: LOG_ERRNO(13)" ]'
	check "dump of the program file equals dump of the policy" \
		eval '[ "$("$U" dump "$tmp/deny.bin")" = "$("$U" dump "$tmp/deny.json")" ]'
	check "check: a valid policy" eval '"$U" check "$tmp/deny.json" >/dev/null'
	"$U" check "$tmp/bad.json" >/dev/null 2>"$tmp/err"
	rc=$?
	check "check: an invalid policy exits 1 naming the file" \
		eval 'rc_is 1 && err_has "bad.json"'
	"$U" compile "$tmp/bad.json" -o "$tmp/bad.bin" 2>/dev/null
	check "compile: an invalid policy leaves no file" \
		eval '[ ! -e "$tmp/bad.bin" ] && [ -z "$(ls "$tmp" | grep "bad.bin")" ]'
	"$U" sim -a nosucharch "$tmp/deny.json" getuid >/dev/null 2>&1
	rc=$?
	check "usage error: exit 2" rc_is 2
	run "$tmp/deny.json" -- /nonexistent/cmd
	check "run: a missing command is an error naming it" \
		eval '[ "$rc" -ne 0 ] && err_has "/nonexistent/cmd"'
}

# A dynamic program the shim cannot enter is refused, not run unfiltered.
test_nostart() {
	if [ ! -x "$probes/nostart" ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP $probes/nostart not built"
		return
	fi
	run "$tmp/deny.json" -- "$probes/nostart"
	check "no __libc_start_main: refused, nothing runs" \
		eval 'rc_is 127 && out_empty && err_has "__libc_start_main"'
}

# SIGTERM to ujail-seccomp reaches the command.
test_signal() {
	start=$(date +%s)
	"$U" run "$tmp/lenient.json" -- sleep 30 2>/dev/null &
	pid=$!
	sleep 1
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	check "SIGTERM is forwarded: the command dies of it (143)" \
		eval 'rc_is 143 && [ $(($(date +%s) - start)) -lt 20 ]'
}

check "ujail-seccomp mode names a mode" \
	eval 'case $mode in log-errno|notify) true ;; *) false ;; esac'
test_commands
test_signal
test_nostart
for v in $variants; do
	test_variant "$v"
done
if [ "$mode" = notify ]; then
	run --mode log-errno "$tmp/deny.json" -- true
	check "log-errno forced on a kernel without it: an error" \
		eval '[ "$rc" -ne 0 ] && err_has "no log_errno action"'
fi
echo "1..$tap_n"
tap_exit
