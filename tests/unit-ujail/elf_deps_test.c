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

#include "deps/elf_deps.h"
#include "tap.h"

#ifndef UJ_TEST_DIR
#error "UJ_TEST_DIR: the directory of elf_fixtures.sh"
#endif

/* strerror(ELOOP): the C libraries word it differently (musl: the targets
 * of scripts/cross.mk). */
#ifdef __GLIBC__
#define ELOOP_TEXT "Too many levels of symbolic links"
#else
#define ELOOP_TEXT "Symbolic link loop"
#endif

static char fx[PATH_MAX];	/* the fixture directory */

/* ---- small helpers ---- */

/* "@dir/@rel" (@sep between them) in a ring of buffers, for expectations. */
static const char *join(const char *dir, const char *sep, const char *rel)
{
	static char ring[48][PATH_MAX];
	static unsigned int next;
	char *buf = ring[next++ % 48];

	if (snprintf(buf, PATH_MAX, "%s%s%s", dir, sep, rel) >= PATH_MAX)
		abort();
	return buf;
}

/* A path under the fixture directory. */
static const char *fxp(const char *rel)
{
	return join(fx, "/", rel);
}

/* @rel ("/bin/prog") inside the crafted sysroot @root, as the host names it. */
static const char *in_root(const char *root, const char *rel)
{
	return join(root, "", rel);
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

/*
 * How a case is checked: exactly the paths, at least the paths, or a
 * failure whose message holds each of them.
 */
enum expect { EXPECT_IS, EXPECT_HAS_ALL, EXPECT_FAILS_WITH };

/* Collects @prog with @opts and checks it; @none (may be NULL) must not be listed. */
static void expect(const char *prog, const struct elf_deps_opts *opts, enum expect how,
		   const char *const *paths, const char *const *none, const char *desc)
{
	struct run r;
	bool pass;

	collect(&r, prog, opts);
	if (how == EXPECT_IS)
		pass = set_is(&r, paths);
	else if (how == EXPECT_HAS_ALL)
		pass = set_has_all(&r, paths);
	else
		pass = failed_with(&r, paths);
	ok(pass && (!none || set_has_none(&r, none)), "%s", desc);
	run_free(&r);
}

/* A program built by elf_fixtures.sh, or on the host; FX "rel" names a fixture. */
struct host_case {
	const char *prog;
	const char *sysroot, *exec_path;	/* elf_deps_opts; NULL: default */
	enum expect how;
	const char *paths[12];
	const char *none[3];
	const char *desc;
	const char *needs, *skip_why;	/* skipped with @skip_why unless @needs exists */
};

/* "fx:" + a path under the fixture directory ("fx:" alone: the directory itself). */
#define FX "fx:"

static const char *fx_expand(const char *s)
{
	if (!s || strncmp(s, FX, strlen(FX)))
		return s;
	return s[strlen(FX)] ? fxp(s + strlen(FX)) : fx;
}

static void fx_expand_list(const char *const *in, size_t n, const char **out)
{
	size_t i;

	for (i = 0; i < n - 1 && in[i]; i++)
		out[i] = fx_expand(in[i]);
	out[i] = NULL;
}

static const struct host_case host_cases[] = {
	{ FX "runpath/bin/prog", .how = EXPECT_HAS_ALL,
	  .paths = { FX "runpath/bin/prog", FX "runpath/lib/libfoo.so",
		     "/lib/x86_64-linux-gnu/libc.so.6" },
	  .desc = "DT_RUNPATH $ORIGIN/../lib: libfoo.so found there, libc.so.6 still from the cache" },
	{ FX "runpath/bin/prog", .how = EXPECT_HAS_ALL,
	  .paths = { FX "runpath/lib/libchain.so.1", FX "runpath/lib/libchain.so.1.0",
		     FX "runpath/lib/libchain.so.1.0.0" },
	  .desc = "a chain of links: libchain.so.1 -> .1.0 -> .1.0.0, each one listed" },
	{ FX "runpath/bin/prog", .how = EXPECT_HAS_ALL,
	  .none = { FX "runpath/bin/../lib/libfoo.so", FX "runpath/lib/libchain.so" },
	  .desc = "names with \"..\" are not listed as such, and a link nobody opens is not listed" },
	{ FX "rpath/bin/prog", .how = EXPECT_HAS_ALL,
	  .paths = { FX "rpath/lib/libmid.so", FX "rpath/lib/libleaf.so" },
	  .desc = "DT_RPATH of the program serves libmid.so's own need (libleaf.so)" },
	{ FX "runpath-noinherit/bin/prog", .how = EXPECT_FAILS_WITH,
	  .paths = { "libleaf.so: library not found", "needed by",
		     "runpath-noinherit/bin/../lib/libmid.so" },
	  .desc = "DT_RUNPATH is not inherited: libleaf.so missing, named with its needer" },
	{ FX "dirlink/bin/prog", .how = EXPECT_HAS_ALL,
	  .paths = { FX "dirlink/lib", FX "dirlink/libs.real/libfoo.so" },
	  .desc = "a directory link on the way (lib -> libs.real) and the real file" },
	{ FX "static/hello", .how = EXPECT_IS, .paths = { FX "static/hello" },
	  .desc = "static program: only itself" },
	{ FX "musl/hello", .how = EXPECT_IS,
	  .paths = { FX "musl/hello", "/lib", "/lib/ld-musl-x86_64.so.1",
		     "/usr/lib/ld-musl-x86_64.so.1", "/usr/lib/x86_64-linux-musl/libc.so" },
	  .desc = "musl program: ld-musl-x86_64.so.1 -> x86_64-linux-musl/libc.so, libc.so built in",
	  .needs = FX "musl/hello", .skip_why = "musl program: musl-gcc not installed" },
	{ FX "m32/hello", .how = EXPECT_HAS_ALL, .paths = { FX "m32/hello", "/lib/ld-linux.so.2" },
	  .desc = "32-bit program: /lib/ld-linux.so.2 and its libc",
	  .needs = FX "m32/hello",
	  .skip_why = "32-bit program: gcc -m32 cannot link here (no gcc-multilib)" },
	/* #! scripts */
	{ FX "scripts/sh.sh", .how = EXPECT_HAS_ALL,
	  .paths = { "/bin/sh", "/bin", "/usr/bin/sh", "/usr/bin/dash",
		     "/lib/x86_64-linux-gnu/libc.so.6", FX "scripts/sh.sh" },
	  .desc = "#!/bin/sh: the script, /bin/sh -> dash with its links, dash's libc" },
	{ FX "scripts/env.sh", .how = EXPECT_HAS_ALL,
	  .paths = { "/usr/bin/env", "/usr/bin/sh", "/usr/bin/dash" }, .none = { "/bin/sh" },
	  .desc = "#!/usr/bin/env sh: env, and sh from the default PATH (/usr/bin first)" },
	{ FX "scripts/env.sh", .exec_path = "/nonexistent:/bin", .how = EXPECT_HAS_ALL,
	  .paths = { "/usr/bin/env", "/bin", "/bin/sh", "/usr/bin/dash" },
	  .desc = "#!/usr/bin/env sh with PATH=/nonexistent:/bin: /bin/sh" },
	{ FX "scripts/env-split.sh", .how = EXPECT_HAS_ALL,
	  .paths = { "/usr/bin/env", "/usr/bin/sh", "/usr/bin/dash" },
	  .desc = "#! /usr/bin/env -S LC_ALL=C sh -e: the command after the assignments" },
	{ FX "scripts/env-missing.sh", .how = EXPECT_FAILS_WITH,
	  .paths = { "env-missing.sh", "no-such-command-here", "not found in PATH" },
	  .desc = "#!/usr/bin/env of a missing command: error names it and the script" },
	{ FX "scripts/a.sh", .how = EXPECT_HAS_ALL,
	  .paths = { FX "scripts/a.sh", FX "scripts/b.sh", "/usr/bin/dash" },
	  .desc = "nested #!: a script whose interpreter is a script" },
	{ FX "scripts/loop.sh", .how = EXPECT_FAILS_WITH,
	  .paths = { "loop.sh", "levels of #! interpreters" },
	  .desc = "a script that is its own interpreter: stopped after 5 levels" },
	{ FX "scripts/nointerp.sh", .how = EXPECT_FAILS_WITH,
	  .paths = { "/no/such/interpreter", "No such file", "nointerp.sh" },
	  .desc = "missing #! interpreter: named, with the script" },
	{ FX "scripts/relative.sh", .how = EXPECT_FAILS_WITH,
	  .paths = { "relative.sh", "\"sh\" is not an absolute path" },
	  .desc = "relative #! interpreter refused" },
	/* errors */
	{ FX "missing/bin/prog", .how = EXPECT_FAILS_WITH,
	  .paths = { "libgone.so: library not found, needed by", FX "missing/bin/prog" },
	  .desc = "missing library: error names it and the program needing it" },
	{ FX "loop/a", .how = EXPECT_FAILS_WITH,
	  .paths = { FX "loop/a", ELOOP_TEXT },
	  .desc = "symlink loop as the program: ELOOP, named" },
	{ "relative/prog", .how = EXPECT_FAILS_WITH,
	  .paths = { "relative/prog: not an absolute path" },
	  .desc = "relative program path refused" },
	{ FX "no-such-program", .how = EXPECT_FAILS_WITH,
	  .paths = { "no-such-program: No such file or directory" }, .desc = "missing program" },
	{ FX, .how = EXPECT_FAILS_WITH, .paths = { FX, "not a regular file" },
	  .desc = "a directory as the program" },
	/* the ldconfig-made sysroots: cache (new and compat formats), absolute links inside */
	{ "/usr/bin/prog", .sysroot = FX "sysroot", .how = EXPECT_IS,
	  .paths = { "/etc/ld.so.cache", "/lib", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64",
		     "/lib64/ld-linux-x86-64.so.2", "/opt/special/libspecial.so.1", "/usr/bin/prog",
		     "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		     "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib64/ld-linux-x86-64.so.2" },
	  .desc = "sysroot: paths without it, absolute links stay inside, "
		  "libspecial.so.1 only known to its ld.so.cache" },
	{ "/bin/prog", .sysroot = FX "sysroot-compat", .how = EXPECT_HAS_ALL,
	  .paths = { "/bin", "/bin/prog", "/opt/special/libspecial.so.1" },
	  .desc = "sysroot with a compat-format cache (old table, then the new one)" },
};

static void test_host_cases(void)
{
	for (size_t i = 0; i < sizeof(host_cases) / sizeof(host_cases[0]); i++) {
		const struct host_case *c = &host_cases[i];
		struct elf_deps_opts opts = { .exec_path = c->exec_path };
		const char *paths[13], *none[4];

		if (c->needs && !exists(fx_expand(c->needs))) {
			skip(c->skip_why);
			continue;
		}
		opts.sysroot = fx_expand(c->sysroot);
		fx_expand_list(c->paths, 13, paths);
		fx_expand_list(c->none, 4, none);
		expect(fx_expand(c->prog), &opts, c->how, paths, none[0] ? none : NULL, c->desc);
	}
}

/* ---- crafted sysroots ---- */

/* One file of a crafted sysroot: an ELF file, or a symbolic link to @link. */
struct placed {
	const char *path;
	const struct craft *elf;
	const char *link;
};

/* Writes @files (up to one with no path) inside sysroot @root. */
static void build_root(const char *root, const struct placed *files)
{
	for (; files->path; files++) {
		if (files->elf)
			craft_file(in_root(root, files->path), files->elf);
		else
			make_link(files->link, in_root(root, files->path));
	}
}

/* Big-endian 64-bit (ppc64): wrong-class decoy skipped, cache flags, SONAME match. */
static void test_big_endian_sysroot(void)
{
	const char *root = fxp("be");
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

	build_root(root, (const struct placed[]){
		{ "/usr/bin/prog", .elf = &c },
		{ "/opt/ld/ld64.so.1", .elf = &ld },
		{ "/lib/powerpc64-linux-gnu/libc.so.6", .elf = &decoy },
		{ "/lib64/libc.so.6", .elf = &lib },
		{ "/opt/cached/libcached.so.2", .elf = &cached },
		{ "/wrong/x86-64/libcached.so.2", .elf = &cached },
		{ "/wrong/hwcaps/libcached.so.2", .elf = &cached },
		{ .path = NULL } });
	craft_cache(in_root(root, "/etc/ld.so.cache"), ELFDATA2MSB, ents, 3);

	expect("/usr/bin/prog", &opts, EXPECT_IS,
	       L("/usr/bin/prog", "/opt/ld/ld64.so.1", "/lib64/libc.so.6", "/etc/ld.so.cache",
		 "/opt/cached/libcached.so.2"),
	       NULL,
	       "big-endian ppc64: 32-bit libc.so.6 skipped for /lib64's, cache entry by its flags, "
	       "ld64.so.1 matched by SONAME");

	c.needed[1] = NULL;
	c.interp = "/lib/powerpc64-linux-gnu/libc.so.6";
	craft_file(in_root(root, "/usr/bin/badinterp"), &c);
	expect("/usr/bin/badinterp", &opts, EXPECT_FAILS_WITH,
	       L("/usr/bin/badinterp", "ELF interpreter", "another ELF class"),
	       NULL, "PT_INTERP of another class: error");
}

/* 32-bit i386, merged /usr with relative links, no cache. */
static void test_i386_sysroot(void)
{
	const char *root = fxp("i386");
	struct craft c = { ELF(ELFCLASS32, ELFDATA2LSB, ET_EXEC, EM_386), .interp = "/lib/ld-linux.so.2",
			   .needed = { "libc.so.6" } };
	struct craft ld = { ELF(ELFCLASS32, ELFDATA2LSB, ET_DYN, EM_386), .soname = "ld-linux.so.2" };
	struct craft lib = { ELF(ELFCLASS32, ELFDATA2LSB, ET_DYN, EM_386), .soname = "libc.so.6",
			     .needed = { "ld-linux.so.2" } };
	struct craft decoy = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .soname = "libc.so.6" };
	struct elf_deps_opts opts = { .sysroot = root };

	build_root(root, (const struct placed[]){
		{ "/bin/prog", .elf = &c },
		{ "/lib", .link = "usr/lib" },
		{ "/usr/lib/i386-linux-gnu/ld-linux.so.2", .elf = &ld },
		{ "/usr/lib/ld-linux.so.2", .link = "i386-linux-gnu/ld-linux.so.2" },
		{ "/usr/lib/i386-linux-gnu/libc.so.6", .elf = &decoy },
		{ "/usr/lib/libc.so.6", .elf = &lib },
		{ .path = NULL } });

	expect("/bin/prog", &opts, EXPECT_IS,
	       L("/bin/prog", "/lib", "/lib/ld-linux.so.2", "/usr/lib/ld-linux.so.2",
		 "/usr/lib/i386-linux-gnu/ld-linux.so.2", "/lib/libc.so.6", "/usr/lib/libc.so.6"),
	       NULL,
	       "32-bit i386: default dirs by machine, 64-bit libc.so.6 skipped, links listed");

	/* A link in the sysroot climbing out with ".." stays inside it. */
	make_link("../../../../../../usr/lib/libc.so.6", in_root(root, "/opt/up/libc.so.6"));
	c.needed[0] = "/opt/up/libc.so.6";
	craft_file(in_root(root, "/bin/abs"), &c);
	expect("/bin/abs", &opts, EXPECT_HAS_ALL,
	       L("/opt/up/libc.so.6", "/usr/lib/libc.so.6"),
	       NULL, "DT_NEEDED by path, through a link climbing above the sysroot: stays inside");
}

/* $ORIGIN, $PLATFORM, ${LIB}, DT_NEEDED with $ORIGIN, the library path. */
static void test_dst_sysroot(void)
{
	const char *root = fxp("dst");
	struct craft c = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .interp = "/ld.so",
			   .needed = { "libq.so", "$ORIGIN/direct.so" },
			   .runpath = "/opt/$PLATFORM/${LIB}:$ORIGIN/../l" };
	struct craft ld = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64), .soname = "ld.so" };
	struct craft lib = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64) };
	struct elf_deps_opts opts = { .sysroot = root };

	build_root(root, (const struct placed[]){
		{ "/bin/prog", .elf = &c },
		{ "/ld.so", .elf = &ld },
		{ "/opt/x86_64/lib/x86_64-linux-gnu/libq.so", .elf = &lib },
		{ "/bin/direct.so", .elf = &lib },
		{ "/extra/libq.so", .elf = &lib },
		{ .path = NULL } });

	expect("/bin/prog", &opts, EXPECT_IS,
	       L("/bin/prog", "/ld.so", "/opt/x86_64/lib/x86_64-linux-gnu/libq.so",
		 "/bin/direct.so"),
	       NULL,
	       "$PLATFORM and ${LIB} (Debian's lib/x86_64-linux-gnu) in RUNPATH, $ORIGIN in DT_NEEDED");

	opts.dst_lib = "lib64";
	expect("/bin/prog", &opts, EXPECT_FAILS_WITH,
	       L("libq.so: library not found, needed by /bin/prog"),
	       NULL, "$LIB given as lib64: nothing there");

	opts.dst_lib = NULL;
	opts.library_path = "/nowhere:/extra";
	expect("/bin/prog", &opts, EXPECT_HAS_ALL,
	       L("/extra/libq.so"),
	       L("/opt/x86_64/lib/x86_64-linux-gnu/libq.so"),
	       "the library path comes before DT_RUNPATH, as LD_LIBRARY_PATH");
}

