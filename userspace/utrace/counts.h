/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls counted per architecture and syscall number, as the tracer sees
 * them (seccomp_data.arch, seccomp_data.nr; x32 numbers keep their bit).
 */
#ifndef UTRACE_COUNTS_H
#define UTRACE_COUNTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "seccomp/syscalls.h"

struct utrace_count {
	uint32_t audit_arch;
	uint32_t nr;
	uint64_t calls;		/* 0: free slot */
};

struct utrace_counts {
	struct utrace_count *slots;	/* open addressing, power-of-two size */
	size_t cap;
	size_t used;
	uint64_t total;
};

/* One more call of @nr on @audit_arch; -1 when out of memory. */
int utrace_count_add(struct utrace_counts *c, uint32_t audit_arch, uint32_t nr);

/* @calls more (counted elsewhere: the ebpf backend); -1 when out of memory. */
int utrace_count_add_many(struct utrace_counts *c, uint32_t audit_arch, uint32_t nr,
			  uint64_t calls);

/*
 * The counted entries, most calls first (ties: by architecture, then
 * name); malloc'ed, @n entries. NULL with @n = 0 when none.
 */
struct utrace_count *utrace_counts_sorted(const struct utrace_counts *c, size_t *n);

/*
 * The table of an architecture that calls of @audit_arch / @nr belong to
 * (x32 for x86_64 numbers with the x32 bit), or NULL.
 */
const struct ujs_arch *utrace_arch_of(uint32_t audit_arch, uint32_t nr);

/* "name" of a counted entry, or NULL for a number no table knows. */
const char *utrace_count_name(const struct utrace_count *e);

/* strace -c style table: calls, architecture, syscall. */
void utrace_counts_print(FILE *f, const struct utrace_counts *c);

void utrace_counts_free(struct utrace_counts *c);

#endif
