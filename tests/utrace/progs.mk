# SPDX-License-Identifier: GPL-2.0
# Test programs of tests/utrace/utrace_test.sh, each for glibc and musl,
# dynamic and static:
#   build/tests/utrace/{known,threads,forks,sigwait}-{glibc,glibc-static,musl,musl-static}
# Included by the top Makefile (needs TOP and T).

UTRACE_PROGS_SRC := $(TOP)/tests/utrace/progs
UTRACE_PROGS_OUT := $(T)/utrace
UTRACE_PROGS_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -pthread
UTRACE_PROGS_NAMES := known threads forks sigwait
UTRACE_PROGS := $(foreach p,$(UTRACE_PROGS_NAMES),$(foreach v,glibc glibc-static musl musl-static,\
	$(UTRACE_PROGS_OUT)/$(p)-$(v)))

.PHONY: utrace-progs utrace-tests

utrace-progs: $(UTRACE_PROGS)

# What tests/utrace/utrace_test.sh needs.
utrace-tests: utrace utrace-progs ujail $(B)/bin/ujail-seccomp

$(UTRACE_PROGS_OUT)/%-glibc: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	gcc $(UTRACE_PROGS_CFLAGS) $(DEPFLAGS) -o $@ $<

$(UTRACE_PROGS_OUT)/%-glibc-static: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	gcc $(UTRACE_PROGS_CFLAGS) $(DEPFLAGS) -static -o $@ $<

$(UTRACE_PROGS_OUT)/%-musl: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	musl-gcc $(UTRACE_PROGS_CFLAGS) $(DEPFLAGS) -o $@ $<

$(UTRACE_PROGS_OUT)/%-musl-static: $(UTRACE_PROGS_SRC)/%.c
	@mkdir -p $(@D)
	musl-gcc $(UTRACE_PROGS_CFLAGS) $(DEPFLAGS) -static -o $@ $<

DEPS += $(UTRACE_PROGS)
