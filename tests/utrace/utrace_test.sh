#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# utrace: exact counts of a known syscall sequence (the native ABI: x86_64,
# aarch64 or mipsel; and, where an x86_64 kernel has IA32 emulation, i386),
# threads, fork/vfork/exec, exit statuses
# and signals, the policy formats and options, --coverage, and the round
# trip: a policy learnt from a run lets the same run through ujail-seccomp
# and, as root, ujail -S (for ujail --trace) with a killing default, so any
# call missing from the policy would show. POSIX sh: runs in the QEMU
# busybox guest too. Prints TAP.
#
# Environment (defaults: the build tree):
#   UTRACE          the utrace command
#   UTRACE_PROGS    directory of the test programs (tests/utrace/progs.mk)
#   UJAIL_SECCOMP   ujail-seccomp (round trips; skipped when missing)
#   UJAIL           ujail (its --trace; skipped when missing or not root)
#   BUSYBOX         busybox for the round trips (default: busybox in PATH)
#   VARIANTS        glibc glibc-static musl musl-static (the default)
#   RT_SUFFIX       -static: round trips through ujail-seccomp with static
#                   programs only (no preload shim beside it in the guest)
#   TAP_SH          tests/lib/tap.sh
#   UTRACE_BACKEND  auto (default), ebpf or ptrace: read by utrace and
#                   ujail --trace themselves; the suite runs once per backend
# shellcheck disable=SC2016,SC2086,SC2317
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "${TAP_SH:-$top/tests/lib/tap.sh}"
U=${UTRACE:-$top/build/bin/utrace}
P=${UTRACE_PROGS:-$top/build/tests/utrace}
S=${UJAIL_SECCOMP-$top/build/bin/ujail-seccomp}
J=${UJAIL-$top/build/bin/ujail}
BB=${BUSYBOX:-$(command -v busybox)}
variants=${VARIANTS:-glibc glibc-static musl musl-static}
RT_SUFFIX=${RT_SUFFIX:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# calls SUMMARY ARCH NAME: the count of the summary table (0 if absent).
calls() {
	awk -v a="$2" -v n="$3" '$2 == a && $3 == n { c = $1 } END { print c + 0 }' "$1"
}

# names POLICY: the syscall names, in file order.
names() {
	sed -n 's/^ *"\([a-z0-9_]*\)",\{0,1\}$/\1/p' "$1"
}

# expect WHAT GOT WANT: equal, or say what differs.
expect() {
	[ "$2" = "$3" ] && return 0
	echo "# $1: got '$2', want '$3'"
	return 1
}

# ordered SUMMARY POLICY: the policy's names by count (all architectures),
# then only the calls utrace always allows, if not counted.
ordered() {
	names "$2" >"$tmp/ordered.names"
	awk 'NR == FNR { if ($3 != "" && $3 !~ /^\(/) n[$3] += $1; next }
	     /^(rt_sigreturn|sigreturn|exit|exit_group)$/ && !($1 in n) { always = 1; next }
	     { if (!($1 in n)) { print "# " $1 " not counted"; bad = 1 }
	       if (always) { print "# " $1 " after the always-allowed calls"; bad = 1 }
	       if (seen && n[$1] > last) { print "# " $1 " after a rarer call"; bad = 1 }
	       last = n[$1]; seen = 1; listed++ }
	     END { exit bad || listed == 0 }' "$1" "$tmp/ordered.names"
}

# run_status EXPECTED CMD...: CMD exits with EXPECTED (its stdout is kept in $tmp/out).
run_status() {
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	expect "exit status of $*" "$?" "$want" || { sed 's/^/# /' "$tmp/err"; return 1; }
}

# The native ABI's name in utrace's summary, the call forks' child makes
# (tests/utrace/progs/forks.c: getpgid where there is no getpgrp) and the
# call vfork() makes (clone where there is no vfork syscall).
case $(uname -m) in
x86_64) abi=x86_64 pgrp=getpgrp vfork=vfork ;;
aarch64) abi=aarch64 pgrp=getpgid vfork=clone ;;
mips) abi=mipsel pgrp=getpgrp vfork=clone ;;
*) echo "Bail out! $(uname -m): which ABI name does utrace print here?"; exit 1 ;;
esac
echo "# native ABI: $abi"
# SIGUSR1's number: 10, 16 on MIPS (this shell's own death by it says).
usr1=$(( $(exec 2>/dev/null; sh -c 'kill -USR1 $$'; echo $?) - 128 ))

