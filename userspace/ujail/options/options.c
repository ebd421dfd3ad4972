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

#include "options/options_int.h"

#define DEFAULT_TIMEOUT 5	/* procd's default term_timeout too */

#define LONG_BASE 256	/* getopt_long returns LONG_BASE + row for --NAME */

/* ---- the command line ------------------------------------------------- */

/* The row of what getopt_long returned (a letter or LONG_BASE + row). */
static const struct opt_spec *spec_of(int ret)
{
	if (ret >= LONG_BASE && ret < LONG_BASE + (int)opt_n_specs)
		return &opt_specs[ret - LONG_BASE];
	for (size_t i = 0; i < opt_n_specs; i++)
		if (opt_specs[i].letter && opt_specs[i].letter == ret)
			return &opt_specs[i];
	return NULL;
}

struct cli {
	int argc;
	char **argv;
	char shorts[2 + 2 * OPT_MAX_SPECS + 1];
	struct option longs[OPT_MAX_SPECS + 1];
};

/* getopt_long's tables from opt_specs[]; "+" stops at COMMAND, ":" reports a
 * missing argument apart from an unknown option. */
static void cli_init(struct cli *c, int argc, char **argv)
{
	char *s = c->shorts;
	size_t n = 0;

	c->argc = argc;
	c->argv = argv;
	*s++ = '+';
	*s++ = ':';
	for (size_t i = 0; i < opt_n_specs; i++) {
		const struct opt_spec *sp = &opt_specs[i];

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

/*
 * $UJAIL_FS where neither --fs nor the jail file's "fs" is given (procd
 * cannot pass --fs). A bad value is kept, not refused here: the jail's
 * set-up refuses it (exit 1, root/fs_backend.c); --join never reads it.
 */
static int fs_from_env(struct jail_opts *o)
{
	const char *env = getenv("UJAIL_FS");

	if (o->fs || !env)
		return 0;
	o->fs_env = strdup(env);
	if (!o->fs_env)
		return opt_oom();
	if (jail_fs_kind_parse(env, &o->fs_kind))
		o->fs_kind = JAIL_FS_BAD_ENV;
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
	if (second_pass(&c, o) || opt_check_net(o) || opt_check_member(o) || fs_from_env(o))
		return -1;
	if (o->trace_backend && !o->trace)
		return opt_fail(NULL, "--trace-backend needs --trace FILE");
	return opt_check_joins(o);
}

void jail_opts_free(struct jail_opts *o)
{
	for (size_t i = 0; i < opt_n_specs; i++)
		if (opt_specs[i].kind == OPT_STRING || opt_specs[i].kind == OPT_LIMIT)
			free(*opt_string_member(o, &opt_specs[i]));
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
	free(o->fs_env);
	memset(o, 0, sizeof(*o));
}
