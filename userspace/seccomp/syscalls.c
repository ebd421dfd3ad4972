/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lookups in the generated syscall tables (build/gen/syscall_tables.c):
 * the architectures'. The errno, capability and Linux-wide names are
 * syscall_names.c's, which the keeper does without (its tables hold its
 * own machine's ABIs only, gen-syscalls.sh ARCH...).
 */
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"

/* Defined by the generated syscall_tables.c. */
extern const struct ujs_arch *const ujs_gen_archs[];
extern const size_t ujs_gen_n_archs;
extern const char ujs_gen_names[];

const char *ujs_name_at(uint16_t off)
{
	return ujs_gen_names + off;
}

const struct ujs_arch *const *ujs_arch_all(size_t *n)
{
	*n = ujs_gen_n_archs;
	return ujs_gen_archs;
}

const struct ujs_arch *ujs_arch_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ujs_gen_n_archs; i++) {
		const struct ujs_arch *a = ujs_gen_archs[i];

		if (!strcmp(name, a->name) || !strcmp(name, a->oci_name))
			return a;
	}
	return NULL;
}

/* Short name of the architecture the compiler is building for. */
static const char *native_arch_name(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return "x32";
#elif defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__mips__) && defined(__MIPSEB__)
	return "mips";
#elif defined(__mips__) && defined(__MIPSEL__)
	return "mipsel";
#else
#error "ujail-seccomp: no syscall table for this architecture"
#endif
}

const struct ujs_arch *ujs_arch_native(void)
{
	/* Tables and names are fixed at build time: never NULL. */
	return ujs_arch_by_name(native_arch_name());
}

size_t ujs_arch_compat(const struct ujs_arch *target,
		       const struct ujs_arch **out, size_t max)
{
	static const char *const x86_64_compat[] = { "x32", "i386", NULL };
	static const char *const aarch64_compat[] = { "arm", NULL };
	const char *const *names;
	size_t n = 0;

	if (!strcmp(target->name, "x86_64"))
		names = x86_64_compat;
	else if (!strcmp(target->name, "aarch64"))
		names = aarch64_compat;
	else
		return 0;

	for (; *names && n < max; names++)
		out[n++] = ujs_arch_by_name(*names);
	return n;
}

static int cmp_syscall_name(const void *key, const void *elem)
{
	const struct ujs_syscall *call = elem;

	return strcmp(key, ujs_name_at(call->name_off));
}

int64_t ujs_syscall_nr(const struct ujs_arch *arch, const char *name)
{
	const struct ujs_syscall *call;

	call = bsearch(name, arch->calls, arch->n_calls, sizeof(*arch->calls),
		       cmp_syscall_name);
	return call ? (int64_t)call->nr : -1;
}

/* Used for messages and dumps only: a linear scan is fast enough. */
const char *ujs_syscall_name(const struct ujs_arch *arch, uint32_t nr)
{
	size_t i;

	for (i = 0; i < arch->n_calls; i++)
		if (arch->calls[i].nr == nr)
			return ujs_name_at(arch->calls[i].name_off);
	return NULL;
}

const char *ujs_syscall_name_audit(uint32_t audit_arch, uint32_t nr)
{
	const struct ujs_arch *x32 = ujs_arch_by_name("x32");
	size_t i;

	/* x32 shares AUDIT_ARCH_X86_64: the number tells them apart. */
	if (x32 && audit_arch == x32->audit_arch && (nr & UJS_X32_SYSCALL_BIT))
		return ujs_syscall_name(x32, nr);

	for (i = 0; i < ujs_gen_n_archs; i++) {
		const struct ujs_arch *a = ujs_gen_archs[i];

		if (a != x32 && a->audit_arch == audit_arch)
			return ujs_syscall_name(a, nr);
	}
	return NULL;
}
