/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp policy files -> struct ujs_policy.
 *
 * Two formats: the OCI seccomp JSON ({"defaultAction": ...}) and procd's
 * 2015 one ({"whitelist": [...], "policy": N}). The parser is strict: a
 * policy is a security boundary, so an unknown key or a value of the wrong
 * type is an error that names the file and the JSON path, never something
 * silently ignored. Syscall names are the exception real policies need:
 * one file serves every architecture (OpenWrt's list fcntl64 and friends),
 * so a name that only other architectures have is skipped quietly, and a
 * name that no table has is skipped with a warning, or is an error when
 * the caller asks for strict parsing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/seccomp.h>

#include "errmsg.h"
#include "json_input.h"
#include "policy.h"
#include "policy_cond.h"
#include "program.h"

#define MAX_ERRNO	4095	/* errno values the kernel returns as -errno */
#define MAX_ARG_INDEX	5

struct parser {
	struct ujs_json_err je;	/* the file, and where its messages go */
	bool strict;
	FILE *warn;
	const struct ujs_arch *target;
	struct ujs_cond_env env;	/* for "includes" and "excludes" */
	/* A syscall name must exist on at least one of these. */
	const struct ujs_arch *name_archs[UJS_MAX_ARCHS];
	size_t n_name_archs;
	struct ujs_policy *p;
	size_t rules_cap;
};

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
	{ "SCMP_ACT_ERROR", UJS_ACT_ERRNO, true, EPERM },	/* procd's */
	{ "SCMP_ACT_LOG_ERRNO", UJS_ACT_LOG_ERRNO, true, EPERM },
	{ "SCMP_ACT_TRACE", UJS_ACT_TRACE, true, 0 },
	{ "SCMP_ACT_LOG", UJS_ACT_LOG, false, 0 },
	{ "SCMP_ACT_ALLOW", UJS_ACT_ALLOW, false, 0 },
};

#define ACTION_LIST "SCMP_ACT_ALLOW, SCMP_ACT_ERRNO (SCMP_ACT_ERROR), SCMP_ACT_LOG_ERRNO, " \
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

/* ---- syscall names and rules ---- */

static bool name_known(const struct parser *ps, const char *name)
{
	size_t i;

	for (i = 0; i < ps->n_name_archs; i++)
		if (ujs_syscall_nr(ps->name_archs[i], name) >= 0)
			return true;
	return false;
}

/*
 * Whether any architecture's table has @name: the targets' or another
 * Linux architecture's (Docker's profile names s390_pci_mmio_read).
 */
static bool name_known_anywhere(const char *name)
{
	size_t n, i;
	const struct ujs_arch *const *all = ujs_arch_all(&n);

	for (i = 0; i < n; i++)
		if (ujs_syscall_nr(all[i], name) >= 0)
			return true;
	return ujs_syscall_name_linux(name);
}

/*
 * Checks @name; 1 = keep, 0 = skipped (another architecture's, or
 * unknown and warned about), -1 = error.
 */
static int check_name(struct parser *ps, const char *path, const char *name)
{
	if (!*name)
		return ujs_json_fail(&ps->je, path, "empty syscall name");
	if (name_known(ps, name))
		return 1;
	if (name_known_anywhere(name))
		return 0;
	if (ps->strict)
		return ujs_json_fail(&ps->je, path, "unknown syscall \"%s\" (no architecture has "
				     "it)", name);
	ujs_json_warn(&ps->je, ps->warn, path, "unknown syscall \"%s\" (no architecture has it): "
		      "skipped", name);
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
			return ujs_json_fail(&ps->je, path, "out of memory");
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
		return ujs_json_fail(&ps->je, path, "out of memory");
	return 0;
}

/* A name at @path: checked, then one rule. */
static int add_named_rule(struct parser *ps, const char *path,
			  struct json_object *o, struct ujs_action action,
			  const struct ujs_arg_cmp *args, size_t n_args)
{
	const char *name;
	int known;

	if (ujs_json_get_string(&ps->je, path, o, &name))
		return -1;
	known = check_name(ps, path, name);
	if (known <= 0)
		return known;
	return add_rule(ps, path, name, action, args, n_args);
}

