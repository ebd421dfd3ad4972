#!/bin/bash
# The single-quoted scripts expand their variables when they run:
# shellcheck disable=SC2016
# SPDX-License-Identifier: GPL-2.0
# Run by tests/build/packages_test.sh inside the fresh root (chrooted, as
# root, environment KVER HEADERS VERSION): installs the packages with apt
# and checks them from the installed files. Prints "PASS what" or
# "FAIL what" per check, anything else is commentary; the .ko DKMS built
# goes to fd 3.
set -u
pkgs=/root/pkgs
t=/tmp/pk
mkdir -p "$t"

res() {	# res DESCRIPTION COMMAND...
	local d=$1; shift
	if "$@"; then echo "PASS $d"; else echo "FAIL $d"; fi
}

# (word-split on purpose, inside the eval'd checks)
# shellcheck disable=SC2034
ujail_files="/usr/bin/ujail /usr/bin/ujail-seccomp /usr/bin/utrace /usr/lib/ujail /usr/lib/libpreload-seccomp.so"
res "no ujail file in the root before the install" eval \
	'! ls -d $ujail_files 2>/dev/null && ! dpkg -s ujail >/dev/null 2>&1'

# The stock kernel's headers, where DKMS looks for a kernel's (the
# linux-headers package's /lib/modules/VER/build link): the postinst
# builds the module for it.
mkdir -p "/lib/modules/$KVER" && ln -s "$HEADERS" "/lib/modules/$KVER/build"
# No man-db rebuild for the new pages (seconds, for nothing).
rm -f /var/lib/man-db/auto-update

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$pkgs"/ujail_*.deb "$pkgs"/jailfs-dkms_*.deb \
	>"$t/apt.log" 2>&1
rc=$?
res "apt-get install ./ujail_*.deb ./jailfs-dkms_*.deb (dependencies from apt)" [ $rc = 0 ]
[ $rc = 0 ] || tail -n 30 "$t/apt.log"
sed -n '/^Setting up jailfs-dkms/,/^Setting up\|^Processing/p' "$t/apt.log" | grep -v 'readelf: Warning'


# ---- dpkg -L against make install PREFIX=/usr ----
# The package adds its docs and lintian overrides; dh_compress gzips the man pages.
dpkg -L ujail | while read -r f; do [ -d "$f" ] || echo "$f"; done |
	grep -v -e '^/usr/share/doc/ujail/' -e '^/usr/share/lintian/overrides/ujail$' | sed 's|^\(/usr/share/man/.*\)\.gz$|\1|' | sort >"$t/dpkg.list"
res "dpkg -L ujail is what make install PREFIX=/usr puts down (and the docs)" \
	cmp -s "$t/dpkg.list" "$pkgs/mi.list"
diff "$pkgs/mi.list" "$t/dpkg.list" | sed 's/^/make install vs dpkg -L: /'

# ---- the installed programs ----
v=$(ujail --version 2>&1)
res "ujail --version: ujail $VERSION" [ "$v" = "ujail $VERSION" ]
res "man finds ujail(8) and jailfs(5)" eval 'man -w ujail >/dev/null && man -w 5 jailfs >/dev/null'

res "a jail: ujail runs /bin/true with the keeper it finds in /usr/lib/ujail" \
	ujail -n pkgtest -r /bin/true -- /bin/true
