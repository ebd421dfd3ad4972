# The userspace for the router targets (aarch64, mipsel): musl, static,
# cross-compiled with Debian's gcc; included by the top Makefile after the
# components' build.mk, whose source lists and flags it reuses.
#
#   make TARGET=aarch64          (or: make cross-aarch64)   the same for mipsel
#   make TARGET=aarch64 cross-check   the pure tests under qemu-user
#
#   build/sysroot/TARGET                 musl, json-c, libnl for TARGET
#                                        (scripts/cross-sysroot.sh; a link into
#                                        /var/cache/ujail-cross)
#   build/TARGET/bin/ujail               static (json-c, libnl-route)
#   build/TARGET/bin/ujail-seccomp       static (json-c); seccomp-trace a link
#   build/TARGET/bin/utrace              static, ptrace backend only
#   build/TARGET/lib/ujail/ujail-keeper  static, -Os, stripped
#   build/TARGET/lib/libpreload-seccomp.so  the shim, for musl programs
#   build/TARGET/tests/unit/*_test       the seccomp unit tests, static
#   build/TARGET/tests/unit-ujail/*_test the ujail unit tests, static
#
# TARGET=x86_64 (or none) is the host build, as before. utrace's ebpf
# backend needs libbpf, libelf and zlib, not built for musl here: the
# targets' utrace has userspace/utrace/nobpf/ in its place (auto = ptrace).
# The shim runs the compiler where procd's layout puts it:
# CROSS_SHIM_COMPILER (default /sbin/ujail-seccomp).

CROSS_TARGETS := aarch64 mipsel
CROSS_TRIPLE_aarch64 := aarch64-linux-gnu
CROSS_TRIPLE_mipsel := mipsel-linux-gnu
CROSS_KARCH_aarch64 := arm64
CROSS_KARCH_mipsel := mips
CROSS_SHIM_COMPILER ?= /sbin/ujail-seccomp

ifneq ($(filter-out x86_64,$(TARGET)),)
ifeq ($(filter $(TARGET),$(CROSS_TARGETS)),)
$(error TARGET=$(TARGET): x86_64 (the default), $(CROSS_TARGETS))
endif
.DEFAULT_GOAL := cross-$(TARGET)
.PHONY: cross-check
cross-check: cross-check-$(TARGET)
endif

.PHONY: cross cross-force
cross: $(addprefix cross-,$(CROSS_TARGETS))
cross-force:

# The sources of the targets' utrace: the ebpf loader stubbed out.
CROSS_UT_SRC := $(filter-out $(UT_SRC)/bpf_count.c,$(UT_LIB_SRC)) \
	$(UT_SRC)/nobpf/bpf_count_none.c
