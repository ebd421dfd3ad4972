/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp policy files -> struct ujs_policy.
 *
 * Two formats: the OCI seccomp JSON ({"defaultAction": ...}) and procd's
 * 2015 one ({"whitelist": [...], "policy": N}). The parser is strict: a
 * policy is a security boundary, so an unknown key, a value of the wrong
 * type or an unknown syscall is an error that names the file and the JSON
 * path, never something silently ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <linux/seccomp.h>

#include "policy.h"
#include "program.h"

#define MAX_FILE_SIZE	(16U << 20)
#define MAX_ERRNO	4095	/* errno values the kernel returns as -errno */
#define MAX_ARG_INDEX	5
#define PATH_LEN	128	/* "syscalls[N].args[N].valueTwo" and the like */

struct parser {
	const char *file;
	char *err;
	size_t errlen;
	bool skip_unknown;
	FILE *warn;
	const struct ujs_arch *target;
	/* A syscall name must exist on at least one of these. */
	const struct ujs_arch *name_archs[UJS_MAX_ARCHS];
	size_t n_name_archs;
	struct ujs_policy *p;
	size_t rules_cap;
};

/* ---- messages ---- */

static void vformat(char *buf, size_t len, const char *file, const char *path,
		    const char *fmt, va_list ap)
{
	int n;

	n = snprintf(buf, len, "%s: %s: ", file, *path ? path : "(top level)");
	if (n >= 0 && (size_t)n < len)
		vsnprintf(buf + n, len - n, fmt, ap);
}

/* "FILE: PATH: message" in the caller's buffer; returns -1. */
__attribute__((format(printf, 3, 4)))
static int fail(struct parser *ps, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vformat(ps->err, ps->errlen, ps->file, path, fmt, ap);
	va_end(ap);
	return -1;
}

/* Same text as fail(), as a line on the warning stream. */
__attribute__((format(printf, 3, 4)))
static void warn_line(struct parser *ps, const char *path, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!ps->warn)
		return;
	va_start(ap, fmt);
	vformat(line, sizeof(line), ps->file, path, fmt, ap);
	va_end(ap);
	fprintf(ps->warn, "%s\n", line);
}

/* Errors about the file as a whole: "FILE: message"; returns -1. */
__attribute__((format(printf, 4, 5)))
static int fail_file(char *err, size_t errlen, const char *file,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "%s: ", file);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Paths are short; should one not fit, it ends in "..." rather than lie. */
static void mark_truncated(char *buf, int n)
{
	if (n >= PATH_LEN)
		strcpy(buf + PATH_LEN - 4, "...");
}

static void path_key(char *buf, const char *parent, const char *key)
{
	mark_truncated(buf, snprintf(buf, PATH_LEN, "%s%s%s", parent,
				     *parent ? "." : "", key));
}

static void path_index(char *buf, const char *parent, size_t i)
{
	mark_truncated(buf, snprintf(buf, PATH_LEN, "%s[%zu]", parent, i));
}

static const char *type_desc(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number with a fraction or exponent";
	case json_type_int:
		return "an integer";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	}
	return "an unknown JSON type";
}

/* ---- actions and operators ---- */

struct action_desc {
	const char *name;
	enum ujs_action_kind kind;
	bool takes_data;	/* errnoRet allowed */
	uint16_t default_data;
};

/* The first entry of a kind names it (SCMP_ACT_KILL is an alias). */
static const struct action_desc actions[] = {
	{ "SCMP_ACT_KILL_PROCESS", UJS_ACT_KILL_PROCESS, false, 0 },
	{ "SCMP_ACT_KILL_THREAD", UJS_ACT_KILL_THREAD, false, 0 },
	{ "SCMP_ACT_KILL", UJS_ACT_KILL_THREAD, false, 0 },
	{ "SCMP_ACT_TRAP", UJS_ACT_TRAP, false, 0 },
	{ "SCMP_ACT_ERRNO", UJS_ACT_ERRNO, true, EPERM },
	{ "SCMP_ACT_LOG_ERRNO", UJS_ACT_LOG_ERRNO, true, EPERM },
	{ "SCMP_ACT_TRACE", UJS_ACT_TRACE, true, 0 },
	{ "SCMP_ACT_LOG", UJS_ACT_LOG, false, 0 },
	{ "SCMP_ACT_ALLOW", UJS_ACT_ALLOW, false, 0 },
};

