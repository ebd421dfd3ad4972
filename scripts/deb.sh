#!/bin/bash
# The Debian packages: dpkg-buildpackage -us -uc -b on a copy of the tree
# (what git tracks, and untracked files not ignored: no build/), so that
# the .debs and dpkg-buildpackage's files land outside the checkout.
# Output: build/packages/ujail_VERSION_amd64.deb, jailfs-dkms_VERSION_all.deb
# and build.log. (make deb)
#
# A tree whose kernel source is already extracted and patched (build/kernel,
# make check's first step) lends it to the copy, whose build extracts it
# again only when the series changed, as in any tree; otherwise the copy's
# build extracts /usr/src/linux-source-6.12.tar.xz itself.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "$top/VERSION")
out=$top/build/packages
"$top/scripts/deb-changelog.sh" --check
tmp=$(mktemp -d /tmp/ujail-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/ujail-$version
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$src"
else
	tar -C "$top" --exclude=./build -cf - . | tar -xf - -C "$src"
fi
if [ -f "$top/build/kernel/src/.ujail-key" ] && [ -f "$top/build/kernel/headers/.key" ]; then
	mkdir -p "$src/build" && ln -s "$top/build/kernel" "$src/build/kernel"
fi
rm -rf "$out" && mkdir -p "$out"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "deb.sh: dpkg-buildpackage failed (build/packages/build.log)" >&2
	exit 1
fi
cp "$tmp/ujail_${version}_amd64.deb" "$tmp/jailfs-dkms_${version}_all.deb" "$out/"
ls "$out"/*.deb
