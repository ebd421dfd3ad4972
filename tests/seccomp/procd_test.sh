#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# procd's paths without a jail, as procd takes them (service/instance.c):
#   SECCOMP_FILE=POLICY /sbin/seccomp-trace CMD [ARG]...   seccomp, no jail
#   /sbin/utrace CMD [ARG]...                               trace
# and the shim preloaded with SECCOMP_FILE alone (procd's libpreload-seccomp
# contract): CMD runs filtered, with its denials logged as the mode in
# force logs them, or does not run at all. POSIX sh. Prints TAP.
#
# Environment (defaults: the build tree; tests/build/install_test.sh points
# them at installed files):
#   SECCOMP_TRACE   seccomp-trace (a link to ujail-seccomp)
#   UJAIL_SECCOMP   ujail-seccomp (its mode, dump and check)
#   UTRACE          utrace
#   SHIM_GLIBC, SHIM_MUSL   the preload shims
#   SYSPROBE_DIR    directory of sysprobe-{glibc,glibc-static,musl,musl-static}
#   EXPECT_AUDIT    1 (default): the kernel prints the audit records of
#                   errno-log mode (no auditd); 0 skips those checks
#   TAP_SH          tests/lib/tap.sh
# shellcheck disable=SC2016,SC2317
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "${TAP_SH:-$top/tests/lib/tap.sh}"
ST=${SECCOMP_TRACE:-$top/build/bin/seccomp-trace}
U=${UJAIL_SECCOMP:-$top/build/bin/ujail-seccomp}
UT=${UTRACE:-$top/build/bin/utrace}
shim_glibc=${SHIM_GLIBC:-$top/build/lib/libpreload-seccomp.so}
shim_musl=${SHIM_MUSL:-$top/build/lib/musl/libpreload-seccomp.so}
probes=${SYSPROBE_DIR:-$top/build/tests/seccomp}
tmp=$(mktemp -d /tmp/procd-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp" /tmp/pt-utrace-$$.*.json' EXIT

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (the kernel's log)"
	exit 0
fi
for f in "$ST" "$U" "$UT" "$shim_glibc" "$shim_musl"; do
	[ -e "$f" ] || { echo "Bail out! $f missing"; exit 1; }
done

cat >"$tmp/deny.json" <<'EOF'
{
  "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [
    { "names": ["getuid"], "action": "SCMP_ACT_LOG_ERRNO", "errnoRet": 13 },
    { "names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1 }
  ]
}
EOF
echo '{ "defaultAction": "SCMP_ACT_ALLOW", "syscalls": [ { "names": ["getuid"], "action": "SCMP_ACT_NOPE" } ] }' \
	>"$tmp/bad.json"
# Copies with names of this run: the kernel's lines name them.
for v in glibc glibc-static musl musl-static; do
	cp "$probes/sysprobe-$v" "$tmp/pt$$-$v" || { echo "Bail out! sysprobe-$v missing"; exit 1; }
done
mode=$("$U" mode | cut -d: -f1)
echo "# the mode here: $mode"
getuid_nr=$("$U" dump "$tmp/deny.json" | sed -n 's/.*#0x\([0-9a-f]*\) (getuid).*/\1/p' | head -n 1)
getuid_nr=$(printf '%d' "0x$getuid_nr")

# run CMD...: output in $tmp/out, $tmp/err, status in $rc.
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
out_has() { grep -qxF "$1" "$tmp/out"; }
out_empty() { [ ! -s "$tmp/out" ]; }
err_has() { grep -qE "$1" "$tmp/err"; }
rc_is() { [ "$rc" -eq "$1" ]; }
show() { sed 's/^/# /' "$tmp/out" "$tmp/err"; }

# kernel_line REGEX RERUN...: in the kernel's log; its lines are
# rate-limited, so once more after a pause.
kernel_line() {
	re=$1; shift
	dmesg | grep -qE "$re" && return
	sleep 6
	"$@" >/dev/null 2>&1
	dmesg | grep -qE "$re"
}

# logged V WHO RERUN...: the getuid denial of probe V logged as mode WHO logs it.
logged() {
	v=$1 who=$2; shift 2
	comm=$(printf '%.15s' "pt$$-$v")
	case $who in
	notify) err_has "^jail pt$$-$v: $comm\[[0-9]+\] denied syscall getuid \($getuid_nr\)\$" ;;
	log-errno) kernel_line "seccomp: log_errno comm=\"$comm\" .*name=getuid errno=13" "$@" ;;
	errno-log)
		[ "${EXPECT_AUDIT:-1}" = 1 ] || return 0
		kernel_line "type=1326 .*exe=\"$tmp/pt$$-$v\".* syscall=$getuid_nr " "$@" ;;
	esac
}

