/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The malformed-policy corpus: policy_corpus_test [DIR]
 *
 * DIR (default: tests/seccomp/bad next to this source) holds NN-name.json
 * files, each with NN-name.err: the exact message ujs_policy_load must
 * fail with. The test chdir()s to DIR and loads each file by its base
 * name, so messages start with "NN-name.json". Policies are compiled for
 * x86_64, whatever the host, so that the messages do not depend on it,
 * and parsed strictly (a syscall name no architecture has is an error).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy.h"
#include "tap.h"
#include "test_util.h"

/* Contents of @path without trailing whitespace, or NULL. */
static char *read_expected(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	while (n && strchr(" \t\r\n", buf[n - 1]))
		n--;
	buf[n] = '\0';
	return strdup(buf);
}

static void run_case(const char *json, const struct ujs_parse_opts *opts)
{
	char err_path[512], err[1024];
	struct ujs_policy *p = NULL;
	char *want;
	int ret;

	snprintf(err_path, sizeof(err_path), "%.*s.err",
		 (int)(strlen(json) - strlen(".json")), json);
	want = read_expected(err_path);
	if (!want) {
		ok(false, "%s: cannot read %s: %s", json, err_path, strerror(errno));
		return;
	}
	ret = ujs_policy_load(json, opts, &p, err, sizeof(err));
	if (!ok(ret == -1 && !p && !strcmp(err, want), "%s", json)) {
		printf("# want: %s\n", want);
		printf("# got:  %s (returned %d)\n", ret ? err : "success", ret);
	}
	ujs_policy_free(p);
	free(want);
}

static int is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

static const char *default_dir(void)
{
	static char dir[4096];
	const char *slash = strrchr(__FILE__, '/');
	int n = slash ? (int)(slash - __FILE__) : 1;

	snprintf(dir, sizeof(dir), "%.*s/../seccomp/bad", n, slash ? __FILE__ : ".");
	return dir;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : default_dir();
	struct ujs_parse_opts opts = { .target = ujs_arch_by_name("x86_64"), .strict = true };
	struct dirent **list;
	int n, i;

	if (chdir(dir))
		bail("%s: %s", dir, strerror(errno));
	n = scandir(".", &list, is_json, alphasort);
	if (n < 0)
		bail("%s: %s", dir, strerror(errno));
	ok(n >= 30, "%s: %d cases (at least 30)", dir, n);
	for (i = 0; i < n; i++) {
		run_case(list[i]->d_name, &opts);
		free(list[i]);
	}
	free(list);
	return tap_done();
}
