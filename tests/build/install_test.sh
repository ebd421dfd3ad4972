#!/bin/bash
# The single-quoted scripts expand their arguments when they run; the
# helpers are called through check:
# shellcheck disable=SC2016,SC2317
# SPDX-License-Identifier: GPL-2.0
# make install, both layouts, into temporary directories: the files and
# links, dynamically linked and stripped programs, the shims' compiler path,
# the installed ujail running jails with the keeper and shim it finds
# beside itself, and tests/seccomp/procd_test.sh (seccomp-trace, the shim
# with SECCOMP_FILE, utrace CMD) against the installed files. As root (the
# jails; procd's layout is tried in a mount namespace where /sbin is the
# installed one). Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
probes=$top/build/tests/seccomp

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi
tmp=$(mktemp -d /tmp/install-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/deny.json" <<'EOF'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["getuid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13 } ] }
EOF

# install NAME MAKE-ARGS...: make install, its output in $tmp/NAME.log.
install() {
	local name=$1; shift
	make -s -C "$top" install "$@" >"$tmp/$name.log" 2>&1 && return
	tail -n 20 "$tmp/$name.log" | sed 's/^/# /'
	return 1
}

# files_are DIR EXPECTED...: what DIR holds, "TYPE PATH" (f file, l link).
files_are() {
	local dir=$1 got want; shift
	got=$(cd "$dir" && find . ! -type d -printf '%y %P\n' | sort)
	want=$(printf '%s\n' "$@" | sort)
	[ "$got" = "$want" ] && return
	diff <(echo "$want") <(echo "$got") | sed 's/^/# /'
	return 1
}

