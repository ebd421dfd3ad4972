// SPDX-License-Identifier: GPL-2.0
/* The policy utrace writes; see policy_out.h. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seccomp/errmsg.h"
#include "seccomp/syscalls.h"
#include "utrace/policy_out.h"

struct name_calls {
	const char *name;
	uint64_t calls;
};

struct name_list {
	struct name_calls *v;
	size_t n;
	size_t first_new;		/* the names before it come from --coverage */
	const struct ujs_arch *archs[UJS_MAX_ARCHS];
	size_t n_archs;
};

int utrace_format_parse(const char *text, enum utrace_format *f, char *err, size_t errlen)
{
	if (!strcmp(text, "oci"))
		*f = UTRACE_FORMAT_OCI;
	else if (!strcmp(text, "legacy"))
		*f = UTRACE_FORMAT_LEGACY;
	else
		return ujs_fail(err, errlen, "--format %s: expected oci or legacy", text);
	return 0;
}

static ssize_t name_index(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return (ssize_t)i;
	return -1;
}

static void add_arch(struct name_list *l, const struct ujs_arch *a)
{
	for (size_t i = 0; i < l->n_archs; i++)
		if (l->archs[i] == a)
			return;
	if (l->n_archs < UJS_MAX_ARCHS)
		l->archs[l->n_archs++] = a;
}

