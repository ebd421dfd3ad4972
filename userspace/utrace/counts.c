// SPDX-License-Identifier: GPL-2.0
/* Call counts per (architecture, syscall number); see counts.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "utrace/counts.h"

#define INITIAL_CAP 512

static size_t slot_of(uint32_t audit_arch, uint32_t nr, size_t cap)
{
	uint64_t h = ((uint64_t)audit_arch << 32 | nr) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static struct utrace_count *find(const struct utrace_counts *c, uint32_t audit_arch,
				 uint32_t nr)
{
	size_t i = slot_of(audit_arch, nr, c->cap);

	/* Kept at most half full: there is always a free slot to stop at. */
	while (c->slots[i].calls &&
	       (c->slots[i].audit_arch != audit_arch || c->slots[i].nr != nr))
		i = (i + 1) & (c->cap - 1);
	return &c->slots[i];
}

static int grow(struct utrace_counts *c)
{
	struct utrace_counts bigger = { .cap = c->cap ? c->cap * 2 : INITIAL_CAP };

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].calls)
			*find(&bigger, c->slots[i].audit_arch, c->slots[i].nr) = c->slots[i];
	free(c->slots);
	c->slots = bigger.slots;
	c->cap = bigger.cap;
	return 0;
}

int utrace_count_add_many(struct utrace_counts *c, uint32_t audit_arch, uint32_t nr,
			  uint64_t calls)
{
	struct utrace_count *e;

	if (!calls)
		return 0;
	if ((c->used + 1) * 2 > c->cap && grow(c))
		return -1;
	e = find(c, audit_arch, nr);
	if (!e->calls) {
		e->audit_arch = audit_arch;
		e->nr = nr;
		c->used++;
	}
	e->calls += calls;
	c->total += calls;
	return 0;
}

int utrace_count_add(struct utrace_counts *c, uint32_t audit_arch, uint32_t nr)
{
	return utrace_count_add_many(c, audit_arch, nr, 1);
}

const struct ujs_arch *utrace_arch_of(uint32_t audit_arch, uint32_t nr)
{
	const struct ujs_arch *const *all;
	size_t n;

	all = ujs_arch_all(&n);
	for (size_t i = 0; i < n; i++) {
		bool x32 = !strcmp(all[i]->name, "x32");

		if (all[i]->audit_arch == audit_arch && x32 == !!(nr & UJS_X32_SYSCALL_BIT))
			return all[i];
	}
	return NULL;
}

const char *utrace_count_name(const struct utrace_count *e)
{
	return ujs_syscall_name_audit(e->audit_arch, e->nr);
}

static int by_calls(const void *a, const void *b)
{
	const struct utrace_count *x = a, *y = b;
	const char *nx, *ny;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->audit_arch != y->audit_arch)
		return x->audit_arch < y->audit_arch ? -1 : 1;
	nx = utrace_count_name(x);
	ny = utrace_count_name(y);
	if (nx && ny)
		return strcmp(nx, ny);
	return nx ? -1 : ny ? 1 : (x->nr > y->nr) - (x->nr < y->nr);
}

struct utrace_count *utrace_counts_sorted(const struct utrace_counts *c, size_t *n)
{
	struct utrace_count *out;
	size_t k = 0;

	*n = 0;
	if (!c->used)
		return NULL;
	out = malloc(c->used * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slots[i].calls)
			out[k++] = c->slots[i];
	qsort(out, k, sizeof(*out), by_calls);
	*n = k;
	return out;
}

void utrace_counts_print(FILE *f, const struct utrace_counts *c)
{
	size_t n;
	struct utrace_count *e = utrace_counts_sorted(c, &n);

	fprintf(f, "%10s  %-8s %s\n", "calls", "arch", "syscall");
	for (size_t i = 0; i < n; i++) {
		const struct ujs_arch *a = utrace_arch_of(e[i].audit_arch, e[i].nr);
		const char *name = utrace_count_name(&e[i]);

		fprintf(f, "%10llu  %-8s ", (unsigned long long)e[i].calls, a ? a->name : "?");
		if (name)
			fprintf(f, "%s\n", name);
		else
			fprintf(f, "#%u (arch %#x)\n", e[i].nr, e[i].audit_arch);
	}
	fprintf(f, "%10llu  %-8s total (%zu syscalls)\n", (unsigned long long)c->total, "",
		n);
	free(e);
}

void utrace_counts_free(struct utrace_counts *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}
