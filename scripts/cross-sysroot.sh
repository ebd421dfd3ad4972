#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cross-sysroot.sh TARGET LINK: the C library and the libraries ujail needs,
# for a router target (aarch64, mipsel), built from Debian's source
# packages (apt-get source) with Debian's cross gcc:
#
#   musl       libc.a, libc.so (ld-musl-ARCH.so.1), lib/musl-gcc.specs
#   json-c     libjson-c.a
#   libnl3     libnl-3.a, libnl-route-3.a (ujail --veth)
#   + the kernel's uapi headers of Debian's linux-libc-dev-ARCH-cross
#
# Static libraries only (the programs for a target are linked statically,
# as OpenWrt would ship them with no json-c/libnl of their own).
# Compile with `TRIPLE-gcc -specs=SYSROOT/lib/musl-gcc.specs`.
#
# The result is kept outside the clone, in $UJAIL_CROSS_CACHE (default
# /var/cache/ujail-cross), under a key of the source package versions,
# the compiler's version and this script, and LINK (build/sysroot/TARGET)
# is a symbolic link to it. A clean clone, or `rm -rf build`, finds it
# again in a second; a new Debian revision of any of them builds anew.
# Without a writable cache the sysroot is built under build/sysroot/.
# scripts/deps.sh installs the toolchains and the deb-src entries.

set -euo pipefail

die() {
	echo "cross-sysroot.sh: $*" >&2
	exit 1
}

# --check: link a usable cached sysroot and exit 0, or exit 3 where one
# would have to be built (nothing is built).
check_only=0
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
[ $# -eq 2 ] || die "usage: cross-sysroot.sh [--check] TARGET LINK"
target=$1
# (The link's directory resolved, not the link: it may point at the cache.)
link=$(readlink -m "$(dirname "$2")")/$(basename "$2")
case $target in
# aarch64: Debian's gcc calls libgcc's outline atomics, whose CPU probe
# needs glibc's __getauxval: musl's builds inline them (as OpenWrt's gcc).
aarch64) triple=aarch64-linux-gnu; cpu=aarch64; kpkg=linux-libc-dev-arm64-cross
	tflags=-mno-outline-atomics ;;
mipsel) triple=mipsel-linux-gnu; cpu=mipsel; kpkg=linux-libc-dev-mipsel-cross; tflags= ;;
*) die "$target: unknown target (aarch64, mipsel)" ;;
esac
command -v "$triple-gcc" >/dev/null || die "$triple-gcc: missing (scripts/deps.sh installs it)"
kinc=/usr/$triple/include
[ -d "$kinc/linux" ] || die "$kinc/linux: missing ($kpkg; scripts/deps.sh installs it)"

script=$(readlink -f "$0")
jobs=$(nproc 2>/dev/null || echo 2)
pkgs=(musl json-c libnl3)

# The .dsc each package would be fetched as: its version, without fetching
# (one apt-get: a second each on a busy machine).
uris=$(apt-get source --print-uris -qq "${pkgs[@]}" 2>/dev/null) || true
dscs=""
for p in "${pkgs[@]}"; do
	d=$(echo "$uris" | grep -o "/${p}_[^/']*\.dsc'" | tr -d "'/" | sed 's/%2[bB]/+/g')
	[ -n "$d" ] || die "apt-get source $p: no source package (deb-src entries missing? run scripts/deps.sh)"
	dscs="$dscs $d"
done
key=$( {
	echo "$target $dscs"
	"$triple-gcc" --version | head -n 1
	dpkg-query -W -f='${Package} ${Version}\n' "$kpkg"
	cat "$script"
} | sha256sum | cut -c1-16)

cache=$(readlink -m "${UJAIL_CROSS_CACHE:-/var/cache/ujail-cross}")
name=$target-$key
mkdir -p "$(dirname "$link")"

# A sysroot is not relocatable: musl-gcc.specs and the .pc files name the
# directory it was built in. .done holds that directory, so a copy (or a
# moved cache) is built anew rather than compiled against a path that may
# be gone or hold another build.
built_here() {
	[ -f "$1/.done" ] && [ "$(cat "$1/.done")" = "$1" ]
}
use_if_built() {
	if built_here "$1"; then
		ln -sfn "$1" "$link"
		exit 0
	fi
	if [ -f "$1/.done" ]; then
		echo "cross-sysroot.sh: $1 was built in another directory (a copy): building it again" >&2
	fi
}
use_if_built "$cache/$name"
if mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; then
	prefix=$cache/$name
else
	prefix=$(dirname "$link")/$name
	use_if_built "$prefix"
fi
[ $check_only = 0 ] || exit 3

