/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ujail's command line. procd starts ujail with short options only (see
 * jail_run() in procd's service/instance.c); people get long ones and a
 * JSON jail file (--config). All three go through one table, so a setting
 * has one meaning, one check and one error message wherever it comes from.
 *
 * Precedence: the jail file is read first, wherever --config appears, then
 * the command line is applied in order. A value (-n, -t, -S...) given on
 * the command line replaces the file's (the last one given wins), a flag
 * can only be turned on, list options (-e -r -w -j) add to the file's
 * entries, and a command on the command line replaces the file's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/json_object_iterator.h>

#include "options.h"

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

#ifndef UJAIL_VERSION
#define UJAIL_VERSION "0.1"
#endif

#define PROG "ujail"
#define DEFAULT_TIMEOUT 5	/* procd's default term_timeout too */
#define MAX_TIMEOUT 86400	/* a day; more is a typo, not a policy */
#define MAX_DEBUG 9
#define MAX_HOSTNAME 64		/* HOST_NAME_MAX */
#define MAX_CONFIG_SIZE (1 << 20)
#define WHERE_MAX 512		/* "-r '...'" or "FILE: key[i].sub" */

FILE *jail_err;
FILE *jail_out;

static FILE *err_stream(void)
{
	return jail_err ? jail_err : stderr;
}

static FILE *out_stream(void)
{
	return jail_out ? jail_out : stdout;
}

/* "ujail: WHERE: message" on jail_err; returns -1 for the caller. */
__attribute__((format(printf, 2, 3)))
static int fail(const char *where, const char *fmt, ...)
{
	FILE *f = err_stream();
	va_list ap;

	fputs(PROG ": ", f);
	if (where)
		fprintf(f, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	return -1;
}

static int out_of_memory(void)
{
	return fail(NULL, "out of memory");
}

/* A message location ("FILE: ro[2].src"), cut short when it is too long. */
__attribute__((format(printf, 2, 3)))
static void where_printf(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, WHERE_MAX, fmt, ap);
	va_end(ap);
}

/* ---- the option table ---------------------------------------------- */

enum opt_kind {
	OPT_STRING,	/* a char * member, validated by ->check */
	OPT_FLAG,	/* a bool member, set to true */
	OPT_TIMEOUT,	/* -t SECONDS */
	OPT_DEBUG,	/* -d LEVEL */
	OPT_KEEP_ENV,	/* -e NAME */
	OPT_PATH_RO,	/* -r SRC[:DST] */
	OPT_PATH_RW,	/* -w SRC[:DST] */
	OPT_JOIN,	/* -j PID:NS[,NS...] */
	OPT_COMMAND,	/* a jail file's "command" */
	OPT_REFUSED,	/* a procd option ujail does not have yet */
	OPT_CONFIG,
	OPT_HELP,
	OPT_VERSION,
};

/* Why a string value is unacceptable, or NULL. */
typedef const char *(*string_check)(const char *value);

struct opt_spec {
	char letter;		/* procd's short option, or 0 */
	const char *name;	/* long option, or NULL */
	const char *json_key;	/* key in a jail file, or NULL */
	bool has_arg;
	enum opt_kind kind;
	size_t member;		/* offsetof() the OPT_STRING/OPT_FLAG member */
	string_check check;
	const char *refusal;	/* OPT_REFUSED: what it is, that it is missing */
};

static const char *check_not_empty(const char *value)
{
	return *value ? NULL : "must not be empty";
}

static bool has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* The name ends up in log lines and file names. */
static const char *check_name(const char *value)
{
	if (!*value)
		return "must not be empty";
	if (strchr(value, '/'))
		return "must not contain '/'";
	if (has_control_char(value))
		return "must not contain control characters";
	return NULL;
}

static const char *check_hostname(const char *value)
{
	if (!*value)
		return "must not be empty";
	if (strlen(value) > MAX_HOSTNAME)
		return "longer than 64 characters";
	if (has_control_char(value))
		return "must not contain control characters";
	return NULL;
}

#define STRING(l, n, key, m, chk) \
	{ l, n, key, true, OPT_STRING, offsetof(struct jail_opts, m), chk, NULL }
#define FLAG(l, n, key, m) \
	{ l, n, key, false, OPT_FLAG, offsetof(struct jail_opts, m), NULL, NULL }
#define OTHER(l, n, key, arg, kind) \
	{ l, n, key, arg, kind, 0, NULL, NULL }
#define REFUSED(l, arg, why) \
	{ l, NULL, NULL, arg, OPT_REFUSED, 0, NULL, why }

