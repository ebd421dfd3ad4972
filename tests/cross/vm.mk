# The router targets' QEMU system guests (scripts/vm.sh --arch TARGET):
# their kernel, jailfs module and test programs. Included by the top
# Makefile after scripts/cross.mk, whose sysroot and headers it uses.
#
#   make vm-aarch64      (the same for mipsel) everything scripts/check.sh's
#                        guest suite for the target needs:
#   build/kernel/out-TARGET/                 the kernel (scripts/kernel.sh)
#   build/jailfs/TARGET/jailfs.ko            jailfs against it, W=1
#   build/TARGET/tests/vm/*_test, seccomp_bpf   the kselftests, static
#   build/TARGET/tests/vm/seccomp/           sysprobe-*, nostart (run_test.sh)
#   build/TARGET/tests/vm/probes/            ujail's probes (jail_test.sh)
#   build/TARGET/tests/vm/utrace/            utrace's test programs
#   build/TARGET/tests/vm/lib/libpreload-seccomp.so   the shim for glibc
#                        programs (the product has the musl one only)
#
# The kselftests and the glibc variants link Debian's cross glibc
# (libc6-dev-ARCH-cross; the guest gets its ld.so and libc.so.6, see
# scripts/check.sh); seccomp_bpf, the kernel's own suite, is built from
# the patched source tree by path, as on the host, and links libcap.a from
# Debian's libcap-dev for the target (scripts/target-deb.sh, not installed).
# The musl variants use the target's musl sysroot (scripts/cross-sysroot.sh).

# seccomp_bpf.c does not build for MIPS against the uapi headers (6.12, as
# upstream's own selftests Makefile would build it): it includes
# asm/unistd_nr_{o32,n32,n64}.h, kernel headers that archheaders generates
# (headers_install leaves them in its object directory, which cross.mk's
# khdr rule keeps), and uses __NR_O32_Linux, which only the kernel's
# internal asm/unistd.h defines (4000, the o32 base).
XSECCOMP_BPF_FLAGS_mipsel := -idirafter $(B)/mipsel/obj-headers/arch/mips/include/generated \
	-D__NR_O32_Linux=4000

# VM_RULES TARGET
define VM_RULES
XV_$(1) := $(B)/$(1)/tests/vm
XGCC_$(1) := $(CROSS_TRIPLE_$(1))-gcc
XKSELFTEST_CFLAGS_$(1) := $(subst $(KHDR),$(B)/$(1)/khdr,$(KSELFTEST_CFLAGS))
XKSELFTESTS_$(1) := $$(addprefix $(B)/$(1)/tests/vm/,log_errno_test log_errno_absent_test \
	landlock_abi_test seccomp_bpf jailfs_mount_test jailfs_ops_test jailfs_fsx_test \
	jailfs_stress_test)
XVPROGS_$(1) := $$(foreach v,$(SECCOMP_PROGS_VARIANTS),$(B)/$(1)/tests/vm/seccomp/sysprobe-$$(v)) \
	$(B)/$(1)/tests/vm/seccomp/nostart $(B)/$(1)/tests/vm/lib/libpreload-seccomp.so \
	$$(addprefix $(B)/$(1)/tests/vm/probes/,probe probe-glibc probe-musl pty_run) \
	$$(foreach p,$(UTRACE_PROGS_NAMES),$$(foreach v,glibc glibc-static musl musl-static,\
		$(B)/$(1)/tests/vm/utrace/$$(p)-$$(v)))

.PHONY: vm-$(1) vm-tests-$(1) kernel-$(1)-jailfs

vm-$(1): kernel-$(1)-jailfs vm-tests-$(1) cross-$(1)

vm-tests-$(1): $$(XKSELFTESTS_$(1)) $$(XVPROGS_$(1))

kernel-$(1)-jailfs: kernel-$(1)
	@$(MAKE) -s $(B)/jailfs/$(1)/jailfs.ko

$(B)/jailfs/$(1)/jailfs.ko: $(JAILFS_SRC) $(B)/kernel/out-$(1)/.ujail-key
	@scripts/jailfs-build.sh $(1)

$(B)/$(1)/tests/vm/%_test: tests/kselftest/seccomp/%_test.c tests/kselftest/seccomp/seccomp_util.h \
		$(B)/$(1)/khdr/.key
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $$(XKSELFTEST_CFLAGS_$(1)) -o $$@ $$< -lpthread