/* A non-empty array of names (OCI "names", 2015 "whitelist"): their rules. */
static int add_name_list(struct parser *ps, const char *path,
			 struct json_object *list, struct ujs_action action,
			 const struct ujs_arg_cmp *args, size_t n_args)
{
	struct ujs_json_array arr;
	struct json_object *o;

	if (ujs_json_array(&ps->je, path, list, "an array of strings", &arr))
		return -1;
	if (!arr.n)
		return ujs_json_fail(&ps->je, path, "empty array (expected at least one syscall name)");
	while (ujs_json_next(&arr, &o))
		if (add_named_rule(ps, arr.elem_path, o, action, args, n_args) < 0)
			return -1;
	return 0;
}

/* ---- the OCI format ---- */

/* The action named by the string @o at @path. */
static int parse_action_name(struct parser *ps, const char *path,
			     struct json_object *o,
			     const struct action_desc **desc)
{
	const char *name;

	if (ujs_json_get_string(&ps->je, path, o, &name))
		return -1;
	*desc = action_by_name(name);
	if (*desc)
		return 0;
	if (!strcmp(name, "SCMP_ACT_NOTIFY"))
		return ujs_json_fail(&ps->je, path, "SCMP_ACT_NOTIFY is not supported: ujail hands the "
				     "notification fd to no agent (\"listenerPath\"), so the call "
				     "would hang; use SCMP_ACT_ERRNO or SCMP_ACT_LOG_ERRNO");
	return ujs_json_fail(&ps->je, path, "unknown action \"%s\" (expected %s)",
			     name, ACTION_LIST);
}

static int data_not_taken(struct parser *ps, const char *path,
			  const struct action_desc *desc)
{
	return ujs_json_fail(&ps->je, path, "only valid with SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO or SCMP_ACT_TRACE, not %s",
			     desc->name);
}

/* The errnoRet (or defaultErrnoRet) @o at @path of the action @desc. */
static int parse_action_data(struct parser *ps, const char *path,
			     struct json_object *o,
			     const struct action_desc *desc, uint16_t *out)
{
	int64_t data;

	if (!desc->takes_data)
		return data_not_taken(ps, path, desc);
	if (ujs_json_get_int(&ps->je, path, o, 0, MAX_ERRNO, &data))
		return -1;
	*out = (uint16_t)data;
	return 0;
}

/*
 * podman's "errno" (or "defaultErrno") @o at @path: "EPERM" or "1". The
 * name is the target's number (MIPS has its own), and wins over errnoRet,
 * as in podman.
 */
static int parse_errno_name(struct parser *ps, const char *path,
			    struct json_object *o,
			    const struct action_desc *desc, uint16_t *out)
{
	const char *name;
	char *end;
	long n;

	if (!desc->takes_data)
		return data_not_taken(ps, path, desc);
	if (ujs_json_get_string(&ps->je, path, o, &name))
		return -1;
	n = strtol(name, &end, 10);
	if (name[0] < '0' || name[0] > '9' || *end)
		n = ujs_errno_by_name(ps->target, name);
	if (n < 0 || n > MAX_ERRNO)
		return ujs_json_fail(&ps->je, path, "\"%s\" is neither an errno name (EPERM, ...) nor a number 0..%d",
				     name, MAX_ERRNO);
	*out = (uint16_t)n;
	return 0;
}

/*
 * @obj's action under @key, with its data under @errno_key, or as an errno
 * name under @name_key (path of @obj: @path).
 */
static int parse_action(struct parser *ps, const char *path,
			struct json_object *obj, const char *key,
			const char *errno_key, const char *name_key,
			struct ujs_action *out)
{
	char kpath[UJS_JSON_PATH_LEN];
	const struct action_desc *desc;
	struct json_object *o;

	if (ujs_json_require(&ps->je, path, obj, key, &o))
		return -1;
	ujs_json_path_key(kpath, path, key);
	if (parse_action_name(ps, kpath, o, &desc))
		return -1;
	out->kind = desc->kind;
	out->data = desc->default_data;
	if (json_object_object_get_ex(obj, errno_key, &o)) {
		ujs_json_path_key(kpath, path, errno_key);
		if (parse_action_data(ps, kpath, o, desc, &out->data))
			return -1;
	}
	if (!json_object_object_get_ex(obj, name_key, &o))
		return 0;
	ujs_json_path_key(kpath, path, name_key);
	return parse_errno_name(ps, kpath, o, desc, &out->data);
}

