#!/bin/bash
# make demo: boot the patched kernel in QEMU and show a program hitting a
# denied syscall: the errno it gets and the kernel's log line; then a real
# service (busybox httpd) running under a policy file with ujail-seccomp.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s kernel demo-programs userspace
echo "Booting the patched kernel in QEMU (TCG, a few seconds)..."
if ! scripts/vm.sh --kernel build/kernel/out-patched/bzImage --out build/demo \
	--file build/demo-bin/deny --file scripts/demo/guest.sh --timeout 120 \
	--file build/bin-static/ujail-seccomp --file scripts/demo/httpd.json \
	--run 'demo: sh ./guest.sh' >build/demo.log 2>&1; then
	cat build/demo.log
	exit 1
fi
cat build/demo/demo.tap
