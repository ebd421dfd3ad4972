/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf_deps_collect() on real programs built by elf_fixtures.sh (glibc,
 * RUNPATH, RPATH, musl, static, scripts), on crafted ELF files in
 * sysroots (both byte orders, 32-bit, ld.so.cache, $LIB/$PLATFORM, musl's
 * path file), against ldd, and on malformed files. Prints TAP.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_deps.h"
#include "tap.h"

#ifndef UJ_TEST_DIR
#error "UJ_TEST_DIR: the directory of elf_fixtures.sh"
#endif

static char fx[PATH_MAX];	/* the fixture directory */

/* ---- small helpers ---- */

/* A path under the fixture directory; a ring of buffers, for expectations. */
static const char *fxp(const char *rel)
{
	static char ring[48][PATH_MAX];
	static unsigned int next;
	char *buf = ring[next++ % 48];

	if (snprintf(buf, PATH_MAX, "%s/%s", fx, rel) >= PATH_MAX)
		abort();
	return buf;
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(buf, 0755);
		*s = '/';
	}
}

static void write_file(const char *path, const void *buf, size_t len, mode_t mode)
{
	int fd;

	mkdirs(path);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static void make_link(const char *target, const char *path)
{
	mkdirs(path);
	unlink(path);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(1);
	}
}

struct run {
	int ret;
	char err[1024];
	struct path_set set;
};

static void collect(struct run *r, const char *path, const struct elf_deps_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->ret = elf_deps_collect(path, opts, &r->set, r->err, sizeof(r->err));
	if (r->ret < 0)
		printf("# %s: %s\n", path, r->err);
}

static void run_free(struct run *r)
{
	path_set_free(&r->set);
}

static size_t count(const char *const *list)
{
	size_t n = 0;

	while (list[n])
		n++;
	return n;
}

/* Exactly @want (NULL-terminated); the differences go out as diagnostics. */
static bool set_is(const struct run *r, const char *const *want)
{
	bool same = r->ret == 0 && r->set.n == count(want);

	for (size_t i = 0; want[i]; i++)
		if (!path_set_has(&r->set, want[i])) {
			printf("#   missing %s\n", want[i]);
			same = false;
		}
	for (size_t i = 0; i < r->set.n; i++) {
		bool wanted = false;

		for (size_t j = 0; want[j]; j++)
			wanted |= !strcmp(want[j], r->set.paths[i]);
		if (!wanted) {
			printf("#   extra %s\n", r->set.paths[i]);
			same = false;
		}
	}
	return same;
}

static bool set_has_all(const struct run *r, const char *const *want)
{
	bool all = r->ret == 0;

	for (size_t i = 0; want[i]; i++)
		if (!path_set_has(&r->set, want[i])) {
			printf("#   missing %s\n", want[i]);
			all = false;
		}
	return all;
}

static bool set_has_none(const struct run *r, const char *const *unwanted)
{
	for (size_t i = 0; unwanted[i]; i++)
		if (path_set_has(&r->set, unwanted[i])) {
			printf("#   unexpected %s\n", unwanted[i]);
			return false;
		}
	return true;
}

/* Failed, and the message holds each of @parts. */
static bool failed_with(const struct run *r, const char *const *parts)
{
	if (r->ret != -1)
		return false;
	for (size_t i = 0; parts[i]; i++)
		if (!strstr(r->err, parts[i])) {
			printf("#   message lacks \"%s\"\n", parts[i]);
			return false;
		}
	return true;
}

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static bool debian_merged_usr(void)
{
	char buf[16];
	ssize_t n = readlink("/lib", buf, sizeof(buf));

	return n == 7 && !memcmp(buf, "usr/lib", 7) && exists("/lib64/ld-linux-x86-64.so.2") &&
	       exists("/etc/ld.so.cache");
}

static void skip(const char *what)
{
	printf("ok %d # SKIP %s\n", ++tap_count, what);
}

/* ---- crafted ELF files ---- */

struct craft {
	unsigned char class, data;
	uint16_t type, machine;
	const char *interp;
	const char *needed[4];
	const char *soname, *rpath, *runpath;
};

/* Where crafted parts landed, to break them on purpose. */
struct craft_layout {
	size_t phoff, interp_off, interp_len, dyn_off, dyn_count, len;
};

#define VADDR 0x10000u
#define ELF(cl, d, t, m) .class = (cl), .data = (d), .type = (t), .machine = (m)

static void put(unsigned char *b, const struct craft *c, size_t off, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t shift = c->data == ELFDATA2LSB ? i : n - 1 - i;

		b[off + i] = (unsigned char)(v >> (8 * shift));
	}
}

#define PUT(b, c, base, T, field, v) \
	put(b, c, (base) + offsetof(T, field), (v), sizeof(((T *)0)->field))