# ---- seccomp-trace CMD, SECCOMP_FILE in the environment ----
seccomp_trace_variant() {
	v=$1 p=$tmp/pt$$-$1
	run env SECCOMP_FILE="$tmp/deny.json" "$ST" "$p" getppid socket getuid env
	check "seccomp-trace $v: allowed call works" out_has "getppid: ok"
	check "seccomp-trace $v: ERRNO rule: its errno" out_has "socket: errno 1 (Operation not permitted)"
	check "seccomp-trace $v: LOG_ERRNO rule: its errno" out_has "getuid: errno 13 (Permission denied)"
	check "seccomp-trace $v: CMD's status" rc_is 0
	check "seccomp-trace $v: the denial is logged ($mode)" \
		logged "$v" "$mode" env SECCOMP_FILE="$tmp/deny.json" "$ST" "$p" getuid
	check "seccomp-trace $v: SECCOMP_FILE, LD_PRELOAD gone inside" \
		eval '! grep -qE "^env: (SECCOMP_FILE|LD_PRELOAD|UJAIL_SECCOMP_[A-Z_]*)=" "$tmp/out"'
	[ "$rc" -eq 0 ] || show
}

for v in glibc glibc-static musl musl-static; do
	seccomp_trace_variant "$v"
done

run env SECCOMP_FILE="$tmp/deny.json" "$ST" --help
check "seccomp-trace --help: its usage" eval 'rc_is 0 && grep -q "^Usage: seccomp-trace" "$tmp/out"'
# procd sets LD_PRELOAD=/lib/libsetlbf.so when it reads the output.
other=$(ldd "$probes/sysprobe-glibc" | sed -n 's/.*=> \(\/[^ ]*libc\.so[^ ]*\).*/\1/p')
run env LD_PRELOAD="$other" SECCOMP_FILE="$tmp/deny.json" "$ST" "$tmp/pt$$-glibc" getuid
check "seccomp-trace with another LD_PRELOAD: still filtered" \
	out_has "getuid: errno 13 (Permission denied)"
run env -u SECCOMP_FILE "$ST" "$tmp/pt$$-glibc" getppid
check "seccomp-trace without SECCOMP_FILE: CMD does not run, 127" \
	eval 'rc_is 127 && out_empty && err_has "^seccomp-trace: .*no policy: SECCOMP_FILE is not set"'
run env SECCOMP_FILE= "$ST" "$tmp/pt$$-glibc" getppid
check "seccomp-trace with an empty SECCOMP_FILE: CMD does not run, 127" \
	eval 'rc_is 127 && out_empty && err_has "SECCOMP_FILE is empty"'
run env SECCOMP_FILE="$tmp/bad.json" "$ST" "$tmp/pt$$-glibc" getppid
check "seccomp-trace with a bad policy: CMD does not run, the file named" \
	eval '[ "$rc" -ne 0 ] && out_empty && err_has "^seccomp-trace: .*bad.json"'
run env SECCOMP_FILE="$tmp/missing.json" "$ST" "$tmp/pt$$-glibc" getppid
check "seccomp-trace with a missing policy: CMD does not run" \
	eval '[ "$rc" -ne 0 ] && out_empty && err_has "missing.json"'
run env -u SECCOMP_FILE "$ST" -f "$tmp/deny.json" -- sh -c 'exit 3'
check "seccomp-trace -f POLICY: CMD's exit status" rc_is 3