i386=0
"$P/known-glibc-static" -p 2>/dev/null && i386=1
if [ $i386 = 1 ]; then echo "# i386 calls on this kernel: yes"
elif [ $abi = x86_64 ]; then echo "# i386 calls on this kernel: no (no IA32 emulation)"
else echo "# i386 calls on this kernel: no (not x86)"; fi

# ---- the command line ----
check "--help prints the usage" sh -c '"$1" --help | grep -q "^Usage: utrace"' _ "$U"
for bad in "" "--bogus -- /bin/true" "--format json -- /bin/true" \
	"--default SCMP_ACT_FOO -- /bin/true" "--default SCMP_ACT_ERRNO:x -- /bin/true" \
	"--format legacy --default SCMP_ACT_TRAP -- /bin/true" "--coverage -- /bin/true" \
	"-o $tmp/no/such/dir/p.json -- /bin/true" "-o" "--backend bpf -- /bin/true"; do
	check "bad usage '$bad': status 2 and a message" sh -c \
		'"$1" $2 >/dev/null 2>"$3/e"; [ $? = 2 ] && grep -q "^utrace: " "$3/e"' _ "$U" "$bad" "$tmp"
done
check "--default names the bad action" sh -c \
	'"$1" --default SCMP_ACT_FOO -- /bin/true 2>&1 | grep -q "unknown action \"SCMP_ACT_FOO\""' _ "$U"
check "UTRACE_BACKEND=bogus: status 2, the variable named" sh -c \
	'UTRACE_BACKEND=bogus "$1" -- /bin/true 2>&1 >/dev/null | grep -q "^utrace: UTRACE_BACKEND=bogus: unknown backend"; [ $? = 0 ]' _ "$U"
check "a command not found: status 127, nothing written" sh -c \
	'"$1" -o "$2/nf.json" -- /no/such/program 2>/dev/null; [ $? = 127 ] && [ ! -e "$2/nf.json" ]' _ "$U" "$tmp"

# ---- the backends ----
# The backend this run gets: ebpf unless asked for ptrace or the counter cannot load.
backend=${UTRACE_BACKEND:-auto}
if [ "$backend" = auto ]; then
	backend=ebpf
	"$U" -o "$tmp/b.json" -- /bin/true 2>&1 | grep -q "counting with ptrace stops" && backend=ptrace
fi
echo "# backend: $backend (UTRACE_BACKEND=${UTRACE_BACKEND:-})"
# Whether root's eBPF counter loads here at all, whatever this run's backend.
ebpf_loads=0
"$U" -b ebpf -o "$tmp/b.json" -- /bin/true 2>/dev/null && ebpf_loads=1

# status_of: TracerPid and Seccomp of the traced program, as it sees them.
status_of() {
	"$U" -o "$tmp/st.json" -- "$BB" sh -c \
		'grep -E "^(TracerPid|Seccomp):" /proc/self/status' 2>/dev/null |
		awk '{ printf "%s%s", sep, $2; sep = " " }'
}
if [ -n "$BB" ] && [ "$backend" = ebpf ]; then
	check "ebpf: the program is neither ptraced nor filtered (no stop at all)" \
		expect "TracerPid Seccomp" "$(status_of)" "0 0"
elif [ -n "$BB" ]; then
	check "ptrace: the program is ptraced by utrace, under the tracing filter" sh -c \
		'set -- $1; [ "$1" -gt 0 ] && [ "$2" = 2 ]' _ "$(status_of)"