static const struct opt_spec specs[] = {
	STRING('n', "name", "name", name, check_name),
	STRING('h', "hostname", "hostname", hostname, check_hostname),
	OTHER('t', "timeout", "timeout", true, OPT_TIMEOUT),
	STRING('S', "seccomp", "seccomp", seccomp, check_not_empty),
	STRING('C', "capabilities", "capabilities", capabilities, check_not_empty),
	STRING('U', "user", "user", user, check_not_empty),
	STRING('G', "group", "group", group, check_not_empty),
	FLAG('c', "no-new-privs", "no_new_privs", no_new_privs),
	FLAG('p', "proc", "proc", proc),
	FLAG('s', "sys", "sys", sys),
	FLAG('u', "ubus", "ubus", ubus),
	FLAG('l', "log", "log", dev_log),
	FLAG('o', "read-only-root", "read_only_root", ro_root),
	FLAG('N', "net", "net", netns),
	FLAG('F', "cgroupns", "cgroupns", cgroupns),
	STRING('P', "pidfile", "pidfile", pidfile, check_not_empty),
	FLAG('E', "require-jail", NULL, fail_hard),
	OTHER('e', "keep-env", "keep_env", true, OPT_KEEP_ENV),
	OTHER('r', "ro", "ro", true, OPT_PATH_RO),
	OTHER('w', "rw", "rw", true, OPT_PATH_RW),
	OTHER('j', "join", "join", true, OPT_JOIN),
	OTHER('d', "debug", NULL, true, OPT_DEBUG),
	OTHER(0, "config", NULL, true, OPT_CONFIG),
	OTHER(0, "help", NULL, false, OPT_HELP),
	OTHER(0, "version", NULL, false, OPT_VERSION),
	OTHER(0, NULL, "command", false, OPT_COMMAND),
	REFUSED('f', false,
		"user namespaces are not implemented yet"),
	REFUSED('J', true,
		"procd's -J runs an OCI bundle (DIR/config.json); "
		"ujail does not support OCI bundles yet"),
	REFUSED('i', false,
		"procd's -i starts an OCI container at once; "
		"ujail does not support OCI bundles yet"),
	REFUSED('R', true,
		"procd's -R uses DIR as the jail's root file system; "
		"ujail does not support an external root yet"),
	REFUSED('O', true,
		"procd's -O puts a writable overlay (kept in DIR) over the jail's root; "
		"ujail does not support overlays yet"),
	REFUSED('T', true,
		"procd's -T puts a writable tmpfs overlay of SIZE over the jail's root; "
		"ujail does not support overlays yet"),
	REFUSED('y', false,
		"procd's -y gives the jail a console (a pty handed to procd over ubus); "
		"ujail does not support a jail console yet"),
};

#define N_SPECS (sizeof(specs) / sizeof(specs[0]))
#define LONG_BASE 256	/* getopt_long returns LONG_BASE + row for --NAME */

static char **string_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (char **)((char *)o + s->member);
}

static bool *flag_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (bool *)((char *)o + s->member);
}

static const struct opt_spec *spec_by_key(const char *key)
{
	for (size_t i = 0; i < N_SPECS; i++)
		if (specs[i].json_key && !strcmp(specs[i].json_key, key))
			return &specs[i];
	return NULL;
}

/* The row of what getopt_long returned (a letter or LONG_BASE + row). */
static const struct opt_spec *spec_of(int ret)
{
	if (ret >= LONG_BASE && ret < LONG_BASE + (int)N_SPECS)
		return &specs[ret - LONG_BASE];
	for (size_t i = 0; i < N_SPECS; i++)
		if (specs[i].letter && specs[i].letter == ret)
			return &specs[i];
	return NULL;
}

/* ---- values ---------------------------------------------------------- */

/* Decimal digits only (no sign, no blanks), at most @max. */
static bool parse_number(const char *s, size_t len, unsigned long max,
			 unsigned long *out)
{
	unsigned long v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > max)
			return false;
	}
	*out = v;
	return true;
}

static int set_string(struct jail_opts *o, const struct opt_spec *s,
		      const char *value, const char *where)
{
	const char *why = s->check ? s->check(value) : NULL;
	char **member = string_member(o, s);
	char *copy;

	if (why)
		return fail(where, "%s", why);
	copy = strdup(value);
	if (!copy)
		return out_of_memory();
	free(*member);
	*member = copy;
	return 0;
}

static int set_timeout(struct jail_opts *o, const char *value, const char *where)
{
	unsigned long v;

	if (!parse_number(value, strlen(value), MAX_TIMEOUT, &v))
		return fail(where, "expected a number of seconds from 0 to %d",
			    MAX_TIMEOUT);
	o->term_timeout = (unsigned int)v;
	return 0;
}