static void craft_ehdr(unsigned char *b, const struct craft *c, size_t phnum)
{
	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = c->class;
	b[EI_DATA] = c->data;
	b[EI_VERSION] = EV_CURRENT;
	if (c->class == ELFCLASS64) {
		PUT(b, c, 0, Elf64_Ehdr, e_type, c->type);
		PUT(b, c, 0, Elf64_Ehdr, e_machine, c->machine);
		PUT(b, c, 0, Elf64_Ehdr, e_version, EV_CURRENT);
		PUT(b, c, 0, Elf64_Ehdr, e_phoff, sizeof(Elf64_Ehdr));
		PUT(b, c, 0, Elf64_Ehdr, e_ehsize, sizeof(Elf64_Ehdr));
		PUT(b, c, 0, Elf64_Ehdr, e_phentsize, sizeof(Elf64_Phdr));
		PUT(b, c, 0, Elf64_Ehdr, e_phnum, phnum);
	} else {
		PUT(b, c, 0, Elf32_Ehdr, e_type, c->type);
		PUT(b, c, 0, Elf32_Ehdr, e_machine, c->machine);
		PUT(b, c, 0, Elf32_Ehdr, e_version, EV_CURRENT);
		PUT(b, c, 0, Elf32_Ehdr, e_phoff, sizeof(Elf32_Ehdr));
		PUT(b, c, 0, Elf32_Ehdr, e_ehsize, sizeof(Elf32_Ehdr));
		PUT(b, c, 0, Elf32_Ehdr, e_phentsize, sizeof(Elf32_Phdr));
		PUT(b, c, 0, Elf32_Ehdr, e_phnum, phnum);
	}
}

static void craft_phdr(unsigned char *b, const struct craft *c, size_t at, uint32_t type,
		       uint64_t off, uint64_t size)
{
	if (c->class == ELFCLASS64) {
		PUT(b, c, at, Elf64_Phdr, p_type, type);
		PUT(b, c, at, Elf64_Phdr, p_offset, off);
		PUT(b, c, at, Elf64_Phdr, p_vaddr, VADDR + off);
		PUT(b, c, at, Elf64_Phdr, p_filesz, size);
		PUT(b, c, at, Elf64_Phdr, p_memsz, size);
	} else {
		PUT(b, c, at, Elf32_Phdr, p_type, type);
		PUT(b, c, at, Elf32_Phdr, p_offset, off);
		PUT(b, c, at, Elf32_Phdr, p_vaddr, VADDR + off);
		PUT(b, c, at, Elf32_Phdr, p_filesz, size);
		PUT(b, c, at, Elf32_Phdr, p_memsz, size);
	}
}

static size_t craft_dyn(unsigned char *b, const struct craft *c, size_t at, uint64_t tag,
			uint64_t val)
{
	size_t half = c->class == ELFCLASS64 ? 8 : 4;

	put(b, c, at, tag, half);
	put(b, c, at + half, val, half);
	return at + 2 * half;
}

static size_t add_str(unsigned char *b, size_t str_off, size_t *used, const char *s)
{
	size_t at = *used;

	strcpy((char *)b + str_off + at, s);
	*used += strlen(s) + 1;
	return at;
}

/* Lays out: ELF header, PT_LOAD + PT_INTERP + PT_DYNAMIC, interp, dynstr, dynamic. */
static size_t craft_elf(const struct craft *c, unsigned char *b, struct craft_layout *lay)
{
	bool is64 = c->class == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t nph = c->interp ? 3 : 2, at, str_off, str_used = 1, dyn_off, dyn_end, n = 0;
	uint64_t tags[16][2];

	memset(b, 0, 4096);
	memset(lay, 0, sizeof(*lay));
	lay->phoff = ehsize;
	at = ehsize + nph * phsize;
	if (c->interp) {
		lay->interp_off = at;
		lay->interp_len = strlen(c->interp) + 1;
		strcpy((char *)b + at, c->interp);
		at += lay->interp_len;
	}
	str_off = at;
	for (size_t i = 0; i < 4 && c->needed[i]; i++) {
		tags[n][0] = DT_NEEDED;
		tags[n++][1] = add_str(b, str_off, &str_used, c->needed[i]);
	}
	if (c->soname) {
		tags[n][0] = DT_SONAME;
		tags[n++][1] = add_str(b, str_off, &str_used, c->soname);
	}
	if (c->rpath) {
		tags[n][0] = DT_RPATH;
		tags[n++][1] = add_str(b, str_off, &str_used, c->rpath);
	}
	if (c->runpath) {
		tags[n][0] = DT_RUNPATH;
		tags[n++][1] = add_str(b, str_off, &str_used, c->runpath);
	}
	tags[n][0] = DT_STRTAB;
	tags[n++][1] = VADDR + str_off;
	tags[n][0] = DT_STRSZ;
	tags[n++][1] = str_used;
	tags[n][0] = DT_NULL;
	tags[n++][1] = 0;
	dyn_off = (str_off + str_used + 7) & ~(size_t)7;
	dyn_end = dyn_off;
	for (size_t i = 0; i < n; i++)
		dyn_end = craft_dyn(b, c, dyn_end, tags[i][0], tags[i][1]);
	lay->dyn_off = dyn_off;
	lay->dyn_count = n;
	lay->len = dyn_end;

	craft_ehdr(b, c, nph);
	craft_phdr(b, c, ehsize, PT_LOAD, 0, dyn_end);
	if (c->interp)
		craft_phdr(b, c, ehsize + phsize, PT_INTERP, lay->interp_off, lay->interp_len);
	craft_phdr(b, c, ehsize + (nph - 1) * phsize, PT_DYNAMIC, dyn_off, dyn_end - dyn_off);
	return dyn_end;
}

static void craft_file(const char *path, const struct craft *c)
{
	unsigned char b[4096];
	struct craft_layout lay;

	write_file(path, b, craft_elf(c, b, &lay), 0755);
}

/* ---- crafted ld.so.cache (glibc-ld.so.cache1.1) ---- */

struct cache_ent {
	int32_t flags;
	const char *key, *value;
	uint64_t hwcap;
};