fi
# As a user without CAP_BPF: ebpf refused with the reason, auto falls back and says why.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
ebpf_refused() {
	as_nobody "$U" -b ebpf -o "$tmp/nobody/nb.json" -- /bin/echo RAN >"$tmp/nb.out" 2>"$tmp/nb.err"
	expect "status" "$?" 1 && ! grep -q RAN "$tmp/nb.out" && [ ! -e "$tmp/nobody/nb.json" ] &&
		grep -q "^utrace: the ebpf backend: .*CAP_BPF" "$tmp/nb.err" ||
		{ sed 's/^/# /' "$tmp/nb.err"; return 1; }
}
auto_falls_back() {
	as_nobody env -u UTRACE_BACKEND "$U" -c -o "$tmp/nobody/na.json" -- \
		"$P/known-glibc-static" 3 >/dev/null 2>"$tmp/na.err"
	expect "status" "$?" 3 &&
		grep -q "^utrace: counting with ptrace stops, not eBPF: .*CAP_BPF" "$tmp/na.err" &&
		expect getppid "$(calls "$tmp/na.err" "$abi" getppid)" 7 ||
		{ sed 's/^/# /' "$tmp/na.err"; return 1; }
}
# util-linux's setpriv (busybox's has no --reuid); only where root can load
# the counter, so that the missing capability is the one reason left.
if [ "$(id -u)" = 0 ] && setpriv --reuid=0 true 2>/dev/null && [ $ebpf_loads = 1 ]; then
	mkdir -p "$tmp/nobody" && chmod 1777 "$tmp/nobody" && chmod 711 "$tmp"
	check "--backend ebpf without CAP_BPF: status 1, the reason, the program not run" ebpf_refused
	check "auto without CAP_BPF: falls back to ptrace, says why, counts exact" auto_falls_back
else
	echo "# not root, no util-linux setpriv or no eBPF counter: the unprivileged backend checks skipped"
fi

# ---- exact counts ----
for v in $variants; do
	k=$P/known-$v
	iflag=; [ $i386 = 1 ] && iflag=-i
	check "known-$v: exit status 5 passed on" run_status 5 "$U" -c -o "$tmp/k.json" -- "$k" $iflag 5
	cp "$tmp/err" "$tmp/k.sum"
	check "known-$v: exactly 7 getppid calls ($abi)" \
		expect getppid "$(calls "$tmp/k.sum" "$abi" getppid)" 7
	check "known-$v: exactly 1 execve" expect execve "$(calls "$tmp/k.sum" "$abi" execve)" 1
	if [ $i386 = 1 ]; then
		check "known-$v: exactly 3 i386 getppid calls, counted apart" \
			expect i386 "$(calls "$tmp/k.sum" i386 getppid)" 3
		check "known-$v: the policy lists SCMP_ARCH_X86" grep -q '"SCMP_ARCH_X86"' "$tmp/k.json"
	else
		check "known-$v: no i386 call counted" expect i386 "$(grep -c ' i386 ' "$tmp/k.sum")" 0
	fi
	check "known-$v: policy names ordered by count" ordered "$tmp/k.sum" "$tmp/k.json"
	names "$tmp/k.json" >"$tmp/k.names"
	check "known-$v: rt_sigreturn and exit allowed though never called (as procd's utrace)" \
		sh -c "! grep -qw rt_sigreturn '$tmp/k.sum' && grep -qx rt_sigreturn '$tmp/k.names' &&
			grep -qx exit '$tmp/k.names'"
	check "known-$v: the total is the sum of the rows" sh -c \
		'awk "\$2 == \"total\" { t = \$1; next } NR > 1 { s += \$1 } END { exit t != s || t == 0 }" "$1"' \
		_ "$tmp/k.sum"

	check "threads-$v: 8 threads x 250 getppid = 2000 exactly" \
		run_status 0 "$U" -c -o "$tmp/t.json" -- "$P/threads-$v" 8
	check "threads-$v: count" expect getppid "$(calls "$tmp/err" "$abi" getppid)" 2000
	check "threads-$v: getppid first in the policy" expect first "$(names "$tmp/t.json" | head -n 1)" getppid

	check "forks-$v: status 34 (children's 3 and 4 seen)" run_status 34 "$U" -c -o "$tmp/f.json" -- "$P/forks-$v"
	cp "$tmp/err" "$tmp/f.sum"
	check "forks-$v: fork child's 11 $pgrp" expect "$pgrp" "$(calls "$tmp/f.sum" "$abi" "$pgrp")" 11
	check "forks-$v: vfork+exec child's 13 getsid" expect getsid "$(calls "$tmp/f.sum" "$abi" getsid)" 13
	check "forks-$v: parent's 7 getppid" expect getppid "$(calls "$tmp/f.sum" "$abi" getppid)" 7
	check "forks-$v: 2 execve (start, re-exec)" expect execve "$(calls "$tmp/f.sum" "$abi" execve)" 2

	check "sigwait-$v: killed by SIGUSR1 -> utrace dies by it ($((128 + usr1)))" \
		run_status $((128 + usr1)) "$U" -o "$tmp/s.json" -- "$P/sigwait-$v" kill "$usr1"
	check "sigwait-$v: the policy is written all the same" grep -Eq '"(kill|tkill|tgkill)"' "$tmp/s.json"
