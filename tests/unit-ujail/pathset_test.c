/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sorted unique path set, and path_walk/path_clean in a sysroot, and
 * path_walk_memo. Prints TAP.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/path_walk.h"
#include "deps/path_walk_memo.h"
#include "deps/pathset.h"
#include "tap.h"

static bool sorted_unique(const struct path_set *s)
{
	for (size_t i = 1; i < s->n; i++)
		if (strcmp(s->paths[i - 1], s->paths[i]) >= 0)
			return false;
	return true;
}

static void test_set(void)
{
	static const char *const in[] = { "/usr/lib", "/a", "/lib", "/a", "/z/y", "/lib", "/" };
	struct path_set s = { 0 };
	char name[32];
	bool added = true;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		added &= path_set_add(&s, in[i]) == 0;
	ok(added && s.n == 5 && sorted_unique(&s), "7 adds with 2 duplicates: 5 paths, sorted");
	ok(!strcmp(s.paths[0], "/") && !strcmp(s.paths[4], "/z/y"), "order is strcmp order");
	ok(path_set_has(&s, "/lib") && !path_set_has(&s, "/li") && !path_set_has(&s, "/lib/"),
	   "has: exact strings only");
	for (int i = 1000; i > 0; i--) {
		snprintf(name, sizeof(name), "/p/%d", i * 7919 % 1000);
		added &= path_set_add(&s, name) == 0;
	}
	ok(added && s.n == 1005 && sorted_unique(&s), "1000 more in scrambled order: grows, sorted");
	path_set_free(&s);
	ok(s.n == 0 && !s.paths && !path_set_has(&s, "/"), "free leaves an empty set");
	path_set_free(&s);
	ok(path_set_add(&s, "/again") == 0 && s.n == 1, "usable again after free");
	path_set_free(&s);
}

static char root[] = "/tmp/ujail-walk-XXXXXX";

static void at(char *buf, const char *rel)
{
	snprintf(buf, PATH_MAX, "%s%s", root, rel);
}

static void link_at(const char *target, const char *rel)
{
	char p[PATH_MAX];

	at(p, rel);
	if (symlink(target, p) < 0)
		perror(p);
}

static void dir_at(const char *rel)
{
	char p[PATH_MAX];

	at(p, rel);
	mkdir(p, 0755);
}

/* In test_walk()'s sysroot: the memo answers as path_walk(), then from memory. */
static void test_memo(void)
{
	static const char *const paths[] = { "/abs", "/usr/lib/up", "/loop1", "/usr/nothing",
					     "/usr/lib/x/file/more", "/" };
	struct path_walk_memo m = { 0 };
	char real[PATH_MAX], want[PATH_MAX], p[PATH_MAX];
	struct path_set a = { 0 }, b = { 0 };
	bool same = true;

	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
			int r1 = path_walk(root, paths[i], want, &a);
			int r2 = path_walk_memo(&m, root, paths[i], real, &b);

			/* (A failed walk's links are nobody's: the memo adds none.) */
			if (r1 != r2 || (r1 == 0 && (strcmp(want, real) || a.n != b.n))) {
				printf("# %s: %d %s, memo %d %s\n", paths[i], r1, want, r2, real);
				same = false;
			}
			for (size_t j = 0; r1 == 0 && j < a.n && j < b.n; j++)
				same &= !strcmp(a.paths[j], b.paths[j]);
			path_set_free(&a);
			path_set_free(&b);
		}
	ok(same && m.n == 6, "memo: results, errors and links as path_walk, twice; 6 walks kept");

	/* Many paths in scrambled order: each found again where it was kept. */
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 300; i++) {
			int k = i * 7 % 300;
			char want_real[64];

			snprintf(want_real, sizeof(want_real), "/usr/lib/x/f%d", k);
			snprintf(p, sizeof(p), "/lib/x/f%d", k);
			if (round == 0) {
				FILE *f;

				at(want, want_real);
				f = fopen(want, "w");
				if (f)
					fclose(f);
			}
			same &= path_walk_memo(&m, root, p, real, &b) == 0 &&
				!strcmp(real, want_real) && path_set_has(&b, "/lib");
			path_set_free(&b);
		}
	ok(same && m.n == 306, "memo: 300 more paths in scrambled order, each kept once (%zu)",
	   m.n);

	/* /abs made to point elsewhere: the memo still answers as before. */
	at(p, "/abs");
	unlink(p);
	link_at("/usr/lib/x", "/abs");
	ok(path_walk_memo(&m, root, "/abs", real, &b) == 0 && !strcmp(real, "/usr/lib/x/file") &&
	   path_walk(root, "/abs", want, NULL) == 0 && !strcmp(want, "/usr/lib/x"),
	   "memo: a path walked before is not walked again");
	path_set_free(&b);
	path_walk_memo_free(&m);
	ok(m.n == 0 && !m.v, "memo: freed");
	unlink(p);
	link_at("/lib/x/file", "/abs");
}

static void test_walk(void)
{
	char real[PATH_MAX], p[PATH_MAX], clean[PATH_MAX];
	struct path_set links = { 0 };
	FILE *f;
	int ret;

	if (!mkdtemp(root)) {
		ok(false, "mkdtemp");
		return;
	}
	dir_at("/usr");
	dir_at("/usr/lib");
	dir_at("/usr/lib/x");
	at(p, "/usr/lib/x/file");
	f = fopen(p, "w");
	if (f)
		fclose(f);
	link_at("usr/lib", "/lib");
	link_at("/lib/x/file", "/abs");
	link_at("../../../../../../usr/lib/x/file", "/usr/lib/up");
	link_at("loop2", "/loop1");
	link_at("loop1", "/loop2");

	ret = path_walk(root, "/abs", real, &links);
	ok(ret == 0 && !strcmp(real, "/usr/lib/x/file") && links.n == 2 &&
	   path_set_has(&links, "/abs") && path_set_has(&links, "/lib"),
	   "absolute link restarts at the sysroot; the links met: /abs, /lib");
	path_set_free(&links);

	ret = path_walk(root, "/usr/lib/up", real, &links);
	ok(ret == 0 && !strcmp(real, "/usr/lib/x/file"), "\"..\" stops at the sysroot");
	path_set_free(&links);

	ret = path_walk(root, "/lib/./x/../x//file", real, &links);
	ok(ret == 0 && !strcmp(real, "/usr/lib/x/file") && links.n == 1,
	   "\".\", \"..\" and \"//\" after a directory link");
	path_set_free(&links);

	ok(path_walk(root, "/loop1", real, &links) == -ELOOP, "link loop: -ELOOP");
	path_set_free(&links);
	ok(path_walk(root, "/usr/lib/x/file/more", real, NULL) == -ENOTDIR,
	   "a file used as a directory: -ENOTDIR");
	ok(path_walk(root, "/usr/nothing", real, NULL) == -ENOENT, "missing: -ENOENT");
	ok(path_walk(root, "relative", real, NULL) == -EINVAL, "relative path: -EINVAL");
	ok(path_walk(root, "/", real, NULL) == 0 && !strcmp(real, "/"), "the root itself");

	test_memo();

	ok(path_clean("//a/./b//c/", clean) == 0 && !strcmp(clean, "/a/b/c"), "clean //a/./b//c/");
	ok(path_clean("/a/../b", clean) == -EINVAL, "clean refuses \"..\"");
	ok(path_clean("/", clean) == 0 && !strcmp(clean, "/"), "clean /");

	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	if (system(p) != 0)
		fprintf(stderr, "cannot remove %s\n", root);
}

int main(void)
{
	test_set();
	test_walk();
	return tap_done();
}