static void craft_cache(const char *path, unsigned char data, const struct cache_ent *e, size_t n)
{
	const struct craft c = { .data = data };
	unsigned char b[4096] = { 0 };
	size_t str = 48 + n * 24, used = 0;

	memcpy(b, "glibc-ld.so.cache1.1", 20);
	put(b, &c, 20, n, 4);
	b[28] = data == ELFDATA2LSB ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		size_t at = 48 + i * 24;

		put(b, &c, at, (uint32_t)e[i].flags, 4);
		put(b, &c, at + 4, str + add_str(b, str, &used, e[i].key), 4);
		put(b, &c, at + 8, str + add_str(b, str, &used, e[i].value), 4);
		put(b, &c, at + 16, e[i].hwcap, 8);
	}
	put(b, &c, 24, used, 4);
	write_file(path, b, str + used, 0644);
}

/* ---- host programs built by elf_fixtures.sh ---- */

static const char *const host_glibc_base[] = {
	"/etc/ld.so.cache", "/lib", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64",
	"/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib64/ld-linux-x86-64.so.2", NULL,
};

static void test_glibc_hello(void)
{
	const char *want[16];
	struct run r;
	size_t n = 0;

	if (!debian_merged_usr()) {
		skip("glibc program: host is not Debian with merged /usr");
		return;
	}
	want[n++] = fxp("glibc/hello");
	for (size_t i = 0; host_glibc_base[i]; i++)
		want[n++] = host_glibc_base[i];
	want[n] = NULL;
	collect(&r, fxp("glibc/hello"), NULL);
	ok(set_is(&r, want), "glibc program: itself, ld-linux with its links, libc.so.6 via the cache with /lib, the cache");
	run_free(&r);
}

static void test_runpath(void)
{
	struct run r;

	collect(&r, fxp("runpath/bin/prog"), NULL);
	ok(set_has_all(&r, L(fxp("runpath/bin/prog"), fxp("runpath/lib/libfoo.so"),
			     "/lib/x86_64-linux-gnu/libc.so.6")),
	   "DT_RUNPATH $ORIGIN/../lib: libfoo.so found there, libc.so.6 still from the cache");
	ok(set_has_all(&r, L(fxp("runpath/lib/libchain.so.1"), fxp("runpath/lib/libchain.so.1.0"),
			     fxp("runpath/lib/libchain.so.1.0.0"))),
	   "a chain of links: libchain.so.1 -> .1.0 -> .1.0.0, each one listed");
	ok(set_has_none(&r, L(fxp("runpath/bin/../lib/libfoo.so"), fxp("runpath/lib/libchain.so"))),
	   "names with \"..\" are not listed as such, and a link nobody opens is not listed");
	run_free(&r);
}

static void test_rpath(void)
{
	struct run r;

	collect(&r, fxp("rpath/bin/prog"), NULL);
	ok(set_has_all(&r, L(fxp("rpath/lib/libmid.so"), fxp("rpath/lib/libleaf.so"))),
	   "DT_RPATH of the program serves libmid.so's own need (libleaf.so)");
	run_free(&r);

	collect(&r, fxp("runpath-noinherit/bin/prog"), NULL);
	ok(failed_with(&r, L("libleaf.so: library not found", "needed by",
			     "runpath-noinherit/bin/../lib/libmid.so")),
	   "DT_RUNPATH is not inherited: libleaf.so missing, named with its needer");
	run_free(&r);
}

static void test_dir_link(void)
{
	struct run r;

	collect(&r, fxp("dirlink/bin/prog"), NULL);
	ok(set_has_all(&r, L(fxp("dirlink/lib"), fxp("dirlink/libs.real/libfoo.so"))),
	   "a directory link on the way (lib -> libs.real) and the real file");
	run_free(&r);
}

static void test_static(void)
{
	struct run r;

	collect(&r, fxp("static/hello"), NULL);
	ok(set_is(&r, L(fxp("static/hello"))), "static program: only itself");
	run_free(&r);
}

static void test_musl(void)
{
	struct run r;

	if (!exists(fxp("musl/hello"))) {
		skip("musl program: musl-gcc not installed");
		return;
	}
	collect(&r, fxp("musl/hello"), NULL);
	ok(set_is(&r, L(fxp("musl/hello"), "/lib", "/lib/ld-musl-x86_64.so.1",
			"/usr/lib/ld-musl-x86_64.so.1", "/usr/lib/x86_64-linux-musl/libc.so")),
	   "musl program: ld-musl-x86_64.so.1 -> x86_64-linux-musl/libc.so, libc.so built in");
	run_free(&r);
}

static void test_m32(void)
{
	struct run r;

	if (!exists(fxp("m32/hello"))) {
		skip("32-bit program: gcc -m32 cannot link here (no gcc-multilib)");
		return;
	}
	collect(&r, fxp("m32/hello"), NULL);
	ok(set_has_all(&r, L(fxp("m32/hello"), "/lib/ld-linux.so.2")),
	   "32-bit program: /lib/ld-linux.so.2 and its libc");
	run_free(&r);
}

