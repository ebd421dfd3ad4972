# SPDX-License-Identifier: GPL-2.0
# ujail's benchmarks (bench/ujail_bench.sh, bench/ujail_ns_bench.sh) and
# their timer; included from the top Makefile.

.PHONY: bench-ujail

$(B)/bench/spawn_time: $(TOP)/bench/spawn_time.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror $(DEPFLAGS) -o $@ $<

# Static: the floor should not count a dynamic loader.
$(B)/bench/ns_floor: $(TOP)/bench/ns_floor.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror $(DEPFLAGS) -static -o $@ $<

# ujail as make install puts it (dynamic, stripped), in build/bench/inst:
# the benchmarks time it next to the static test build (build/bin/ujail).
.PHONY: bench-inst
bench-inst:
	@$(MAKE) -s install DESTDIR=$(B)/bench/inst PREFIX=/usr >/dev/null

# On the host: ujail next to bubblewrap and unshare(1).
bench-ujail: deps
	@$(MAKE) -s ujail $(B)/bin/ujail-deps $(B)/bench/spawn_time $(B)/bench/ns_floor && \
		bench/ujail_bench.sh

# What each namespace and the cgroup add to a jail's start-up, next to
# bubblewrap (bench/ujail_ns_bench.sh): bench-ns on the host, bench-ns-qemu
# in QEMU on the patched kernel, whose cgroup2 has the controllers the
# limits need (a cgroup v1 host has none).
# bench-ns-aarch64 and bench-ns-mipsel: the same in the router target's
# guest, with its own programs.
.PHONY: bench-ns bench-ns-qemu bench-ns-aarch64 bench-ns-mipsel

bench-ns: deps
	@$(MAKE) -s ujail $(B)/bin/ujail-deps $(B)/bench/spawn_time $(B)/bench/ns_floor && \
		bench/ujail_ns_bench.sh

bench-ns-qemu: deps kernel
	@$(MAKE) -s ujail $(B)/bin/ujail-deps $(B)/bench/spawn_time $(B)/bench/ns_floor && \
		bench/ujail_ns_bench.sh --qemu

bench-ns-aarch64 bench-ns-mipsel: bench-ns-%: deps
	@bench/ujail_ns_bench.sh --qemu $*

# utrace next to strace -f -c (bench/utrace_bench.sh), on the host.
.PHONY: bench-utrace

$(B)/bench/sysloop: $(TOP)/bench/sysloop.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror $(DEPFLAGS) -static -o $@ $<

bench-utrace: deps
	@$(MAKE) -s $(B)/bin/utrace $(B)/bench/spawn_time $(B)/bench/sysloop && bench/utrace_bench.sh

# jailfs next to the bind backend, overlayfs and bubblewrap
# (bench/jailfs_bench.sh), in QEMU on the patched kernel: the module
# cannot be loaded on the host.
.PHONY: bench-jailfs

$(B)/bench/jailfs_bench: $(TOP)/bench/jailfs_bench.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror $(DEPFLAGS) -static -o $@ $<

DEPS += $(B)/bench/spawn_time $(B)/bench/ns_floor $(B)/bench/sysloop $(B)/bench/jailfs_bench

bench-jailfs: deps kernel
	@$(MAKE) -s $(B)/jailfs/patched/jailfs.ko $(B)/bench/jailfs_bench && bench/jailfs_bench.sh
