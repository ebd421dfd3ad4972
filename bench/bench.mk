# SPDX-License-Identifier: GPL-2.0
# ujail's benchmark (bench/ujail_bench.sh) and its timer; included from the
# top Makefile.

.PHONY: bench-ujail

$(B)/bench/spawn_time: $(TOP)/bench/spawn_time.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

# On the host: ujail next to bubblewrap and unshare(1).
bench-ujail: deps
	@$(MAKE) -s ujail $(B)/bench/spawn_time && bench/ujail_bench.sh