static void test_scripts(void)
{
	const char *dash[] = { "/bin/sh", "/bin", "/usr/bin/sh", "/usr/bin/dash",
			       "/lib/x86_64-linux-gnu/libc.so.6", NULL };
	struct elf_deps_opts opts = { .exec_path = "/nonexistent:/bin" };
	struct run r;

	collect(&r, fxp("scripts/sh.sh"), NULL);
	ok(set_has_all(&r, dash) && path_set_has(&r.set, fxp("scripts/sh.sh")),
	   "#!/bin/sh: the script, /bin/sh -> dash with its links, dash's libc");
	run_free(&r);

	collect(&r, fxp("scripts/env.sh"), NULL);
	ok(set_has_all(&r, L("/usr/bin/env", "/usr/bin/sh", "/usr/bin/dash")) &&
	   !path_set_has(&r.set, "/bin/sh"),
	   "#!/usr/bin/env sh: env, and sh from the default PATH (/usr/bin first)");
	run_free(&r);

	collect(&r, fxp("scripts/env.sh"), &opts);
	ok(set_has_all(&r, L("/usr/bin/env", "/bin", "/bin/sh", "/usr/bin/dash")),
	   "#!/usr/bin/env sh with PATH=/nonexistent:/bin: /bin/sh");
	run_free(&r);

	collect(&r, fxp("scripts/env-split.sh"), NULL);
	ok(set_has_all(&r, L("/usr/bin/env", "/usr/bin/sh", "/usr/bin/dash")),
	   "#! /usr/bin/env -S LC_ALL=C sh -e: the command after the assignments");
	run_free(&r);

	collect(&r, fxp("scripts/env-missing.sh"), NULL);
	ok(failed_with(&r, L("env-missing.sh", "no-such-command-here", "not found in PATH")),
	   "#!/usr/bin/env of a missing command: error names it and the script");
	run_free(&r);

	collect(&r, fxp("scripts/a.sh"), NULL);
	ok(set_has_all(&r, L(fxp("scripts/a.sh"), fxp("scripts/b.sh"), "/usr/bin/dash")),
	   "nested #!: a script whose interpreter is a script");
	run_free(&r);

	collect(&r, fxp("scripts/loop.sh"), NULL);
	ok(failed_with(&r, L("loop.sh", "levels of #! interpreters")),
	   "a script that is its own interpreter: stopped after 5 levels");
	run_free(&r);

	collect(&r, fxp("scripts/nointerp.sh"), NULL);
	ok(failed_with(&r, L("/no/such/interpreter", "No such file", "nointerp.sh")),
	   "missing #! interpreter: named, with the script");
	run_free(&r);

	collect(&r, fxp("scripts/relative.sh"), NULL);
	ok(failed_with(&r, L("relative.sh", "\"sh\" is not an absolute path")),
	   "relative #! interpreter refused");
	run_free(&r);
}

static void test_host_errors(void)
{
	struct run r;

	collect(&r, fxp("missing/bin/prog"), NULL);
	ok(failed_with(&r, L("libgone.so: library not found, needed by", fxp("missing/bin/prog"))),
	   "missing library: error names it and the program needing it");
	run_free(&r);

	collect(&r, fxp("loop/a"), NULL);
	ok(failed_with(&r, L(fxp("loop/a"), "Too many levels of symbolic links")),
	   "symlink loop as the program: ELOOP, named");
	run_free(&r);

	collect(&r, "relative/prog", NULL);
	ok(failed_with(&r, L("relative/prog: not an absolute path")), "relative program path refused");
	run_free(&r);

	collect(&r, fxp("no-such-program"), NULL);
	ok(failed_with(&r, L("no-such-program: No such file or directory")), "missing program");
	run_free(&r);

	collect(&r, fx, NULL);
	ok(failed_with(&r, L(fx, "not a regular file")), "a directory as the program");
	run_free(&r);
}

/* The ldconfig-made sysroots: cache (new and compat formats), absolute links inside. */
static void test_ldconfig_sysroot(void)
{
	const char *want[] = {
		"/etc/ld.so.cache", "/lib", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64",
		"/lib64/ld-linux-x86-64.so.2", "/opt/special/libspecial.so.1", "/usr/bin/prog",
		"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib64/ld-linux-x86-64.so.2", NULL,
	};
	struct elf_deps_opts opts = { .sysroot = fxp("sysroot") };
	struct run r;

	collect(&r, "/usr/bin/prog", &opts);
	ok(set_is(&r, want), "sysroot: paths without it, absolute links stay inside, "
	   "libspecial.so.1 only known to its ld.so.cache");
	run_free(&r);

	opts.sysroot = fxp("sysroot-compat");
	collect(&r, "/bin/prog", &opts);
	ok(set_has_all(&r, L("/bin", "/bin/prog", "/opt/special/libspecial.so.1")),
	   "sysroot with a compat-format cache (old table, then the new one)");
	run_free(&r);
}

/* ---- crafted sysroots ---- */

