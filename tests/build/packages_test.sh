#!/bin/bash
# The single-quoted scripts expand their arguments when they run:
# shellcheck disable=SC2016
# SPDX-License-Identifier: GPL-2.0
# The Debian packages (debian/): dpkg-buildpackage -us -uc -b on a copy of
# the tree, lintian at its default level, then both packages installed by
# apt into a fresh root, where the installed files alone run a jail, a
# policy (ujail -S, ujail-seccomp run, the shim with SECCOMP_FILE), a trace
# (utrace), the systemd example's ExecStart for a request, and DKMS builds
# jailfs for Debian's stock 6.12 headers. dpkg -L ujail must be what make
# install PREFIX=/usr puts down, and every version VERSION's. As root.
#
# The fresh root: an overlay whose lower layer is the host's / (read-only
# through the overlay: the host is not changed) and whose upper layer is a
# tmpfs, in a private mount namespace, chrooted into. The packages'
# dependencies come from apt (apt-get install ./x.deb resolves them; those
# the host has need no download); the project's trees (/work) are hidden
# under an empty tmpfs, and no ujail file exists there before the install.
# Unpacking a minimal Debian (debootstrap) took minutes; this takes seconds
# and gives dpkg, apt and the DKMS postinst a real system to run in.
#
# The packages are scripts/deb.sh's, in build/packages/ (built here unless
# PACKAGES_BUILT=1). The module DKMS built is kept there as
# dkms-stock-6.12/jailfs.ko: scripts/check.sh loads that one in the stock
# 6.12 guest. Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 0
fi
version=$(cat "$top/VERSION")
out=$top/build/packages
tmp=$(mktemp -d /tmp/packages-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

# ---- versions, from VERSION ----
check "debian/changelog's version is VERSION's ($version)" "$top/scripts/deb-changelog.sh" --check
for m in userspace/ujail/ujail.8 userspace/seccomp/ujail-seccomp.8 tools/utrace/utrace.8 \
	kernel/jailfs/jailfs.5; do
	check "$(basename "$m"): .TH says ujail $version" \
		grep -qE "^\.TH .*\"ujail $version\"" "$top/$m"
done
check "kernel/jailfs/dkms.conf: PACKAGE_VERSION is $version" \
	grep -qx "PACKAGE_VERSION=\"$version\"" "$top/kernel/jailfs/dkms.conf"

# ---- the build (scripts/deb.sh: a copy of the tree) ----
# make check builds them first (PACKAGES_BUILT=1, its build step).
deb=$out/ujail_${version}_amd64.deb
dkmsdeb=$out/jailfs-dkms_${version}_all.deb
if [ "${PACKAGES_BUILT:-}" != 1 ]; then
	b0=$(date +%s)
	"$top/scripts/deb.sh" >"$tmp/build.log" 2>&1
	rc=$?
	echo "# scripts/deb.sh (dpkg-buildpackage -us -uc -b): $(( $(date +%s) - b0 )) s"
	check "dpkg-buildpackage -us -uc -b (scripts/deb.sh)" [ "$rc" = 0 ]
	[ "$rc" = 0 ] || tail -n 30 "$tmp/build.log" | sed 's/^/# /'
fi
check "ujail_${version}_amd64.deb and jailfs-dkms_${version}_all.deb" [ -f "$deb" -a -f "$dkmsdeb" ]
if [ ! -f "$deb" ] || [ ! -f "$dkmsdeb" ]; then
	echo "Bail out! no packages"
	exit 1
fi

# ---- lintian, default level: no error, no warning ----
lintian --fail-on error,warning "$deb" "$dkmsdeb" >"$tmp/lintian.log" 2>&1
rc=$?
check "lintian: no error or warning" [ "$rc" = 0 ]
sed 's/^/# /' "$tmp/lintian.log"

# ---- what the packages hold ----
contents() { dpkg-deb -c "$1" | awk '{ p = $6; sub(/^\./, "", p); print p }'; }
contents "$deb" >"$tmp/ujail.contents"
contents "$dkmsdeb" >"$tmp/dkms.contents"
for f in /usr/bin/ujail /usr/bin/ujail-seccomp /usr/bin/seccomp-trace /usr/bin/utrace \
	/usr/lib/ujail/ujail-keeper /usr/lib/libpreload-seccomp.so /usr/lib/musl/libpreload-seccomp.so \
	/usr/share/man/man8/ujail.8.gz /usr/share/man/man5/jailfs.5.gz \
	/usr/share/doc/ujail/examples/httpd.json /usr/share/doc/ujail/examples/httpd-seccomp.json \
	/usr/share/doc/ujail/examples/ujail-httpd.service /usr/share/doc/ujail/copyright; do
	check "ujail.deb holds $f" grep -qxF "$f" "$tmp/ujail.contents"
done
check "the shims in ujail.deb run /usr/bin/ujail-seccomp for SECCOMP_FILE" eval \
	'dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/lib/libpreload-seccomp.so |
	 grep -qaF /usr/bin/ujail-seccomp'
for f in Kbuild Makefile dkms.conf super.c jailfs.h; do
	check "jailfs-dkms.deb holds /usr/src/jailfs-$version/$f" \
		grep -qxF "/usr/src/jailfs-$version/$f" "$tmp/dkms.contents"
done
check "jailfs-dkms.deb depends on dkms" eval 'dpkg-deb -f "$dkmsdeb" Depends | grep -qw dkms'

# make install PREFIX=/usr, for dpkg -L to match.
make -s -C "$top" install PREFIX=/usr DESTDIR="$tmp/mi" >"$tmp/mi.log" 2>&1
check "make install PREFIX=/usr DESTDIR=..." [ $? = 0 ]
(cd "$tmp/mi" && find . ! -type d -printf '/%P\n' | sort) >"$tmp/mi.list"

# ---- the fresh root ----
series=6.12
"$top/scripts/stock-kernel.sh" "$series" >/dev/null 2>"$tmp/stock.log"
check "Debian's stock $series headers (scripts/stock-kernel.sh)" [ -L "$top/build/stock/$series/headers" ]
headers=$(readlink -f "$top/build/stock/$series/headers")
kver=${headers##*/linux-headers-}

mkdir -p "$tmp/root" "$tmp/ov" "$tmp/ov.t" "$out/dkms-stock-$series"
cp "$deb" "$dkmsdeb" "$tmp/mi.list" "$top/tests/build/packages_root.sh" "$tmp/ov/" 2>/dev/null
# In a private mount namespace: nothing of it outlives the test.
unshare -m --propagation private bash -c '
	set -e
	root=$1 ov=$2 stock=$3 headers=$4 kver=$5 version=$6
	mount -t tmpfs -o size=2g tmpfs "$ov.t"
	mkdir -p "$ov.t/upper" "$ov.t/work"
	mount -t overlay overlay -o "lowerdir=/,upperdir=$ov.t/upper,workdir=$ov.t/work" "$root"
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/tmp"
	mount -t tmpfs tmpfs "$root/run"
	mount -t tmpfs tmpfs "$root/work"
	mkdir -p "$root/root/pkgs" "$root$stock"
	cp "$ov"/* "$root/root/pkgs/"
	mount --bind "$stock" "$root$stock"
	mount -o remount,bind,ro "$root$stock"
	exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		KVER="$kver" HEADERS="$headers" VERSION="$version" \
		bash /root/pkgs/packages_root.sh
' sh "$tmp/root" "$tmp/ov" "$top/build/stock/$series" "$headers" "$kver" "$version" \
	>"$tmp/root.log" 2>&1 3>"$out/dkms-stock-$series/jailfs.ko" &
# (the .ko comes out on fd 3: the root vanishes with its namespace)
wait $!
rc=$?
# PASS/FAIL lines become results; the rest is commentary.
while IFS= read -r line; do
	case $line in
	"PASS "*) check "root: ${line#PASS }" true ;;
	"FAIL "*) check "root: ${line#FAIL }" false ;;
	*) echo "# $line" ;;
	esac
done <"$tmp/root.log"
check "the fresh root's script ran to its end" eval '[ "$rc" = 0 ] && grep -qx "PASS done" "$tmp/root.log"'
check "DKMS's jailfs.ko for $kver kept as build/packages/dkms-stock-$series/jailfs.ko" eval \
	'[ -s "$out/dkms-stock-$series/jailfs.ko" ] &&
	 modinfo -F vermagic "$out/dkms-stock-$series/jailfs.ko" | grep -q "^$kver "'
[ -s "$out/dkms-stock-$series/jailfs.ko" ] || rm -f "$out/dkms-stock-$series/jailfs.ko"
echo "# packages_test: $(( $(date +%s) - t0 )) s"
tap_exit
