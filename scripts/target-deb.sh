#!/bin/bash
# A Debian package of a router target's architecture, downloaded (apt-get
# download, not installed) and unpacked into build/target-deb/TARGET/PACKAGE/;
# prints that directory. A second run with the same version does nothing.
#
#   scripts/target-deb.sh aarch64|mipsel PACKAGE
#
# Used for busybox-static (the QEMU guests' initramfs, scripts/vm.sh
# --arch) and libcap-dev (libcap.a, which the kernel's seccomp_bpf links;
# the test programs use Debian's cross glibc, libc6-dev-ARCH-cross).
# apt needs the architecture in its lists: scripts/deps.sh adds arm64 and
# mipsel (dpkg --add-architecture), which installs nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "target-deb.sh: $*" >&2; exit 1; }

case ${1:-} in
aarch64) arch=arm64 ;;
mipsel) arch=mipsel ;;
*) die "usage: target-deb.sh aarch64|mipsel PACKAGE" ;;
esac
pkg=${2:?usage: target-deb.sh aarch64|mipsel PACKAGE}
out=$top/build/target-deb/$1/$pkg

# Not piped into grep -q: under pipefail, dpkg killed by SIGPIPE when grep
# has seen arm64 and left would read as a missing architecture.
foreign=$(dpkg --print-foreign-architectures)
grep -qx "$arch" <<<"$foreign" ||
	die "dpkg has no $arch architecture (scripts/deps.sh adds it: dpkg --add-architecture $arch; apt-get update)"
version=$(apt-cache policy "$pkg:$arch" | sed -n 's/^ *Candidate: //p')
case $version in
"" | "(none)") die "apt knows no $pkg:$arch (apt-get update after scripts/deps.sh)" ;;
esac

if [ "$(cat "$out/.version" 2>/dev/null)" != "$version" ]; then
	rm -rf "$out" "$out.tmp"
	mkdir -p "$out.tmp"
	# As root apt would hand the download to its _apt user, who cannot
	# write into build/.
	(cd "$out.tmp" && apt-get download -qq -o APT::Sandbox::User=root "$pkg:$arch=$version") >&2 ||
		die "apt-get download $pkg:$arch=$version failed"
	dpkg-deb -x "$out.tmp"/*.deb "$out.tmp/root"
	mv "$out.tmp/root" "$out"
	rm -rf "$out.tmp"
	echo "$version" >"$out/.version"
fi
echo "$out"
