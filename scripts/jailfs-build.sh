#!/bin/bash
# Build jailfs as an external module against one kernel, with W=1; any
# warning fails the build.
#
#   scripts/jailfs-build.sh patched|debug|aarch64|mipsel|stock-6.12|stock-6.1
#                           |stock-6.12-arm64|stock-6.1-arm64
#
# aarch64 and mipsel are the router targets' kernels (scripts/kernel.sh),
# cross-compiled (kernel.sh makevars gives ARCH= and CROSS_COMPILE=); so
# are Debian's stock arm64 kernels, whose headers scripts/stock-kernel.sh
# unpacks with the host's kbuild tools.
#
# The module lands in build/jailfs/NAME/jailfs.ko (the sources are copied
# there: kbuild writes its objects next to them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-}
makevars=()
die() { echo "jailfs-build.sh: $*" >&2; exit 1; }

case $name in
patched | debug) kdir=$("$top/scripts/kernel.sh" modprep "$name") ;;
aarch64 | mipsel)
	kdir=$("$top/scripts/kernel.sh" modprep "$name")
	read -r -a makevars < <("$top/scripts/kernel.sh" makevars "$name") ;;
stock-6.12) "$top/scripts/stock-kernel.sh" 6.12 >/dev/null; kdir=$top/build/stock/6.12/headers ;;
stock-6.1) "$top/scripts/stock-kernel.sh" 6.1 >/dev/null; kdir=$top/build/stock/6.1/headers ;;
stock-6.12-arm64 | stock-6.1-arm64)
	series=${name#stock-}
	series=${series%-arm64}
	"$top/scripts/stock-kernel.sh" "$series" arm64 >/dev/null
	kdir=$top/build/stock/$series-arm64/headers
	makevars=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
*) die "usage: jailfs-build.sh patched|debug|aarch64|mipsel|stock-6.12|stock-6.1|stock-6.12-arm64|stock-6.1-arm64" ;;
esac

out=$top/build/jailfs/$name
rm -rf "$out"
mkdir -p "$out"
cp "$top"/kernel/jailfs/*.[ch] "$top/kernel/jailfs/Kbuild" "$out/"
log=$out/build.log
if ! make -C "$kdir" "${makevars[@]}" M="$out" W=1 modules >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	die "the jailfs build against $name failed (log: ${log#"$top"/})"
fi
if grep -E 'warning:|error:' "$log" >&2; then
	die "W=1 warnings in jailfs against $name"
fi
echo "jailfs-build.sh: $out/jailfs.ko ($(grep -o -- '-DJAILFS_[A-Z_]*' "$out/.super.o.cmd" 2>/dev/null | sort -u | tr '\n' ' ' || true))"