static int by_calls_then_name(const void *a, const void *b)
{
	const struct name_calls *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Whether an entry goes into the policy; warns about those that do not. */
static bool usable(const struct utrace_count *e, const struct ujs_arch *a,
		   enum utrace_format format)
{
	const char *name = utrace_count_name(e);

	if (!name || !a) {
		fprintf(stderr, "utrace: warning: syscall %u of architecture %#x has no name; "
			"left out of the policy\n", e->nr, e->audit_arch);
		return false;
	}
	if (format == UTRACE_FORMAT_LEGACY && a != ujs_arch_native()) {
		fprintf(stderr, "utrace: warning: %s called %llu times on %s; the 2015 format "
			"lists no architectures: left out\n", name,
			(unsigned long long)e->calls, a->name);
		return false;
	}
	return true;
}

/*
 * Calls a traced run may never show but every program makes when it gets
 * there: returning from a signal handler (a daemon's SIGHUP may first come
 * long after the trace) and exiting. Allowed last, as procd's utrace does.
 */
static const char *const always_allowed[] = { "rt_sigreturn", "sigreturn", "exit", "exit_group" };
#define N_ALWAYS (sizeof(always_allowed) / sizeof(always_allowed[0]))

static void add_always(struct name_list *l)
{
	for (size_t i = 0; i < N_ALWAYS; i++)
		if (ujs_syscall_nr(ujs_arch_native(), always_allowed[i]) >= 0 &&
		    name_index(l, always_allowed[i]) < 0)
			l->v[l->n++].name = always_allowed[i];
}

static int collect(struct name_list *l, const struct utrace_out *o,
		   const struct utrace_counts *c)
{
	size_t n, seen = o->seen ? o->seen->n_rules : 0;
	struct utrace_count *e = utrace_counts_sorted(c, &n);

	if (n && !e)
		return -1;
	l->v = calloc(n + seen + N_ALWAYS + 1, sizeof(*l->v));
	if (!l->v) {
		free(e);
		return -1;
	}
	add_arch(l, ujs_arch_native());
	for (size_t i = 0; o->seen && i < o->seen->n_archs; i++)
		add_arch(l, o->seen->archs[i]);
	for (size_t i = 0; i < seen; i++)
		if (name_index(l, o->seen->rules[i].name) < 0)
			l->v[l->n++].name = o->seen->rules[i].name;
	l->first_new = l->n;
	for (size_t i = 0; i < n; i++) {
		const struct ujs_arch *a = utrace_arch_of(e[i].audit_arch, e[i].nr);
		ssize_t k;

		if (!usable(&e[i], a, o->format))
			continue;
		add_arch(l, a);
		k = name_index(l, utrace_count_name(&e[i]));
		if (k < 0) {
			k = (ssize_t)l->n++;
			l->v[k].name = utrace_count_name(&e[i]);
		}
		l->v[k].calls += e[i].calls;
	}
	free(e);
	qsort(l->v + l->first_new, l->n - l->first_new, sizeof(*l->v), by_calls_then_name);
	add_always(l);
	return 0;
}

static int legacy_policy_value(const struct utrace_out *o)
{
	switch (o->default_action.kind) {
	case UJS_ACT_KILL_PROCESS:
	case UJS_ACT_KILL_THREAD:
		return 0;
	case UJS_ACT_ERRNO:
	case UJS_ACT_LOG_ERRNO:
		return o->default_action.data;
	default:
		return -1;
	}
}

static struct json_object *render(const struct utrace_out *o, const struct name_list *l)
{
	struct json_object *root = json_object_new_object(), *names = json_object_new_array();

	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(names, json_object_new_string(l->v[i].name));
	if (o->format == UTRACE_FORMAT_LEGACY) {
		json_object_object_add(root, "whitelist", names);
		json_object_object_add(root, "policy", json_object_new_int(legacy_policy_value(o)));
		return root;
	}
	struct json_object *archs = json_object_new_array(), *rule = json_object_new_object();
	struct json_object *rules = json_object_new_array();

	json_object_object_add(root, "defaultAction",
			       json_object_new_string(ujs_action_name(o->default_action.kind)));
	if (o->default_errno)
		json_object_object_add(root, "defaultErrnoRet",
				       json_object_new_int(o->default_action.data));
	for (size_t i = 0; i < l->n_archs; i++)
		json_object_array_add(archs, json_object_new_string(l->archs[i]->oci_name));
	json_object_object_add(root, "architectures", archs);
	json_object_object_add(rule, "names", names);
	json_object_object_add(rule, "action", json_object_new_string("SCMP_ACT_ALLOW"));
	json_object_array_add(rules, rule);
	json_object_object_add(root, "syscalls", rules);
	return root;
}

/* The text of the policy, checked by the project's parser. malloc'ed. */
static char *policy_text(const char *name, const struct utrace_out *o,
			 const struct name_list *l, char *err, size_t errlen)
{
	struct json_object *root = render(o, l);
	struct ujs_parse_opts popts = { .warn = stderr };
	struct ujs_policy *back = NULL;
	char *text = NULL, why[512];

	if (asprintf(&text, "%s\n", json_object_to_json_string_ext(root,
		     JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		text = NULL;
	json_object_put(root);
	if (!text) {
		ujs_fail(err, errlen, "out of memory");
		return NULL;
	}
	if (ujs_policy_parse(text, strlen(text), name, &popts, &back, why, sizeof(why))) {
		ujs_fail(err, errlen, "%s", why);
		free(text);
		return NULL;
	}
	ujs_policy_free(back);
	return text;
}

int utrace_default_parse(const char *text, struct utrace_out *o, char *err, size_t errlen)
{
	struct name_calls example = { .name = "exit_group" };
	struct name_list l = { .v = &example, .n = 1, .n_archs = 1 };
	struct ujs_parse_opts popts = { .warn = stderr };
	struct ujs_policy *p = NULL;
	const char *colon = strchr(text, ':');
	char action[64], *doc, *end, why[512];
	unsigned long value = 0;
	int ret;

	if ((size_t)snprintf(action, sizeof(action), "%.*s",
			     colon ? (int)(colon - text) : (int)strlen(text), text) >= sizeof(action))
		return ujs_fail(err, errlen, "--default %s: unknown action", text);
	if (colon) {
		errno = 0;
		value = strtoul(colon + 1, &end, 10);
		if (!colon[1] || *end || errno || value > 0xffff)
			return ujs_fail(err, errlen, "--default %s: the errno after ':' must be a "
					"number from 0 to 65535", text);
	}
	l.archs[0] = ujs_arch_native();
	o->default_errno = colon != NULL;
	o->default_action.data = (uint16_t)value;
	/* The action itself is checked by the parser, with its message. */
	struct json_object *root = json_object_new_object();

	json_object_object_add(root, "defaultAction", json_object_new_string(action));
	if (colon)
		json_object_object_add(root, "defaultErrnoRet", json_object_new_int((int)value));
	json_object_object_add(root, "syscalls", json_object_new_array());
	doc = strdup(json_object_to_json_string(root));
	json_object_put(root);
	if (!doc)
		return ujs_fail(err, errlen, "out of memory");
	ret = ujs_policy_parse(doc, strlen(doc), "--default", &popts, &p, why, sizeof(why));
	free(doc);
	if (ret)
		return ujs_fail(err, errlen, "%s", why);
	o->default_action = p->default_action;
	ujs_policy_free(p);
	if (o->format == UTRACE_FORMAT_LEGACY && legacy_policy_value(o) < 0)
		return ujs_fail(err, errlen, "--default %s: the 2015 format (--format legacy) can "
				"only kill (SCMP_ACT_KILL_PROCESS) or fail with an errno "
				"(SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO)", text);
	/* And the whole policy in this format, once. */
	char *check = policy_text("--default", o, &l, err, errlen);

	free(check);
	return check ? 0 : -1;
}

static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int utrace_output_check(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!*path)
		return ujs_fail(err, errlen, "the output file name is empty");
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return ujs_fail(err, errlen, "%s: is a directory", path);
	dir_of(path, dir, sizeof(dir));
	if (access(dir, W_OK) < 0)
		return ujs_fail(err, errlen, "%s: directory %s: %s", path, dir, strerror(errno));
	return 0;
}

static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		return ujs_fail(err, errlen, "%s: name too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return ujs_fail(err, errlen, "%s: %s", tmp, strerror(errno));
	if (write(fd, text, len) != (ssize_t)len || fchmod(fd, 0644) < 0) {
		int e = errno;

		close(fd);
		unlink(tmp);
		return ujs_fail(err, errlen, "%s: %s", tmp, strerror(e));
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return ujs_fail(err, errlen, "%s: %s", path, strerror(e));
	}
	return 0;
}

int utrace_policy_write(const char *path, const struct utrace_out *o,
			const struct utrace_counts *c, char *err, size_t errlen)
{
	struct name_list l = { 0 };
	char *text;
	int ret;

	if (collect(&l, o, c)) {
		free(l.v);
		return ujs_fail(err, errlen, "out of memory");
	}
	if (!l.n) {
		free(l.v);
		return ujs_fail(err, errlen, "no syscall was traced; %s not written", path);
	}
	text = policy_text(path, o, &l, err, errlen);
	free(l.v);
	if (!text)
		return -1;
	ret = write_file(path, text, err, errlen);
	free(text);
	return ret;
}