static int set_debug(struct jail_opts *o, const char *value, const char *where)
{
	unsigned long v;

	if (!parse_number(value, strlen(value), MAX_DEBUG, &v))
		return fail(where, "expected a level from 0 to %d", MAX_DEBUG);
	o->debug = (unsigned int)v;
	return 0;
}

/* -e NAME: procd passes names only and sets the values in ujail's env. */
static int keep_env(struct jail_opts *o, const char *name, const char *where)
{
	char **grown;

	if (!*name)
		return fail(where, "must not be empty");
	if (strchr(name, '='))
		return fail(where, "expected a variable name; its value is taken "
			    "from ujail's environment");
	for (size_t i = 0; i < o->n_keep_env; i++)
		if (!strcmp(o->keep_env[i], name))
			return 0;
	grown = realloc(o->keep_env, (o->n_keep_env + 2) * sizeof(*grown));
	if (!grown)
		return out_of_memory();
	o->keep_env = grown;
	grown[o->n_keep_env] = strdup(name);
	if (!grown[o->n_keep_env])
		return out_of_memory();
	grown[++o->n_keep_env] = NULL;
	return 0;
}

/* ---- -r / -w --------------------------------------------------------- */

/*
 * Why @path cannot be staged, or NULL with *@out its normal form: no "//",
 * no "." component, no trailing '/'. ".." is refused rather than resolved:
 * on the host it would follow symlinks, and the jail's DST has none yet.
 */
static const char *normalize_path(const char *path, char **out)
{
	const char *p = path;
	char *norm, *w;

	*out = NULL;
	if (!*path)
		return "empty path";
	if (*path != '/')
		return "not an absolute path";
	norm = malloc(strlen(path) + 2);
	if (!norm)
		return "out of memory";
	w = norm;
	while (*p) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			free(norm);
			return "'..' is not allowed in a path";
		}
		if (len && !(len == 1 && *p == '.')) {
			*w++ = '/';
			memcpy(w, p, len);
			w += len;
		}
		p += len;
	}
	if (w == norm)
		*w++ = '/';
	*w = '\0';
	*out = norm;
	return NULL;
}

/* @role ("source", "destination") names the half of a SRC:DST argument. */
static int check_path(const char *path, const char *role, const char *where,
		      char **out)
{
	const char *why = normalize_path(path, out);

	if (!why)
		return 0;
	if (role)
		return fail(where, "%s '%s': %s", role, path, why);
	return fail(where, "%s", why);
}

/* Adds @src at @dst (both owned from here on); the same entry twice is one. */
static int stage(struct jail_opts *o, char *src, char *dst, bool writable,
		 const char *where)
{
	struct jail_path *grown;
	int ret = -1;

	if (!strcmp(dst, "/")) {
		fail(where, "cannot stage over the jail's root '/'");
		goto drop;
	}
	for (size_t i = 0; i < o->n_paths; i++) {
		const struct jail_path *p = &o->paths[i];

		if (strcmp(p->dst, dst))
			continue;
		if (strcmp(p->src, src))
			fail(where, "'%s' is already staged from '%s'", dst, p->src);
		else if (p->writable != writable)
			fail(where, "'%s' is already staged %s", dst,
			     p->writable ? "writable (-w)" : "read-only (-r)");
		else
			ret = 0;
		goto drop;
	}
	grown = realloc(o->paths, (o->n_paths + 1) * sizeof(*grown));
	if (!grown) {
		out_of_memory();
		goto drop;
	}
	o->paths = grown;
	grown[o->n_paths++] = (struct jail_path){ src, dst, writable };
	return 0;
drop:
	free(src);
	free(dst);
	return ret;
}

/* "SRC" or "SRC:DST", split at the first ':' as procd does. */
static int stage_arg(struct jail_opts *o, const char *arg, bool writable,
		     const char *where)
{
	const char *colon = strchr(arg, ':');
	char *src_text, *src, *dst;
	int ret;

	if (!colon) {
		if (check_path(arg, NULL, where, &src))
			return -1;
		dst = strdup(src);
		if (!dst) {
			free(src);
			return out_of_memory();
		}
		return stage(o, src, dst, writable, where);
	}
	src_text = strndup(arg, (size_t)(colon - arg));
	if (!src_text)
		return out_of_memory();
	ret = check_path(src_text, "source", where, &src);
	free(src_text);
	if (ret)
		return -1;
	if (check_path(colon + 1, "destination", where, &dst)) {
		free(src);
		return -1;
	}
	return stage(o, src, dst, writable, where);
}

/* ---- -j -------------------------------------------------------------- */

