# jailfs: the module against each test kernel, and its kselftests.
#
#   make jailfs              the module for our kernel and Debian's 6.12 and 6.1
#   make jailfs-kselftests   the static test programs

JAILFS_SRC := $(wildcard kernel/jailfs/*.[ch]) kernel/jailfs/Kbuild
JAILFS_KERNELS := patched stock-6.12 stock-6.1
JAILFS_MODULES := $(foreach k,$(JAILFS_KERNELS),$(B)/jailfs/$(k)/jailfs.ko)
JAILFS_TESTS := $(T)/jailfs_mount_test $(T)/jailfs_ops_test $(T)/jailfs_fsx_test \
	$(T)/jailfs_stress_test

.PHONY: jailfs jailfs-debug jailfs-kselftests

# The kernel first: the patched module is rebuilt when the kernel changed.
jailfs: kernel
	@$(MAKE) -s $(JAILFS_MODULES)

$(B)/jailfs/patched/jailfs.ko: $(JAILFS_SRC) $(B)/kernel/out-patched/.ujail-key
	@scripts/jailfs-build.sh patched

# The debug kernel's (make check-debug), not part of make jailfs.
jailfs-debug: kernel-debug
	@$(MAKE) -s $(B)/jailfs/debug/jailfs.ko

$(B)/jailfs/debug/jailfs.ko: $(JAILFS_SRC) $(B)/kernel/out-debug/.ujail-key
	@scripts/jailfs-build.sh debug

$(B)/jailfs/stock-%/jailfs.ko: $(JAILFS_SRC)
	@scripts/jailfs-build.sh stock-$*

DEPS += $(JAILFS_TESTS)

jailfs-kselftests: headers
	@$(MAKE) -s $(JAILFS_TESTS)

$(T)/jailfs_%_test: tests/kselftest/jailfs/jailfs_%_test.c $(KSRC)/.ujail-key
	@mkdir -p $(T)
	$(CC) $(KSELFTEST_CFLAGS) $(DEPFLAGS) -I$(TOP)/tests/kselftest/jailfs -o $@ $<