/* Big-endian 64-bit (ppc64): wrong-class decoy skipped, cache flags, SONAME match. */
static void test_big_endian_sysroot(void)
{
	const char *root = fxp("be");
	char p[PATH_MAX];
	struct craft c = { ELF(ELFCLASS64, ELFDATA2MSB, ET_DYN, EM_PPC64), .interp = "/opt/ld/ld64.so.1",
			   .needed = { "libc.so.6", "libcached.so.2" } };
	struct craft lib = { ELF(ELFCLASS64, ELFDATA2MSB, ET_DYN, EM_PPC64), .soname = "libc.so.6",
			     .needed = { "ld64.so.1" } };
	struct craft ld = { ELF(ELFCLASS64, ELFDATA2MSB, ET_DYN, EM_PPC64), .soname = "ld64.so.1" };
	struct craft decoy = { ELF(ELFCLASS32, ELFDATA2MSB, ET_DYN, EM_PPC), .soname = "libc.so.6" };
	struct craft cached = { ELF(ELFCLASS64, ELFDATA2MSB, ET_DYN, EM_PPC64), .soname = "libcached.so.2" };
	const struct cache_ent ents[] = {
		{ 0x0303, "libcached.so.2", "/wrong/x86-64/libcached.so.2", 0 },
		{ 0x0503, "libcached.so.2", "/wrong/hwcaps/libcached.so.2", 1ull << 62 },
		{ 0x0503, "libcached.so.2", "/opt/cached/libcached.so.2", 0 },
	};
	struct elf_deps_opts opts = { .sysroot = root };
	struct run r;

#define AT(rel) (snprintf(p, sizeof(p), "%s%s", root, rel), p)
	craft_file(AT("/usr/bin/prog"), &c);
	craft_file(AT("/opt/ld/ld64.so.1"), &ld);
	craft_file(AT("/lib/powerpc64-linux-gnu/libc.so.6"), &decoy);
	craft_file(AT("/lib64/libc.so.6"), &lib);
	craft_file(AT("/opt/cached/libcached.so.2"), &cached);
	craft_file(AT("/wrong/x86-64/libcached.so.2"), &cached);
	craft_file(AT("/wrong/hwcaps/libcached.so.2"), &cached);
	craft_cache(AT("/etc/ld.so.cache"), ELFDATA2MSB, ents, 3);

	collect(&r, "/usr/bin/prog", &opts);
	ok(set_is(&r, L("/usr/bin/prog", "/opt/ld/ld64.so.1", "/lib64/libc.so.6",
			"/etc/ld.so.cache", "/opt/cached/libcached.so.2")),
	   "big-endian ppc64: 32-bit libc.so.6 skipped for /lib64's, cache entry by its flags, "
	   "ld64.so.1 matched by SONAME");
	run_free(&r);

	c.needed[1] = NULL;
	c.interp = "/lib/powerpc64-linux-gnu/libc.so.6";
	craft_file(AT("/usr/bin/badinterp"), &c);
	collect(&r, "/usr/bin/badinterp", &opts);
	ok(failed_with(&r, L("/usr/bin/badinterp", "ELF interpreter", "another ELF class")),
	   "PT_INTERP of another class: error");
	run_free(&r);
#undef AT
}

/* 32-bit i386, merged /usr with relative links, no cache. */
static void test_i386_sysroot(void)
{
	const char *root = fxp("i386");
	char p[PATH_MAX];
	struct craft c = { ELF(ELFCLASS32, ELFDATA2LSB, ET_EXEC, EM_386), .interp = "/lib/ld-linux.so.2",
			   .needed = { "libc.so.6" } };
	struct craft ld = { ELF(ELFCLASS32, ELFDATA2LSB, ET_DYN, EM_386), .soname = "ld-linux.so.2" };
	struct craft lib = { ELF(ELFCLASS32, ELFDATA2LSB, ET_DYN, EM_386), .soname = "libc.so.6",
			     .needed = { "ld-linux.so.2" } };
	struct craft decoy = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .soname = "libc.so.6" };
	struct elf_deps_opts opts = { .sysroot = root };
	struct run r;

#define AT(rel) (snprintf(p, sizeof(p), "%s%s", root, rel), p)
	craft_file(AT("/bin/prog"), &c);
	make_link("usr/lib", AT("/lib"));
	craft_file(AT("/usr/lib/i386-linux-gnu/ld-linux.so.2"), &ld);
	make_link("i386-linux-gnu/ld-linux.so.2", AT("/usr/lib/ld-linux.so.2"));
	craft_file(AT("/usr/lib/i386-linux-gnu/libc.so.6"), &decoy);
	craft_file(AT("/usr/lib/libc.so.6"), &lib);

	collect(&r, "/bin/prog", &opts);
	ok(set_is(&r, L("/bin/prog", "/lib", "/lib/ld-linux.so.2", "/usr/lib/ld-linux.so.2",
			"/usr/lib/i386-linux-gnu/ld-linux.so.2", "/lib/libc.so.6",
			"/usr/lib/libc.so.6")),
	   "32-bit i386: default dirs by machine, 64-bit libc.so.6 skipped, links listed");
	run_free(&r);

	/* A link in the sysroot climbing out with ".." stays inside it. */
	make_link("../../../../../../usr/lib/libc.so.6", AT("/opt/up/libc.so.6"));
	c.needed[0] = "/opt/up/libc.so.6";
	craft_file(AT("/bin/abs"), &c);
	collect(&r, "/bin/abs", &opts);
	ok(set_has_all(&r, L("/opt/up/libc.so.6", "/usr/lib/libc.so.6")),
	   "DT_NEEDED by path, through a link climbing above the sysroot: stays inside");
	run_free(&r);
#undef AT
}

/* $ORIGIN, $PLATFORM, ${LIB}, DT_NEEDED with $ORIGIN, the library path. */
static void test_dst_sysroot(void)
{
	const char *root = fxp("dst");
	char p[PATH_MAX];
	struct craft c = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .interp = "/ld.so",
			   .needed = { "libq.so", "$ORIGIN/direct.so" },
			   .runpath = "/opt/$PLATFORM/${LIB}:$ORIGIN/../l" };
	struct craft ld = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .soname = "ld.so" };
	struct craft lib = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64) };
	struct elf_deps_opts opts = { .sysroot = root };
	struct run r;