/* procd accepts the OCI names; /proc/PID/ns/ has the short ones. */
static const struct {
	const char *name;
	unsigned int flag;
} namespaces[] = {
	{ "pid", CLONE_NEWPID },
	{ "net", CLONE_NEWNET },
	{ "network", CLONE_NEWNET },
	{ "mnt", CLONE_NEWNS },
	{ "mount", CLONE_NEWNS },
	{ "ipc", CLONE_NEWIPC },
	{ "uts", CLONE_NEWUTS },
	{ "cgroup", CLONE_NEWCGROUP },
	{ "time", CLONE_NEWTIME },
	{ "user", CLONE_NEWUSER },
};

#define KNOWN_NAMESPACES "pid, net, mnt, ipc, uts, cgroup, time"

static unsigned int ns_flag(const char *name)
{
	for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (!strcmp(namespaces[i].name, name))
			return namespaces[i].flag;
	return 0;
}

static const char *ns_name(unsigned int flag)
{
	for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (namespaces[i].flag == flag)
			return namespaces[i].name;
	return "?";
}

/* Adds namespace @ns to *@flags, the set one -j joins. */
static int join_ns(const struct jail_opts *o, unsigned int *flags,
		   const char *ns, const char *where)
{
	unsigned int flag = ns_flag(ns);

	if (!*ns)
		return fail(where, "empty namespace name");
	if (!flag)
		return fail(where, "unknown namespace '%s' (" KNOWN_NAMESPACES ")", ns);
	if (flag == CLONE_NEWUSER)
		return fail(where, "joining a user namespace is not implemented yet");
	if (*flags & flag)
		return fail(where, "namespace '%s' given twice", ns);
	for (size_t i = 0; i < o->n_joins; i++)
		if (o->joins[i].ns_flags & flag)
			return fail(where, "the %s namespace is already joined from pid %d",
				    ns_name(flag), (int)o->joins[i].pid);
	*flags |= flag;
	return 0;
}

static int add_join(struct jail_opts *o, pid_t pid, unsigned int flags)
{
	struct jail_join *grown = realloc(o->joins, (o->n_joins + 1) * sizeof(*grown));

	if (!grown)
		return out_of_memory();
	o->joins = grown;
	grown[o->n_joins++] = (struct jail_join){ pid, flags };
	return 0;
}

/* "PID:NS[,NS...]", what procd builds from a service's "setns" entries. */
static int join_arg(struct jail_opts *o, const char *arg, const char *where)
{
	const char *colon = strchr(arg, ':');
	unsigned int flags = 0;
	unsigned long pid;
	char *list, *ns, *next;
	int ret = 0;

	if (!colon)
		return fail(where, "expected PID:NS[,NS...]");
	if (!parse_number(arg, (size_t)(colon - arg), INT_MAX, &pid) || !pid)
		return fail(where, "'%.*s' is not a process id", (int)(colon - arg), arg);
	list = strdup(colon + 1);
	if (!list)
		return out_of_memory();
	for (ns = list; ns && !ret; ns = next) {
		next = strchr(ns, ',');
		if (next)
			*next++ = '\0';
		ret = join_ns(o, &flags, ns, where);
	}
	free(list);
	return ret ? ret : add_join(o, (pid_t)pid, flags);
}

/* ---- the command ----------------------------------------------------- */

static void free_command(struct jail_opts *o)
{
	for (int i = 0; i < o->argc; i++)
		free(o->argv[i]);
	free(o->argv);
	o->argv = NULL;
	o->argc = 0;
}

/* Replaces the command with copies of @args[0..@n). */
static int set_command(struct jail_opts *o, const char *const *args, int n,
		       const char *where)
{
	if (!*args[0])
		return fail(where, "empty command name");
	free_command(o);
	o->argv = calloc((size_t)n + 1, sizeof(*o->argv));
	if (!o->argv)
		return out_of_memory();
	for (; o->argc < n; o->argc++) {
		o->argv[o->argc] = strdup(args[o->argc]);
		if (!o->argv[o->argc])
			return out_of_memory();
	}
	return 0;
}

/* ---- the jail file ---------------------------------------------------- */

static int json_text(struct json_object *v, const char *where, const char **text)
{
	if (!json_object_is_type(v, json_type_string))
		return fail(where, "expected a string");
	*text = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(*text))
		return fail(where, "contains a NUL character");
	return 0;
}

/* Calls @fn for each key of object @obj; @fn sees "WHERE.KEY". */
typedef int (*member_fn)(void *ctx, const char *key, struct json_object *v,
			 const char *where);

static int each_member(struct json_object *obj, const char *where,
		       member_fn fn, void *ctx)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);
	char sub[WHERE_MAX];

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);

		where_printf(sub, "%s.%s", where, key);
		if (fn(ctx, key, json_object_iter_peek_value(&it), sub))
			return -1;
	}
	return 0;
}

/* {"src": ..., "dst": ...} */
struct path_object {
	struct json_object *src, *dst;
};

