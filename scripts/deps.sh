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
"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: this is not a Debian/Ubuntu system; install the equivalents of:" >&2
	echo "deps:  $missing" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root (or: sudo apt-get install$missing)" >&2
	exit 1
fi

echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done"