#define ACTION_LIST "SCMP_ACT_ALLOW, SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO, " \
	"SCMP_ACT_LOG, SCMP_ACT_TRAP, SCMP_ACT_TRACE, SCMP_ACT_KILL, " \
	"SCMP_ACT_KILL_THREAD, SCMP_ACT_KILL_PROCESS"

#define N_ACTIONS (sizeof(actions) / sizeof(actions[0]))

static const struct action_desc *action_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < N_ACTIONS; i++)
		if (!strcmp(name, actions[i].name))
			return &actions[i];
	return NULL;
}

static const struct action_desc *action_by_kind(enum ujs_action_kind kind)
{
	size_t i;

	for (i = 0; i < N_ACTIONS; i++)
		if (actions[i].kind == kind)
			return &actions[i];
	return NULL;
}

const char *ujs_action_name(enum ujs_action_kind kind)
{
	const struct action_desc *a = action_by_kind(kind);

	return a ? a->name : "SCMP_ACT_UNKNOWN";
}

uint32_t ujs_action_ret(struct ujs_action a)
{
	uint32_t data = a.data & SECCOMP_RET_DATA;

	switch (a.kind) {
	case UJS_ACT_KILL_PROCESS:
		return SECCOMP_RET_KILL_PROCESS;
	case UJS_ACT_KILL_THREAD:
		return SECCOMP_RET_KILL_THREAD;
	case UJS_ACT_TRAP:
		return SECCOMP_RET_TRAP;
	case UJS_ACT_ERRNO:
		return SECCOMP_RET_ERRNO | data;
	case UJS_ACT_LOG_ERRNO:
		return SECCOMP_RET_LOG_ERRNO | data;
	case UJS_ACT_TRACE:
		return SECCOMP_RET_TRACE | data;
	case UJS_ACT_LOG:
		return SECCOMP_RET_LOG;
	case UJS_ACT_ALLOW:
		return SECCOMP_RET_ALLOW;
	}
	/* Not a valid kind: fail closed. */
	return SECCOMP_RET_KILL_PROCESS;
}

static const char *const op_names[] = {
	[UJS_CMP_NE] = "SCMP_CMP_NE",
	[UJS_CMP_LT] = "SCMP_CMP_LT",
	[UJS_CMP_LE] = "SCMP_CMP_LE",
	[UJS_CMP_EQ] = "SCMP_CMP_EQ",
	[UJS_CMP_GE] = "SCMP_CMP_GE",
	[UJS_CMP_GT] = "SCMP_CMP_GT",
	[UJS_CMP_MASKED_EQ] = "SCMP_CMP_MASKED_EQ",
};

#define N_OPS (sizeof(op_names) / sizeof(op_names[0]))

/* ---- typed getters: each one fails with the path of the value ---- */

/*
 * Every key of @obj must be in @keys (NULL-terminated) or be "comment";
 * @expected lists them for the message.
 */
static int check_keys(struct parser *ps, const char *path,
		      struct json_object *obj, const char *const *keys,
		      const char *expected)
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		const char *const *k;

		if (!strcmp(key, "comment"))
			continue;
		for (k = keys; *k; k++)
			if (!strcmp(key, *k))
				break;
		if (!*k)
			return fail(ps, path, "unknown key \"%s\" (expected %s)",
				    key, expected);
	}
	return 0;
}

static int get_string(struct parser *ps, const char *path,
		      struct json_object *o, const char **out)
{
	if (!json_object_is_type(o, json_type_string))
		return fail(ps, path, "expected a string, found %s",
			    type_desc(o));
	*out = json_object_get_string(o);
	if (strlen(*out) != (size_t)json_object_get_string_len(o))
		return fail(ps, path, "string contains a NUL character");
	return 0;
}