static int path_member(void *ctx, const char *key, struct json_object *v,
		       const char *where)
{
	struct path_object *p = ctx;

	if (!strcmp(key, "src"))
		p->src = v;
	else if (!strcmp(key, "dst"))
		p->dst = v;
	else
		return fail(where, "unknown key");
	return 0;
}

static int stage_object(struct jail_opts *o, struct json_object *obj,
			bool writable, const char *where)
{
	struct path_object p = { NULL, NULL };
	char sub[WHERE_MAX];
	const char *text;
	char *src, *dst;

	if (each_member(obj, where, path_member, &p))
		return -1;
	if (!p.src)
		return fail(where, "\"src\" is missing");
	where_printf(sub, "%s.src", where);
	if (json_text(p.src, sub, &text) || check_path(text, NULL, sub, &src))
		return -1;
	where_printf(sub, "%s.dst", where);
	if (!p.dst)
		dst = strdup(src);
	else if (json_text(p.dst, sub, &text) || check_path(text, NULL, sub, &dst)) {
		free(src);
		return -1;
	}
	if (!dst) {
		free(src);
		return out_of_memory();
	}
	return stage(o, src, dst, writable, where);
}

/* {"pid": N, "namespaces": [...]}, procd's own "setns" entry */
struct join_object {
	struct json_object *pid, *namespaces;
};

static int join_member(void *ctx, const char *key, struct json_object *v,
		       const char *where)
{
	struct join_object *j = ctx;

	if (!strcmp(key, "pid"))
		j->pid = v;
	else if (!strcmp(key, "namespaces"))
		j->namespaces = v;
	else
		return fail(where, "unknown key");
	return 0;
}

static int join_object(struct jail_opts *o, struct json_object *obj,
		       const char *where)
{
	struct join_object j = { NULL, NULL };
	unsigned int flags = 0;
	char sub[WHERE_MAX];
	int64_t pid;
	size_t n;

	if (each_member(obj, where, join_member, &j))
		return -1;
	if (!j.pid)
		return fail(where, "\"pid\" is missing");
	if (!j.namespaces)
		return fail(where, "\"namespaces\" is missing");
	where_printf(sub, "%s.pid", where);
	pid = json_object_get_int64(j.pid);
	if (!json_object_is_type(j.pid, json_type_int) || pid < 1 || pid > INT_MAX)
		return fail(sub, "expected a process id");
	where_printf(sub, "%s.namespaces", where);
	if (!json_object_is_type(j.namespaces, json_type_array) ||
	    !(n = json_object_array_length(j.namespaces)))
		return fail(sub, "expected a non-empty array of namespace names");
	for (size_t i = 0; i < n; i++) {
		const char *ns;

		where_printf(sub, "%s.namespaces[%zu]", where, i);
		if (json_text(json_object_array_get_idx(j.namespaces, i), sub, &ns) ||
		    join_ns(o, &flags, ns, sub))
			return -1;
	}
	return add_join(o, (pid_t)pid, flags);
}

/* One element of a list key (keep_env, ro, rw, join). */
static int list_element(struct jail_opts *o, const struct opt_spec *s,
			struct json_object *v, const char *where)
{
	bool is_object = json_object_is_type(v, json_type_object);
	bool is_string = json_object_is_type(v, json_type_string);
	bool writable = s->kind == OPT_PATH_RW;
	const char *text;

	switch (s->kind) {
	case OPT_KEEP_ENV:
		if (json_text(v, where, &text))
			return -1;
		return keep_env(o, text, where);
	case OPT_PATH_RO:
	case OPT_PATH_RW:
		if (is_object)
			return stage_object(o, v, writable, where);
		if (!is_string)
			return fail(where,
				    "expected \"SRC[:DST]\" or {\"src\": ..., \"dst\": ...}");
		if (json_text(v, where, &text))
			return -1;
		return stage_arg(o, text, writable, where);
	case OPT_JOIN:
		if (is_object)
			return join_object(o, v, where);
		if (!is_string)
			return fail(where, "expected \"PID:NS[,NS...]\" or "
				    "{\"pid\": ..., \"namespaces\": [...]}");
		if (json_text(v, where, &text))
			return -1;
		return join_arg(o, text, where);
	default:
		return fail(where, "cannot be a list");
	}
}

static int each_element(struct jail_opts *o, const struct opt_spec *s,
			struct json_object *array, const char *where)
{
	char sub[WHERE_MAX];

	if (!json_object_is_type(array, json_type_array))
		return fail(where, "expected an array");
	for (size_t i = 0; i < json_object_array_length(array); i++) {
		where_printf(sub, "%s[%zu]", where, i);
		if (list_element(o, s, json_object_array_get_idx(array, i), sub))
			return -1;
	}
	return 0;
}