/* One entry of "architectures" at @path. */
static int add_architecture(struct parser *ps, const char *path,
			    struct json_object *o)
{
	struct ujs_policy *p = ps->p;
	const struct ujs_arch *arch;
	const char *name;
	size_t i;

	if (ujs_json_get_string(&ps->je, path, o, &name))
		return -1;
	arch = ujs_arch_by_name(name);
	if (!arch)
		return ujs_json_fail(&ps->je, path, "unknown architecture \"%s\" (expected SCMP_ARCH_X86_64, SCMP_ARCH_X32, SCMP_ARCH_X86, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, SCMP_ARCH_MIPS or SCMP_ARCH_MIPSEL)",
				     name);
	for (i = 0; i < p->n_archs; i++)
		if (p->archs[i] == arch)
			return ujs_json_fail(&ps->je, path, "duplicate architecture \"%s\" (%s)",
					     name, arch->oci_name);
	p->archs[p->n_archs++] = arch;
	return 0;
}

static int parse_architectures(struct parser *ps, struct json_object *a)
{
	struct ujs_json_array arr;
	struct json_object *o;

	if (ujs_json_array(&ps->je, "architectures", a, "an array of strings", &arr))
		return -1;
	if (arr.n > UJS_MAX_ARCHS)
		return ujs_json_fail(&ps->je, "architectures", "too many architectures: %zu (at most %d)",
				     arr.n, UJS_MAX_ARCHS);
	while (ujs_json_next(&arr, &o))
		if (add_architecture(ps, arr.elem_path, o))
			return -1;
	return 0;
}

/*
 * The flags of seccomp(SECCOMP_SET_MODE_FILTER) a policy may name. LOG and
 * SPEC_ALLOW are the policy's to choose. The loader always sets TSYNC (and
 * TSYNC_ESRCH with NEW_LISTENER, in notify mode); NEW_LISTENER and
 * WAIT_KILLABLE_RECV concern the listener of the notify mode, which
 * ujail-seccomp's own supervisor owns: so these four are accepted and
 * change nothing.
 */
static const char *const flag_names[] = {
	"SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_TSYNC_ESRCH",
	"SECCOMP_FILTER_FLAG_NEW_LISTENER", "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
};

/* One entry of "flags" at @path. */
static int add_flag(struct parser *ps, const char *path, struct json_object *o)
{
	const char *flag;
	size_t i;

	if (ujs_json_get_string(&ps->je, path, o, &flag))
		return -1;
	for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (!strcmp(flag, flag_names[i]))
			break;
	if (i == sizeof(flag_names) / sizeof(flag_names[0]))
		return ujs_json_fail(&ps->je, path, "unknown flag \"%s\" (expected SECCOMP_FILTER_FLAG_ and one of LOG, SPEC_ALLOW, TSYNC, TSYNC_ESRCH, NEW_LISTENER, WAIT_KILLABLE_RECV)",
				     flag);
	if (i == 0)
		ps->p->flag_log = true;
	else if (i == 1)
		ps->p->flag_spec_allow = true;
	return 0;
}

/*
 * One "archMap" entry at @path. Docker's reading: the first entry whose
 * "architecture" is the target gives the architectures, it and its
 * "subArchitectures"; the entries of other architectures are ignored.
 */
static int parse_arch_map_entry(struct parser *ps, const char *path,
				struct json_object *e, bool *matched)
{
	static const char *const keys[] = { "architecture", "subArchitectures", NULL };
	char kpath[UJS_JSON_PATH_LEN];
	struct json_object *arch, *subs = NULL;
	struct ujs_json_array arr;
	const char *name;

	if (ujs_json_get_object(&ps->je, path, e, "an object") ||
	    ujs_json_check_keys(&ps->je, path, e, keys, "architecture, subArchitectures, comment") ||
	    ujs_json_require(&ps->je, path, e, "architecture", &arch))
		return -1;
	ujs_json_path_key(kpath, path, "architecture");
	if (ujs_json_get_string(&ps->je, kpath, arch, &name))
		return -1;
	json_object_object_get_ex(e, "subArchitectures", &subs);
	ujs_json_path_key(kpath, path, "subArchitectures");
	if (subs && ujs_json_array(&ps->je, kpath, subs, "an array of strings", &arr))
		return -1;
	if (*matched || strcmp(name, ps->target->oci_name))
		return 0;
	*matched = true;
	ps->p->archs[ps->p->n_archs++] = ps->target;
	/* Unknown and duplicate names fail: at most every table, no overflow. */
	while (subs && ujs_json_next(&arr, &e))
		if (add_architecture(ps, arr.elem_path, e))
			return -1;
	return 0;
}