/* An integer in [min, max]. */
static int get_int(struct parser *ps, const char *path, struct json_object *o,
		   int64_t min, int64_t max, int64_t *out)
{
	int64_t v;

	if (!json_object_is_type(o, json_type_int))
		return fail(ps, path, "expected an integer, found %s",
			    type_desc(o));
	v = json_object_get_int64(o);
	if (v < min || v > max) {
		/* json-c stops int64 at INT64_MAX; show the real value. */
		if (v >= 0)
			return fail(ps, path, "%" PRIu64 " is out of range (%" PRId64 "..%" PRId64 ")",
				    json_object_get_uint64(o), min, max);
		return fail(ps, path, "%" PRId64 " is out of range (%" PRId64 "..%" PRId64 ")",
			    v, min, max);
	}
	*out = v;
	return 0;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t n;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	s += 2;
	n = strspn(s, "0123456789abcdefABCDEF");
	/* Leading zeros are fine; more than 64 significant bits are not. */
	while (n > 16 && *s == '0') {
		s++;
		n--;
	}
	if (n == 0 || n > 16 || s[n])
		return false;
	for (; *s; s++) {
		unsigned int d = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;

		v = v << 4 | d;
	}
	*out = v;
	return true;
}

/*
 * A 64-bit argument value: an integer up to UINT64_MAX, a negative one as
 * its two's complement, or a "0x..." string.
 */
static int get_u64(struct parser *ps, const char *path, struct json_object *o,
		   uint64_t *out)
{
	const char *s;
	int64_t v;

	switch (json_object_get_type(o)) {
	case json_type_int:
		v = json_object_get_int64(o);
		*out = v < 0 ? (uint64_t)v : json_object_get_uint64(o);
		return 0;
	case json_type_string:
		s = json_object_get_string(o);
		if (strlen(s) == (size_t)json_object_get_string_len(o) &&
		    parse_hex64(s, out))
			return 0;
		return fail(ps, path, "\"%s\" is not a 64-bit \"0x...\" hex number", s);
	default:
		return fail(ps, path, "expected a 64-bit integer or a \"0x...\" hex string, found %s",
			    type_desc(o));
	}
}

/* An array (@what names the expected kind): its length in @n. */
static int get_array(struct parser *ps, const char *path, struct json_object *o,
		     const char *what, size_t *n)
{
	if (!json_object_is_type(o, json_type_array))
		return fail(ps, path, "expected %s, found %s", what,
			    type_desc(o));
	*n = json_object_array_length(o);
	return 0;
}

/* ---- syscall names and rules ---- */

static bool name_known(const struct parser *ps, const char *name)
{
	size_t i;

	for (i = 0; i < ps->n_name_archs; i++)
		if (ujs_syscall_nr(ps->name_archs[i], name) >= 0)
			return true;
	return false;
}

static void name_arch_list(const struct parser *ps, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < ps->n_name_archs && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 ps->name_archs[i]->name);

		if (n < 0)
			break;
		used += n;
	}
}

/*
 * Checks @name; 1 = keep, 0 = unknown and skipped (warned), -1 = error.
 */
static int check_name(struct parser *ps, const char *path, const char *name)
{
	char archs[128];

	if (!*name)
		return fail(ps, path, "empty syscall name");
	if (name_known(ps, name))
		return 1;
	name_arch_list(ps, archs, sizeof(archs));
	if (!ps->skip_unknown)
		return fail(ps, path, "unknown syscall \"%s\" on %s", name, archs);
	warn_line(ps, path, "unknown syscall \"%s\" on %s", name, archs);
	return 0;
}

static int add_rule(struct parser *ps, const char *path, const char *name,
		    struct ujs_action action, const struct ujs_arg_cmp *args,
		    size_t n_args)
{
	struct ujs_policy *p = ps->p;
	struct ujs_rule *r;

	if (p->n_rules == ps->rules_cap) {
		size_t cap = ps->rules_cap ? 2 * ps->rules_cap : 64;
		struct ujs_rule *rules = reallocarray(p->rules, cap, sizeof(*rules));

		if (!rules)
			return fail(ps, path, "out of memory");
		p->rules = rules;
		ps->rules_cap = cap;
	}
	r = &p->rules[p->n_rules];
	memset(r, 0, sizeof(*r));
	r->action = action;
	r->name = strdup(name);
	r->where = strdup(path);
	if (n_args) {
		r->args = calloc(n_args, sizeof(*args));
		if (r->args) {
			memcpy(r->args, args, n_args * sizeof(*args));
			r->n_args = n_args;
		}
	}
	/* Counted even when incomplete, so that ujs_policy_free frees it. */
	p->n_rules++;
	if (!r->name || !r->where || (n_args && !r->args))
		return fail(ps, path, "out of memory");
	return 0;
}

