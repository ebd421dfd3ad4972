#!/bin/sh
# Install what the build and the tests need, and only what is missing.
# Idempotent: a second run with everything present does nothing and is fast.
set -eu

# A Debian package build (debian/rules) has its Build-Depends instead.
[ -n "${UJAIL_NO_DEPS:-}" ] && exit 0

# Debian package -> a file (or command) that tells whether it is present.
# libclang-rt-14-dev: clang's libFuzzer and sanitizer runtimes, which the
# fuzz targets link (only recommended by clang-14, and recommends are off).
PKGS="
linux-source-6.12
qemu-system-x86
busybox-static
gcc
clang
libclang-rt-14-dev
make
bc
bison
flex
libelf-dev
libssl-dev
cpio
xz-utils
kmod
musl-tools
libjson-c-dev
libbpf-dev
bpftool
zlib1g-dev
libnl-3-dev
libnl-route-3-dev
libcap-dev
libseccomp-dev
pkg-config
rsync
valgrind
strace
bubblewrap
dwarves
debhelper
dkms
dh-dkms
lintian
fakeroot
dpkg-dev
gcc-aarch64-linux-gnu
gcc-mipsel-linux-gnu
linux-libc-dev-arm64-cross
linux-libc-dev-mipsel-cross
libc6-dev-arm64-cross
libc6-dev-mipsel-cross
qemu-user-static
qemu-system-arm
qemu-system-mips
cmake
"

# The router targets' libraries are built from Debian's source packages
# (scripts/cross-sysroot.sh: apt-get source musl json-c libnl3):
# without deb-src entries, add them for the release's own archive. A
# fresh Debian 12 has its entries in /etc/apt/sources.list (the installer)
# or /etc/apt/sources.list.d/debian.sources (deb822, the container images).
SRC_LIST=/etc/apt/sources.list.d/ujail-deb-src.sources
need_src=0
if ! grep -qsE '^[[:space:]]*deb-src[[:space:]]|^Types:.*deb-src' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
	need_src=1
fi

# The router targets' QEMU guests take busybox-static and libcap-dev of
# their architecture from the archive (scripts/target-deb.sh: apt-get
# download, not installed): apt must list arm64 and mipsel packages.
need_arch=""
for a in arm64 mipsel; do
	dpkg --print-foreign-architectures | grep -qx "$a" || need_arch="$need_arch $a"
done

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && [ $need_src = 0 ] && [ -z "$need_arch" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: this is not a Debian/Ubuntu system; install the equivalents of:" >&2
	echo "deps:  $missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	[ -n "$missing" ] && echo "deps: missing packages:$missing" >&2
	[ $need_src = 1 ] && echo "deps: no deb-src entries in /etc/apt (apt-get source)" >&2
	[ -n "$need_arch" ] && echo "deps: dpkg lacks the architectures:$need_arch (dpkg --add-architecture)" >&2
	echo "deps: run as root (or: sudo scripts/deps.sh)" >&2
	exit 1
fi

if [ $need_src = 1 ]; then
	# The archive and suites of the first Debian "deb" entry, deb822 or
	# one-line; deb.debian.org and the release's codename otherwise.
	# shellcheck source=/dev/null
	. /etc/os-release
	codename=${VERSION_CODENAME:-bookworm}
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]]*$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]].*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | head -n 1)
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	echo "deps: adding deb-src entries ($uri $codename) in $SRC_LIST"
	cat >"$SRC_LIST" <<EOF
# Added by ujail's scripts/deps.sh: source packages (apt-get source) for the
# router targets' libraries (scripts/cross-sysroot.sh).
Types: deb-src
URIs: $uri
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
fi

for a in $need_arch; do
	echo "deps: adding the $a architecture to dpkg (package lists only)"
	dpkg --add-architecture "$a"
done

[ -n "$missing" ] && echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
echo "deps: done"