static int json_command(struct jail_opts *o, struct json_object *array,
			const char *where)
{
	const char **args;
	char sub[WHERE_MAX];
	size_t n;
	int ret = 0;

	if (!json_object_is_type(array, json_type_array) ||
	    !(n = json_object_array_length(array)) || n > INT_MAX)
		return fail(where, "expected a non-empty array of strings");
	args = calloc(n, sizeof(*args));
	if (!args)
		return out_of_memory();
	for (size_t i = 0; i < n && !ret; i++) {
		where_printf(sub, "%s[%zu]", where, i);
		ret = json_text(json_object_array_get_idx(array, i), sub, &args[i]);
	}
	if (!ret) {
		where_printf(sub, "%s[0]", where);
		ret = set_command(o, args, (int)n, sub);
	}
	free(args);
	return ret;
}

static int apply_json(struct jail_opts *o, const struct opt_spec *s,
		      struct json_object *v, const char *where)
{
	const char *text;
	int64_t n;

	switch (s->kind) {
	case OPT_STRING:
		if (json_text(v, where, &text))
			return -1;
		return set_string(o, s, text, where);
	case OPT_FLAG:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(where, "expected true or false");
		*flag_member(o, s) = json_object_get_boolean(v);
		return 0;
	case OPT_TIMEOUT:
		n = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || n < 0 || n > MAX_TIMEOUT)
			return fail(where, "expected a number of seconds from 0 to %d",
				    MAX_TIMEOUT);
		o->term_timeout = (unsigned int)n;
		return 0;
	case OPT_COMMAND:
		return json_command(o, v, where);
	default:
		return each_element(o, s, v, where);
	}
}

static int read_config(const char *file, char **text, size_t *len)
{
	FILE *f = fopen(file, "re");
	char *buf;

	if (!f)
		return fail(file, "cannot read: %s", strerror(errno));
	buf = malloc(MAX_CONFIG_SIZE + 1);
	if (!buf) {
		fclose(f);
		return out_of_memory();
	}
	*len = fread(buf, 1, MAX_CONFIG_SIZE + 1, f);
	if (ferror(f)) {
		fail(file, "cannot read: %s", strerror(errno));
		goto err;
	}
	if (*len > MAX_CONFIG_SIZE) {
		fail(file, "larger than 1 MiB");
		goto err;
	}
	fclose(f);
	buf[*len] = '\0';
	*text = buf;
	return 0;
err:
	fclose(f);
	free(buf);
	return -1;
}

static unsigned int line_of(const char *text, size_t offset)
{
	unsigned int line = 1;

	for (size_t i = 0; i < offset; i++)
		line += text[i] == '\n';
	return line;
}