$(B)/$(1)/tests/vm/landlock_abi_test: tests/kselftest/landlock/landlock_abi_test.c $(B)/$(1)/khdr/.key
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $$(XKSELFTEST_CFLAGS_$(1)) -o $$@ $$<

$(B)/$(1)/tests/vm/jailfs_%_test: tests/kselftest/jailfs/jailfs_%_test.c \
		tests/kselftest/jailfs/jailfs_util.h $(B)/$(1)/khdr/.key
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $$(XKSELFTEST_CFLAGS_$(1)) -I$(TOP)/tests/kselftest/jailfs -o $$@ $$<

# -Wall only, as on the host: it is not our code.
$(B)/$(1)/tests/vm/seccomp_bpf: $(SELFTESTS)/seccomp/seccomp_bpf.c $(B)/$(1)/khdr/.key
	@mkdir -p $$(@D)
	@cap=$$$$(scripts/target-deb.sh $(1) libcap-dev) && \
	$$(XGCC_$(1)) -static -O2 -Wall -Wl,-no-as-needed -isystem $(B)/$(1)/khdr/include \
		-I$(SELFTESTS) $(XSECCOMP_BPF_FLAGS_$(1)) -isystem $$$$cap/usr/include \
		-L$$$$cap/usr/lib/$(CROSS_TRIPLE_$(1)) \
		-o $$@ $$< -lpthread -lcap

$(B)/$(1)/tests/vm/seccomp/%-glibc: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(SECCOMP_PROGS_CFLAGS) -o $$@ $$<

$(B)/$(1)/tests/vm/seccomp/%-glibc-static: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(SECCOMP_PROGS_CFLAGS) -static -o $$@ $$<

$(B)/$(1)/tests/vm/seccomp/%-musl: $(SECCOMP_PROGS_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(SECCOMP_PROGS_CFLAGS) -o $$@ $$<

$(B)/$(1)/tests/vm/seccomp/%-musl-static: $(SECCOMP_PROGS_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(SECCOMP_PROGS_CFLAGS) -static -o $$@ $$<

$(B)/$(1)/tests/vm/seccomp/nostart: $(SECCOMP_PROGS_SRC)/nostart.c
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(SECCOMP_PROGS_CFLAGS) -nostartfiles -o $$@ $$<

$(B)/$(1)/tests/vm/lib/libpreload-seccomp.so: $(PRELOAD_SRC) $(USR_HDRS)
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(USR_CFLAGS) -DUJS_SHIM_COMPILER='"$(CROSS_SHIM_COMPILER)"' -fPIC -shared \
		-Wl,-z,now -o $$@ $(PRELOAD_SRC)

$(B)/$(1)/tests/vm/probes/probe: $(UJT_PROBE_DEPS) $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UJT_PROBE_CFLAGS) -static -o $$@ $(UJT_PROBE_C)

$(B)/$(1)/tests/vm/probes/probe-glibc: $(UJT_PROBE_DEPS)
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(UJT_PROBE_CFLAGS) -o $$@ $(UJT_PROBE_C)

$(B)/$(1)/tests/vm/probes/probe-musl: $(UJT_PROBE_DEPS) $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UJT_PROBE_CFLAGS) -o $$@ $(UJT_PROBE_C)

$(B)/$(1)/tests/vm/probes/pty_run: $(UJT_PROBE_SRC)/pty_run.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UJT_PROBE_CFLAGS) -static -o $$@ $$<

$(B)/$(1)/tests/vm/utrace/%-glibc: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(UTRACE_PROGS_CFLAGS) -o $$@ $$<

$(B)/$(1)/tests/vm/utrace/%-glibc-static: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $$(@D)
	$$(XGCC_$(1)) $(UTRACE_PROGS_CFLAGS) -static -o $$@ $$<

$(B)/$(1)/tests/vm/utrace/%-musl: $(UTRACE_PROGS_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UTRACE_PROGS_CFLAGS) -o $$@ $$<

$(B)/$(1)/tests/vm/utrace/%-musl-static: $(UTRACE_PROGS_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UTRACE_PROGS_CFLAGS) -static -o $$@ $$<
endef

$(foreach t,$(CROSS_TARGETS),$(eval $(call VM_RULES,$(t))))