/* A name at @path: checked, then one rule. */
static int add_named_rule(struct parser *ps, const char *path,
			  struct json_object *o, struct ujs_action action,
			  const struct ujs_arg_cmp *args, size_t n_args)
{
	const char *name;
	int known;

	if (get_string(ps, path, o, &name))
		return -1;
	known = check_name(ps, path, name);
	if (known <= 0)
		return known;
	return add_rule(ps, path, name, action, args, n_args);
}

/* ---- the OCI format ---- */

/*
 * @obj's action under @key, with its data under @errno_key (path of
 * @obj: @path).
 */
static int parse_action(struct parser *ps, const char *path,
			struct json_object *obj, const char *key,
			const char *errno_key, struct ujs_action *out)
{
	char kpath[PATH_LEN], epath[PATH_LEN];
	const struct action_desc *desc;
	struct json_object *o, *eo;
	const char *name;
	int64_t data;

	path_key(kpath, path, key);
	if (!json_object_object_get_ex(obj, key, &o))
		return fail(ps, path, "missing \"%s\"", key);
	if (get_string(ps, kpath, o, &name))
		return -1;
	desc = action_by_name(name);
	if (!desc) {
		if (!strcmp(name, "SCMP_ACT_NOTIFY"))
			return fail(ps, kpath, "SCMP_ACT_NOTIFY is not supported in policy files");
		return fail(ps, kpath, "unknown action \"%s\" (expected %s)",
			    name, ACTION_LIST);
	}
	out->kind = desc->kind;
	out->data = desc->default_data;

	if (!json_object_object_get_ex(obj, errno_key, &eo))
		return 0;
	path_key(epath, path, errno_key);
	if (!desc->takes_data)
		return fail(ps, epath, "only valid with SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO or SCMP_ACT_TRACE, not %s",
			    name);
	if (get_int(ps, epath, eo, 0, MAX_ERRNO, &data))
		return -1;
	out->data = (uint16_t)data;
	return 0;
}

static int parse_architectures(struct parser *ps, struct json_object *a)
{
	const char *path = "architectures";
	struct ujs_policy *p = ps->p;
	char epath[PATH_LEN];
	size_t n = 0, i, j;

	if (get_array(ps, path, a, "an array of strings", &n))
		return -1;
	if (n > UJS_MAX_ARCHS)
		return fail(ps, path, "too many architectures: %zu (at most %d)",
			    n, UJS_MAX_ARCHS);
	for (i = 0; i < n; i++) {
		const struct ujs_arch *arch;
		const char *name;

		path_index(epath, path, i);
		if (get_string(ps, epath, json_object_array_get_idx(a, i), &name))
			return -1;
		arch = ujs_arch_by_name(name);
		if (!arch)
			return fail(ps, epath, "unknown architecture \"%s\" (expected SCMP_ARCH_X86_64, SCMP_ARCH_X32, SCMP_ARCH_X86, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, SCMP_ARCH_MIPS or SCMP_ARCH_MIPSEL)",
				    name);
		for (j = 0; j < p->n_archs; j++)
			if (p->archs[j] == arch)
				return fail(ps, epath, "duplicate architecture \"%s\" (%s)",
					    name, arch->oci_name);
		p->archs[p->n_archs++] = arch;
	}
	return 0;
}

static int parse_flags(struct parser *ps, struct json_object *a)
{
	const char *path = "flags";
	char epath[PATH_LEN];
	size_t n = 0, i;

	if (get_array(ps, path, a, "an array of strings", &n))
		return -1;
	for (i = 0; i < n; i++) {
		const char *flag;

		path_index(epath, path, i);
		if (get_string(ps, epath, json_object_array_get_idx(a, i), &flag))
			return -1;
		if (!strcmp(flag, "SECCOMP_FILTER_FLAG_LOG"))
			ps->p->flag_log = true;
		else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
			ps->p->flag_spec_allow = true;
		else
			return fail(ps, epath, "%s flag \"%s\" (expected SECCOMP_FILTER_FLAG_LOG or SECCOMP_FILTER_FLAG_SPEC_ALLOW)",
				    strncmp(flag, "SECCOMP_FILTER_FLAG_", 20) ?
				    "unknown" : "unsupported", flag);
	}
	return 0;
}

