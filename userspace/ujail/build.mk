# ujail: the jail launcher's library, commands and unit tests; included by
# the top Makefile (after userspace/seccomp/build.mk).
#
#   build/userspace/libujail.a          userspace/ujail/*/*.c but the commands
#                                       (the stages' folders: README.md)
#   build/userspace/libujail-asan.a     the same with ASan + UBSan, for tests
#   build/bin/ujail-deps                paths a program needs in a jail
#   build/bin/ujail                     the jail launcher (links the seccomp library)
#   build/lib/ujail/ujail-keeper        what stays resident of a jail: static, musl
#   build/tests/unit-ujail/*_test       unit tests (ASan + UBSan), TAP

UJ_SRC := $(TOP)/userspace/ujail
UJ_B := $(B)/userspace
# Includes name their component: "root/stage.h" (userspace/ujail),
# "seccomp/policy.h" (-S reuses ujail-seccomp's compiler and loader),
# "utrace/session.h" (--trace links utrace's tracer).
UJ_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$(UJ_SRC) \
	-I$(TOP)/userspace -I$(B)/gen -isystem /usr/include/libnl3 \
	-DUJAIL_VERSION='"$(UJAIL_VERSION)"'
UJ_SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# --veth: libnl's rtnetlink (static archives too: ujail is linked -static).
UJ_NL_LIBS := -lnl-route-3 -lnl-3 -lpthread -lm
UJ_LDLIBS := -ljson-c $(UJ_NL_LIBS)
UJ_MAINS := $(UJ_SRC)/main.c $(UJ_SRC)/deps/deps_main.c
# The stages' folders; keeper/ is the keeper's program, dl/ the plugins'
# halves (scripts/install.mk).
UJ_STAGES := options plan deps root isolation creds confine exec trace
# The keeper's cgroup end serves ujail too (a jail the keeper did not take).
UJ_LIB_SRC := $(filter-out $(UJ_MAINS),$(wildcard $(UJ_SRC)/*.c $(UJ_STAGES:%=$(UJ_SRC)/%/*.c))) \
	$(UJ_SRC)/keeper/cgroup_end.c
UJ_LIB_OBJ := $(patsubst $(UJ_SRC)/%.c,$(UJ_B)/ujail-obj/%.o,$(UJ_LIB_SRC))
UJ_LIB_ASAN := $(patsubst $(UJ_SRC)/%.c,$(UJ_B)/ujail-asan/%.o,$(UJ_LIB_SRC))
UJ_TEST_SRC := $(wildcard $(TOP)/tests/unit-ujail/*_test.c)
UJ_UNIT_TESTS := $(patsubst $(TOP)/tests/unit-ujail/%.c,$(T)/unit-ujail/%,$(UJ_TEST_SRC))

UJ_KEEPER := $(B)/lib/ujail/ujail-keeper

.PHONY: ujail ujail-lib ujail-unit-tests ujail-clang-check

# The seccomp preload shims and the keeper are found next to the binary (../lib).
ujail: $(B)/bin/ujail $(B)/lib/libpreload-seccomp.so $(B)/lib/musl/libpreload-seccomp.so \
	$(UJ_KEEPER)

ujail-lib: $(UJ_B)/libujail.a $(B)/bin/ujail-deps

ujail-unit-tests: $(UJ_UNIT_TESTS)

$(UJ_B)/ujail-obj/%.o: $(UJ_SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(UJ_B)/ujail-asan/%.o: $(UJ_SRC)/%.c
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(UJ_SANITIZE) $(DEPFLAGS) -c -o $@ $<

# --version prints VERSION.
$(UJ_B)/ujail-obj/options/options_usage.o $(UJ_B)/ujail-asan/options/options_usage.o: $(TOP)/VERSION

$(UJ_B)/libujail.a: $(UJ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UJ_B)/libujail-asan.a: $(UJ_LIB_ASAN)
	@rm -f $@
	ar rcs $@ $^

$(B)/bin/ujail-deps: $(UJ_SRC)/deps/deps_main.c $(UJ_B)/libujail.a
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(DEPFLAGS) -o $@ $< $(UJ_B)/libujail.a $(UJ_LDLIBS)

# Static by default: a jail starts faster without the dynamic loader's
# work (ujail runs once per service start). UJ_LINK= links dynamically.
UJ_LINK ?= -static

# --trace links utrace's tracer (userspace/utrace, tools/utrace/build.mk).
$(B)/bin/ujail: $(UJ_SRC)/main.c $(UJ_B)/libujail.a $(UJ_B)/libutrace.a $(UJ_B)/libujail-seccomp.a
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(DEPFLAGS) $(UJ_LINK) -o $@ $< $(UJ_B)/libujail.a $(UJ_B)/libutrace.a \
		$(UJ_B)/libujail-seccomp.a \
		$(UJ_LDLIBS) -lcap $(UT_BPF_LIBS)

# The keeper: libc only, static with musl and -Os, so that a running jail
# keeps tens of KB resident; no unwind tables, text and read-only data in
# one segment (noseparate-code: 8 KB less, README "Routers"). From the seccomp library it takes the notify
# supervisor and the program reader.
# Its syscall tables hold its own machine's ABIs only (gen-syscalls.sh
# ARCH...): it names the calls it supervises, compiles no policy.
UJ_KEEPER_COMMON := $(wildcard $(UJ_SRC)/keeper/*.c) $(US)/supervise.c $(US)/bpf.c \
	$(US)/bpf_dump.c $(US)/errmsg.c $(US)/fdpass.c $(US)/syscalls.c $(US)/install.c
KEEPER_ARCHS_x86_64 := x86_64 x32 i386
KEEPER_ARCHS_aarch64 := aarch64 arm
KEEPER_ARCHS_mipsel := mips mipsel
UJ_KEEPER_SRC := $(UJ_KEEPER_COMMON) $(GEN)/keeper_tables-$(shell uname -m).c
# musl has no kernel headers of its own: the patched tree's uapi headers.
# The generated tables include the seccomp library's syscalls.h bare (-I$(US)).
UJ_KEEPER_CFLAGS := -std=gnu11 -Os -Wall -Wextra -Werror -D_GNU_SOURCE -I$(UJ_SRC) \
	-I$(TOP)/userspace -I$(US) -I$(GEN) -isystem $(KHDR)/include -static -fno-pie -no-pie -ffunction-sections -fdata-sections -Wl,--gc-sections -s \
	-fno-asynchronous-unwind-tables -Wl,-z,noseparate-code

$(GEN)/keeper_tables-%.c: $(US)/gen-syscalls.sh $(US)/syscalls-newer.tbl $(KSRC)/.ujail-key
	@mkdir -p $(@D)
	$(US)/gen-syscalls.sh $(KSRC) $(KEEPER_ARCHS_$*) >$@.tmp && mv $@.tmp $@

$(UJ_KEEPER): $(UJ_KEEPER_SRC) | headers
	@mkdir -p $(@D)
	musl-gcc $(UJ_KEEPER_CFLAGS) -o $@ $(UJ_KEEPER_SRC)
	$(call MULTI_DEPS,musl-gcc $(UJ_KEEPER_CFLAGS),$(UJ_KEEPER_SRC))

# Tests find their fixture scripts through UJ_TEST_DIR.
# option_table.c takes --trace-backend's names from utrace's backend.c;
# utrace_parts_test tests utrace's library.
$(T)/unit-ujail/%_test: $(TOP)/tests/unit-ujail/%_test.c $(UJ_B)/libujail-asan.a \
		$(UJ_B)/libutrace-asan.a $(UJ_B)/libujail-seccomp-asan.a
	@mkdir -p $(@D)
	$(CC) $(UJ_CFLAGS) $(UJ_SANITIZE) $(DEPFLAGS) -I$(TOP)/tests/unit \
		-DUJ_TEST_DIR='"$(TOP)/tests/unit-ujail"' -o $@ $< $(UJ_B)/libujail-asan.a \
		$(UJ_B)/libutrace-asan.a $(UJ_B)/libujail-seccomp-asan.a $(UJ_LDLIBS)

DEPS += $(UJ_LIB_OBJ) $(UJ_LIB_ASAN) $(B)/bin/ujail-deps $(B)/bin/ujail $(UJ_KEEPER) $(UJ_UNIT_TESTS)

# No warnings under clang either.
ujail-clang-check:
	@for f in $(sort $(UJ_LIB_SRC) $(wildcard $(UJ_MAINS)) $(UJ_TEST_SRC) $(wildcard $(UJ_SRC)/keeper/*.c) $(wildcard $(UJ_SRC)/dl/*.c)); do \
		clang $(UJ_CFLAGS) -I$(TOP)/tests/unit \
			-DUJ_TEST_DIR='"$(TOP)/tests/unit-ujail"' \
			-c -o /dev/null $$f || exit 1; \
	done; echo "clang: ujail, $(words $(sort $(UJ_LIB_SRC) $(wildcard $(UJ_MAINS)) $(UJ_TEST_SRC) \
		$(wildcard $(UJ_SRC)/keeper/*.c) $(wildcard $(UJ_SRC)/dl/*.c))) files without a warning"
