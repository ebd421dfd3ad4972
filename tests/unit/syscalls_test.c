/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generated syscall tables and their lookups. The x86 tables are
 * compared, name by name, with the host's <asm/unistd_{64,32,x32}.h>; the
 * others with well-known numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"
#include "tap.h"
#include "test_util.h"

static void test_arch_list(void)
{
	static const struct {
		const char *name, *oci;
		uint32_t audit;
	} want[] = {
		{ "x86_64", "SCMP_ARCH_X86_64", 0xc000003e },
		{ "x32", "SCMP_ARCH_X32", 0xc000003e },
		{ "i386", "SCMP_ARCH_X86", 0x40000003 },
		{ "aarch64", "SCMP_ARCH_AARCH64", 0xc00000b7 },
		{ "arm", "SCMP_ARCH_ARM", 0x40000028 },
		{ "mips", "SCMP_ARCH_MIPS", 0x00000008 },
		{ "mipsel", "SCMP_ARCH_MIPSEL", 0x40000008 },
	};
	const size_t n_want = sizeof(want) / sizeof(want[0]);
	const struct ujs_arch *const *all;
	size_t n, i;

	all = ujs_arch_all(&n);
	ok(n == n_want, "ujs_arch_all: %zu architectures (want %zu)", n, n_want);
	for (i = 0; i < n && i < n_want; i++) {
		ok(!strcmp(all[i]->name, want[i].name) &&
		   !strcmp(all[i]->oci_name, want[i].oci) &&
		   all[i]->audit_arch == want[i].audit,
		   "arch %zu: %s %s 0x%08x", i, all[i]->name, all[i]->oci_name,
		   all[i]->audit_arch);
		ok(ujs_arch_by_name(want[i].name) == all[i] &&
		   ujs_arch_by_name(want[i].oci) == all[i],
		   "ujs_arch_by_name finds %s by both names", want[i].name);
	}
	ok(!ujs_arch_by_name("SCMP_ARCH_PPC64") && !ujs_arch_by_name("") &&
	   !ujs_arch_by_name("X86_64"),
	   "ujs_arch_by_name: unknown names give NULL");
}

/* bsearch needs strictly increasing strcmp order (also: no duplicates). */
static void test_sorted(void)
{
	const struct ujs_arch *const *all;
	size_t n, i, j;

	all = ujs_arch_all(&n);
	for (i = 0; i < n; i++) {
		const struct ujs_arch *a = all[i];
		size_t bad = 0;

		for (j = 1; j < a->n_calls; j++)
			if (strcmp(ujs_name_at(a->calls[j - 1].name_off), ujs_name_at(a->calls[j].name_off)) >= 0)
				bad++;
		ok(a->n_calls > 300 && !bad,
		   "%s: %zu syscalls, sorted, no duplicates (%zu out of order)",
		   a->name, a->n_calls, bad);
	}
}

static void test_native_and_compat(void)
{
	const struct ujs_arch *out[4];
	size_t n;

#if defined(__x86_64__) && !defined(__ILP32__)
	ok(ujs_arch_native() == arch("x86_64"), "native is x86_64");
#elif defined(__aarch64__)
	ok(ujs_arch_native() == arch("aarch64"), "native is aarch64");
#else
	ok(ujs_arch_native() != NULL, "native is %s", ujs_arch_native()->name);
#endif
	n = ujs_arch_compat(arch("x86_64"), out, 4);
	ok(n == 2 && out[0] == arch("x32") && out[1] == arch("i386"),
	   "compat of x86_64: x32, i386");
	n = ujs_arch_compat(arch("x86_64"), out, 1);
	ok(n == 1 && out[0] == arch("x32"), "compat respects max");
	n = ujs_arch_compat(arch("aarch64"), out, 4);
	ok(n == 1 && out[0] == arch("arm"), "compat of aarch64: arm");
	ok(ujs_arch_compat(arch("i386"), out, 4) == 0 &&
	   ujs_arch_compat(arch("mipsel"), out, 4) == 0 &&
	   ujs_arch_compat(arch("x32"), out, 4) == 0,
	   "i386, mipsel, x32 have no compat architectures");
}

static void expect_nr(const char *arch_name, const char *name, int64_t nr)
{
	int64_t got = ujs_syscall_nr(arch(arch_name), name);

	ok(got == nr, "%s: %s = %lld (got %lld)", arch_name, name,
	   (long long)nr, (long long)got);
}

static void test_known_numbers(void)
{
	expect_nr("aarch64", "openat", 56);
	expect_nr("aarch64", "read", 63);
	expect_nr("aarch64", "clone", 220);
	expect_nr("aarch64", "renameat", 38);		/* abi "renameat" */
	expect_nr("aarch64", "getrlimit", 163);		/* abi "rlimit" */
	expect_nr("aarch64", "memfd_secret", 447);	/* abi "memfd_secret" */
	expect_nr("aarch64", "newfstatat", 79);		/* abi "64" */
	expect_nr("aarch64", "open", -1);
	expect_nr("aarch64", "fcntl64", -1);		/* abi "32" only */
	expect_nr("arm", "openat", 322);
	expect_nr("arm", "read", 3);
	expect_nr("arm", "cacheflush", 0x0f0002);	/* __ARM_NR_cacheflush */
	expect_nr("arm", "set_tls", 0x0f0005);
	expect_nr("arm", "time", -1);			/* OABI only */
	expect_nr("mips", "read", 4003);
	expect_nr("mips", "openat", 4288);
	expect_nr("mips", "syscall", 4000);
	expect_nr("mipsel", "read", 4003);
	expect_nr("x86_64", "tuxcall", 184);		/* no entry point */
	expect_nr("x86_64", "socketcall", -1);
	expect_nr("x32", "read", UJS_X32_SYSCALL_BIT | 0);
	expect_nr("x32", "rt_sigaction", UJS_X32_SYSCALL_BIT | 512);
	expect_nr("i386", "socketcall", 102);
	expect_nr("x86_64", "", -1);
	expect_nr("x86_64", "opne", -1);
}