#define AT(rel) (snprintf(p, sizeof(p), "%s%s", root, rel), p)
	craft_file(AT("/bin/prog"), &c);
	craft_file(AT("/ld.so"), &ld);
	craft_file(AT("/opt/x86_64/lib/x86_64-linux-gnu/libq.so"), &lib);
	craft_file(AT("/bin/direct.so"), &lib);
	craft_file(AT("/extra/libq.so"), &lib);

	collect(&r, "/bin/prog", &opts);
	ok(set_is(&r, L("/bin/prog", "/ld.so", "/opt/x86_64/lib/x86_64-linux-gnu/libq.so",
			"/bin/direct.so")),
	   "$PLATFORM and ${LIB} (Debian's lib/x86_64-linux-gnu) in RUNPATH, $ORIGIN in DT_NEEDED");
	run_free(&r);

	opts.dst_lib = "lib64";
	collect(&r, "/bin/prog", &opts);
	ok(failed_with(&r, L("libq.so: library not found, needed by /bin/prog")),
	   "$LIB given as lib64: nothing there");
	run_free(&r);

	opts.dst_lib = NULL;
	opts.library_path = "/nowhere:/extra";
	collect(&r, "/bin/prog", &opts);
	ok(set_has_all(&r, L("/extra/libq.so")) &&
	   !path_set_has(&r.set, "/opt/x86_64/lib/x86_64-linux-gnu/libq.so"),
	   "the library path comes before DT_RUNPATH, as LD_LIBRARY_PATH");
	run_free(&r);
#undef AT
}

/* musl: RPATH with $LIB ignored whole, the path file, the default path. */
static void test_musl_sysroot(void)
{
	const char *root = fxp("musl-root");
	char p[PATH_MAX];
	struct craft c = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64),
			   .interp = "/lib/ld-musl-x86_64.so.1",
			   .needed = { "libc.so", "libm.so.1", "libz.so.1" },
			   .runpath = "/opt/viarunpath:$LIB" };
	struct craft ld = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64) };
	struct elf_deps_opts opts = { .sysroot = root };
	struct run r;

#define AT(rel) (snprintf(p, sizeof(p), "%s%s", root, rel), p)
	craft_file(AT("/bin/prog"), &c);
	craft_file(AT("/lib/ld-musl-x86_64.so.1"), &ld);
	craft_file(AT("/opt/viarunpath/libz.so.1"), &ld);
	craft_file(AT("/opt/musl/libz.so.1"), &ld);
	craft_file(AT("/usr/lib/libz.so.1"), &ld);
	write_file(AT("/etc/ld-musl-x86_64.path"), "/opt/musl\n", 10, 0644);

	collect(&r, "/bin/prog", &opts);
	ok(set_is(&r, L("/bin/prog", "/lib/ld-musl-x86_64.so.1", "/etc/ld-musl-x86_64.path",
			"/opt/musl/libz.so.1")),
	   "musl: libc.so/libm.so.1 built in, RUNPATH with $LIB ignored, /etc/ld-musl-x86_64.path");
	run_free(&r);

	c.runpath = "$ORIGIN/../opt/viarunpath";
	craft_file(AT("/bin/prog2"), &c);
	collect(&r, "/bin/prog2", &opts);
	ok(set_has_all(&r, L("/opt/viarunpath/libz.so.1")), "musl: $ORIGIN in RUNPATH");
	run_free(&r);

	unlink(AT("/etc/ld-musl-x86_64.path"));
	collect(&r, "/bin/prog", &opts);
	ok(set_has_all(&r, L("/usr/lib/libz.so.1")) &&
	   !path_set_has(&r.set, "/etc/ld-musl-x86_64.path"),
	   "musl without a path file: /lib:/usr/local/lib:/usr/lib");
	run_free(&r);
#undef AT
}

/* ---- malformed files ---- */

static const struct craft plain = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64),
				    .interp = "/lib64/ld-linux-x86-64.so.2",
				    .needed = { "libc.so.6" } };

/* Writes a crafted program broken by @mutate, collects it, expects @parts. */
static void malformed(const char *name, void (*mutate)(unsigned char *, struct craft_layout *),
		      const char *const *parts, const char *desc)
{
	unsigned char b[4096];
	struct craft_layout lay;
	struct run r;
	size_t len = craft_elf(&plain, b, &lay);
	const char *path = fxp(name);

	lay.len = len;
	mutate(b, &lay);
	write_file(path, b, lay.len, 0755);
	collect(&r, path, NULL);
	ok(failed_with(&r, parts) && strstr(r.err, path), "%s", desc);
	run_free(&r);
}

static void cut_40(unsigned char *b, struct craft_layout *l)
{
	(void)b;
	l->len = 40;
}

static void cut_phdrs(unsigned char *b, struct craft_layout *l)
{
	(void)b;
	l->len = l->phoff + 20;
}

static void phoff_far(unsigned char *b, struct craft_layout *l)
{
	(void)l;
	put(b, &plain, offsetof(Elf64_Ehdr, e_phoff), 0x7ffffffffff0ull, 8);
}

static void phoff_wraps(unsigned char *b, struct craft_layout *l)
{
	(void)l;
	put(b, &plain, offsetof(Elf64_Ehdr, e_phoff), UINT64_MAX - 8, 8);
}

static void phentsize_bad(unsigned char *b, struct craft_layout *l)
{
	(void)l;
	put(b, &plain, offsetof(Elf64_Ehdr, e_phentsize), 12, 2);
}

static void interp_unterminated(unsigned char *b, struct craft_layout *l)
{
	b[l->interp_off + l->interp_len - 1] = 'x';
}

static void interp_huge(unsigned char *b, struct craft_layout *l)
{
	put(b, &plain, l->phoff + sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, p_filesz), 1u << 30, 8);
}

