#!/bin/bash
# Fetch one of Debian's stock cloud kernels, unpatched, with its headers, for
# tests that need no patch. Nothing is installed on the host: the packages
# are downloaded and unpacked under build/stock/SERIES/.
#
#   scripts/stock-kernel.sh 6.12|6.1 [amd64|arm64]
#
# Prints the path of the kernel image. For amd64 (the default) the headers
# tree (for building modules against that kernel) is
# build/stock/SERIES/headers, i.e.
# build/stock/SERIES/root/usr/src/linux-headers-VERSION. arm64's kernels
# (build/stock/SERIES-arm64/vmlinuz, a gzipped Image that
# qemu-system-aarch64 -M virt boots) come without headers: Debian's arm64
# headers carry arm64 build tools, which do not run here.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
series=${1:-}
arch=${2:-amd64}
die() { echo "stock-kernel.sh: $*" >&2; exit 1; }

case $arch in
amd64 | arm64) ;;
*) die "architecture '$arch': amd64 or arm64" ;;
esac
case $series in
6.12) pattern="^linux-image-6\\.12\\.[0-9]+\\+deb12-cloud-$arch-unsigned\$" ;;
6.1) pattern="^linux-image-6\\.1\\.0-[0-9]+-cloud-$arch-unsigned\$" ;;
*) die "usage: stock-kernel.sh 6.12|6.1 [amd64|arm64]" ;;
esac

dir=$top/build/stock/$series
[ "$arch" = amd64 ] || dir=$dir-$arch
if [ -f "$dir/vmlinuz" ] && { [ "$arch" != amd64 ] || [ -L "$dir/headers" ]; }; then
	echo "$dir/vmlinuz"
	exit 0
fi

image=$(apt-cache pkgnames linux-image- | grep -E "$pattern" | sort -V | tail -n 1)
[ -n "$image" ] || die "no package matches $pattern (apt-get update?)"
version=${image#linux-image-}
version=${version%-unsigned}
case $series in
6.12) kbuild=linux-kbuild-${version%-cloud-amd64} ;;
6.1) kbuild=linux-kbuild-6.1 ;;
esac
common=linux-headers-${version%-cloud-amd64}-common
pkgs="$image linux-headers-$version $common $kbuild"
[ "$arch" = amd64 ] || pkgs="$image:$arch"

rm -rf "$dir"
mkdir -p "$dir/debs" "$dir/root"
echo "stock-kernel.sh: downloading $pkgs" >&2
# shellcheck disable=SC2086
(cd "$dir/debs" && apt-get download -q -o APT::Sandbox::User=root $pkgs >/dev/null) || die "download of $pkgs failed"
for deb in "$dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
done
cp "$dir/root/boot/vmlinuz-$version" "$dir/vmlinuz"
if [ "$arch" != amd64 ]; then
	rm -rf "$dir/debs" "$dir/root"
	echo "$dir/vmlinuz"
	exit 0
fi
# The headers' Makefile includes the common headers by absolute path
# (/usr/src/...): point it at the unpacked copy, so modules build here.
sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
	"$dir/root/usr/src/linux-headers-$version/Makefile"
ln -sfn "root/usr/src/linux-headers-$version" "$dir/headers"
rm -rf "$dir/debs"
echo "$dir/vmlinuz"