/*
 * The architectures names are checked against: the target, plus the
 * compat ones the policy lists. A listed set must include the target.
 */
static int set_name_archs(struct parser *ps)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	struct ujs_policy *p = ps->p;
	size_t n, i, j;
	bool listed = !p->n_archs;

	for (i = 0; i < p->n_archs; i++)
		listed |= p->archs[i] == ps->target;
	if (!listed)
		return fail(ps, "architectures", "does not list %s, the architecture the policy is compiled for",
			    ps->target->oci_name);

	ps->name_archs[ps->n_name_archs++] = ps->target;
	n = ujs_arch_compat(ps->target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n; i++)
		for (j = 0; j < p->n_archs; j++)
			if (p->archs[j] == compat[i])
				ps->name_archs[ps->n_name_archs++] = compat[i];
	return 0;
}

static int parse_op(struct parser *ps, const char *path, struct json_object *o,
		    enum ujs_cmp_op *out)
{
	const char *name;
	size_t i;

	if (get_string(ps, path, o, &name))
		return -1;
	for (i = 0; i < N_OPS; i++) {
		if (!strcmp(name, op_names[i])) {
			*out = i;
			return 0;
		}
	}
	return fail(ps, path, "unknown operator \"%s\" (expected SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT or SCMP_CMP_MASKED_EQ)",
		    name);
}

/* Value of required key @key of @obj at @path, or fails. */
static int require(struct parser *ps, const char *path, struct json_object *obj,
		   const char *key, struct json_object **out)
{
	if (!json_object_object_get_ex(obj, key, out))
		return fail(ps, path, "missing \"%s\"", key);
	return 0;
}

static int parse_arg(struct parser *ps, const char *path, struct json_object *o,
		     struct ujs_arg_cmp *cmp)
{
	static const char *const keys[] = {
		"index", "value", "valueTwo", "op", NULL
	};
	struct json_object *index, *value, *value_two, *op;
	char kpath[PATH_LEN];
	int64_t i;

	if (!json_object_is_type(o, json_type_object))
		return fail(ps, path, "expected an object, found %s", type_desc(o));
	if (check_keys(ps, path, o, keys, "index, value, valueTwo, op, comment"))
		return -1;
	if (require(ps, path, o, "index", &index) ||
	    require(ps, path, o, "op", &op) ||
	    require(ps, path, o, "value", &value))
		return -1;

	path_key(kpath, path, "index");
	if (get_int(ps, kpath, index, 0, MAX_ARG_INDEX, &i))
		return -1;
	cmp->index = i;
	path_key(kpath, path, "op");
	if (parse_op(ps, kpath, op, &cmp->op))
		return -1;
	path_key(kpath, path, "value");
	if (get_u64(ps, kpath, value, &cmp->value))
		return -1;

	cmp->value_two = 0;
	if (!json_object_object_get_ex(o, "valueTwo", &value_two)) {
		if (cmp->op == UJS_CMP_MASKED_EQ)
			return fail(ps, path, "missing \"valueTwo\" (required by SCMP_CMP_MASKED_EQ)");
		return 0;
	}
	path_key(kpath, path, "valueTwo");
	if (get_u64(ps, kpath, value_two, &cmp->value_two))
		return -1;
	/* runc and docker write "valueTwo": 0 for every operator. */
	if (cmp->op != UJS_CMP_MASKED_EQ && cmp->value_two)
		return fail(ps, kpath, "only meaningful with SCMP_CMP_MASKED_EQ, not %s",
			    op_names[cmp->op]);
	return 0;
}

static int parse_args(struct parser *ps, const char *path, struct json_object *a,
		      struct ujs_arg_cmp **out, size_t *n_out)
{
	char epath[PATH_LEN];
	size_t n = 0, i;

	if (get_array(ps, path, a, "an array of objects", &n))
		return -1;
	if (!n)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return fail(ps, path, "out of memory");
	*n_out = n;
	for (i = 0; i < n; i++) {
		path_index(epath, path, i);
		if (parse_arg(ps, epath, json_object_array_get_idx(a, i), &(*out)[i]))
			return -1;
	}
	return 0;
}

