# Test programs of tests/seccomp/run_test.sh:
#   build/tests/seccomp/sysprobe-{glibc,glibc-static,musl,musl-static}
#   build/tests/seccomp/nostart   dynamic, without __libc_start_main
# Included by the top Makefile (needs TOP and T); alone:
#   make -f tests/seccomp/progs.mk TOP=$PWD T=$PWD/build/tests seccomp-progs

SECCOMP_PROGS_SRC := $(TOP)/tests/seccomp/progs
SECCOMP_PROGS_OUT := $(T)/seccomp
SECCOMP_PROGS_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -pthread
SECCOMP_PROGS_VARIANTS := glibc glibc-static musl musl-static
SECCOMP_PROGS := $(foreach v,$(SECCOMP_PROGS_VARIANTS),$(SECCOMP_PROGS_OUT)/sysprobe-$(v)) \
	$(SECCOMP_PROGS_OUT)/nostart

.PHONY: seccomp-progs

seccomp-progs: $(SECCOMP_PROGS)

$(SECCOMP_PROGS_OUT)/%-glibc: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	gcc $(SECCOMP_PROGS_CFLAGS) $(DEPFLAGS) -o $@ $<

$(SECCOMP_PROGS_OUT)/%-glibc-static: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	gcc $(SECCOMP_PROGS_CFLAGS) $(DEPFLAGS) -static -o $@ $<

$(SECCOMP_PROGS_OUT)/%-musl: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	musl-gcc $(SECCOMP_PROGS_CFLAGS) $(DEPFLAGS) -o $@ $<

$(SECCOMP_PROGS_OUT)/%-musl-static: $(SECCOMP_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	musl-gcc $(SECCOMP_PROGS_CFLAGS) $(DEPFLAGS) -static -o $@ $<

$(SECCOMP_PROGS_OUT)/nostart: $(SECCOMP_PROGS_SRC)/nostart.c
	@mkdir -p $(@D)
	gcc $(SECCOMP_PROGS_CFLAGS) $(DEPFLAGS) -nostartfiles -o $@ $<

DEPS += $(SECCOMP_PROGS)
