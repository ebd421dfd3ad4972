/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall name tables of the architectures the policy compiler targets,
 * generated at build time from the kernel's own syscall tables
 * (gen-syscalls.sh -> build/gen/syscall_tables.c).
 */
#ifndef UJS_SYSCALLS_H
#define UJS_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The x32 ABI shares AUDIT_ARCH_X86_64 and sets this bit in the number. */
#define UJS_X32_SYSCALL_BIT 0x40000000U

/*
 * Names are offsets into one generated string (ujs_name_at()), not
 * pointers: thousands of pointers would each cost a relocation in the
 * PIE programs and the shared library.
 */
struct ujs_syscall {
	uint16_t name_off;	/* ujs_name_at(name_off) */
	uint32_t nr;		/* as seen in seccomp_data.nr (x32: bit set) */
};

struct ujs_arch {
	const char *name;	/* "x86_64", "x32", "i386", "aarch64", "arm", "mips", "mipsel" */
	const char *oci_name;	/* "SCMP_ARCH_X86_64", ... */
	uint32_t audit_arch;	/* AUDIT_ARCH_* (seccomp_data.arch) */
	const struct ujs_syscall *calls;	/* sorted by name */
	size_t n_calls;
};

/* A name and its number: errno and capability names. */
struct ujs_named_value {
	uint16_t name_off;	/* ujs_name_at(name_off) */
	int16_t value;
};

/* The name a table entry's name_off stands for. */
const char *ujs_name_at(uint16_t off);

/* Every architecture with a table, in a fixed order. */
const struct ujs_arch *const *ujs_arch_all(size_t *n);

/* By short name ("x86_64") or OCI name ("SCMP_ARCH_X86_64"); NULL if none. */
const struct ujs_arch *ujs_arch_by_name(const char *name);

/* The architecture this program was built for. */
const struct ujs_arch *ujs_arch_native(void);

/*
 * The architectures a filter for @target also sees: x86_64 -> x32 and
 * i386; aarch64 -> arm; others none. Returns how many were stored.
 */
size_t ujs_arch_compat(const struct ujs_arch *target,
		       const struct ujs_arch **out, size_t max);

/* Number of @name on @arch, or -1 when @arch has no such syscall. */
int64_t ujs_syscall_nr(const struct ujs_arch *arch, const char *name);

/* Name of syscall @nr on @arch, or NULL. */
const char *ujs_syscall_name(const struct ujs_arch *arch, uint32_t nr);

/* Name of @nr for the AUDIT_ARCH value @audit_arch (x32 handled), or NULL. */
const char *ujs_syscall_name_audit(uint32_t audit_arch, uint32_t nr);

/*
 * The number of errno @name ("ENOSYS") on @arch, whose kernel returns it
 * (MIPS numbers most of them its own way), or -1.
 */
int ujs_errno_by_name(const struct ujs_arch *arch, const char *name);

/*
 * Whether any architecture of Linux (the targets, and s390, powerpc,
 * riscv, ...) has a syscall @name, as of the kernel source the tables come
 * from.
 */
bool ujs_syscall_name_linux(const char *name);

/* The number of capability @name ("CAP_SYS_ADMIN"), or -1. */
int ujs_cap_by_name(const char *name);

/* Capabilities the tables know: numbers 0..ujs_cap_count() - 1. */
unsigned int ujs_cap_count(void);

#endif
