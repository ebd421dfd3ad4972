/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lookups in the generated tables of errno, capability and Linux-wide
 * syscall names (build/gen/syscall_tables.c); apart from syscalls.c, so
 * that the keeper's tables can leave them out.
 */
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"

/* Defined by the generated syscall_tables.c. */
extern const struct ujs_named_value ujs_gen_errnos_generic[], ujs_gen_errnos_mips[];
extern const size_t ujs_gen_errnos_generic_n, ujs_gen_errnos_mips_n;
extern const struct ujs_named_value ujs_gen_caps[];
extern const size_t ujs_gen_caps_n;
extern const struct ujs_named_value ujs_gen_linux_names[];
extern const size_t ujs_gen_linux_names_n;

static int cmp_named_value(const void *key, const void *elem)
{
	const struct ujs_named_value *v = elem;

	return strcmp(key, ujs_name_at(v->name_off));
}

/* @name's value in the sorted table @t of @n entries, or -1. */
static int named_value(const struct ujs_named_value *t, size_t n, const char *name)
{
	const struct ujs_named_value *v = bsearch(name, t, n, sizeof(*t), cmp_named_value);

	return v ? v->value : -1;
}

int ujs_errno_by_name(const struct ujs_arch *arch, const char *name)
{
	/* mips and mipsel share one table, and the MIPS errno numbers. */
	if (!strncmp(arch->name, "mips", 4))
		return named_value(ujs_gen_errnos_mips, ujs_gen_errnos_mips_n, name);
	return named_value(ujs_gen_errnos_generic, ujs_gen_errnos_generic_n, name);
}

int ujs_cap_by_name(const char *name)
{
	return named_value(ujs_gen_caps, ujs_gen_caps_n, name);
}

unsigned int ujs_cap_count(void)
{
	return (unsigned int)ujs_gen_caps_n;
}

bool ujs_syscall_name_linux(const char *name)
{
	return named_value(ujs_gen_linux_names, ujs_gen_linux_names_n, name) >= 0;
}