static int parse_arch_map(struct parser *ps, struct json_object *a)
{
	struct ujs_json_array arr;
	struct json_object *o;
	bool matched = false;

	if (ujs_json_array(&ps->je, "archMap", a, "an array of objects", &arr))
		return -1;
	if (arr.n && ps->p->n_archs)
		return ujs_json_fail(&ps->je, "archMap", "give either \"architectures\" or \"archMap\", not both");
	while (ujs_json_next(&arr, &o))
		if (parse_arch_map_entry(ps, arr.elem_path, o, &matched))
			return -1;
	return 0;
}

static int parse_flags(struct parser *ps, struct json_object *a)
{
	struct ujs_json_array arr;
	struct json_object *o;

	if (ujs_json_array(&ps->je, "flags", a, "an array of strings", &arr))
		return -1;
	while (ujs_json_next(&arr, &o))
		if (add_flag(ps, arr.elem_path, o))
			return -1;
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
		return ujs_json_fail(&ps->je, "architectures", "does not list %s, the architecture the policy is compiled for",
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

	if (ujs_json_get_string(&ps->je, path, o, &name))
		return -1;
	for (i = 0; i < N_OPS; i++) {
		if (!strcmp(name, op_names[i])) {
			*out = i;
			return 0;
		}
	}
	return ujs_json_fail(&ps->je, path, "unknown operator \"%s\" (expected SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_EQ, SCMP_CMP_GE, SCMP_CMP_GT or SCMP_CMP_MASKED_EQ)",
			     name);
}

/* "valueTwo" of the comparison @cmp at @path: only MASKED_EQ uses it. */
static int parse_value_two(struct parser *ps, const char *path,
			   struct json_object *o, struct ujs_arg_cmp *cmp)
{
	struct json_object *value_two;
	char kpath[UJS_JSON_PATH_LEN];

	/* Absent: 0, as in the OCI spec's Go types (and runc, Docker, podman). */
	cmp->value_two = 0;
	if (!json_object_object_get_ex(o, "valueTwo", &value_two))
		return 0;
	ujs_json_path_key(kpath, path, "valueTwo");
	if (ujs_json_get_u64(&ps->je, kpath, value_two, &cmp->value_two))
		return -1;
	/* runc and docker write "valueTwo": 0 for every operator. */
	if (cmp->op != UJS_CMP_MASKED_EQ && cmp->value_two)
		return ujs_json_fail(&ps->je, kpath, "only meaningful with SCMP_CMP_MASKED_EQ, not %s",
				     op_names[cmp->op]);
	return 0;
}

static int parse_arg(struct parser *ps, const char *path, struct json_object *o,
		     struct ujs_arg_cmp *cmp)
{
	static const char *const keys[] = {
		"index", "value", "valueTwo", "op", NULL
	};
	struct json_object *index, *value, *op;
	char kpath[UJS_JSON_PATH_LEN];
	int64_t i;

	if (ujs_json_get_object(&ps->je, path, o, "an object") ||
	    ujs_json_check_keys(&ps->je, path, o, keys, "index, value, valueTwo, op, comment"))
		return -1;
	if (ujs_json_require(&ps->je, path, o, "index", &index) ||
	    ujs_json_require(&ps->je, path, o, "op", &op) ||
	    ujs_json_require(&ps->je, path, o, "value", &value))
		return -1;

	ujs_json_path_key(kpath, path, "index");
	if (ujs_json_get_int(&ps->je, kpath, index, 0, MAX_ARG_INDEX, &i))
		return -1;
	cmp->index = i;
	ujs_json_path_key(kpath, path, "op");
	if (parse_op(ps, kpath, op, &cmp->op))
		return -1;
	ujs_json_path_key(kpath, path, "value");
	if (ujs_json_get_u64(&ps->je, kpath, value, &cmp->value))
		return -1;
	return parse_value_two(ps, path, o, cmp);
}

/* "args" at @path: the comparisons, malloc'ed in *@out (NULL for none). */
static int parse_args(struct parser *ps, const char *path, struct json_object *a,
		      struct ujs_arg_cmp **out, size_t *n_out)
{
	struct ujs_json_array arr;
	struct json_object *o;

	if (ujs_json_array(&ps->je, path, a, "an array of objects", &arr))
		return -1;
	if (!arr.n)
		return 0;
	*out = calloc(arr.n, sizeof(**out));
	if (!*out)
		return ujs_json_fail(&ps->je, path, "out of memory");
	*n_out = arr.n;
	while (ujs_json_next(&arr, &o))
		if (parse_arg(ps, arr.elem_path, o, &(*out)[arr.index]))
			return -1;
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
	char kpath[UJS_JSON_PATH_LEN];

	if (has_names && has_name)
		return ujs_json_fail(&ps->je, path, "give either \"names\" or \"name\", not both");
	if (has_name) {
		ujs_json_path_key(kpath, path, "name");
		return add_named_rule(ps, kpath, name, action, args, n_args);
	}
	if (!has_names)
		return ujs_json_fail(&ps->je, path, "missing \"names\"");
	ujs_json_path_key(kpath, path, "names");
	return add_name_list(ps, kpath, names, action, args, n_args);
}

/*
 * Docker's and podman's conditions of the entry @e at @path: *@keep is
 * false when "includes" or "excludes" rules it out for this jail. Both are
 * checked whole, whatever the other says.
 */
static int entry_conditions(struct parser *ps, const char *path,
			    struct json_object *e, bool *keep)
{
	char kpath[UJS_JSON_PATH_LEN];
	struct json_object *o;
	bool inc = true, exc = true;

	if (json_object_object_get_ex(e, "includes", &o)) {
		ujs_json_path_key(kpath, path, "includes");
		if (ujs_cond_eval(&ps->je, kpath, o, true, &ps->env, &inc))
			return -1;
	}
	if (json_object_object_get_ex(e, "excludes", &o)) {
		ujs_json_path_key(kpath, path, "excludes");
		if (ujs_cond_eval(&ps->je, kpath, o, false, &ps->env, &exc))
			return -1;
	}
	*keep = inc && exc;
	return 0;
}

static int parse_syscall_entry(struct parser *ps, const char *path,
			       struct json_object *e)
{
	static const char *const keys[] = {
		"names", "name", "action", "errnoRet", "errno", "args",
		"includes", "excludes", NULL
	};
	struct ujs_arg_cmp *args = NULL;
	struct ujs_action action;
	struct json_object *a;
	char kpath[UJS_JSON_PATH_LEN];
	size_t n_args = 0;
	bool keep;
	int ret;

	if (ujs_json_get_object(&ps->je, path, e, "an object") ||
	    ujs_json_check_keys(&ps->je, path, e, keys,
				"names, name, action, errnoRet, errno, args, includes, excludes, comment") ||
	    entry_conditions(ps, path, e, &keep))
		return -1;
	if (parse_action(ps, path, e, "action", "errnoRet", "errno", &action))
		return -1;
	ujs_json_path_key(kpath, path, "args");
	/* Docker's profile writes "args": null for none. */
	if (json_object_object_get_ex(e, "args", &a) && a &&
	    parse_args(ps, kpath, a, &args, &n_args)) {
		free(args);
		return -1;
	}
	/* Ruled out: not compiled, its names not looked up (as in Docker). */
	ret = keep ? add_entry_rules(ps, path, e, action, args, n_args) : 0;
	free(args);
	return ret;
}

static int parse_syscalls(struct parser *ps, struct json_object *a)
{
	struct ujs_json_array arr;
	struct json_object *o;

	if (ujs_json_array(&ps->je, "syscalls", a, "an array of objects", &arr))
		return -1;
	while (ujs_json_next(&arr, &o))
		if (parse_syscall_entry(ps, arr.elem_path, o))
			return -1;
	return 0;
}

static int parse_oci(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = {
		"defaultAction", "defaultErrnoRet", "defaultErrno", "architectures",
		"archMap", "flags", "syscalls", "listenerPath", "listenerMetadata",
		NULL
	};
	struct json_object *o;

	if (ujs_json_check_keys(&ps->je, "", root, keys,
				"defaultAction, defaultErrnoRet, defaultErrno, architectures, archMap, flags, syscalls, comment"))
		return -1;
	if (json_object_object_get_ex(root, "listenerPath", NULL))
		return ujs_json_fail(&ps->je, "listenerPath", "not supported: ujail has no seccomp notify agent to send the listener to (SCMP_ACT_NOTIFY is refused too)");
	if (json_object_object_get_ex(root, "listenerMetadata", NULL))
		return ujs_json_fail(&ps->je, "listenerMetadata", "not supported: ujail has no seccomp notify agent to send the listener to (SCMP_ACT_NOTIFY is refused too)");
	if (parse_action(ps, "", root, "defaultAction", "defaultErrnoRet",
			 "defaultErrno", &ps->p->default_action))
		return -1;
	if (json_object_object_get_ex(root, "architectures", &o) &&
	    parse_architectures(ps, o))
		return -1;
	if (json_object_object_get_ex(root, "archMap", &o) && parse_arch_map(ps, o))
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

/* "policy": N, procd's default: kill, or log and fail with errno N. */
static int parse_2015_policy(struct parser *ps, struct json_object *root)
{
	struct ujs_action *deflt = &ps->p->default_action;
	struct json_object *policy;
	int64_t n = 0;

	/* No "policy": 0, as procd read it. */
	if (json_object_object_get_ex(root, "policy", &policy) &&
	    ujs_json_get_int(&ps->je, "policy", policy, 0, MAX_ERRNO, &n))
		return -1;
	if (n == 0) {
		deflt->kind = UJS_ACT_KILL_PROCESS;
	} else {
		deflt->kind = UJS_ACT_LOG_ERRNO;
		deflt->data = (uint16_t)n;
	}
	return 0;
}

static int parse_2015(struct parser *ps, struct json_object *root)
{
	static const char *const keys[] = { "whitelist", "policy", NULL };
	const struct ujs_action allow = { .kind = UJS_ACT_ALLOW };
	struct json_object *list;

	if (ujs_json_check_keys(&ps->je, "", root, keys, "whitelist, policy, comment") ||
	    parse_2015_policy(ps, root) || set_name_archs(ps))
		return -1;
	json_object_object_get_ex(root, "whitelist", &list);
	return add_name_list(ps, "whitelist", list, allow, NULL, 0);
}

/* ---- the file ---- */

static int parse_root(struct parser *ps, struct json_object *root)
{
	if (ujs_json_get_object(&ps->je, "", root, "a JSON object"))
		return -1;
	/* "whitelist" wins: a stray "defaultAction" then is an unknown key. */
	if (json_object_object_get_ex(root, "whitelist", NULL))
		return parse_2015(ps, root);
	if (json_object_object_get_ex(root, "defaultAction", NULL))
		return parse_oci(ps, root);
	return ujs_json_fail(&ps->je, "", "not a seccomp policy: expected the key \"defaultAction\" (OCI format) or \"whitelist\" (procd 2015 format)");
}

/* A new policy named @name, parsed from @root by @ps. */
static int parse_policy(struct parser *ps, const char *name,
			struct json_object *root)
{
	ps->p = calloc(1, sizeof(*ps->p));
	if (ps->p)
		ps->p->file = strdup(name);
	if (!ps->p || !ps->p->file)
		return ujs_json_fail_file(&ps->je, "out of memory");
	return parse_root(ps, root);
}

int ujs_policy_parse(const char *text, size_t len, const char *name,
		     const struct ujs_parse_opts *opts,
		     struct ujs_policy **out, char *err, size_t errlen)
{
	struct parser ps = { .je = { .file = name, .buf = err, .len = errlen } };
	const struct ujs_parse_opts none = { 0 };
	struct json_object *root = NULL;
	char why[256];
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!opts)
		opts = &none;
	ps.strict = opts->strict;
	ps.warn = opts->warn;
	ps.target = opts->target ? opts->target : ujs_arch_native();
	if (ujs_cond_env_init(&ps.env, ps.target, opts->caps, opts->kernel, why, sizeof(why)))
		return ujs_json_fail_file(&ps.je, "%s", why);
	if (ujs_json_parse(&ps.je, text, len, &root))
		return -1;
	ret = parse_policy(&ps, name, root);
	json_object_put(root);
	if (ret) {
		ujs_policy_free(ps.p);
		return -1;
	}
	*out = ps.p;
	return 0;
}

int ujs_policy_load(const char *path, const struct ujs_parse_opts *opts,
		    struct ujs_policy **out, char *err, size_t errlen)
{
	const struct ujs_json_err je = { .file = path, .buf = err, .len = errlen };
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	if (ujs_json_read_file(&je, &text, &len))
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