/* "names": [...] or "name": "..." of one syscalls entry: the rules. */
static int add_entry_rules(struct parser *ps, const char *path,
			   struct json_object *e, struct ujs_action action,
			   const struct ujs_arg_cmp *args, size_t n_args)
{
	struct json_object *names, *name;
	bool has_names = json_object_object_get_ex(e, "names", &names);
	bool has_name = json_object_object_get_ex(e, "name", &name);
	char kpath[PATH_LEN], npath[PATH_LEN];
	size_t n = 0, i;

	if (has_names && has_name)
		return fail(ps, path, "give either \"names\" or \"name\", not both");
	if (has_name) {
		path_key(kpath, path, "name");
		return add_named_rule(ps, kpath, name, action, args, n_args);
	}
	if (!has_names)
		return fail(ps, path, "missing \"names\"");

	path_key(kpath, path, "names");
	if (get_array(ps, kpath, names, "an array of strings", &n))
		return -1;
	if (!n)
		return fail(ps, kpath, "empty array (expected at least one syscall name)");
	for (i = 0; i < n; i++) {
		path_index(npath, kpath, i);
		if (add_named_rule(ps, npath, json_object_array_get_idx(names, i),
				   action, args, n_args) < 0)
			return -1;
	}
	return 0;
}

static int parse_syscall_entry(struct parser *ps, const char *path,
			       struct json_object *e)
{
	static const char *const keys[] = {
		"names", "name", "action", "errnoRet", "args", NULL
	};
	struct ujs_arg_cmp *args = NULL;
	struct ujs_action action;
	struct json_object *a;
	char kpath[PATH_LEN];
	size_t n_args = 0;
	int ret;

	if (!json_object_is_type(e, json_type_object))
		return fail(ps, path, "expected an object, found %s", type_desc(e));
	if (check_keys(ps, path, e, keys,
		       "names, name, action, errnoRet, args, comment"))
		return -1;
	if (parse_action(ps, path, e, "action", "errnoRet", &action))
		return -1;
	path_key(kpath, path, "args");
	if (json_object_object_get_ex(e, "args", &a) &&
	    parse_args(ps, kpath, a, &args, &n_args)) {
		free(args);
		return -1;
	}
	ret = add_entry_rules(ps, path, e, action, args, n_args);
	free(args);
	return ret;
}

static int parse_syscalls(struct parser *ps, struct json_object *a)
{
	const char *path = "syscalls";
	char epath[PATH_LEN];
	size_t n = 0, i;

	if (get_array(ps, path, a, "an array of objects", &n))
		return -1;
	for (i = 0; i < n; i++) {
		path_index(epath, path, i);
		if (parse_syscall_entry(ps, epath, json_object_array_get_idx(a, i)))
			return -1;
	}
	return 0;
}

static int parse_oci(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = {
		"defaultAction", "defaultErrnoRet", "architectures", "flags",
		"syscalls", "listenerPath", "listenerMetadata", NULL
	};
	struct json_object *o;

	if (check_keys(ps, "", root, keys,
		       "defaultAction, defaultErrnoRet, architectures, flags, syscalls, comment"))
		return -1;
	if (json_object_object_get_ex(root, "listenerPath", NULL))
		return fail(ps, "listenerPath", "not supported (no seccomp notify listener in ujail)");
	if (json_object_object_get_ex(root, "listenerMetadata", NULL))
		return fail(ps, "listenerMetadata", "not supported (no seccomp notify listener in ujail)");
	if (parse_action(ps, "", root, "defaultAction", "defaultErrnoRet",
			 &ps->p->default_action))
		return -1;
	if (json_object_object_get_ex(root, "architectures", &o) &&
	    parse_architectures(ps, o))
		return -1;
	if (json_object_object_get_ex(root, "flags", &o) && parse_flags(ps, o))
		return -1;
	if (set_name_archs(ps))
		return -1;
	if (json_object_object_get_ex(root, "syscalls", &o) &&
	    parse_syscalls(ps, o))
		return -1;
	return 0;
}

/* ---- the 2015 procd format ---- */