CROSS_UNIT_SRC := $(wildcard $(TOP)/tests/unit/*_test.c)
CROSS_UJ_UNIT_SRC := $(UJ_TEST_SRC)
# ujail's flags with the sysroot's libnl headers for the host's.
CROSS_UJ_CFLAGS = $(subst -isystem /usr/include/libnl3,-isystem $(B)/sysroot/$(1)/include/libnl3,$(UJ_CFLAGS))
CROSS_LDLIBS := -ljson-c $(UJ_NL_LIBS)

# CROSS_RULES TARGET
define CROSS_RULES
X_$(1) := $(B)/$(1)
XO_$(1) := $(B)/$(1)/obj
XCC_$(1) := $(CROSS_TRIPLE_$(1))-gcc -specs=$(B)/sysroot/$(1)/lib/musl-gcc.specs
XAR_$(1) := $(CROSS_TRIPLE_$(1))-ar
XSEC_OBJ_$(1) := $$(patsubst %.c,$(B)/$(1)/obj/seccomp/%.o,$$(notdir $(SECCOMP_LIB_SRC)))
XUT_OBJ_$(1) := $$(patsubst $(UT_SRC)/%.c,$(B)/$(1)/obj/utrace-lib/%.o,$(CROSS_UT_SRC))
XUJ_OBJ_$(1) := $$(patsubst $(UJ_SRC)/%.c,$(B)/$(1)/obj/ujail/%.o,$(UJ_LIB_SRC))
XUJ_CFLAGS_$(1) := $(call CROSS_UJ_CFLAGS,$(1))
XPROGS_$(1) := $(B)/$(1)/bin/ujail $(B)/$(1)/bin/ujail-seccomp $(B)/$(1)/bin/seccomp-trace \
	$(B)/$(1)/bin/utrace $(B)/$(1)/lib/ujail/ujail-keeper $(B)/$(1)/lib/libpreload-seccomp.so
XTESTS_$(1) := $$(patsubst $(TOP)/tests/unit/%.c,$(B)/$(1)/tests/unit/%,$(CROSS_UNIT_SRC)) \
	$$(patsubst $(TOP)/tests/unit-ujail/%.c,$(B)/$(1)/tests/unit-ujail/%,$(CROSS_UJ_UNIT_SRC))

.PHONY: cross-$(1) cross-check-$(1)
cross-$(1): $$(XPROGS_$(1)) $$(XTESTS_$(1))

cross-check-$(1): cross-$(1) $(B)/bin/ujail-seccomp
	@$(TOP)/tests/cross/qemu_test.sh $(1)

# The sysroot: rebuilt (or found in the cache) when a source package's
# version changes; this stamp changes only then.
$(B)/$(1)/.sysroot: cross-force
	@mkdir -p $$(@D)
	@$(TOP)/scripts/cross-sysroot.sh $(1) $(B)/sysroot/$(1)
	@readlink -f $(B)/sysroot/$(1) >$$@.tmp && \
		{ cmp -s $$@.tmp $$@ && rm -f $$@.tmp || mv $$@.tmp $$@; }

# The patched tree's uapi headers for the keeper, as on the host.
$(B)/$(1)/khdr/.key: $(KSRC)/.ujail-key
	@rm -rf $(B)/$(1)/khdr $(B)/$(1)/obj-headers
	+@$(MAKE) -s -C $(KSRC) ARCH=$(CROSS_KARCH_$(1)) O=$(B)/$(1)/obj-headers headers_install \
		INSTALL_HDR_PATH=$(B)/$(1)/khdr >/dev/null
	@cp $(KSRC)/.ujail-key $$@

$(B)/$(1)/obj/seccomp/%.o: $(US)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(USR_CFLAGS) $(DEPFLAGS) -c -o $$@ $$<

$(B)/$(1)/obj/seccomp/syscall_tables.o: $(GEN)/syscall_tables.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(USR_CFLAGS) $(DEPFLAGS) -c -o $$@ $$<

$(B)/$(1)/obj/utrace-lib/%.o: $(UT_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UT_CFLAGS) $(DEPFLAGS) -c -o $$@ $$<

$(B)/$(1)/obj/ujail/%.o: $(UJ_SRC)/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $$(XUJ_CFLAGS_$(1)) $(DEPFLAGS) -c -o $$@ $$<

$(B)/$(1)/obj/libujail-seccomp.a: $$(XSEC_OBJ_$(1))
	@rm -f $$@
	$$(XAR_$(1)) rcs $$@ $$^

$(B)/$(1)/obj/libutrace.a: $$(XUT_OBJ_$(1))
	@rm -f $$@
	$$(XAR_$(1)) rcs $$@ $$^

$(B)/$(1)/obj/libujail.a: $$(XUJ_OBJ_$(1))
	@rm -f $$@
	$$(XAR_$(1)) rcs $$@ $$^

$(B)/$(1)/bin/ujail-seccomp: $(US)/main.c $(B)/$(1)/obj/libujail-seccomp.a
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(USR_CFLAGS) $(DEPFLAGS) -static -o $$@ $$< $(B)/$(1)/obj/libujail-seccomp.a -ljson-c

$(B)/$(1)/bin/seccomp-trace: $(B)/$(1)/bin/ujail-seccomp
	ln -sf ujail-seccomp $$@

$(B)/$(1)/bin/utrace: $(UT_MAIN) $(B)/$(1)/obj/libutrace.a \
		$(B)/$(1)/obj/libujail-seccomp.a
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(UT_CFLAGS) $(DEPFLAGS) -static -o $$@ $$< $(B)/$(1)/obj/libutrace.a \
		$(B)/$(1)/obj/libujail-seccomp.a -ljson-c

$(B)/$(1)/bin/ujail: $(UJ_SRC)/main.c $(B)/$(1)/obj/libujail.a $(B)/$(1)/obj/libutrace.a \
		$(B)/$(1)/obj/libujail-seccomp.a
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $$(XUJ_CFLAGS_$(1)) $(DEPFLAGS) -static -o $$@ $$< $(B)/$(1)/obj/libujail.a \
		$(B)/$(1)/obj/libutrace.a $(B)/$(1)/obj/libujail-seccomp.a $(CROSS_LDLIBS)

$(B)/$(1)/lib/ujail/ujail-keeper: $(UJ_KEEPER_COMMON) $(GEN)/keeper_tables-$(1).c \
		$(B)/$(1)/khdr/.key $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(subst $(KHDR),$(B)/$(1)/khdr,$(UJ_KEEPER_CFLAGS)) -o $$@ $(UJ_KEEPER_COMMON) \
		$(GEN)/keeper_tables-$(1).c
	$$(call MULTI_DEPS,$$(XCC_$(1)) $$(subst $(KHDR),$(B)/$(1)/khdr,$$(UJ_KEEPER_CFLAGS)),$(UJ_KEEPER_COMMON))

$(B)/$(1)/lib/libpreload-seccomp.so: $(PRELOAD_SRC) $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(USR_CFLAGS) -DUJS_SHIM_COMPILER='"$(CROSS_SHIM_COMPILER)"' -fPIC -shared \
		-Wl,-z,now -o $$@ $(PRELOAD_SRC)
	$$(call MULTI_DEPS,$$(XCC_$(1)) $(USR_CFLAGS) -DUJS_SHIM_COMPILER='"$(CROSS_SHIM_COMPILER)"',$(PRELOAD_SRC))

$(B)/$(1)/tests/unit/%_test: $(TOP)/tests/unit/%_test.c $(B)/$(1)/obj/libujail-seccomp.a \
		$(TOP)/tests/unit/reference.c
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $(USR_CFLAGS) -I$(TOP)/tests/unit -static -o $$@ $$< \
		$(TOP)/tests/unit/reference.c $(B)/$(1)/obj/libujail-seccomp.a -ljson-c
	$$(call MULTI_DEPS,$$(XCC_$(1)) $(USR_CFLAGS) -I$(TOP)/tests/unit,$$< $(TOP)/tests/unit/reference.c)

$(B)/$(1)/tests/unit-ujail/%_test: $(TOP)/tests/unit-ujail/%_test.c $(B)/$(1)/obj/libujail.a \
		$(B)/$(1)/obj/libutrace.a $(B)/$(1)/obj/libujail-seccomp.a
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $$(XUJ_CFLAGS_$(1)) $(DEPFLAGS) -I$(TOP)/tests/unit -DUJ_TEST_DIR='"$(TOP)/tests/unit-ujail"' \
		-static -o $$@ $$< $(B)/$(1)/obj/libujail.a $(B)/$(1)/obj/libutrace.a \
		$(B)/$(1)/obj/libujail-seccomp.a $(CROSS_LDLIBS)

# For make bench-ns-TARGET (bench/ujail_ns_bench.sh --qemu TARGET): the
# dependency lister bwrap's staging uses, and the timer and the kernel's
# floor, static.
$(B)/$(1)/bin/ujail-deps: $(UJ_SRC)/deps/deps_main.c $(B)/$(1)/obj/libujail.a
	@mkdir -p $$(@D)
	$$(XCC_$(1)) $$(XUJ_CFLAGS_$(1)) $(DEPFLAGS) -static -o $$@ $$< $(B)/$(1)/obj/libujail.a \
		$(CROSS_LDLIBS)

$(B)/$(1)/bench/%: $(TOP)/bench/%.c $(B)/$(1)/.sysroot
	@mkdir -p $$(@D)
	$$(XCC_$(1)) -std=gnu11 -O2 -Wall -Wextra -Werror $(DEPFLAGS) -static -o $$@ $$<

XBENCH_$(1) := $(B)/$(1)/bin/ujail-deps $(B)/$(1)/bench/spawn_time $(B)/$(1)/bench/ns_floor

DEPS += $$(XSEC_OBJ_$(1)) $$(XUT_OBJ_$(1)) $$(XUJ_OBJ_$(1)) $$(XPROGS_$(1)) $$(XTESTS_$(1)) \
	$$(XBENCH_$(1))
endef

$(foreach t,$(CROSS_TARGETS),$(eval $(call CROSS_RULES,$(t))))
