# ujail tests that need root and namespaces; included by the top Makefile
# (after userspace/ujail/build.mk, which builds the library).
#
#   build/tests/ujail/probes/*      helpers of tests/ujail/jail_test.sh
#   build/tests/ujail/rootfs_test   the jail's root filesystem, for real:
#                                   each case in its own mount + pid
#                                   namespace; TAP; skips unless root
#
# Plain -O2 -g: ASan does not mix with pivot_root and forks into new
# namespaces, and valgrind 3.19 lacks fsopen/open_tree/move_mount.

UJT_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-I$(TOP)/userspace/ujail -I$(TOP)/userspace -I$(TOP)/tests/unit
UJT_LIB := $(B)/userspace/libujail.a $(B)/userspace/libujail-seccomp.a
UJT_TESTS := $(T)/ujail/rootfs_test

.PHONY: ujail-root-tests

ujail-root-tests: $(UJT_TESTS)

$(T)/ujail/rootfs_test: $(TOP)/tests/ujail/rootfs_test.c $(UJT_LIB)
	@mkdir -p $(@D)
	$(CC) $(UJT_CFLAGS) $(DEPFLAGS) -o $@ $< $(UJT_LIB)

# Probes of tests/ujail/jail_test.sh: what a jailed service tries. probe is
# static (needs nothing staged); probe-glibc and probe-musl are dynamic (the
# staging of libraries, the seccomp shim); pty_run runs on the host.
UJT_PROBE_SRC := $(TOP)/tests/ujail/probes
UJT_PROBE_OUT := $(T)/ujail/probes
UJT_PROBE_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE
UJT_PROBES := $(UJT_PROBE_OUT)/probe $(UJT_PROBE_OUT)/probe-glibc \
	$(UJT_PROBE_OUT)/probe-musl $(UJT_PROBE_OUT)/pty_run

.PHONY: ujail-jail-tests

# What tests/ujail/jail_test.sh needs.
ujail-jail-tests: ujail $(UJT_PROBES)

# surface.c: the kernel surface ujail's baseline closes.
UJT_PROBE_C := $(UJT_PROBE_SRC)/probe.c $(UJT_PROBE_SRC)/surface.c

$(UJT_PROBE_OUT)/probe: $(UJT_PROBE_C)
	@mkdir -p $(@D)
	$(CC) $(UJT_PROBE_CFLAGS) -static -o $@ $(UJT_PROBE_C)
	$(call MULTI_DEPS,$(CC) $(UJT_PROBE_CFLAGS),$(UJT_PROBE_C))

$(UJT_PROBE_OUT)/probe-glibc: $(UJT_PROBE_C)
	@mkdir -p $(@D)
	gcc $(UJT_PROBE_CFLAGS) -o $@ $(UJT_PROBE_C)
	$(call MULTI_DEPS,gcc $(UJT_PROBE_CFLAGS),$(UJT_PROBE_C))

$(UJT_PROBE_OUT)/probe-musl: $(UJT_PROBE_C)
	@mkdir -p $(@D)
	musl-gcc $(UJT_PROBE_CFLAGS) -o $@ $(UJT_PROBE_C)
	$(call MULTI_DEPS,musl-gcc $(UJT_PROBE_CFLAGS),$(UJT_PROBE_C))

$(UJT_PROBE_OUT)/pty_run: $(UJT_PROBE_SRC)/pty_run.c
	@mkdir -p $(@D)
	$(CC) $(UJT_PROBE_CFLAGS) $(DEPFLAGS) -o $@ $<

DEPS += $(UJT_TESTS) $(UJT_PROBES)