echo "cross-sysroot.sh: building musl, json-c, libnl3 for $target into $prefix"
t0=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/ujail-cross-$target.XXXXXX")
trap 'rm -rf "$work"' EXIT
rm -rf "$prefix"
mkdir -p "$prefix"

# Sources: fetched once into the cache (apt-get source checks them).
srcdir=$cache/src
if ! mkdir -p "$srcdir" 2>/dev/null || [ ! -w "$srcdir" ]; then
	srcdir=$work/src
fi
mkdir -p "$srcdir"
for p in "${pkgs[@]}"; do
	for d in $dscs; do
		case $d in "${p}_"*) dsc=$d ;; esac
	done
	if [ ! -f "$srcdir/$dsc" ]; then
		# (As root apt cannot hand the download to its _apt user: said
		# once per file, not news.)
		# Neither apt-get's status nor grep's (nothing left to print) may
		# end the script here: the file's presence below decides.
		{ (cd "$srcdir" && apt-get source --download-only -qq "$p" 2>&1) || true; } |
			{ grep -v "unsandboxed as root" || true; } >&2
		[ -f "$srcdir/$dsc" ] || die "apt-get source $p: $dsc not fetched"
	fi
	# Debian's patches applied, as dpkg-source does.
	# (apt-get source checked them against the signed index: gpgv's
	# "no public key" is not news.)
	dpkg-source -x -q "$srcdir/$dsc" "$work/$p" >/dev/null 2>&1 ||
		die "dpkg-source -x $dsc failed"
done

log=$work/log
step() {	# step NAME COMMAND...: quiet, the log's end when it fails
	local name=$1; shift
	echo "cross-sysroot.sh: $target: $name"
	if ! ( "$@" ) >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -rf "$prefix"
		die "$target: $name failed"
	fi
}

# musl: the wrapper's specs file is what the other builds compile with.
musl() {
	cd "$work/musl"
	./configure --target="$triple" --prefix="$prefix" --syslibdir="$prefix/lib" \
		CROSS_COMPILE="$triple-" CC="$triple-gcc" CFLAGS="$tflags" --enable-wrapper=gcc
	make -j"$jobs"
	make install
	# Every compile with the specs gets the target's flags; a dynamic
	# program asks for the loader where the target has it, /lib.
	sed -i -e "s|^%(cc1_cpu) |&$tflags |" \
		-e "s|-dynamic-linker $prefix/lib/|-dynamic-linker /lib/|" \
		"$prefix/lib/musl-gcc.specs"
	# The kernel's uapi headers: musl has none of its own.
	cp -a "$kinc/linux" "$kinc/asm" "$kinc/asm-generic" "$kinc/mtd" "$kinc/misc" \
		"$prefix/include/"
}
step musl musl
specs=$prefix/lib/musl-gcc.specs
[ -f "$specs" ] || die "$specs: not installed"
CC="$triple-gcc -specs=$specs"
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=

jsonc() {
	cd "$work/json-c"
	cmake -S . -B b -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$cpu" \
		-DCMAKE_C_COMPILER="$triple-gcc" -DCMAKE_C_FLAGS="-specs=$specs" \
		-DCMAKE_AR="$(command -v "$triple-ar")" \
		-DCMAKE_RANLIB="$(command -v "$triple-ranlib")" \
		-DCMAKE_FIND_ROOT_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" \
		-DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON -DBUILD_TESTING=OFF \
		-DBUILD_APPS=OFF -DDISABLE_EXTRA_LIBS=ON -DDISABLE_WERROR=ON
	make -C b -j"$jobs"
	make -C b install
}
step json-c jsonc

# libnl: the core and route libraries only (what ujail links), and the
# headers.
libnl() {
	cd "$work/libnl3"
	# Debian's patches touch Makefile.am for the shared libraries only
	# (symbol versions, /etc/libnl-3): the shipped Makefile.in serves the
	# static ones; no automake run.
	touch -d "@$(date +%s)" aclocal.m4 configure Makefile.in
	./configure --host="$triple" --prefix="$prefix" --disable-shared --enable-static \
		--disable-cli --disable-debug CC="$CC"
	make -j"$jobs" lib/libnl-3.la lib/libnl-route-3.la
	make install-data
	cp lib/.libs/libnl-3.a lib/.libs/libnl-route-3.a "$prefix/lib/"
}
step libnl3 libnl

echo "$dscs" >"$prefix/.sources"
echo "$prefix" >"$prefix/.done"
ln -sfn "$prefix" "$link"
# The cache keeps the three newest sysroots of a target (other clones may
# still be on an older key; they rebuild if theirs went).
# shellcheck disable=SC2012
ls -dt "$(dirname "$prefix")/$target"-* 2>/dev/null | tail -n +4 | xargs -r rm -rf
echo "cross-sysroot.sh: $target sysroot built in $(( $(date +%s) - t0 ))s"