cat >"$t/deny.json" <<'EOF'
{ "defaultAction": "SCMP_ACT_ALLOW",
  "syscalls": [ { "names": ["uname"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13 } ] }
EOF
# coreutils' uname is dynamic: the glibc shim installs the policy in it.
denied() {
	grep -q 'cannot get system name: Permission denied' "$t/err" && return
	sed 's/^/stderr: /' "$t/err"
	return 1
}
ujail -n pkgtest -S "$t/deny.json" -- /usr/bin/uname -s >"$t/out" 2>"$t/err"
res "a policy: ujail -S, a dynamic program (the installed glibc shim) is denied uname" denied
ujail-seccomp run "$t/deny.json" -- /usr/bin/uname -s >"$t/out" 2>"$t/err"
res "a policy: ujail-seccomp run" denied
SECCOMP_FILE="$t/deny.json" seccomp-trace /usr/bin/uname -s >"$t/out" 2>"$t/err"
res "a policy: seccomp-trace with SECCOMP_FILE (procd's way)" denied
LD_PRELOAD=/usr/lib/libpreload-seccomp.so SECCOMP_FILE="$t/deny.json" /usr/bin/uname -s \
	>"$t/out" 2>"$t/err"
res "a policy: the shim with SECCOMP_FILE runs the compiled-in /usr/bin/ujail-seccomp" denied
/usr/bin/uname -s >"$t/out" 2>"$t/err"
res "  and without a policy uname says Linux" grep -qx Linux "$t/out"

res "a trace: utrace --backend ptrace writes a policy that names execve" eval \
	'utrace --backend ptrace -o "$t/trace.json" -- /bin/true 2>"$t/utrace.err" &&
	 grep -q "\"execve\"" "$t/trace.json"'
res "the traced policy runs the program again (ujail -S)" \
	ujail -n pkgtest -S "$t/trace.json" -- /bin/true
res "seccomp-trace is ujail-seccomp (procd's name)" \
	eval '[ "$(readlink -f /usr/bin/seccomp-trace)" = /usr/bin/ujail-seccomp ]'

# ---- the systemd example: its ExecStart, as the unit runs it ----
ex=/usr/share/doc/ujail/examples
unit=$ex/ujail-httpd.service
mkdir -p /etc/ujail /srv/www /etc/systemd/system
cp "$ex/httpd.json" "$ex/httpd-seccomp.json" /etc/ujail/
cp "$unit" /etc/systemd/system/
echo "hello from the jail" >/srv/www/index.html
if command -v systemd-analyze >/dev/null; then
	res "systemd-analyze verify ujail-httpd.service" eval \
		'systemd-analyze verify /etc/systemd/system/ujail-httpd.service >"$t/verify" 2>&1 ||
		 { cat "$t/verify"; false; }'
	grep -v '^$' "$t/verify"
else
	res "ujail-httpd.service: [Unit], [Service] with ExecStart, [Install]" eval \
		'grep -qx "\[Unit\]" "$unit" && grep -qx "\[Service\]" "$unit" &&
		 grep -q "^ExecStart=/" "$unit" && grep -qx "\[Install\]" "$unit"'
fi
cmd=$(sed -n 's/^ExecStart=//p' "$unit")
port=$(echo "$cmd" | sed -n 's/.* -p 127\.0\.0\.1:\([0-9]*\) .*/\1/p')
# Another test may hold the port: the same command on a free one.
if busybox nc -z 127.0.0.1 "$port" 2>/dev/null; then
	new=$((20000 + $$ % 20000))
	echo "port $port busy: $new instead"
	cmd=${cmd/127.0.0.1:$port/127.0.0.1:$new}
	port=$new
fi
echo "ExecStart: $cmd"
# shellcheck disable=SC2086
$cmd >"$t/httpd.out" 2>"$t/httpd.err" &
jail=$!
n=0
until busybox wget -q -O "$t/got" "http://127.0.0.1:$port/" 2>/dev/null; do
	n=$((n + 1))
	if [ $n -ge 50 ] || ! kill -0 $jail 2>/dev/null; then break; fi
	sleep 0.1
done
res "systemd example: busybox httpd in its jail answers a request" \
	grep -qx "hello from the jail" "$t/got"
kill -TERM $jail
wait $jail
rc=$?
res "systemd example: SIGTERM to ujail stops it (status $rc)" eval '[ $rc = 0 ] || [ $rc = 143 ]'
res "systemd example: no denial logged by the policy" eval '! grep -qi "denied\|killed" "$t/httpd.err"'
sed 's/^/httpd: /' "$t/httpd.err"

# ---- DKMS ----
ko=/lib/modules/$KVER/updates/dkms/jailfs.ko
res "dkms status: jailfs/$VERSION installed for $KVER" eval \
	'dkms status -m jailfs -v $VERSION -k $KVER 2>/dev/null | grep -q installed'
dkms status 2>&1 | grep -v 'readelf: Warning'
res "the postinst's DKMS build installed $ko" [ -s "$ko" ]
res "its vermagic is $KVER's" eval 'modinfo -F vermagic "$ko" | grep -q "^$KVER "'
[ -s "$ko" ] && cat "$ko" >&3

# ---- removal ----
apt-get purge -y -q ujail jailfs-dkms >"$t/purge.log" 2>&1
res "apt-get purge ujail jailfs-dkms" [ $? = 0 ]
res "  leaves no ujail file and no jailfs module" eval \
	'! ls -d $ujail_files "$ko" 2>/dev/null'
echo "PASS done"