static void dynamic_out(unsigned char *b, struct craft_layout *l)
{
	put(b, &plain, l->phoff + 2 * sizeof(Elf64_Phdr) + offsetof(Elf64_Phdr, p_offset),
	    l->len - 8, 8);
}

static void needed_off_bad(unsigned char *b, struct craft_layout *l)
{
	/* The first entry is DT_NEEDED: point it past DT_STRSZ. */
	put(b, &plain, l->dyn_off + 8, 0xffffff, 8);
}

static void strtab_nowhere(unsigned char *b, struct craft_layout *l)
{
	/* Entries: NEEDED, STRTAB, STRSZ, NULL. */
	put(b, &plain, l->dyn_off + 16 + 8, 0x7000000000ull, 8);
}

static void strsz_cuts_name(unsigned char *b, struct craft_layout *l)
{
	put(b, &plain, l->dyn_off + 32 + 8, 4, 8);
}

static void class_bad(unsigned char *b, struct craft_layout *l)
{
	(void)l;
	b[EI_CLASS] = 7;
}

static void test_malformed(void)
{
	struct run r;

	malformed("bad/truncated", cut_40, L("truncated ELF header"), "truncated ELF header");
	malformed("bad/cut-phdrs", cut_phdrs, L("program header table out of file bounds"),
		  "file ends inside the program headers");
	malformed("bad/phoff", phoff_far, L("program header table out of file bounds"),
		  "program header table out of bounds");
	malformed("bad/phoff-wrap", phoff_wraps, L("program header table out of file bounds"),
		  "program header offset that wraps around");
	malformed("bad/phentsize", phentsize_bad, L("bad program header size 12"),
		  "wrong e_phentsize");
	malformed("bad/interp-nul", interp_unterminated, L("PT_INTERP is not NUL-terminated"),
		  "PT_INTERP without its NUL");
	malformed("bad/interp-huge", interp_huge, L("bad PT_INTERP size"), "PT_INTERP of 1 GiB");
	malformed("bad/dynamic", dynamic_out, L("PT_DYNAMIC out of file bounds"),
		  "PT_DYNAMIC beyond the end of the file");
	malformed("bad/needed", needed_off_bad, L("DT_NEEDED string offset", "outside DT_STRSZ"),
		  "DT_NEEDED offset beyond DT_STRSZ");
	malformed("bad/strtab", strtab_nowhere, L("DT_STRTAB 0x7000000000 is not in the file"),
		  "DT_STRTAB in no PT_LOAD");
	malformed("bad/strsz", strsz_cuts_name, L("DT_NEEDED string is not terminated"),
		  "DT_STRSZ ending inside a name");
	malformed("bad/class", class_bad, L("unknown ELF class 7"), "unknown ELF class");

	write_file(fxp("bad/garbage"), "\x13\x37garbage, not a program\n", 25, 0755);
	collect(&r, fxp("bad/garbage"), NULL);
	ok(failed_with(&r, L("bad/garbage: neither an ELF file nor a #! script")), "garbage");
	run_free(&r);

	write_file(fxp("bad/empty"), "", 0, 0755);
	collect(&r, fxp("bad/empty"), NULL);
	ok(failed_with(&r, L("bad/empty: neither")), "empty file");
	run_free(&r);
}

/* Libraries that are garbage or loops, found by a RUNPATH. */
static void test_bad_libraries(void)
{
	struct craft c = plain;
	struct run r;
	char runpath[PATH_MAX];

	snprintf(runpath, sizeof(runpath), "%s", fxp("badlib"));
	c.runpath = runpath;
	c.needed[0] = "libgarbage.so";
	craft_file(fxp("badlib/prog-garbage"), &c);
	write_file(fxp("badlib/libgarbage.so"), "!<arch>\nnot ELF", 15, 0644);
	collect(&r, fxp("badlib/prog-garbage"), NULL);
	ok(failed_with(&r, L("badlib/libgarbage.so: not an ELF file", "needed by",
			     "badlib/prog-garbage")),
	   "a library that is not ELF: error names it and its needer");
	run_free(&r);

	c.needed[0] = "libloop.so";
	craft_file(fxp("badlib/prog-loop"), &c);
	make_link("libloop.so", fxp("badlib/libloop.so"));
	collect(&r, fxp("badlib/prog-loop"), NULL);
	ok(failed_with(&r, L("libloop.so: library not found", "Too many levels of symbolic links")),
	   "a library that is a symlink loop: skipped like ld.so, the reason told");
	run_free(&r);
}

/* Every truncation and many byte flips of a crafted program: errors, never a crash. */
static void test_fuzz(void)
{
	struct craft c = { ELF(ELFCLASS64, ELFDATA2MSB, ET_DYN, EM_PPC64), .interp = "/opt/ld/ld64.so.1",
			   .needed = { "libc.so.6", "libcached.so.2" }, .runpath = "$ORIGIN/x" };
	static const unsigned char values[] = { 0x00, 0xff, 0x7f, 0x80, 0x01 };
	struct elf_deps_opts opts = { .sysroot = fxp("be") };
	const char *path = fxp("be/usr/bin/fuzz");
	unsigned char b[4096], m[4096];
	struct craft_layout lay;
	size_t len = craft_elf(&c, b, &lay), runs = 0, bad = 0, passed = 0;

	for (size_t cut = 0; cut <= len; cut++) {
		struct run r;

		write_file(path, b, cut, 0755);
		memset(&r, 0, sizeof(r));
		r.ret = elf_deps_collect("/usr/bin/fuzz", &opts, &r.set, r.err, sizeof(r.err));
		runs++;
		bad += r.ret < 0 && !r.err[0];
		passed += r.ret == 0;
		run_free(&r);
	}
	for (size_t at = 0; at < len; at++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			struct run r;

			memcpy(m, b, len);
			m[at] = values[v];
			write_file(path, m, len, 0755);
			memset(&r, 0, sizeof(r));
			r.ret = elf_deps_collect("/usr/bin/fuzz", &opts, &r.set, r.err, sizeof(r.err));
			runs++;
			bad += r.ret < 0 && !r.err[0];
			passed += r.ret == 0;
			run_free(&r);
		}
	}
	ok(bad == 0 && passed > 0 && passed < runs,
	   "%zu truncated or corrupted programs: %zu accepted, the rest failed with a message",
	   runs, passed);
}

