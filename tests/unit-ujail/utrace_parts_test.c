/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utrace's parts that need no tracing (userspace/utrace): the backend and
 * format names, --default, the counts sorted by frequency, and the policy
 * written from them. Each row an input and what it must give. The calls
 * are the native architecture's, so that the rows hold under qemu-user
 * too (tests/cross/qemu_test.sh). Prints TAP.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seccomp/errmsg.h"
#include "seccomp/syscalls.h"
#include "tap.h"
#include "utrace/backend.h"
#include "utrace/counts.h"
#include "utrace/policy_out.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define NAMES_MAX 512		/* a row's names, space-separated */

/* ---- names ---- */

static const struct {
	const char *in;
	int want;		/* an enum utrace_backend; -1: refused */
} backend_rows[] = {
	{ "auto", UTRACE_BACKEND_AUTO },
	{ "ebpf", UTRACE_BACKEND_EBPF },
	{ "ptrace", UTRACE_BACKEND_PTRACE },
	{ "EBPF", -1 },
	{ "ptrace ", -1 },
	{ "", -1 },
};

static void test_backend_names(void)
{
	for (size_t i = 0; i < N_OF(backend_rows); i++) {
		enum utrace_backend b = (enum utrace_backend)99;
		char err[ERR_MAX] = "", want_err[ERR_MAX];
		int ret = utrace_backend_parse(backend_rows[i].in, &b, err, sizeof(err));

		snprintf(want_err, sizeof(want_err),
			 "--backend %s: unknown backend (auto, ebpf or ptrace)", backend_rows[i].in);
		if (backend_rows[i].want >= 0)
			ok(!ret && (int)b == backend_rows[i].want, "--backend '%s': backend %d",
			   backend_rows[i].in, backend_rows[i].want);
		else
			ok(ret == -1 && !strcmp(err, want_err), "--backend '%s' refused: %s",
			   backend_rows[i].in, err);
	}
}

static const struct {
	const char *env;	/* NULL: unset */
	int want;		/* -1: refused */
} env_rows[] = {
	{ NULL, UTRACE_BACKEND_AUTO },
	{ "", UTRACE_BACKEND_AUTO },
	{ "ptrace", UTRACE_BACKEND_PTRACE },
	{ "ebpf", UTRACE_BACKEND_EBPF },
	{ "bogus", -1 },
};

static void test_backend_env(void)
{
	for (size_t i = 0; i < N_OF(env_rows); i++) {
		const char *env = env_rows[i].env;
		enum utrace_backend b = (enum utrace_backend)99;
		char err[ERR_MAX] = "", want_err[ERR_MAX];
		int ret;

		if (env)
			setenv("UTRACE_BACKEND", env, 1);
		else
			unsetenv("UTRACE_BACKEND");
		ret = utrace_backend_from_env(&b, err, sizeof(err));
		snprintf(want_err, sizeof(want_err),
			 "UTRACE_BACKEND=%s: unknown backend (auto, ebpf or ptrace)", env ? env : "");
		if (env_rows[i].want >= 0)
			ok(!ret && (int)b == env_rows[i].want, "UTRACE_BACKEND %s%s%s: backend %d",
			   env ? "'" : "unset", env ? env : "", env ? "'" : "", env_rows[i].want);
		else
			ok(ret == -1 && !strcmp(err, want_err), "UTRACE_BACKEND '%s' refused: %s",
			   env ? env : "", err);
	}
	unsetenv("UTRACE_BACKEND");
}

static const struct {
	const char *in;
	int want;		/* an enum utrace_format; -1: refused */
} format_rows[] = {
	{ "oci", UTRACE_FORMAT_OCI },
	{ "legacy", UTRACE_FORMAT_LEGACY },
	{ "json", -1 },
	{ "OCI", -1 },
};

static void test_format_names(void)
{
	for (size_t i = 0; i < N_OF(format_rows); i++) {
		enum utrace_format f = (enum utrace_format)99;
		char err[ERR_MAX] = "", want_err[ERR_MAX];
		int ret = utrace_format_parse(format_rows[i].in, &f, err, sizeof(err));

		snprintf(want_err, sizeof(want_err), "--format %s: expected oci or legacy",
			 format_rows[i].in);
		if (format_rows[i].want >= 0)
			ok(!ret && (int)f == format_rows[i].want, "--format '%s': format %d",
			   format_rows[i].in, format_rows[i].want);
		else
			ok(ret == -1 && !strcmp(err, want_err), "--format '%s' refused: %s",
			   format_rows[i].in, err);
	}
}

/* ---- --default ---- */

