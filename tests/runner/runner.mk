# SPDX-License-Identifier: GPL-2.0
# The QEMU runner's stress program (tests/runner/tcg_stress.sh), static for
# the busybox guest. Included by the top Makefile (needs TOP and T).

.PHONY: runner-progs

runner-progs: $(T)/runner/tpflip

$(T)/runner/tpflip: $(TOP)/tests/runner/tpflip.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -static -Wall -Wextra -Werror $(DEPFLAGS) -o $@ $<

DEPS += $(T)/runner/tpflip