/* ---- ldd as the oracle ---- */

/* A real ELF file named by its real path (not a name through links). */
static bool is_real_elf_file(const char *path)
{
	char head[4], real[PATH_MAX];
	bool elf;
	int fd;

	if (!realpath(path, real) || strcmp(real, path))
		return false;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf = read(fd, head, 4) == 4 && !memcmp(head, ELFMAG, 4);
	close(fd);
	return elf;
}

/* The real paths of what ldd says @prog maps, plus @prog's. */
static int ldd_objects(const char *prog, struct path_set *objs)
{
	char cmd[PATH_MAX + 32], line[PATH_MAX + 128], real[PATH_MAX];
	FILE *f;
	int status;

	if (!realpath(prog, real) || path_set_add(objs, real) < 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", prog);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, "=> /"), *end;

		s = s ? s + 3 : line + strspn(line, "\t ");
		if (*s != '/')
			continue;
		end = strstr(s, " (");
		if (end)
			*end = '\0';
		s[strcspn(s, "\n")] = '\0';
		if (realpath(s, real) && path_set_add(objs, real) < 0)
			break;
	}
	status = pclose(f);
	return status == 0 ? 0 : -1;
}

static void test_against_ldd(void)
{
	const char *progs[] = { "/bin/ls", "/usr/bin/clang", "/usr/bin/python3", "/usr/bin/ssh",
				"/usr/bin/curl", "/usr/bin/git", fxp("glibc/hello"),
				fxp("runpath/bin/prog"), fxp("rpath/bin/prog"),
				fxp("dirlink/bin/prog"), NULL };

	if (access("/usr/bin/ldd", X_OK) < 0) {
		skip("ldd comparison: no ldd");
		return;
	}
	for (size_t i = 0; progs[i]; i++) {
		struct path_set want = { 0 }, got = { 0 };
		bool same;
		struct run r;

		if (!exists(progs[i]))
			continue;
		if (ldd_objects(progs[i], &want) < 0) {
			path_set_free(&want);
			continue;
		}
		collect(&r, progs[i], NULL);
		for (size_t j = 0; j < r.set.n; j++)
			if (is_real_elf_file(r.set.paths[j]))
				path_set_add(&got, r.set.paths[j]);
		same = r.ret == 0 && got.n == want.n;
		for (size_t j = 0; j < want.n; j++)
			if (!path_set_has(&got, want.paths[j])) {
				printf("#   ldd has %s\n", want.paths[j]);
				same = false;
			}
		ok(same, "%s: the same %zu ELF files as ldd", progs[i], want.n);
		path_set_free(&want);
		path_set_free(&got);
		run_free(&r);
	}
}

/* Every listed path exists (lstat) and links in it resolve: what staging needs. */
static void test_listed_paths_exist(void)
{
	struct run r;
	bool all = true;

	collect(&r, "/usr/bin/clang", NULL);
	if (r.ret < 0) {
		run_free(&r);
		collect(&r, "/bin/ls", NULL);
	}
	for (size_t i = 0; i < r.set.n; i++) {
		struct stat st;

		if (stat(r.set.paths[i], &st) < 0) {
			printf("#   %s: %s\n", r.set.paths[i], strerror(errno));
			all = false;
		}
	}
	ok(r.ret == 0 && all, "every listed path (%zu) exists and resolves", r.set.n);
	run_free(&r);
}

static int build_fixtures(void)
{
	char tmpl[] = "/tmp/ujail-deps-XXXXXX", cmd[PATH_MAX * 4];

	if (!mkdtemp(tmpl) || !realpath(tmpl, fx))
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s/elf_fixtures.sh' '%s/fx' >'%s/build.log' 2>&1", UJ_TEST_DIR,
		 fx, fx);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "sed 's/^/# /' '%s/build.log'", fx);
		fflush(stdout);
		(void)!system(cmd);
		return -1;
	}
	strcat(fx, "/fx");
	return 0;
}

static void remove_fixtures(void)
{
	char cmd[PATH_MAX + 16];
	char *slash = strrchr(fx, '/');

	*slash = '\0';		/* the mkdtemp directory */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fx);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!ok(build_fixtures() == 0, "fixtures built by elf_fixtures.sh"))
		return tap_done();
	test_glibc_hello();
	test_runpath();
	test_rpath();
	test_dir_link();
	test_static();
	test_musl();
	test_m32();
	test_scripts();
	test_host_errors();
	test_ldconfig_sysroot();
	test_big_endian_sysroot();
	test_i386_sysroot();
	test_dst_sysroot();
	test_musl_sysroot();
	test_malformed();
	test_bad_libraries();
	test_fuzz();
	test_against_ldd();
	test_listed_paths_exist();
	remove_fixtures();
	return tap_done();
}