# Dynamically linked (an ELF interpreter), no symbol table.
dynamic() { readelf -lW "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }
stripped() { readelf -SW "$1" >"$tmp/sections" 2>&1 && ! grep -qE '\.(symtab|debug_info)' "$tmp/sections"; }
links_to() { [ -L "$1" ] && [ "$(readlink "$1")" = "$2" ]; }

# programs BINDIR LIBDIR LAYOUT: the checks on installed binaries.
programs() {
	local bin=$1 lib=$2 layout=$3 p
	for p in ujail ujail-seccomp utrace; do
		check "$layout: $p is dynamically linked" dynamic "$bin/$p"
		check "$layout: $p is stripped" stripped "$bin/$p"
	done
	check "$layout: seccomp-trace is a link to ujail-seccomp" links_to "$bin/seccomp-trace" ujail-seccomp
	for p in "$lib/libpreload-seccomp.so" "$lib/musl/libpreload-seccomp.so" "$lib/ujail/ujail-keeper" \
		"$lib/ujail/libujail-seccomp.so.0" "$lib/ujail/utrace-ebpf.so" "$lib/ujail/ujail-veth.so"; do
		check "$layout: ${p#"$lib"/} is stripped" stripped "$p"
	done
	# The optional parts' libraries are the plugins' alone.
	check "$layout: ujail needs neither libnl nor libbpf (plugins)" \
		eval '! readelf -dW "$bin/ujail" | grep -qE "libnl|libbpf|libelf|libz\."'
	# Capability names come from the library's kernel tables, as procd's.
	check "$layout: ujail needs no libcap (one library less to load a start)" \
		eval '! readelf -dW "$bin/ujail" | grep -qF "libcap"'
	check "$layout: utrace needs no libbpf (the utrace-ebpf.so plugin)" \
		eval '! readelf -dW "$bin/utrace" | grep -qE "libbpf|libelf|libz\."'
	check "$layout: the programs find libujail-seccomp.so.0 beside them" \
		eval 'readelf -dW "$bin/ujail-seccomp" | grep -qF "[\$ORIGIN/../lib/ujail]"'
}

# plugins BINDIR LIBDIR LAYOUT: the plugins load and work; a missing one is
# an error naming its path.
plugins() {
	local bin=$1 lib=$2 layout=$3 so=$2/ujail/utrace-ebpf.so
	# Where the build tree's utrace counts with eBPF (root, BTF), this one does too.
	if "$top/build/bin/utrace" --backend ebpf -o "$tmp/p.json" /bin/true 2>/dev/null; then
		check "$layout: utrace --backend ebpf loads utrace-ebpf.so and counts" \
			eval '"$bin/utrace" --backend ebpf -o "$tmp/p.json" /bin/true 2>"$tmp/err" &&
			grep -q "\"execve\"" "$tmp/p.json"'
	else
		skip 1 "no eBPF counting on this host (the build tree's utrace says so too)"
	fi
	env -u UJAIL_KEEPER "$bin/ujail" -n "inst$$" --veth "ui$$:eth0" -r /bin/true -- /bin/true \
		2>"$tmp/err"
	local rc=$?
	if [ "$rc" = 0 ] || ! grep -q "create the pair: Operation not supported" "$tmp/err"; then
		check "$layout: --veth loads ujail-veth.so, the jail runs" [ "$rc" = 0 ]
	else
		skip 1 "the kernel has no veth (CONFIG_VETH, or its module not loaded)"
	fi
	mv "$so" "$so.away"
	"$bin/utrace" --backend ebpf -o "$tmp/p.json" /bin/true 2>"$tmp/err"
	rc=$?
	mv "$so.away" "$so"
	check "$layout: without utrace-ebpf.so, --backend ebpf fails naming it" \
		eval '[ "$rc" != 0 ] && grep -qF "ujail/utrace-ebpf.so" "$tmp/err"'
	so=$lib/ujail/ujail-veth.so
	mv "$so" "$so.away"
	env -u UJAIL_KEEPER "$bin/ujail" -n "inst$$" --veth "uj$$:eth0" -r /bin/true -- /bin/true \
		2>"$tmp/err"
	rc=$?
	mv "$so.away" "$so"
	check "$layout: without ujail-veth.so, --veth fails naming it" \
		eval '[ "$rc" != 0 ] && grep -qF "ujail/ujail-veth.so" "$tmp/err"'
}

# jails UJAIL LAYOUT: the installed ujail runs jails with what it finds beside it.
jails() {
	local u=$1 layout=$2 keeper
	keeper=$(dirname "$u")/../lib/ujail/ujail-keeper
	check "$layout: the installed ujail runs a jail (its keeper beside it)" \
		env -u UJAIL_KEEPER -u UJAIL_PRELOAD "$u" -n "inst$$" -r /bin/true -- /bin/true
	env -u UJAIL_KEEPER -u UJAIL_PRELOAD "$u" -n "inst$$" -S "$tmp/deny.json" -- \
		"$probes/sysprobe-glibc" getuid >"$tmp/out" 2>"$tmp/err"
	check "$layout: ujail -S, dynamic program: the installed shim filters" \
		grep -qxF "getuid: errno 13 (Permission denied)" "$tmp/out"
	mv "$keeper" "$keeper.away"
	env -u UJAIL_KEEPER "$u" -n "inst$$" -r /bin/true -- /bin/true 2>"$tmp/err"
	check "$layout: without its keeper, ujail says which path it looked at" \
		grep -qF "$(dirname "$u")/../lib/ujail/ujail-keeper" "$tmp/err"
	mv "$keeper.away" "$keeper"
}

# procd_suite LAYOUT BINDIR LIBDIR [WRAPPER...]: procd_test.sh on these files.
procd_suite() {
	local layout=$1 bin=$2 lib=$3; shift 3
	"$@" env SECCOMP_TRACE="$bin/seccomp-trace" UJAIL_SECCOMP="$bin/ujail-seccomp" \
		UTRACE="$bin/utrace" SHIM_GLIBC="$lib/libpreload-seccomp.so" \
		SHIM_MUSL="$lib/musl/libpreload-seccomp.so" \
		"$top/tests/seccomp/procd_test.sh" >"$tmp/procd.tap" 2>&1
	local rc=$?
	grep -E '^(not ok|Bail out)' "$tmp/procd.tap" | sed 's/^/# /'
	[ "$rc" = 0 ] && grep -q '^ok ' "$tmp/procd.tap" && ! grep -qE '^(not ok|Bail out)' "$tmp/procd.tap"
}

# ---- LAYOUT=procd, DESTDIR ----
d=$tmp/procd
check "make install DESTDIR=... LAYOUT=procd" install procd DESTDIR="$d" LAYOUT=procd
check "procd layout: the files procd runs, the keeper and the shims under /lib" files_are "$d" \
	"f sbin/ujail" "f sbin/ujail-seccomp" "l sbin/seccomp-trace" "f sbin/utrace" \
	"f lib/libpreload-seccomp.so" "f lib/musl/libpreload-seccomp.so" "f lib/ujail/ujail-keeper" \
	"f lib/ujail/libujail-seccomp.so.0" "f lib/ujail/utrace-ebpf.so" "f lib/ujail/ujail-veth.so"
programs "$d/sbin" "$d/lib" procd
plugins "$d/sbin" "$d/lib" procd
check "procd layout: the shims run /sbin/ujail-seccomp for SECCOMP_FILE" \
	grep -qaF /sbin/ujail-seccomp "$d/lib/libpreload-seccomp.so"
jails "$d/sbin/ujail" procd
# The shims' /sbin/ujail-seccomp is the installed one in this namespace
# (/sbin may be a link to /usr/sbin: the mount goes where it leads), and
# finds its /lib/ujail/libujail-seccomp.so.0: the installed lib directory
# lies over the host's /lib (an overlay, read-only, the host's files below).
check "procd layout: procd_test.sh passes (/sbin the installed one)" \
	procd_suite procd "$d/sbin" "$d/lib" \
	unshare -m --propagation private sh -c 'mount --bind "$0" /sbin &&
		mount -t overlay overlay -o lowerdir="$1":/lib /lib && shift && exec "$@"' \
		"$d/sbin" "$d/lib"

# ---- LAYOUT=prefix (the default), PREFIX ----
# What LAYOUT=prefix installs under PREFIX ("f" a file, "l" a link).
prefix_files=(
	"f bin/ujail" "f bin/ujail-seccomp" "l bin/seccomp-trace" "f bin/utrace"
	"f lib/libpreload-seccomp.so" "f lib/musl/libpreload-seccomp.so" "f lib/ujail/ujail-keeper"
	"f lib/ujail/libujail-seccomp.so.0" "f lib/ujail/utrace-ebpf.so" "f lib/ujail/ujail-veth.so"
	"f share/man/man8/ujail.8" "f share/man/man8/ujail-seccomp.8"
	"l share/man/man8/seccomp-trace.8" "f share/man/man8/utrace.8" "f share/man/man5/jailfs.5"
	"f share/bash-completion/completions/ujail" "l share/bash-completion/completions/utrace"
	"l share/bash-completion/completions/ujail-seccomp"
	"l share/bash-completion/completions/seccomp-trace"
)
p=$tmp/prefix
check "make install PREFIX=..." install prefix PREFIX="$p"
check "prefix layout: bin, lib, the man page" files_are "$p" "${prefix_files[@]}"
programs "$p/bin" "$p/lib" prefix
plugins "$p/bin" "$p/lib" prefix
check "prefix layout: the shims run PREFIX/bin/ujail-seccomp" \
	grep -qaF "$p/bin/ujail-seccomp" "$p/lib/libpreload-seccomp.so"
jails "$p/bin/ujail" prefix
check "prefix layout: procd_test.sh passes" procd_suite prefix "$p/bin" "$p/lib"

# ---- defaults and errors ----
check "make install DESTDIR=...: PREFIX is /usr/local" install default DESTDIR="$tmp/default"
check "  its files under DESTDIR/usr/local" files_are "$tmp/default/usr/local" "${prefix_files[@]}"
check "make uninstall DESTDIR=...: nothing of it left" eval \
	'make -s -C "$top" uninstall DESTDIR="$tmp/default" >"$tmp/un.log" 2>&1 &&
	 [ -z "$(find "$tmp/default" ! -type d)" ] && [ ! -e "$tmp/default/usr/local/lib/ujail" ]'
check "make uninstall DESTDIR=... LAYOUT=procd: nothing of it left" eval \
	'make -s -C "$top" uninstall DESTDIR="$d" LAYOUT=procd >"$tmp/un.log" 2>&1 &&
	 [ -z "$(find "$d" ! -type d)" ] && [ ! -e "$d/lib/ujail" ]'
check "make install LAYOUT=other: refused, nothing installed" eval \
	'! make -s -C "$top" install DESTDIR="$tmp/bad" LAYOUT=other 2>"$tmp/err" &&
	 grep -q "LAYOUT=other: prefix or procd" "$tmp/err" && [ ! -e "$tmp/bad" ]'

tap_exit
