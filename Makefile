# ujail: service jailing for Linux. See README.md.
#
#   make check    install what is missing, build everything, run every test
#                 (host and QEMU); ends with "N passed, N failed"
#   make check-aarch64, make check-mipsel   one router target's guest suite
#   make demo     boot the patched kernel and show a denied syscall
#   make bench    benchmarks (bench/), in QEMU
#   make kernel   the patched test kernel only (make kernel-aarch64,
#                 make kernel-mipsel: the router targets' QEMU kernels)
#   make install  the programs, dynamic and stripped: [DESTDIR=] [PREFIX=]
#                 [LAYOUT=prefix|procd] (scripts/install.mk, README.md);
#                 make uninstall removes them
#   make size     the installed files' sizes next to procd's (bench/size.sh)
#   make deb      the Debian packages ujail and jailfs-dkms, in
#                 build/packages/ (scripts/deb.sh, debian/)

SHELL := /bin/bash
TOP := $(CURDIR)
B := $(TOP)/build
KSRC := $(B)/kernel/src
KHDR := $(B)/kernel/headers
SELFTESTS := $(KSRC)/tools/testing/selftests
T := $(B)/tests

CC ?= gcc
# The release, from one place: ujail --version, the Debian packages
# (scripts/deb-changelog.sh writes debian/changelog from it) and the
# jailfs-dkms source directory; the man pages' .TH lines and
# kernel/jailfs/dkms.conf carry it too, checked by
# tests/build/packages_test.sh.
UJAIL_VERSION := $(shell cat $(TOP)/VERSION)
# Every C compile writes the headers it read beside its output (-MMD; -MP:
# a removed header is no error), so no header list is kept by hand. A
# command that compiles several sources into one output writes them with
# MULTI_DEPS (COMPILER AND FLAGS, SOURCES) into $@.d. Each build file adds
# its outputs to DEPS; their .d files are read at the end.
DEPFLAGS := -MMD -MP
MULTI_DEPS = $(1) -MM -MP -MQ $@ $(2) >$@.d
DEPS :=
# Test programs run in a busybox initramfs: link them statically.
KSELFTEST_CFLAGS := -std=gnu11 -O2 -g -static -Wall -Wextra -Wno-unused-parameter \
	-Werror -isystem $(KHDR)/include -isystem $(SELFTESTS) \
	-I$(TOP)/tests/kselftest/seccomp

.PHONY: all deb deps src kernel kernel-audit kernel-nolog kernel-debug kernel-vanilla kernel-aarch64 \
	kernel-mipsel headers kselftests \
	check check-debug check-aarch64 check-mipsel demo bench bench-policy bench-ujail bench-ns bench-ns-qemu bench-utrace bench-jailfs \
	bench-programs demo-programs clean

all: kernel kselftests

deps:
	@scripts/deps.sh

# Extracting and patching is cheap and re-done only when a patch changes.
src: deps
	@scripts/kernel.sh src patched

# Targets that only read the source tree (syscall tables, uapi headers)
# extract it on a fresh clone too (make install, make userspace).
$(KSRC)/.ujail-key:
	@scripts/deps.sh
	@scripts/kernel.sh src patched

kernel: src
	@scripts/kernel.sh build patched

kernel-audit: src
	@scripts/kernel.sh build audit

kernel-nolog: src
	@scripts/kernel.sh build nolog

kernel-debug: src
	@scripts/kernel.sh build debug

kernel-vanilla: deps
	@scripts/kernel.sh build vanilla

# The series for the router targets' QEMU machines (scripts/kernel.sh):
# aarch64 on -M virt, mipsel (32-bit) on -M malta.
kernel-aarch64 kernel-mipsel: kernel-%: src
	@scripts/kernel.sh build $*

# uapi headers of the patched tree, for the test programs.
headers: src
	@if [ ! -f $(KHDR)/.key ] || ! cmp -s $(KHDR)/.key $(KSRC)/.ujail-key; then \
		rm -rf $(KHDR) $(B)/kernel/obj-headers; \
		$(MAKE) -s -C $(KSRC) O=$(B)/kernel/obj-headers headers_install \
			INSTALL_HDR_PATH=$(KHDR) >/dev/null && \
		cp $(KSRC)/.ujail-key $(KHDR)/.key; \
	fi

KSELFTESTS := $(T)/log_errno_test $(T)/log_errno_absent_test $(T)/log_errno_audit_test \
	$(T)/seccomp_bpf $(T)/seccomp_benchmark $(T)/landlock_abi_test