# ---- the shim with SECCOMP_FILE alone (no runner, no supervisor) ----
shim_mode=$(case $mode in log-errno) echo log-errno ;; *) echo errno-log ;; esac)
shim_variant() {
	v=$1 shim=$2 p=$tmp/pt$$-$1
	run env SECCOMP_FILE="$tmp/deny.json" LD_PRELOAD="$shim" "$p" getppid socket getuid env
	check "shim $v, SECCOMP_FILE policy: allowed call works" out_has "getppid: ok"
	check "shim $v, SECCOMP_FILE policy: ERRNO rule: its errno" \
		out_has "socket: errno 1 (Operation not permitted)"
	check "shim $v, SECCOMP_FILE policy: LOG_ERRNO rule: its errno" \
		out_has "getuid: errno 13 (Permission denied)"
	check "shim $v: the denial is logged ($shim_mode)" \
		logged "$v" "$shim_mode" env SECCOMP_FILE="$tmp/deny.json" LD_PRELOAD="$shim" "$p" getuid
	check "shim $v: SECCOMP_FILE and LD_PRELOAD gone inside" \
		eval 'rc_is 0 && ! grep -qE "^env: (SECCOMP_FILE|LD_PRELOAD)=" "$tmp/out"'
	[ "$rc" -eq 0 ] || show

	run env SECCOMP_FILE="$tmp/deny.bin" LD_PRELOAD="$shim" "$p" getuid
	check "shim $v, SECCOMP_FILE compiled program: filtered" \
		out_has "getuid: errno 13 (Permission denied)"
	run env SECCOMP_FILE="$tmp/missing.json" LD_PRELOAD="$shim" "$p" getppid
	check "shim $v, SECCOMP_FILE missing: main does not run, 127" \
		eval 'rc_is 127 && out_empty && err_has "^libpreload-seccomp: SECCOMP_FILE=.*missing.json: No such file"'
	run env SECCOMP_FILE="$tmp/bad.json" LD_PRELOAD="$shim" "$p" getppid
	check "shim $v, SECCOMP_FILE bad policy: main does not run, 127, both messages" \
		eval 'rc_is 127 && out_empty && err_has "^ujail-seccomp: .*bad.json" &&
		      err_has "^libpreload-seccomp: SECCOMP_FILE=.*bad.json: not compiled"'
	run env SECCOMP_FILE= LD_PRELOAD="$shim" "$p" getppid
	check "shim $v, SECCOMP_FILE empty: main does not run, 127" \
		eval 'rc_is 127 && out_empty && err_has "SECCOMP_FILE is empty"'
	run env SECCOMP_FILE="$tmp/deny.json" UJAIL_SECCOMP_FILE="$tmp/deny.bin" LD_PRELOAD="$shim" \
		"$p" getppid
	check "shim $v, SECCOMP_FILE and UJAIL_SECCOMP_FILE: refused, 127" \
		eval 'rc_is 127 && out_empty && err_has "both set"'
	# SIGCHLD ignored by the parent (inherited): the compiler is not
	# reaped before the shim has its status. (dash's trap does not leave
	# it ignored; coreutils' env does.)
	if env --ignore-signal=CHLD true 2>/dev/null; then
		run env --ignore-signal=CHLD SECCOMP_FILE="$tmp/deny.json" LD_PRELOAD="$shim" "$p" getuid
		check "shim $v, SIGCHLD ignored: compiled and filtered all the same" \
			eval 'rc_is 0 && out_has "getuid: errno 13 (Permission denied)"'
	else
		tap_n=$((tap_n + 1))
		echo "ok $tap_n # SKIP env --ignore-signal missing"
	fi
}

"$U" compile "$tmp/deny.json" -o "$tmp/deny.bin"
shim_variant glibc "$shim_glibc"
shim_variant musl "$shim_musl"

# ---- utrace CMD, as procd runs it ----
cp "$probes/sysprobe-glibc" "$tmp/pt-utrace-$$"
run "$UT" "$tmp/pt-utrace-$$" getppid
learnt=$(sed -n "s|^utrace: \(/tmp/pt-utrace-$$\.[0-9]*\.json\): policy.*|\1|p" "$tmp/err")
check "utrace CMD ARG: CMD runs, its status" eval 'rc_is 0 && out_has "getppid: ok"'
check "utrace CMD ARG: the policy in /tmp/NAME.PID.json" eval '[ -n "$learnt" ] && [ -s "$learnt" ]'
check "utrace CMD ARG: the policy is valid and lists the call" \
	eval '"$U" check "$learnt" >/dev/null && grep -q "\"getppid\"" "$learnt"'
run env SECCOMP_FILE="$learnt" "$ST" "$tmp/pt-utrace-$$" getppid
check "utrace's policy through seccomp-trace: the same run passes" \
	eval 'rc_is 0 && out_has "getppid: ok"'

tap_exit
