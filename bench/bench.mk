# SPDX-License-Identifier: GPL-2.0
# The ujail benchmark's timer. Included from the top Makefile.
B ?= /work/main/build
BENCH_CC ?= cc
BENCH_CFLAGS ?= -std=c11 -O2 -Wall -Wextra -Werror
BENCH_SRC := /work/main/bench

$(B)/bench/spawn_time: $(BENCH_SRC)/spawn_time.c
	@mkdir -p $(dir $@)
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $<