static int parse_2015(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = { "whitelist", "policy", NULL };
	const struct ujs_action allow = { .kind = UJS_ACT_ALLOW };
	struct ujs_policy *p = ps->p;
	struct json_object *list, *policy;
	char epath[PATH_LEN];
	int64_t n_policy = 0;
	size_t n = 0, i;

	if (check_keys(ps, "", root, keys, "whitelist, policy, comment"))
		return -1;
	/* No "policy": 0, as procd read it. */
	if (json_object_object_get_ex(root, "policy", &policy) &&
	    get_int(ps, "policy", policy, 0, MAX_ERRNO, &n_policy))
		return -1;
	if (n_policy == 0) {
		p->default_action.kind = UJS_ACT_KILL_PROCESS;
	} else {
		p->default_action.kind = UJS_ACT_LOG_ERRNO;
		p->default_action.data = (uint16_t)n_policy;
	}
	if (set_name_archs(ps))
		return -1;

	json_object_object_get_ex(root, "whitelist", &list);
	if (get_array(ps, "whitelist", list, "an array of strings", &n))
		return -1;
	if (!n)
		return fail(ps, "whitelist", "empty array (expected at least one syscall name)");
	for (i = 0; i < n; i++) {
		path_index(epath, "whitelist", i);
		if (add_named_rule(ps, epath, json_object_array_get_idx(list, i),
				   allow, NULL, 0) < 0)
			return -1;
	}
	return 0;
}

/* ---- JSON text ---- */

static void line_col(const char *text, size_t offset, size_t *line, size_t *col)
{
	size_t i, start = 0;

	*line = 1;
	for (i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	}
	*col = offset - start + 1;
}

/* Errors in the JSON text: "FILE:LINE:COLUMN: message"; returns -1. */
__attribute__((format(printf, 4, 5)))
static int fail_at(struct parser *ps, const char *text, size_t offset,
		   const char *fmt, ...)
{
	size_t line, col;
	va_list ap;
	int n;

	line_col(text, offset, &line, &col);
	n = snprintf(ps->err, ps->errlen, "%s:%zu:%zu: ", ps->file, line, col);
	if (n >= 0 && (size_t)n < ps->errlen) {
		va_start(ap, fmt);
		vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Does the decimal integer @digits (@n digits, no sign) fit in 64 bits? */
static bool fits_64(const char *digits, size_t n, bool negative)
{
	const char *limit = negative ? "9223372036854775808" : "18446744073709551615";
	size_t len = strlen(limit);

	return n < len || (n == len && memcmp(digits, limit, n) <= 0);
}

/*
 * json-c silently clamps integers beyond 64 bits: find them in the text
 * (already valid JSON) so that a typo in a mask is not turned into
 * UINT64_MAX.
 */
static int check_int_ranges(struct parser *ps, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		char c = text[i];
		size_t start = i, digits;
		bool negative;

		if (c == '"' || c == '\'') {
			for (i++; i < len && text[i] != c; i++)
				if (text[i] == '\\')
					i++;
			i++;
			continue;
		}
		if (c != '-' && (c < '0' || c > '9')) {
			i++;
			continue;
		}
		negative = c == '-';
		if (negative)
			i++;
		digits = i;
		while (i < len && text[i] >= '0' && text[i] <= '9')
			i++;
		/* Fractions and exponents make a double, rejected later. */
		if (i < len && strchr(".eE", text[i]) && text[i]) {
			while (i < len && text[i] && strchr("0123456789.eE+-", text[i]))
				i++;
			continue;
		}
		if (!fits_64(text + digits, i - digits, negative))
			return fail_at(ps, text, start,
				       "integer out of range (more than 64 bits)");
	}
	return 0;
}

static bool all_space(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", s[i]) || !s[i])
			return false;
	return true;
}

/* Parses @text strictly (no comments, no trailing commas) into @root. */
static int parse_json(struct parser *ps, const char *text, size_t len,
		      struct json_object **root)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	const char *nul;
	size_t end;

	if (len > MAX_FILE_SIZE)
		return fail_file(ps->err, ps->errlen, ps->file,
				 "file too large (more than %u MiB)",
				 MAX_FILE_SIZE >> 20);
	if (all_space(text, len))
		return fail_file(ps->err, ps->errlen, ps->file,
				 "empty file (expected a JSON object)");
	nul = memchr(text, '\0', len);
	if (nul)
		return fail_at(ps, text, nul - text,
			       "JSON syntax error: NUL byte");

	tok = json_tokener_new();
	if (!tok)
		return fail_file(ps->err, ps->errlen, ps->file, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	*root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		/* A NUL ends the input: completes a final number, or fails. */
		*root = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		end = len;
	}
	json_tokener_free(tok);
	/* json-c stops after the bad byte of a UTF-8 error: point at it. */
	if (jerr == json_tokener_error_parse_utf8_string && end)
		end--;

	if (jerr != json_tokener_success)
		return fail_at(ps, text, end, "JSON syntax error: %s",
			       json_tokener_error_desc(jerr));
	if (end < len && !all_space(text + end, len - end)) {
		json_object_put(*root);
		*root = NULL;
		return fail_at(ps, text, end,
			       "JSON syntax error: data after the JSON value");
	}
	if (check_int_ranges(ps, text, len)) {
		json_object_put(*root);
		*root = NULL;
		return -1;
	}
	return 0;
}