done

# waiting_under_utrace POLICY: sigwait-glibc waiting for SIGTERM under
# utrace, in the background, once it is ready: $upid is utrace, $cpid the program.
waiting_under_utrace() {
	: >"$tmp/ready"
	"$U" -o "$1" -- "$P/sigwait-glibc" term >"$tmp/ready" 2>/dev/null &
	upid=$!
	n=0
	while ! grep -q ready "$tmp/ready" && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	cpid=$(awk '{ print $2 }' "$tmp/ready")
}

# SIGTERM to utrace reaches the program, which exits 42.
sigterm_forwarded() {
	waiting_under_utrace "$tmp/w.json"
	kill -TERM $upid
	wait $upid
	expect "status after SIGTERM" "$?" 42 && grep -q rt_sigaction "$tmp/w.json"
}
check "SIGTERM sent to utrace goes to the program (exits 42), policy written" sigterm_forwarded

# alive PID: the process exists and is not a zombie.
alive() {
	[ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}
# utrace SIGKILLed: the program it runs does not outlive it.
dies_with_utrace() {
	waiting_under_utrace "$tmp/k2.json"
	alive "$cpid" || { echo "# the program did not start"; return 1; }
	kill -KILL $upid
	wait $upid 2>/dev/null
	n=0
	while alive "$cpid" && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	! alive "$cpid" || { echo "# pid $cpid still runs"; kill -KILL "$cpid"; return 1; }
}
check "utrace SIGKILLed: the program gets SIGKILL too" dies_with_utrace
check "SIGCHLD ignored by the caller: the status still comes back" sh -c \
	'trap "" CHLD; "$1" -o "$2/i.json" -- "$3" 9 2>/dev/null; [ $? = 9 ]' _ "$U" "$tmp" "$P/known-glibc"

# The tracer under valgrind (host only: VALGRIND=valgrind), with the
# ptrace backend: valgrind 3.19 models bpf(2) only in part (it reports the
# unused parts of its attribute union and fails commands it does not know),
# so the ebpf backend is checked under ASan and UBSan instead. The child
# installs the filter with prctl(), as valgrind lacks seccomp(2); what
# valgrind itself calls before the exec is counted too, the program's
# own calls are exact all the same.
under_valgrind() {
	$VALGRIND -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$U" -b ptrace -c -o "$tmp/vg.json" -- "$P/forks-glibc" >/dev/null 2>"$tmp/vg.err"
	expect "status under valgrind" "$?" 34 || { sed 's/^/# /' "$tmp/vg.err" | head -n 40; return 1; }
	expect "$pgrp under valgrind" "$(calls "$tmp/vg.err" "$abi" "$pgrp")" 11 &&
		expect "getsid under valgrind" "$(calls "$tmp/vg.err" "$abi" getsid)" 13
}
if [ -n "${VALGRIND:-}" ]; then
	check "valgrind: utrace follows forks-glibc without a memory error, counts exact" under_valgrind
	check "valgrind: a bad option, no memory error" sh -c \
		'$1 -q --error-exitcode=99 --leak-check=full "$2" --format x -- /bin/true 2>/dev/null; [ $? = 2 ]' \
		_ "$VALGRIND" "$U"
fi

# ---- formats and options ----
check "default file /tmp/NAME.PID.json" sh -c \
	'"$1" -- "$2" 2>"$3/e"; f=$(sed -n "s/^utrace: \(\/tmp\/known-glibc\.[0-9]*\.json\): policy.*/\1/p" "$3/e");
	 [ -n "$f" ] && [ -f "$f" ] && rm -f "$f"' _ "$U" "$P/known-glibc" "$tmp"
check "--format legacy: whitelist and policy 0" sh -c \
	'"$1" --format legacy -o "$2/l.json" -- "$3" 2>/dev/null && grep -q "\"whitelist\"" "$2/l.json" &&
	 grep -q "\"policy\":0" "$2/l.json"' _ "$U" "$tmp" "$P/known-glibc"
check "--format legacy --default SCMP_ACT_ERRNO:13: policy 13" sh -c \
	'"$1" -f legacy -d SCMP_ACT_ERRNO:13 -o "$2/l.json" -- "$3" 2>/dev/null &&
	 grep -q "\"policy\":13" "$2/l.json"' _ "$U" "$tmp" "$P/known-glibc"
check "--default SCMP_ACT_LOG_ERRNO:13: defaultAction and defaultErrnoRet" sh -c \
	'"$1" -d SCMP_ACT_LOG_ERRNO:13 -o "$2/e.json" -- "$3" 2>/dev/null &&
	 grep -q "\"defaultAction\":\"SCMP_ACT_LOG_ERRNO\"" "$2/e.json" &&
	 grep -q "\"defaultErrnoRet\":13" "$2/e.json"' _ "$U" "$tmp" "$P/known-glibc"
if [ $i386 = 1 ]; then
	check "--format legacy leaves the i386 calls out, with a warning" sh -c \
		'"$1" -f legacy -o "$2/l.json" -- "$3" -i 2>&1 | grep -q "getppid called 3 times on i386"' \
		_ "$U" "$tmp" "$P/known-glibc"
fi
if [ -x "$S" ]; then
	check "the OCI and legacy policies load (ujail-seccomp check)" sh -c \
		'"$1" check "$2/k.json" >/dev/null && "$1" check "$2/l.json" >/dev/null' _ "$S" "$tmp"
fi

# --coverage: a second run of the same program makes no stop; new calls are added.
coverage() {
	"$U" -o "$tmp/c.json" -- "$P/known-glibc" 2>/dev/null || return 1
	names "$tmp/c.json" >"$tmp/c1"
	"$U" --coverage -c -o "$tmp/c.json" -- "$P/known-glibc" 2>"$tmp/c.sum" || return 1
	expect "calls stopped on the second run" "$(awk '$2 == "total" { print $1 }' "$tmp/c.sum")" 0 ||
		return 1
	names "$tmp/c.json" >"$tmp/c2"
	cmp -s "$tmp/c1" "$tmp/c2" || { echo "# the names changed"; return 1; }
	"$U" --coverage -c -o "$tmp/c.json" -- "$P/forks-glibc" 2>"$tmp/c.sum"
	expect "new calls of forks" "$(calls "$tmp/c.sum" "$abi" "$pgrp")" 11 || return 1
	expect "getppid, already known, not stopped" "$(calls "$tmp/c.sum" "$abi" getppid)" 0 || return 1
	names "$tmp/c.json" >"$tmp/c3"
	head -n "$(wc -l <"$tmp/c1")" "$tmp/c3" | cmp -s - "$tmp/c1" &&
		grep -qx getsid "$tmp/c3" && grep -qx "$vfork" "$tmp/c3"
}
check "--coverage: known calls run free, new ones are appended" coverage
check "--coverage refuses a policy with other rules" sh -c \
	'printf "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\"}]}" >"$2/o.json";
	 "$1" --coverage -o "$2/o.json" -- /bin/true 2>&1 | grep -q "not a plain SCMP_ACT_ALLOW"' _ "$U" "$tmp"

# ---- round trips: what was learnt lets the same run through ----
# round_trip NAME CMD...: learn with utrace, then run under ujail-seccomp
# with a killing default; same status and output.
round_trip() {
	name=$1; shift
	"$@" >"$tmp/rt.want" 2>/dev/null
	want=$?
	"$U" -o "$tmp/rt.json" -- "$@" >/dev/null 2>"$tmp/rt.err" || [ $want != 0 ] ||
		{ sed 's/^/# /' "$tmp/rt.err"; return 1; }
	"$S" run -n "$name" "$tmp/rt.json" -- "$@" >"$tmp/rt.got" 2>"$tmp/rt.err"
	expect "$name under its policy" "$?" "$want" || { sed 's/^/# /' "$tmp/rt.err"; return 1; }
	cmp -s "$tmp/rt.want" "$tmp/rt.got" || { echo "# $name: other output"; return 1; }
	! grep -q denied "$tmp/rt.err"
}
if [ -x "$S" ] && [ -n "$BB" ]; then
	mkdir -p "$tmp/tree/a/b" && echo hello >"$tmp/tree/a/b/f"
	check "round trip: busybox echo" round_trip echo "$BB" echo hello
	check "round trip: busybox ls -lR" round_trip ls "$BB" ls -lR "$tmp/tree"
	check "round trip: busybox sh pipeline (forks, execs)" round_trip sh "$BB" sh -c \
		"$BB cat $tmp/tree/a/b/f | $BB wc -c; $BB find $tmp/tree | $BB sort"
	check "round trip: busybox sha256sum" round_trip sha "$BB" sha256sum "$tmp/tree/a/b/f"
	check "round trip: threads-musl$RT_SUFFIX" round_trip threads "$P/threads-musl$RT_SUFFIX" 4
	check "round trip: forks-glibc$RT_SUFFIX (status 34)" round_trip forks "$P/forks-glibc$RT_SUFFIX"
	if [ $i386 = 1 ]; then
		check "round trip: known-glibc-static -i (i386 calls allowed by SCMP_ARCH_X86)" \
			round_trip known "$P/known-glibc-static" -i
	fi
else
	echo "# no ujail-seccomp or busybox: round trips skipped"
fi

# ---- ujail --trace, then ujail -S ----
# jail_trip NAME CMD...: the same with ujail --trace and ujail -S ($JOPTS:
# more ujail options).
JOPTS=
jail_trip() {
	name=$1; shift
	"$J" $JOPTS -n "$name" -- "$@" >"$tmp/jt.want" 2>/dev/null
	want=$?
	rm -f "$tmp/jt.json"
	"$J" $JOPTS --trace "$tmp/jt.json" -n "$name" -- "$@" >"$tmp/jt.got1" 2>"$tmp/jt.err"
	expect "$name traced" "$?" "$want" || { sed 's/^/# /' "$tmp/jt.err"; return 1; }
	"$J" $JOPTS -S "$tmp/jt.json" -n "$name" -- "$@" >"$tmp/jt.got" 2>"$tmp/jt.err"
	expect "$name under its policy" "$?" "$want" || { sed 's/^/# /' "$tmp/jt.err"; return 1; }
	cmp -s "$tmp/jt.want" "$tmp/jt.got" && cmp -s "$tmp/jt.want" "$tmp/jt.got1" ||
		{ echo "# $name: other output"; return 1; }
	! grep -q denied "$tmp/jt.err"
}

# A server answering one request, traced, then under its policy.
httpd_once() {	# httpd_once MODE(--trace FILE | -S FILE)
	port=$(( 20000 + $$ % 20000 ))
	"$J" "$1" "$2" -n httpd -r "$tmp/www" -- "$BB" httpd -f -p "127.0.0.1:$port" \
		-h "$tmp/www" >/dev/null 2>"$tmp/h.err" &
	jpid=$!
	n=0
	until "$BB" wget -q -O "$tmp/h.got" "http://127.0.0.1:$port/" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 100 ] || break; sleep 0.1
	done
	kill -TERM $jpid
	wait $jpid
	st=$?
	grep -q "one request" "$tmp/h.got" && expect "httpd's end by SIGTERM" "$st" 143 ||
		{ sed 's/^/# /' "$tmp/h.err"; return 1; }
}

