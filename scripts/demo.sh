#!/bin/bash
# make demo: boot the patched kernel in QEMU and show a program hitting a
# denied syscall: the errno it gets and the kernel's log line.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s kernel demo-programs
echo "Booting the patched kernel in QEMU (TCG, a few seconds)..."
if ! scripts/vm.sh --kernel build/kernel/out-patched/bzImage --out build/demo \
	--file build/demo-bin/deny --file scripts/demo/guest.sh --timeout 120 \
	--run 'demo: sh ./guest.sh' >build/demo.log 2>&1; then
	cat build/demo.log
	exit 1
fi
cat build/demo/demo.tap