/* musl: RPATH with $LIB ignored whole, the path file, the default path. */
static void test_musl_sysroot(void)
{
	const char *root = fxp("musl-root");
	struct craft c = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64),
			   .interp = "/lib/ld-musl-x86_64.so.1",
			   .needed = { "libc.so", "libm.so.1", "libz.so.1" },
			   .runpath = "/opt/viarunpath:$LIB" };
	struct craft ld = { ELF(ELFCLASS64, ELFDATA2LSB, ET_DYN, EM_X86_64) };
	struct elf_deps_opts opts = { .sysroot = root };

	build_root(root, (const struct placed[]){
		{ "/bin/prog", .elf = &c },
		{ "/lib/ld-musl-x86_64.so.1", .elf = &ld },
		{ "/opt/viarunpath/libz.so.1", .elf = &ld },
		{ "/opt/musl/libz.so.1", .elf = &ld },
		{ "/usr/lib/libz.so.1", .elf = &ld },
		{ .path = NULL } });
	write_file(in_root(root, "/etc/ld-musl-x86_64.path"), "/opt/musl\n", 10, 0644);

	expect("/bin/prog", &opts, EXPECT_IS,
	       L("/bin/prog", "/lib/ld-musl-x86_64.so.1", "/etc/ld-musl-x86_64.path",
		 "/opt/musl/libz.so.1"),
	       NULL,
	       "musl: libc.so/libm.so.1 built in, RUNPATH with $LIB ignored, /etc/ld-musl-x86_64.path");

	c.runpath = "$ORIGIN/../opt/viarunpath";
	craft_file(in_root(root, "/bin/prog2"), &c);
	expect("/bin/prog2", &opts, EXPECT_HAS_ALL,
	       L("/opt/viarunpath/libz.so.1"),
	       NULL, "musl: $ORIGIN in RUNPATH");

	unlink(in_root(root, "/etc/ld-musl-x86_64.path"));
	expect("/bin/prog", &opts, EXPECT_HAS_ALL,
	       L("/usr/lib/libz.so.1"),
	       L("/etc/ld-musl-x86_64.path"),
	       "musl without a path file: /lib:/usr/local/lib:/usr/lib");
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
	expect(fxp("bad/garbage"), NULL, EXPECT_FAILS_WITH,
	       L("bad/garbage: neither an ELF file nor a #! script"),
	       NULL, "garbage");

	write_file(fxp("bad/empty"), "", 0, 0755);
	expect(fxp("bad/empty"), NULL, EXPECT_FAILS_WITH,
	       L("bad/empty: neither"),
	       NULL, "empty file");
}

