# Seccomp policy tools, the preload shim and their unit tests; included by
# the top Makefile.
#
#   build/bin/ujail-seccomp                   policy compiler / loader (json-c)
#   build/bin/seccomp-trace                   a link to it: procd's name
#   build/bin-static/ujail-seccomp            the same, static, for the QEMU guest
#   build/bin-asan/ujail-seccomp              the same with ASan + UBSan, for tests
#   build/lib/libpreload-seccomp.so           shim for glibc programs
#   build/lib/musl/libpreload-seccomp.so      shim for musl programs
#   build/tests/unit/*_test                   unit tests (ASan + UBSan), TAP

US := $(TOP)/userspace/seccomp
GEN := $(B)/gen
UB := $(B)/userspace
USR_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I$(US) -I$(GEN)
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
USR_HDRS := $(wildcard $(US)/*.h)

# Every .c in userspace/seccomp except the command is library code.
SECCOMP_LIB_SRC := $(filter-out $(US)/main.c,$(wildcard $(US)/*.c)) $(GEN)/syscall_tables.c
SECCOMP_LIB_OBJ := $(patsubst %.c,$(UB)/obj/%.o,$(notdir $(SECCOMP_LIB_SRC)))
SECCOMP_LIB_ASAN := $(patsubst %.c,$(UB)/asan/%.o,$(notdir $(SECCOMP_LIB_SRC)))
SECCOMP_LIB_STATIC := $(patsubst %.c,$(UB)/static/%.o,$(notdir $(SECCOMP_LIB_SRC)))
PRELOAD_SRC := $(wildcard $(TOP)/preload/*.c) $(US)/install.c $(US)/errmsg.c \
	$(US)/fdpass.c
# The compiler the shim runs for $SECCOMP_FILE: a fixed path (make install
# builds shims of its own with the installed one).
SHIM_COMPILER := $(B)/bin/ujail-seccomp
PRELOAD_CFLAGS = -DUJS_SHIM_COMPILER='"$(SHIM_COMPILER)"'
UNIT_TESTS := $(patsubst $(TOP)/tests/unit/%.c,$(T)/unit/%,$(wildcard $(TOP)/tests/unit/*_test.c))

vpath %.c $(US) $(GEN)

.PHONY: userspace unit-tests clang-check seccomp-compare

userspace: $(B)/bin/ujail-seccomp $(B)/bin/seccomp-trace $(B)/bin-static/ujail-seccomp \
	$(B)/bin-asan/ujail-seccomp $(B)/lib/libpreload-seccomp.so $(B)/lib/musl/libpreload-seccomp.so

unit-tests: $(UNIT_TESTS)

# Syscall tables from the kernel source (make src extracts it).
$(GEN)/syscall_tables.c: $(US)/gen-syscalls.sh $(US)/syscalls-newer.tbl $(KSRC)/.ujail-key
	@mkdir -p $(GEN)
	$(US)/gen-syscalls.sh $(KSRC) >$@.tmp && mv $@.tmp $@

$(UB)/obj/%.o: %.c $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -c -o $@ $<

$(UB)/asan/%.o: %.c $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(SANITIZE) -c -o $@ $<

$(UB)/static/%.o: %.c $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -c -o $@ $<

$(UB)/libujail-seccomp.a: $(SECCOMP_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(UB)/libujail-seccomp-asan.a: $(SECCOMP_LIB_ASAN)
	@rm -f $@
	ar rcs $@ $^

$(B)/bin/ujail-seccomp: $(US)/main.c $(UB)/libujail-seccomp.a $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -o $@ $< $(UB)/libujail-seccomp.a -ljson-c

$(B)/bin/seccomp-trace: $(B)/bin/ujail-seccomp
	ln -sf ujail-seccomp $@

$(B)/bin-static/ujail-seccomp: $(US)/main.c $(SECCOMP_LIB_STATIC) $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -static -o $@ $< $(SECCOMP_LIB_STATIC) -ljson-c

# The runner's tests run once more with this one (valgrind lacks seccomp).
$(B)/bin-asan/ujail-seccomp: $(US)/main.c $(UB)/libujail-seccomp-asan.a $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(SANITIZE) -o $@ $< $(UB)/libujail-seccomp-asan.a -ljson-c

# The shim: libc only, one per libc.
$(B)/lib/libpreload-seccomp.so: $(PRELOAD_SRC) $(USR_HDRS)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(PRELOAD_CFLAGS) -fPIC -shared -Wl,-z,now -o $@ $(PRELOAD_SRC)

$(B)/lib/musl/libpreload-seccomp.so: $(PRELOAD_SRC) $(USR_HDRS)
	@mkdir -p $(@D)
	musl-gcc $(USR_CFLAGS) $(PRELOAD_CFLAGS) -fPIC -shared -Wl,-z,now -o $@ $(PRELOAD_SRC)

# What the tests share that is not a header: the reference evaluator.
UNIT_SHARED_ASAN := $(UB)/asan-test/reference.o

$(UB)/asan-test/%.o: $(TOP)/tests/unit/%.c $(USR_HDRS) $(wildcard $(TOP)/tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(SANITIZE) -I$(TOP)/tests/unit -c -o $@ $<

$(T)/unit/%_test: $(TOP)/tests/unit/%_test.c $(UB)/libujail-seccomp-asan.a $(UNIT_SHARED_ASAN) \
		$(USR_HDRS) $(wildcard $(TOP)/tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) $(SANITIZE) -I$(TOP)/tests/unit -o $@ $< $(UNIT_SHARED_ASAN) \
		$(UB)/libujail-seccomp-asan.a -ljson-c

# Our filters against libseccomp's (libseccomp-dev: this test only).
seccomp-compare: $(T)/seccomp/libseccomp_compare

$(T)/seccomp/libseccomp_compare: $(TOP)/tests/seccomp/libseccomp_compare.c \
		$(UB)/libujail-seccomp.a $(USR_HDRS) $(TOP)/tests/unit/tap.h
	@mkdir -p $(@D)
	$(CC) $(USR_CFLAGS) -I$(TOP)/tests/unit -o $@ $< $(UB)/libujail-seccomp.a \
		-lseccomp -ljson-c

# No warnings under clang either (the build uses gcc).
CLANG_CHECK_SRC = $(filter-out $(GEN)/%,$(SECCOMP_LIB_SRC)) $(US)/main.c $(wildcard $(US)/dl/*.c) \
	$(wildcard $(TOP)/preload/*.c) $(wildcard $(TOP)/tests/unit/*.c) \
	$(TOP)/bench/policy_bench.c $(TOP)/tests/seccomp/libseccomp_compare.c

clang-check: $(GEN)/syscall_tables.c
	@for f in $(CLANG_CHECK_SRC) $(GEN)/syscall_tables.c; do \
		clang $(USR_CFLAGS) $(PRELOAD_CFLAGS) -I$(TOP)/tests/unit -c -o /dev/null $$f || exit 1; \
	done; echo "clang: $(words $(CLANG_CHECK_SRC) x) files without a warning"
