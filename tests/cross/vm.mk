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

# utrace with its ebpf backend, for Debian's stock arm64 kernels in the
# aarch64 guest (they have BTF; the target's own utrace is musl and
# ptrace-only, cross.mk): static glibc like the x86_64 guests' utrace
# (build/bin-static/utrace), against Debian's arm64 archives of libbpf,
# libelf, zlib and json-c (scripts/target-deb.sh, nothing installed).
# The counter is compiled for arm64 and embedded by its own skeleton,
# which -I finds before the host's in build/gen.
#
#   make vm-stock-aarch64   what the stock guests add to make vm-aarch64:
#   build/aarch64/tests/vm/utrace-ebpf      the command
#   build/aarch64/ebpf/gen/count.skel.h     the arm64 counter's skeleton
#   build/aarch64/tests/vm/tpflip           the text-patching stress's
#                                           program (tests/runner/tcg_stress.sh)
#   build/jailfs/stock-SERIES-arm64/jailfs.ko   jailfs against Debian's
#                                           6.12 and 6.1 arm64 headers
XEB := $(B)/aarch64/ebpf
XEB_DEBS := libbpf-dev libelf-dev zlib1g-dev libjson-c-dev
XEB_DEB_DIRS := $(addprefix $(B)/target-deb/aarch64/,$(XEB_DEBS))
XEB_CFLAGS := -I$(XEB)/gen $(UT_CFLAGS) $(addprefix -isystem ,$(addsuffix /usr/include,$(XEB_DEB_DIRS)))
XEB_LDFLAGS := $(addprefix -L,$(addsuffix /usr/lib/aarch64-linux-gnu,$(XEB_DEB_DIRS)))
XEB_BPF_CFLAGS := $(subst __TARGET_ARCH_$(UT_BPF_ARCH),__TARGET_ARCH_arm64,$(filter-out -idirafter \
	/usr/include/%,$(UT_BPF_CFLAGS))) -idirafter /usr/aarch64-linux-gnu/include
XEB_SEC_OBJ := $(patsubst %.c,$(XEB)/obj/seccomp/%.o,$(notdir $(SECCOMP_LIB_SRC)))
XEB_UT_OBJ := $(patsubst $(UT_SRC)/%.c,$(XEB)/obj/utrace/%.o,$(UT_LIB_SRC))

.PHONY: vm-stock-aarch64
vm-stock-aarch64: $(B)/aarch64/tests/vm/utrace-ebpf $(B)/aarch64/tests/vm/tpflip \
	$(B)/jailfs/stock-6.12-arm64/jailfs.ko $(B)/jailfs/stock-6.1-arm64/jailfs.ko

# The packages, unpacked again only when a version changes.
$(XEB)/.debs: cross-force
	@mkdir -p $(@D)
	@for p in $(XEB_DEBS); do scripts/target-deb.sh aarch64 $$p >/dev/null || exit 1; \
		cat $(B)/target-deb/aarch64/$$p/.version; done >$@.tmp && \
		{ cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }

$(XEB)/gen/utrace-count.bpf.o: $(UT_SRC)/count.bpf.c
	@mkdir -p $(@D)
	clang $(XEB_BPF_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(XEB)/gen/count.skel.h: $(XEB)/gen/utrace-count.bpf.o
	bpftool gen skeleton $< name utrace_kcount >$@.tmp && mv $@.tmp $@

$(XEB)/obj/seccomp/%.o: %.c $(XEB)/.debs
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc $(XEB_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(XEB)/obj/utrace/%.o: $(UT_SRC)/%.c $(XEB)/.debs
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc $(XEB_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(XEB)/obj/utrace/bpf_count.o: $(XEB)/gen/count.skel.h

$(B)/aarch64/tests/vm/utrace-ebpf: $(UT_MAIN) $(XEB_UT_OBJ) $(XEB_SEC_OBJ)
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc $(XEB_CFLAGS) $(DEPFLAGS) -static -o $@ $< $(XEB_UT_OBJ) $(XEB_SEC_OBJ) \
		$(XEB_LDFLAGS) -ljson-c $(UT_BPF_LIBS)

$(B)/aarch64/tests/vm/tpflip: $(TOP)/tests/runner/tpflip.c
	@mkdir -p $(@D)
	aarch64-linux-gnu-gcc -std=gnu11 -O2 -static -Wall -Wextra -Werror $(DEPFLAGS) -o $@ $<

DEPS += $(B)/aarch64/tests/vm/tpflip $(XEB)/gen/utrace-count.bpf.o $(XEB_SEC_OBJ) $(XEB_UT_OBJ) $(B)/aarch64/tests/vm/utrace-ebpf
