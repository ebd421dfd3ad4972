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
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "options/cgroup_value.h"
#include "options/idmap.h"
#include "options/net_addr.h"
#include "options/options_int.h"
#include "root/fs_backend.h"
#include "utrace/backend.h"

#define DEFAULT_TIMEOUT 5	/* procd's default term_timeout too */
#define MAX_HOSTNAME 64		/* HOST_NAME_MAX */

/* ---- the option table ---------------------------------------------- */

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
	if (!strcmp(value, ".") || !strcmp(value, ".."))
		return "must not be . or ..";
	if (has_control_char(value))
		return "must not contain control characters";
	return NULL;
}

/* fs_backend.c knows the backends; the table only checks the word. */
static const char *check_fs(const char *value)
{
	return jail_fs_known(value) ? NULL : "must be jailfs, bind or auto";
}

/* utrace's backend.c knows the backends; the table only checks the word. */
static const char *check_trace_backend(const char *value)
{
	enum utrace_backend b;
	char err[128];

	return utrace_backend_parse(value, &b, err, sizeof(err)) ?
		"must be auto, ebpf or ptrace" : NULL;
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

/* The typed members' parsers: the value once, into struct jail_opts. */
static const char *parse_veth(const char *value, void *out)
{
	return jail_veth_split(value, out);
}

static const char *parse_prefix_addr(const char *value, void *out)
{
	return jail_ipaddr_parse(value, true, out);
}

static const char *parse_addr(const char *value, void *out)
{
	return jail_ipaddr_parse(value, false, out);
}

static const char *parse_idmap(const char *value, void *out)
{
	return jail_idmap_parse(value, out);
}

static const char *parse_memory(const char *value, void *out)
{
	return cgroup_value_memory(value, out);
}

static const char *parse_cpu(const char *value, void *out)
{
	return cgroup_value_cpu(value, out);
}

static const char *parse_pids(const char *value, void *out)
{
	return cgroup_value_pids(value, out);
}

static const char *parse_io_weight(const char *value, void *out)
{
	return cgroup_value_io_weight(value, out);
}

#define ROW(l, n, key, arg, k) .letter = l, .name = n, .json_key = key, .has_arg = arg, .kind = k
#define STRING(l, n, key, m, chk) \
	{ ROW(l, n, key, true, OPT_STRING), .member = offsetof(struct jail_opts, m), .check = chk }
/* A string kept for messages, parsed by @fn into the member @typed. */
#define PARSED(l, n, key, m, typed, fn) \
	{ ROW(l, n, key, true, OPT_STRING), .member = offsetof(struct jail_opts, m), \
	  .parse = fn, .parsed = offsetof(struct jail_opts, typed) }
#define LIMIT(n, key, m, fn) \
	{ ROW(0, n, key, true, OPT_LIMIT), .member = offsetof(struct jail_opts, m), \
	  .parse = fn, .parsed = offsetof(struct jail_opts, m##_value) }
#define FLAG(l, n, key, m) \
	{ ROW(l, n, key, false, OPT_FLAG), .member = offsetof(struct jail_opts, m) }
#define OTHER(l, n, key, arg, kind) \
	{ ROW(l, n, key, arg, kind) }
#define REFUSED(l, arg, why) \
	{ ROW(l, NULL, NULL, arg, OPT_REFUSED), .refusal = why }

static const struct opt_spec specs[] = {
	STRING('n', "name", "name", name, check_name),
	STRING('h', "hostname", "hostname", hostname, check_hostname),
	OTHER('t', "timeout", "timeout", true, OPT_TIMEOUT),
	STRING('S', "seccomp", "seccomp", seccomp, check_not_empty),
	STRING(0, "trace", NULL, trace, check_not_empty),
	STRING(0, "trace-backend", NULL, trace_backend, check_trace_backend),
	STRING(0, "fs", "fs", fs, check_fs),
	STRING('C', "capabilities", "capabilities", capabilities, check_not_empty),
	FLAG(0, "keep-caps", "keep_caps", keep_caps),
	STRING('U', "user", "user", user, check_not_empty),
	STRING('G', "group", "group", group, check_not_empty),
	FLAG('c', "no-new-privs", "no_new_privs", no_new_privs),
	FLAG(0, "no-baseline", "no_baseline", no_baseline),
	FLAG('p', "proc", "proc", proc),
	FLAG('s', "sys", "sys", sys),
	FLAG('u', "ubus", "ubus", ubus),
	FLAG('D', "udebug", "udebug", udebug),
	FLAG('l', "log", "log", dev_log),
	FLAG('o', "read-only-root", "read_only_root", ro_root),
	FLAG('N', "net", "net", netns),
	PARSED(0, "veth", "veth", veth, veth_names, parse_veth),
	PARSED(0, "host-addr", "host_addr", host_addr, host_ip, parse_prefix_addr),
	PARSED(0, "jail-addr", "jail_addr", jail_addr, jail_ip, parse_prefix_addr),
	PARSED(0, "gateway", "gateway", gateway, gateway_ip, parse_addr),
	FLAG('f', "userns", "userns", userns),
	PARSED(0, "uid-map", "uid_map", uid_map, uid_ids, parse_idmap),
	PARSED(0, "gid-map", "gid_map", gid_map, gid_ids, parse_idmap),
	FLAG('F', "cgroupns", "cgroupns", cgroupns),
	STRING(0, "cgroup-parent", "cgroup_parent", cgroup_parent, cgroup_check_parent),
	LIMIT("memory-max", "memory_max", memory_max, parse_memory),
	LIMIT("memory-high", "memory_high", memory_high, parse_memory),
	LIMIT("cpu-max", "cpu_max", cpu_max, parse_cpu),
	LIMIT("pids-max", "pids_max", pids_max, parse_pids),
	LIMIT("io-weight", "io_weight", io_weight, parse_io_weight),
	STRING('P', "pidfile", "pidfile", pidfile, check_not_empty),
	FLAG('E', "require-jail", NULL, fail_hard),
	OTHER('e', "keep-env", "keep_env", true, OPT_KEEP_ENV),
	OTHER('r', "ro", "ro", true, OPT_PATH_RO),
	OTHER('w', "rw", "rw", true, OPT_PATH_RW),
	OTHER('j', "join-ns", "join_ns", true, OPT_JOIN),
	STRING(0, "join", "join", join, check_name),
	OTHER('d', "debug", NULL, true, OPT_DEBUG),
	OTHER(0, "config", NULL, true, OPT_CONFIG),
	OTHER(0, "help", NULL, false, OPT_HELP),
	OTHER(0, "version", NULL, false, OPT_VERSION),
	OTHER(0, NULL, "command", false, OPT_COMMAND),
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

char **opt_string_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (char **)((char *)o + s->member);
}

bool *opt_flag_member(struct jail_opts *o, const struct opt_spec *s)
{
	return (bool *)((char *)o + s->member);
}

const struct opt_spec *opt_spec_by_key(const char *key)
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

/* ---- the command line ------------------------------------------------- */

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
		return opt_fail(NULL, "--%s needs an argument", s->name);
	if (ret == ':')
		return opt_fail(NULL, "-%c needs an argument", optopt);
	if (s && as_long)
		return opt_fail(NULL, "--%s takes no argument", s->name);
	if (optopt)
		return opt_fail(NULL, "unknown option -%c (see ujail --help)", optopt);
	return opt_fail(NULL, "unknown option %s (see ujail --help)",
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
	case OPT_LIMIT:
		return opt_set_string(o, s, arg, where);
	case OPT_FLAG:
		*opt_flag_member(o, s) = true;
		return 0;
	case OPT_TIMEOUT:
		return opt_set_timeout(o, arg, where);
	case OPT_DEBUG:
		return opt_set_debug(o, arg, where);
	case OPT_KEEP_ENV:
		return opt_keep_env(o, arg, where);
	case OPT_PATH_RO:
	case OPT_PATH_RW:
		return opt_stage_arg(o, arg, s->kind == OPT_PATH_RW, where);
	case OPT_JOIN:
		return opt_join_arg(o, arg, where);
	case OPT_REFUSED:
		return opt_fail(where, "%s", s->refusal);
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
		if (s->kind == OPT_HELP)
			return opt_help();
		if (s->kind == OPT_VERSION)
			return opt_version();
		if (s->kind == OPT_CONFIG && config)
			return opt_fail(NULL, "--config '%s': only one jail file can be given",
					optarg);
		if (s->kind == OPT_CONFIG)
			config = optarg;
	}
	if (!config)
		return 0;
	o->config = strdup(config);
	if (!o->config)
		return opt_oom();
	return opt_load_config(o, config);
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
		return opt_set_command(o, (const char *const *)c->argv + optind,
				       c->argc - optind, NULL);
	if (!o->argv)
		return opt_fail(NULL, "no command to run; give it after -- (see ujail --help)");
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
	if (second_pass(&c, o) || opt_check_net(o) || opt_check_member(o))
		return -1;
	if (o->trace_backend && !o->trace)
		return opt_fail(NULL, "--trace-backend needs --trace FILE");
	return opt_check_joins(o);
}

void jail_opts_free(struct jail_opts *o)
{
	for (size_t i = 0; i < N_SPECS; i++)
		if (specs[i].kind == OPT_STRING || specs[i].kind == OPT_LIMIT)
			free(*opt_string_member(o, &specs[i]));
	for (size_t i = 0; i < o->n_keep_env; i++)
		free(o->keep_env[i]);
	free(o->keep_env);
	for (size_t i = 0; i < o->n_paths; i++) {
		free(o->paths[i].src);
		free(o->paths[i].dst);
	}
	free(o->paths);
	free(o->joins);
	opt_free_command(o);
	free(o->config);
	memset(o, 0, sizeof(*o));
}