static int parse_root(struct parser *ps, struct json_object *root)
{
	if (!json_object_is_type(root, json_type_object))
		return fail(ps, "", "expected a JSON object, found %s",
			    type_desc(root));
	/* "whitelist" wins: a stray "defaultAction" then is an unknown key. */
	if (json_object_object_get_ex(root, "whitelist", NULL))
		return parse_2015(ps, root);
	if (json_object_object_get_ex(root, "defaultAction", NULL))
		return parse_oci(ps, root);
	return fail(ps, "", "not a seccomp policy: expected the key \"defaultAction\" (OCI format) or \"whitelist\" (procd 2015 format)");
}

int ujs_policy_parse(const char *text, size_t len, const char *name,
		     const struct ujs_parse_opts *opts,
		     struct ujs_policy **out, char *err, size_t errlen)
{
	struct parser ps = {
		.file = name,
		.err = err,
		.errlen = errlen,
	};
	struct json_object *root = NULL;
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (opts) {
		ps.skip_unknown = opts->skip_unknown;
		ps.warn = opts->warn;
		ps.target = opts->target;
	}
	if (!ps.target)
		ps.target = ujs_arch_native();

	if (parse_json(&ps, text, len, &root))
		return -1;
	ps.p = calloc(1, sizeof(*ps.p));
	if (ps.p)
		ps.p->file = strdup(name);
	if (!ps.p || !ps.p->file) {
		ret = fail_file(err, errlen, name, "out of memory");
	} else {
		ret = parse_root(&ps, root);
	}
	json_object_put(root);
	if (ret) {
		ujs_policy_free(ps.p);
		return -1;
	}
	*out = ps.p;
	return 0;
}

/* The whole of @path, at most MAX_FILE_SIZE + 1 bytes (to see "too large"). */
static int read_file(const char *path, char **text, size_t *len,
		     char *err, size_t errlen)
{
	size_t cap = 64 << 10, used = 0;
	char *buf = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail_file(err, errlen, path, "cannot open: %s",
				 strerror(errno));
	for (;;) {
		ssize_t n;

		if (!buf || used == cap) {
			char *bigger;

			if (buf)
				cap *= 2;
			bigger = realloc(buf, cap + 1);
			if (!bigger) {
				free(buf);
				close(fd);
				return fail_file(err, errlen, path, "out of memory");
			}
			buf = bigger;
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return fail_file(err, errlen, path, "cannot read: %s",
					 strerror(e));
		}
		if (n == 0)
			break;
		used += n;
		if (used > MAX_FILE_SIZE)
			break;
	}
	close(fd);
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}

int ujs_policy_load(const char *path, const struct ujs_parse_opts *opts,
		    struct ujs_policy **out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	if (read_file(path, &text, &len, err, errlen))
		return -1;
	ret = ujs_policy_parse(text, len, path, opts, out, err, errlen);
	free(text);
	return ret;
}

void ujs_policy_free(struct ujs_policy *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_rules; i++) {
		free(p->rules[i].name);
		free(p->rules[i].args);
		free(p->rules[i].where);
	}
	free(p->rules);
	free(p->file);
	free(p);
}