/* Libraries that are garbage or loops, found by a RUNPATH. */
static void test_bad_libraries(void)
{
	struct craft c = plain;
	char runpath[PATH_MAX];

	snprintf(runpath, sizeof(runpath), "%s", fxp("badlib"));
	c.runpath = runpath;
	c.needed[0] = "libgarbage.so";
	craft_file(fxp("badlib/prog-garbage"), &c);
	write_file(fxp("badlib/libgarbage.so"), "!<arch>\nnot ELF", 15, 0644);
	expect(fxp("badlib/prog-garbage"), NULL, EXPECT_FAILS_WITH,
	       L("badlib/libgarbage.so: not an ELF file", "needed by", "badlib/prog-garbage"),
	       NULL, "a library that is not ELF: error names it and its needer");

	c.needed[0] = "libloop.so";
	craft_file(fxp("badlib/prog-loop"), &c);
	make_link("libloop.so", fxp("badlib/libloop.so"));
	expect(fxp("badlib/prog-loop"), NULL, EXPECT_FAILS_WITH,
	       L("libloop.so: library not found", ELOOP_TEXT),
	       NULL, "a library that is a symlink loop: skipped like ld.so, the reason told");
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

/* The union of each program's set, collected apart: what a session must give. */
static bool union_of(const char *const *progs, struct path_set *u)
{
	struct run r;

	for (size_t i = 0; progs[i]; i++) {
		collect(&r, progs[i], NULL);
		for (size_t j = 0; r.ret == 0 && j < r.set.n; j++)
			if (path_set_add(u, r.set.paths[j]) < 0)
				r.ret = -1;
		run_free(&r);
		if (r.ret < 0)
			return false;
	}
	return true;
}

static bool same_set(const struct path_set *a, const struct path_set *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->paths[i], b->paths[i]))
			return false;
	return true;
}