static void test_names(void)
{
	const struct ujs_arch *x86_64 = arch("x86_64");
	const char *s;

	s = ujs_syscall_name(x86_64, 257);
	ok(s && !strcmp(s, "openat"), "x86_64 257 is openat");
	ok(!ujs_syscall_name(x86_64, 100000), "x86_64 100000: no name");
	s = ujs_syscall_name_audit(0xc000003e, 0);
	ok(s && !strcmp(s, "read"), "audit x86_64 0 is read");
	s = ujs_syscall_name_audit(0xc000003e, UJS_X32_SYSCALL_BIT | 512);
	ok(s && !strcmp(s, "rt_sigaction"), "audit x86_64 x32|512 is rt_sigaction");
	ok(!ujs_syscall_name_audit(0xc000003e, 512),
	   "audit x86_64 512 (x32-only number without the bit): no name");
	s = ujs_syscall_name_audit(0x40000003, 102);
	ok(s && !strcmp(s, "socketcall"), "audit i386 102 is socketcall");
	s = ujs_syscall_name_audit(0xc00000b7, 56);
	ok(s && !strcmp(s, "openat"), "audit aarch64 56 is openat");
	s = ujs_syscall_name_audit(0x40000008, 4003);
	ok(s && !strcmp(s, "read"), "audit mipsel 4003 is read");
	ok(!ujs_syscall_name_audit(0x12345678, 0), "unknown audit arch: no name");
}

/*
 * Every "#define __NR_x N" (or "(__X32_SYSCALL_BIT + N)") of a host header
 * must be in @a with the same number. The host's headers may be older
 * than the kernel source: the tables may have more, never different.
 */
/*
 * Calls of kernels after the 6.12 source (syscalls-newer.tbl), on every
 * architecture, with the kernel's numbers; and one the data file has only
 * for x86.
 */
static void test_newer_kernels(void)
{
	static const struct {
		const char *name;
		int64_t nr;
	} calls[] = {
		{ "setxattrat", 463 }, { "getxattrat", 464 }, { "listxattrat", 465 },
		{ "removexattrat", 466 }, { "open_tree_attr", 467 },
		{ "file_getattr", 468 }, { "file_setattr", 469 }, { "listns", 470 },
		{ "rseq_slice_yield", 471 },
	};
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int64_t nr = calls[i].nr;

		expect_nr("x86_64", calls[i].name, nr);
		expect_nr("x32", calls[i].name, nr | UJS_X32_SYSCALL_BIT);
		expect_nr("i386", calls[i].name, nr);
		expect_nr("aarch64", calls[i].name, nr);
		expect_nr("arm", calls[i].name, nr);
		expect_nr("mips", calls[i].name, 4000 + nr);
	}
	expect_nr("x86_64", "uprobe", 336);
	expect_nr("i386", "uprobe", -1);
	expect_nr("aarch64", "uprobe", -1);
	/* 6.12's own, kept: the data file does not shadow the kernel. */
	expect_nr("x86_64", "uretprobe", 335);
	expect_nr("x86_64", "mseal", 462);
}

/* Names only other Linux architectures have are known too (not typos). */
static void test_linux_names(void)
{
	ok(ujs_syscall_name_linux("s390_pci_mmio_read") && ujs_syscall_name_linux("riscv_hwprobe") &&
	   ujs_syscall_name_linux("spu_run") && ujs_syscall_name_linux("read"),
	   "ujs_syscall_name_linux: s390, riscv, powerpc names and read");
	ok(ujs_syscall_nr(arch("x86_64"), "s390_pci_mmio_read") < 0 &&
	   !ujs_syscall_name_linux("frobnicate") && !ujs_syscall_name_linux(""),
	   "ujs_syscall_name_linux: not in a target's table; unknown names are not");
}

static void compare_host_header(const char *arch_name, const char *header)
{
	static const char *const dirs[] = {
		"/usr/include/x86_64-linux-gnu/asm/", "/usr/include/asm/", NULL
	};
	const struct ujs_arch *a = arch(arch_name);
	size_t checked = 0, wrong = 0;
	char path[256], line[256];
	FILE *f = NULL;
	size_t i;

	for (i = 0; dirs[i] && !f; i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], header);
		f = fopen(path, "r");
	}
	if (!f) {
		printf("ok %d - # SKIP %s: no host %s\n", ++tap_count, arch_name, header);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[128];
		unsigned int nr;
		int64_t got;

		if (sscanf(line, "#define __NR_%127s (__X32_SYSCALL_BIT + %u)", name, &nr) == 2)
			nr |= UJS_X32_SYSCALL_BIT;
		else if (sscanf(line, "#define __NR_%127s %u", name, &nr) != 2)
			continue;
		checked++;
		got = ujs_syscall_nr(a, name);
		if (got != nr) {
			if (wrong++ < 5)
				printf("# %s: %s is %u in %s, %lld in the table\n",
				       arch_name, name, nr, path, (long long)got);
		}
	}
	fclose(f);
	ok(checked > 300 && !wrong, "%s: %zu syscalls of %s match (%zu differ)",
	   arch_name, checked, path, wrong);
}

int main(void)
{
	test_arch_list();
	test_sorted();
	test_native_and_compat();
	test_known_numbers();
	test_names();
	test_newer_kernels();
	test_linux_names();
	compare_host_header("x86_64", "unistd_64.h");
	compare_host_header("i386", "unistd_32.h");
	compare_host_header("x32", "unistd_x32.h");
	return tap_done();
}