# trace_backend_used WORD SECCOMP: under ujail --trace --trace-backend WORD
# (UTRACE_BACKEND set to nonsense, which the option overrides) the service
# sees seccomp mode SECCOMP in /proc/self/status (--no-baseline: no filter
# but the tracer's).
trace_backend_used() {
	got=$(UTRACE_BACKEND=bogus "$J" --trace "$tmp/tb.json" --trace-backend "$1" -p -n tb --no-baseline -- \
		"$BB" grep Seccomp: /proc/self/status 2>"$tmp/tb.err" | awk '{ print $2 }')
	expect "Seccomp with --trace-backend $1" "$got" "$2" || { sed 's/^/# /' "$tmp/tb.err"; return 1; }
}

if [ -x "$J" ] && [ "$(id -u)" = 0 ] && [ -n "$BB" ]; then
	check "ujail --trace: busybox echo, then ujail -S" jail_trip echo "$BB" echo hi
	check "ujail --trace: busybox sh with forks, then ujail -S" jail_trip sh "$BB" sh -c \
		"echo a | $BB tr a b; $BB ls / >/dev/null; exit 3"
	check "ujail --trace: known-musl (dynamic), then ujail -S" jail_trip known "$P/known-musl" 6
	check "ujail --trace: forks-glibc-static, then ujail -S" jail_trip forks "$P/forks-glibc-static"
	JOPTS="-f -p"
	check "ujail --trace -f -p: the service begins tracing from its user and pid namespace" \
		jail_trip sh "$BB" sh -c "$BB ls /proc >/dev/null; exit 4"
	JOPTS=
	check "ujail --trace-backend ptrace: the service under the tracing filter, whatever UTRACE_BACKEND says" \
		trace_backend_used ptrace 2
	if [ $ebpf_loads = 1 ]; then
		check "ujail --trace-backend ebpf: the service without a filter, whatever UTRACE_BACKEND says" \
			trace_backend_used ebpf 0
	fi
	check "ujail --trace-backend without --trace: status 2, said" sh -c \
		'"$1" --trace-backend ptrace -- /bin/true 2>&1 | grep -q "needs --trace FILE"; [ $? = 0 ]' _ "$J"
	check "ujail --trace-backend bogus: refused, the words it takes named" sh -c \
		'"$1" --trace "$2/x.json" --trace-backend bogus -- /bin/true 2>"$2/tb.err"
		 [ $? = 2 ] && grep -q "must be auto, ebpf or ptrace" "$2/tb.err" && [ ! -e "$2/x.json" ]' _ "$J" "$tmp"
	check "ujail with UTRACE_BACKEND=bogus: refused before the jail starts" sh -c \
		'out=$(UTRACE_BACKEND=bogus "$1" --trace "$2/x.json" -- /bin/echo RAN 2>&1)
		 [ $? = 1 ] && echo "$out" | grep -q "UTRACE_BACKEND=bogus" && ! echo "$out" | grep -q RAN' \
		_ "$J" "$tmp"
	mkdir -p "$tmp/www" && echo "one request" >"$tmp/www/index.html"
	check "ujail --trace: busybox httpd answers a request, stopped by SIGTERM" \
		httpd_once --trace "$tmp/httpd.json"
	check "ujail --trace: the policy has accept and the start-up, not ujail's set-up" sh -c \
		'grep -Eq "\"accept4?\"" "$1" && grep -q "\"execve\"" "$1" &&
		 ! grep -Eq "\"(mount|pivot_root|capset|setsid|setgroups)\"" "$1"' _ "$tmp/httpd.json"
	check "ujail -S with the learnt policy: httpd answers, no denial" httpd_once -S "$tmp/httpd.json"
	check "ujail --trace: a bad FILE directory is refused before the jail starts" sh -c \
		'"$1" --trace /no/such/dir/p.json -- /bin/true 2>&1 | grep -q "directory /no/such/dir"' _ "$J"
else
	echo "# ujail --trace needs root and ujail: skipped"
fi
echo "1..$tap_n"
tap_exit