#define ERRNO_RANGE ": the errno after ':' must be a number from 0 to 65535"
#define LEGACY_ONLY ": the 2015 format (--format legacy) can only kill " \
		    "(SCMP_ACT_KILL_PROCESS) or fail with an errno (SCMP_ACT_ERRNO, " \
		    "SCMP_ACT_LOG_ERRNO)"

static const struct {
	enum utrace_format format;
	const char *in;
	int kind;		/* an enum ujs_action_kind; -1: refused */
	unsigned int data;
	bool default_errno;
	const char *why;	/* refused: after "--default IN", or NULL: any message */
} default_rows[] = {
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_KILL_PROCESS", UJS_ACT_KILL_PROCESS, 0, false, NULL },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:13", UJS_ACT_ERRNO, 13, true, NULL },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:0", UJS_ACT_ERRNO, 0, true, NULL },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_LOG", UJS_ACT_LOG, 0, false, NULL },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_ERRNO:1", UJS_ACT_ERRNO, 1, true, NULL },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_KILL_PROCESS", UJS_ACT_KILL_PROCESS, 0, false, NULL },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:65536", -1, 0, false, ERRNO_RANGE },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:", -1, 0, false, ERRNO_RANGE },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:-1", -1, 0, false, ERRNO_RANGE },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:1x", -1, 0, false, ERRNO_RANGE },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_LOG", -1, 0, false, LEGACY_ONLY },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_ALLOW", -1, 0, false, LEGACY_ONLY },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_BOGUS", -1, 0, false, NULL },
};

static void test_default(void)
{
	for (size_t i = 0; i < N_OF(default_rows); i++) {
		struct utrace_out o = { .format = default_rows[i].format };
		char err[ERR_MAX] = "", want_err[ERR_MAX];
		const char *in = default_rows[i].in;
		int ret = utrace_default_parse(in, &o, err, sizeof(err));

		if (default_rows[i].kind >= 0) {
			ok(!ret && (int)o.default_action.kind == default_rows[i].kind &&
			   o.default_action.data == default_rows[i].data &&
			   o.default_errno == default_rows[i].default_errno,
			   "--default %s (format %d): action %d, errno %u (got %s)", in,
			   default_rows[i].format, default_rows[i].kind, default_rows[i].data,
			   ret ? err : "it");
			continue;
		}
		snprintf(want_err, sizeof(want_err), "--default %s%s", in,
			 default_rows[i].why ? default_rows[i].why : "");
		ok(ret == -1 && (default_rows[i].why ? !strcmp(err, want_err) : err[0] != '\0'),
		   "--default %s (format %d) refused: %s", in, default_rows[i].format, err);
	}
}

/* ---- counts and the policy, by frequency ---- */

/* "read:3 write:5": each NAME called N times, natively. */
static bool count_calls(struct utrace_counts *c, const char *calls)
{
	char buf[NAMES_MAX], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", calls);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(w, ':');
		int64_t nr;

		*colon = '\0';
		nr = ujs_syscall_nr(ujs_arch_native(), w);
		if (nr < 0 || utrace_count_add_many(c, ujs_arch_native()->audit_arch,
						    (uint32_t)nr, strtoull(colon + 1, NULL, 10)))
			return false;
	}
	return true;
}

static const struct {
	const char *calls;
	const char *sorted;	/* most calls first; ties by name */
	unsigned long long total;
} sort_rows[] = {
	{ "read:3 write:5", "write read", 8 },
	{ "close:5 write:5 read:3 openat:1", "close write read openat", 14 },
	{ "openat:1 read:1 close:1", "close openat read", 3 },
	{ "read:1 read:1 write:1", "read write", 3 },	/* counted twice: one entry */
	{ "", "", 0 },
};

static void test_sorted(void)
{
	for (size_t i = 0; i < N_OF(sort_rows); i++) {
		struct utrace_counts c = { 0 };
		char got[NAMES_MAX] = "";
		struct utrace_count *e = NULL;
		size_t n = 0, len = 0;
		bool counted = count_calls(&c, sort_rows[i].calls);

		if (counted)
			e = utrace_counts_sorted(&c, &n);
		for (size_t k = 0; k < n; k++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", k ? " " : "",
						utrace_count_name(&e[k]));
		ok(counted && !strcmp(got, sort_rows[i].sorted) && c.total == sort_rows[i].total,
		   "counts '%s' sorted: '%s', %llu in all (got '%s', %llu)", sort_rows[i].calls,
		   sort_rows[i].sorted, sort_rows[i].total, got, (unsigned long long)c.total);
		free(e);
		utrace_counts_free(&c);
	}
}

