#!/bin/bash
# Fetch one of Debian's stock cloud kernels, unpatched, with its headers, for
# tests that need no patch. Nothing is installed on the host: the packages
# are downloaded and unpacked under build/stock/SERIES/.
#
#   scripts/stock-kernel.sh 6.12|6.1 [amd64|arm64]
#
# Prints the path of the kernel image. The headers tree (for building
# modules against that kernel) is build/stock/SERIES/headers, i.e.
# build/stock/SERIES/root/usr/src/linux-headers-VERSION; arm64's are under
# build/stock/SERIES-arm64/ (its vmlinuz is a gzipped Image that
# qemu-system-aarch64 -M virt boots). Their build tools (fixdep, modpost,
# ...) come from linux-kbuild-VERSION of the host's architecture, amd64:
# the arm64 package's are arm64 programs, and the host's handle arm64
# objects as well (a cross build: ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-,
# which the headers' .kernelvariables set).
#
# For arm64 also build/stock/SERIES-arm64/virtio/: the modules a guest's
# virtio-pci console needs where they are not built in (6.1), with a file
# "order" naming them in the order they load; empty for 6.12, which builds
# them in (but not virtio-mmio's transport, hence pci: vm.sh --virtio pci).
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
if [ -f "$dir/vmlinuz" ] && [ -L "$dir/headers" ]; then
	echo "$dir/vmlinuz"
	exit 0
fi

image=$(apt-cache pkgnames linux-image- | grep -E "$pattern" | sort -V | tail -n 1)
[ -n "$image" ] || die "no package matches $pattern (apt-get update?)"
version=${image#linux-image-}
version=${version%-unsigned}
case $series in
6.12) kbuild=linux-kbuild-${version%-cloud-"$arch"} ;;
6.1) kbuild=linux-kbuild-6.1 ;;
esac
common=linux-headers-${version%-cloud-"$arch"}-common
# The image and its own headers for ARCH; the common headers (all) and
# kbuild for the host.
pkgs="$image:$arch linux-headers-$version:$arch $common $kbuild"

rm -rf "$dir"
mkdir -p "$dir/debs" "$dir/root"
echo "stock-kernel.sh: downloading $pkgs" >&2
# shellcheck disable=SC2086
(cd "$dir/debs" && apt-get download -q -o APT::Sandbox::User=root $pkgs >/dev/null) || die "download of $pkgs failed"
for deb in "$dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
done
cp "$dir/root/boot/vmlinuz-$version" "$dir/vmlinuz"
if [ "$arch" = arm64 ]; then
	# The console's modules, dependencies first (modinfo -F depends),
	# uncompressed for busybox's insmod.
	mkdir -p "$dir/virtio"
	: >"$dir/virtio/order"
	for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_modern_dev \
		virtio/virtio_pci_legacy_dev virtio/virtio_pci char/virtio_console; do
		ko=$dir/root/lib/modules/$version/kernel/drivers/$m.ko
		if [ -f "$ko" ]; then
			cp "$ko" "$dir/virtio/"
		elif [ -f "$ko.xz" ]; then
			xz -dc "$ko.xz" >"$dir/virtio/${m#*/}.ko"
		else
			continue
		fi
		echo "${m#*/}.ko" >>"$dir/virtio/order"
	done
	# Of the image only vmlinuz and those modules are used.
	rm -rf "$dir/root/boot" "$dir/root/lib/modules" "$dir/root/usr/lib/linux-image-$version"
fi
# The headers' Makefile includes the common headers by absolute path
# (/usr/src/...): point it at the unpacked copy, so modules build here.
sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
	"$dir/root/usr/src/linux-headers-$version/Makefile"
ln -sfn "root/usr/src/linux-headers-$version" "$dir/headers"
rm -rf "$dir/debs"
echo "$dir/vmlinuz"