/*
 * A jail's plan collects its command and each -r program into one set
 * through one session: the same set as apart, and a program collected
 * before is not read again (here: replaced by a text file since, which
 * alone would fail).
 */
static void test_session(void)
{
	const char *const progs[] = { "/bin/ls", "/bin/cat", "/bin/ls", fxp("glibc/hello"), NULL };
	struct elf_deps_session session = { 0 };
	struct elf_deps_opts opts = { .session = &session };
	struct path_set want = { 0 }, got = { 0 };
	char copy[PATH_MAX], cmd[2 * PATH_MAX + 16], err[1024];
	bool all = true;
	FILE *f;

	if (!debian_merged_usr()) {
		skip("session: host is not Debian with merged /usr");
		return;
	}
	for (size_t i = 0; progs[i]; i++)
		if (elf_deps_collect(progs[i], &opts, &got, err, sizeof(err)) < 0) {
			printf("# %s: %s\n", progs[i], err);
			all = false;
		}
	ok(all && union_of(progs, &want) && same_set(&got, &want),
	   "session: ls, cat, ls again and a fixture give the union of their sets (%zu paths)",
	   got.n);
	ok(session.cache_state == 1 && path_set_has(&session.programs, "/bin/cat"),
	   "session: the cache read once, the programs noted");

	snprintf(copy, sizeof(copy), "%s", fxp("session-prog"));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fxp("glibc/hello"), copy);
	ok(system(cmd) == 0 && elf_deps_collect(copy, &opts, &got, err, sizeof(err)) == 0,
	   "session: a copy of the fixture collected (%s)", err);
	f = fopen(copy, "w");
	ok(f && fputs("no ELF\n", f) >= 0 && fclose(f) == 0 &&
	   elf_deps_collect(copy, NULL, &want, err, sizeof(err)) < 0,
	   "session: then made a text file, alone it fails (%s)", err);
	ok(elf_deps_collect(copy, &opts, &got, err, sizeof(err)) == 0,
	   "session: but is not read again by the session that collected it");
	elf_deps_session_free(&session);
	ok(session.cache_state == 0 && session.programs.n == 0, "session: freed");
	path_set_free(&want);
	path_set_free(&got);
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
	test_host_cases();
	test_big_endian_sysroot();
	test_i386_sysroot();
	test_dst_sysroot();
	test_musl_sysroot();
	test_malformed();
	test_bad_libraries();
	test_fuzz();
	test_against_ldd();
	test_listed_paths_exist();
	test_session();
	remove_fixtures();
	return tap_done();
}