/* @word is one of the space-separated @words. */
static bool has_word(const char *words, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = words; (p = strstr(p, word)); p += n)
		if ((p == words || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* What every policy ends with, of those the native table has. */
static void append_always(char *names, size_t len)
{
	static const char *const always[] = { "rt_sigreturn", "sigreturn", "exit", "exit_group" };

	for (size_t i = 0; i < N_OF(always); i++)
		if (ujs_syscall_nr(ujs_arch_native(), always[i]) >= 0 && !has_word(names, always[i]))
			snprintf(names + strlen(names), len - strlen(names), "%s%s",
				 *names ? " " : "", always[i]);
}

/* The names array of a written policy, space-separated, or "" after a message. */
static void policy_names(struct json_object *root, enum utrace_format format, char *out,
			 size_t len)
{
	struct json_object *names = NULL, *rules;

	*out = '\0';
	if (format == UTRACE_FORMAT_LEGACY)
		json_object_object_get_ex(root, "whitelist", &names);
	else if (json_object_object_get_ex(root, "syscalls", &rules))
		json_object_object_get_ex(json_object_array_get_idx(rules, 0), "names", &names);
	for (size_t i = 0; names && i < json_object_array_length(names); i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " " : "",
			 json_object_get_string(json_object_array_get_idx(names, i)));
}

/* The default of a written policy: "SCMP_ACT_..." or the 2015 format's "policy N". */
static void policy_default(struct json_object *root, enum utrace_format format, char *out,
			   size_t len)
{
	struct json_object *v = NULL;

	if (format == UTRACE_FORMAT_LEGACY) {
		json_object_object_get_ex(root, "policy", &v);
		snprintf(out, len, "policy %d", v ? json_object_get_int(v) : -1);
		return;
	}
	json_object_object_get_ex(root, "defaultAction", &v);
	snprintf(out, len, "%s", v ? json_object_get_string(v) : "?");
	if (json_object_object_get_ex(root, "defaultErrnoRet", &v))
		snprintf(out + strlen(out), len - strlen(out), " %d", json_object_get_int(v));
}

static const struct {
	enum utrace_format format;
	const char *default_action;
	const char *calls;
	const char *names;	/* then the always-allowed ones */
	const char *want_default;
} write_rows[] = {
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_KILL_PROCESS", "read:3 write:5", "write read",
	  "SCMP_ACT_KILL_PROCESS" },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_ERRNO:1", "openat:2 close:2 read:7", "read close openat",
	  "SCMP_ACT_ERRNO 1" },
	/* Seen already among the always-allowed: listed once, where its count puts it. */
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_KILL_PROCESS", "exit_group:1 read:2", "read exit_group",
	  "SCMP_ACT_KILL_PROCESS" },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_ERRNO:1", "read:3 write:5", "write read", "policy 1" },
	{ UTRACE_FORMAT_LEGACY, "SCMP_ACT_KILL_PROCESS", "close:1", "close", "policy 0" },
	{ UTRACE_FORMAT_OCI, "SCMP_ACT_KILL_PROCESS", "", "", "SCMP_ACT_KILL_PROCESS" },
};

static void test_write(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/policy.json", dir);
	for (size_t i = 0; i < N_OF(write_rows); i++) {
		struct utrace_out o = { .format = write_rows[i].format };
		struct utrace_counts c = { 0 };
		char err[ERR_MAX] = "", want[NAMES_MAX], got[NAMES_MAX] = "", def[64] = "";
		struct json_object *root = NULL;
		bool written = !utrace_default_parse(write_rows[i].default_action, &o, err,
						     sizeof(err)) &&
			       count_calls(&c, write_rows[i].calls) &&
			       !utrace_policy_write(path, &o, &c, err, sizeof(err));

		if (written)
			root = json_object_from_file(path);
		if (root) {
			policy_names(root, o.format, got, sizeof(got));
			policy_default(root, o.format, def, sizeof(def));
		}
		snprintf(want, sizeof(want), "%s", write_rows[i].names);
		append_always(want, sizeof(want));
		ok(root && !strcmp(got, want) && !strcmp(def, write_rows[i].want_default),
		   "policy of '%s' (format %d): [%s], %s (got [%s], %s%s)", write_rows[i].calls,
		   o.format, want, write_rows[i].want_default, got, def, err);
		json_object_put(root);
		utrace_counts_free(&c);
		unlink(path);
	}
}

int main(void)
{
	char dir[] = "/tmp/utrace-parts-XXXXXX";

	test_backend_names();
	test_backend_env();
	test_format_names();
	test_default();
	test_sorted();
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp: %s", dir);
		return tap_done();
	}
	test_write(dir);
	rmdir(dir);
	return tap_done();
}