kselftests: headers
	@$(MAKE) -s $(KSELFTESTS)

$(T)/%_test: tests/kselftest/seccomp/%_test.c $(KSRC)/.ujail-key
	@mkdir -p $(T)
	$(CC) $(KSELFTEST_CFLAGS) $(DEPFLAGS) -o $@ $< -lpthread

$(T)/landlock_abi_test: tests/kselftest/landlock/landlock_abi_test.c $(KSRC)/.ujail-key
	@mkdir -p $(T)
	$(CC) $(KSELFTEST_CFLAGS) $(DEPFLAGS) -o $@ $<

# The kernel's own suite, from the patched source tree, built as its
# Makefile does (-Wall only: it is not our code).
$(T)/seccomp_bpf $(T)/seccomp_benchmark: $(T)/%: $(SELFTESTS)/seccomp/%.c $(KSRC)/.ujail-key
	@mkdir -p $(T)
	$(CC) -static -O2 -Wall $(DEPFLAGS) -Wl,-no-as-needed -isystem $(KHDR)/include -I$(SELFTESTS) \
		-o $@ $< -lpthread -lcap

include userspace/seccomp/build.mk
include tests/seccomp/progs.mk
include tests/utrace/progs.mk
include tools/utrace/build.mk
include userspace/ujail/build.mk
include tests/ujail/tests.mk
include tests/ujail/vm.mk
include bench/bench.mk
include tests/kselftest/jailfs/build.mk
include tests/runner/runner.mk
include scripts/install.mk
include tests/fuzz/fuzz.mk
include scripts/cross.mk
include tests/cross/vm.mk

DEPS += $(KSELFTESTS) $(B)/bench/log_errno_bench $(B)/bench/policy_bench $(B)/demo-bin/deny
# A source that moved (userspace/ujail's stage folders): a build tree's
# dependencies from before still name it; as for -MP's headers, its absence
# is no error.
$(TOP)/userspace/ujail/deps_main.c:
# Generated dependencies: a .o's beside it (x.d), any other output's $@.d.
-include $(wildcard $(patsubst %.o,%.d,$(filter %.o,$(DEPS))) \
	$(addsuffix .d,$(filter-out %.o,$(DEPS))))

check: deps
	@scripts/check.sh

deb: deps
	@scripts/deb.sh

# jailfs on the KASAN, lockdep and kmemleak kernel, with the minute-long
# stress; make check runs it too unless UJAIL_CHECK_DEBUG=0.
check-debug: deps
	@scripts/check-debug.sh

# A router target's kernel in QEMU (TCG) with the target's programs; make
# check runs both (scripts/check-target.sh, README.md: Routers).
check-aarch64 check-mipsel: check-%: deps src
	@scripts/check-target.sh $*

demo: deps
	@scripts/demo.sh

bench: deps
	@bench/run.sh

# Only the policy compiler against libseccomp, on the host kernel.
bench-policy: deps src
	@$(MAKE) -s $(B)/bench/policy_bench && $(B)/bench/policy_bench $(CALLS)

clean:
	rm -rf $(B)/tests $(B)/results $(B)/demo $(B)/bench

$(B)/bench/log_errno_bench: bench/log_errno_bench.c $(KSRC)/.ujail-key
	@mkdir -p $(B)/bench
	$(CC) -std=gnu11 -O2 -static -Wall -Wextra -Werror $(DEPFLAGS) -isystem $(KHDR)/include -o $@ $<

# Runs on the host: libseccomp (the peer) from Debian, static.
$(B)/bench/policy_bench: bench/policy_bench.c $(UB)/libujail-seccomp.a
	@mkdir -p $(B)/bench
	$(CC) $(USR_CFLAGS) $(DEPFLAGS) -o $@ $< $(UB)/libujail-seccomp.a \
		-Wl,-Bstatic -lseccomp -Wl,-Bdynamic -ljson-c

bench-programs: kselftests
	@$(MAKE) -s $(B)/bench/log_errno_bench $(B)/bench/policy_bench $(B)/bench/spawn_time \
		$(B)/bench/ns_floor $(B)/bin/ujail-deps ujail

$(B)/demo-bin/deny: scripts/demo/deny.c
	@mkdir -p $(B)/demo-bin
	$(CC) -std=gnu11 -O2 -static -Wall -Wextra -Werror $(DEPFLAGS) -o $@ $<

demo-programs:
	@$(MAKE) -s $(B)/demo-bin/deny