/* The JSON value in @text, or NULL after a message with its line. */
static struct json_object *parse_json(const char *file, const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root;
	enum json_tokener_error err;
	char where[WHERE_MAX];
	size_t end;

	if (!tok) {
		out_of_memory();
		return NULL;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	where_printf(where, "%s: line %u", file, line_of(text, end));
	if (err == json_tokener_continue) {
		fail(file, "invalid JSON: unexpected end of file");
		return NULL;
	}
	if (err != json_tokener_success) {
		fail(where, "invalid JSON: %s", json_tokener_error_desc(err));
		return NULL;
	}
	if (text[end + strspn(text + end, " \t\r\n")]) {
		json_object_put(root);
		fail(where, "invalid JSON: text after the JSON value");
		return NULL;
	}
	return root;
}

static int load_config(struct jail_opts *o, const char *file)
{
	struct json_object_iterator it, end;
	struct json_object *root;
	char where[WHERE_MAX];
	char *text = NULL;
	size_t len = 0;
	int ret = -1;

	if (read_config(file, &text, &len))
		return -1;
	root = parse_json(file, text, len);
	free(text);
	if (!root)
		return -1;
	if (!json_object_is_type(root, json_type_object)) {
		fail(file, "expected a JSON object at the top level");
		goto out;
	}
	it = json_object_iter_begin(root);
	end = json_object_iter_end(root);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		const struct opt_spec *s = spec_by_key(key);

		where_printf(where, "%s: %s", file, key);
		if (!s) {
			fail(where, "unknown key");
			goto out;
		}
		if (apply_json(o, s, json_object_iter_peek_value(&it), where))
			goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

/* ---- the command line ------------------------------------------------- */

static const char usage[] =
"Usage: " PROG " [OPTION]... [--] COMMAND [ARGUMENT]...\n"
"Run COMMAND in a jail: new mount, pid, ipc and uts namespaces, a tmpfs root\n"
"holding COMMAND, its libraries and the paths staged, a minimal /dev, and the\n"
"credentials, capabilities and seccomp policy asked for. Takes procd's options.\n"
"\n"
"The jail:\n"
"  -n, --name NAME          jail name (log lines)\n"
"  -h, --hostname HOST      hostname in the jail\n"
"  -r, --ro SRC[:DST]       stage host path SRC read-only, at DST (default SRC)\n"
"  -w, --rw SRC[:DST]       stage SRC writable; -r and -w repeat\n"
"  -p, --proc               mount /proc\n"
"  -s, --sys                mount /sys\n"
"  -l, --log                stage /dev/log (syslog)\n"
"  -u, --ubus               stage the ubus socket\n"
"  -o, --read-only-root     make the jail's root read-only\n"
"  -N, --net                new network namespace (loopback only)\n"
"  -F, --cgroupns           new cgroup namespace\n"
"  -j, --join PID:NS[,NS]   join namespaces of process PID instead: pid, net,\n"
"                           mnt, ipc, uts, cgroup, time; repeats\n"
"Privileges:\n"
"  -U, --user USER          run as USER\n"
"  -G, --group GROUP        run with group GROUP\n"
"  -C, --capabilities FILE  capabilities to keep (procd's JSON)\n"
"  -S, --seccomp FILE       seccomp policy (OCI or procd JSON)\n"
"  -c, --no-new-privs       set no_new_privs before COMMAND starts\n"
"The process:\n"
"  -e, --keep-env NAME      pass variable NAME from ujail's environment (the\n"
"                           rest is not passed); repeats\n"
"  -t, --timeout SECONDS    SIGKILL the service this long after a SIGTERM\n"
"                           (0-86400, default 5)\n"
"  -P, --pidfile FILE       write the service's pid to FILE\n"
"  -E, --require-jail       fail when the jail cannot be set up (always so)\n"
"  -d, --debug LEVEL        log verbosity, 0-9\n"
"      --config FILE        read settings from a JSON jail file first;\n"
"                           options override or add to them\n"
"      --help               this text\n"
"      --version            ujail's version\n"
"\n"
"Refused with status 2 (not supported yet): -f (user namespace), -J and -i\n"
"(OCI bundles), -R (external root), -O and -T (overlays), -y (console).\n"
"\n"
"Exit status: the service's; 128+N when a signal N killed it; 1 when the jail\n"
"could not be set up; 2 on a usage error; 127 when COMMAND could not start.\n"
"See ujail(8).\n";

struct cli {
	int argc;
	char **argv;
	char shorts[2 + 2 * N_SPECS + 1];
	struct option longs[N_SPECS + 1];
};

/* getopt_long's tables from specs[]; "+" stops at COMMAND, ":" reports a
 * missing argument apart from an unknown option. */
static void cli_init(struct cli *c, int argc, char **argv)
{
	char *s = c->shorts;
	size_t n = 0;

	c->argc = argc;
	c->argv = argv;
	*s++ = '+';
	*s++ = ':';
	for (size_t i = 0; i < N_SPECS; i++) {
		const struct opt_spec *sp = &specs[i];

		if (sp->letter) {
			*s++ = sp->letter;
			if (sp->has_arg)
				*s++ = ':';
		}
		if (sp->name)
			c->longs[n++] = (struct option){
				sp->name, sp->has_arg ? required_argument : no_argument,
				NULL, LONG_BASE + (int)i };
	}
	*s = '\0';
	c->longs[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* Restarts getopt_long over the whole argument vector. */
static int cli_next(struct cli *c)
{
	return getopt_long(c->argc, c->argv, c->shorts, c->longs, NULL);
}

static void cli_rewind(void)
{
	optind = 0;	/* glibc: 0 reinitializes, for a second scan */
	opterr = 0;
}

/* getopt_long's '?' and ':' in words. */
static int cli_error(const struct cli *c, int ret)
{
	const struct opt_spec *s = optopt ? spec_of(optopt) : NULL;
	bool as_long = optopt >= LONG_BASE;

	if (ret == ':' && s && as_long)
		return fail(NULL, "--%s needs an argument", s->name);
	if (ret == ':')
		return fail(NULL, "-%c needs an argument", optopt);
	if (s && as_long)
		return fail(NULL, "--%s takes no argument", s->name);
	if (optopt)
		return fail(NULL, "unknown option -%c (see ujail --help)", optopt);
	return fail(NULL, "unknown option %s (see ujail --help)",
		    c->argv[optind - 1]);
}

/* "-r 'ARG'" or "--ro 'ARG'": how the user wrote it. */
static void cli_where(char *buf, size_t len, const struct opt_spec *s,
		      bool as_long, const char *arg)
{
	int n = as_long ? snprintf(buf, len, "--%s", s->name)
			: snprintf(buf, len, "-%c", s->letter);

	if (arg && s->kind != OPT_REFUSED && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " '%s'", arg);
}

static int apply_arg(struct jail_opts *o, const struct opt_spec *s,
		     const char *arg, const char *where)
{
	switch (s->kind) {
	case OPT_STRING:
		return set_string(o, s, arg, where);
	case OPT_FLAG:
		*flag_member(o, s) = true;
		return 0;
	case OPT_TIMEOUT:
		return set_timeout(o, arg, where);
	case OPT_DEBUG:
		return set_debug(o, arg, where);
	case OPT_KEEP_ENV:
		return keep_env(o, arg, where);
	case OPT_PATH_RO:
	case OPT_PATH_RW:
		return stage_arg(o, arg, s->kind == OPT_PATH_RW, where);
	case OPT_JOIN:
		return join_arg(o, arg, where);
	case OPT_REFUSED:
		return fail(where, "%s", s->refusal);
	default:
		return 0;	/* --config, --help, --version: first pass */
	}
}

/* First pass: --help, --version and --config, which the rest depends on.
 * Errors are left to the second pass, which reports them in order. */
static int first_pass(struct cli *c, struct jail_opts *o)
{
	const char *config = NULL;
	int ret;

	cli_rewind();
	while ((ret = cli_next(c)) != -1) {
		const struct opt_spec *s = spec_of(ret);

		if (!s || ret == '?' || ret == ':')
			continue;
		if (s->kind == OPT_HELP) {
			fputs(usage, out_stream());
			return 1;
		}
		if (s->kind == OPT_VERSION) {
			fputs(PROG " " UJAIL_VERSION "\n", out_stream());
			return 1;
		}
		if (s->kind == OPT_CONFIG && config)
			return fail(NULL, "--config '%s': only one jail file can be given",
				    optarg);
		if (s->kind == OPT_CONFIG)
			config = optarg;
	}
	if (!config)
		return 0;
	o->config = strdup(config);
	if (!o->config)
		return out_of_memory();
	return load_config(o, config);
}

static int second_pass(struct cli *c, struct jail_opts *o)
{
	char where[WHERE_MAX];
	int ret;

	cli_rewind();
	while ((ret = cli_next(c)) != -1) {
		const struct opt_spec *s = spec_of(ret);

		if (ret == '?' || ret == ':' || !s)
			return cli_error(c, ret);
		cli_where(where, sizeof(where), s, ret >= LONG_BASE,
			  s->has_arg ? optarg : NULL);
		if (apply_arg(o, s, optarg, where))
			return -1;
	}
	if (optind < c->argc)
		return set_command(o, (const char *const *)c->argv + optind,
				   c->argc - optind, NULL);
	if (!o->argv)
		return fail(NULL, "no command to run; give it after -- (see ujail --help)");
	return 0;
}

/* A namespace cannot be both joined and new. */
static int check_joins(const struct jail_opts *o)
{
	unsigned int joined = 0;

	for (size_t i = 0; i < o->n_joins; i++)
		joined |= o->joins[i].ns_flags;
	if ((joined & CLONE_NEWNET) && o->netns)
		return fail(NULL, "-j joins a net namespace and -N asks for a new "
			    "one; use one or the other");
	if ((joined & CLONE_NEWUTS) && o->hostname)
		return fail(NULL, "-j joins a uts namespace and -h sets a hostname, "
			    "which needs a new one; use one or the other");
	if ((joined & CLONE_NEWCGROUP) && o->cgroupns)
		return fail(NULL, "-j joins a cgroup namespace and -F asks for a new "
			    "one; use one or the other");
	return 0;
}

int jail_opts_parse(struct jail_opts *o, int argc, char **argv)
{
	struct cli c;
	int ret;

	memset(o, 0, sizeof(*o));
	o->term_timeout = DEFAULT_TIMEOUT;
	cli_init(&c, argc, argv);
	ret = first_pass(&c, o);
	if (ret)
		return ret;
	if (second_pass(&c, o))
		return -1;
	return check_joins(o);
}

void jail_opts_free(struct jail_opts *o)
{
	for (size_t i = 0; i < N_SPECS; i++)
		if (specs[i].kind == OPT_STRING)
			free(*string_member(o, &specs[i]));
	for (size_t i = 0; i < o->n_keep_env; i++)
		free(o->keep_env[i]);
	free(o->keep_env);
	for (size_t i = 0; i < o->n_paths; i++) {
		free(o->paths[i].src);
		free(o->paths[i].dst);
	}
	free(o->paths);
	free(o->joins);
	free_command(o);
	free(o->config);
	memset(o, 0, sizeof(*o));
}
