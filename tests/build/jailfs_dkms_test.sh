#!/bin/bash
# kernel/jailfs/dkms.conf builds the module the way dkms runs it: its MAKE
# line, in a copy of the directory, with kernel_source_dir set to a kernel's
# headers (Debian's stock 6.12 and 6.1). Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
echo "1..4"
n=0 failed=0
for series in 6.12 6.1; do
	headers=$top/build/stock/$series/headers
	"$top/scripts/stock-kernel.sh" "$series" >/dev/null || exit 1
	dir=$top/build/jailfs/dkms-$series
	rm -rf "$dir" && cp -r "$top/kernel/jailfs" "$dir"
	# shellcheck disable=SC1091
	make_cmd=$(kernel_source_dir=$headers; . "$dir/dkms.conf"; echo "${MAKE[0]}")
	n=$((n + 1))
	if (cd "$dir" && eval "$make_cmd") >"$dir/dkms.log" 2>&1; then
		echo "ok $n dkms MAKE builds jailfs against stock $series"
	else
		echo "not ok $n dkms MAKE builds jailfs against stock $series"
		tail -n 20 "$dir/dkms.log" | sed 's/^/# /'
		failed=1
	fi
	n=$((n + 1))
	name=$(kernel_source_dir=$headers; . "$dir/dkms.conf"; echo "${BUILT_MODULE_NAME[0]}")
	if [ -f "$dir/$name.ko" ]; then
		echo "ok $n dkms finds $name.ko ($series)"
	else
		echo "not ok $n dkms finds $name.ko ($series)"
		failed=1
	fi
done
exit $failed
