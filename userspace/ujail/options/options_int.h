/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside ujail's command line (options*.c), not for other modules: the
 * option table's types, the messages, and the setters every source of a
 * setting (short option, long option, jail file) goes through.
 *
 *   options.c         the option table, getopt, jail_opts_parse/free
 *   options_msg.c     jail_err/jail_out and the "ujail: WHERE: ..." format
 *   options_values.c  strings, numbers, -e, the command
 *   options_paths.c   -r/-w SRC[:DST]
 *   options_join.c    -j PID:NS[,NS...]
 *   options_net.c     --veth and its addresses, together
 *   options_member.c  --join NAME: what a member may not change
 *   options_config.c  --config FILE (JSON)
 *   options_usage.c   --help, --version
 */
#ifndef UJAIL_OPTIONS_INT_H
#define UJAIL_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "options/options.h"

#define PROG "ujail"
#define MAX_TIMEOUT 86400	/* a day; more is a typo, not a policy */
#define MAX_DEBUG 9
#define WHERE_MAX 512		/* "-r '...'" or "FILE: key[i].sub" */

enum opt_kind {
	OPT_STRING,	/* a char * member, validated by ->check */
	OPT_LIMIT,	/* the same, parsed; a jail file may give a number too */
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
/* The same, and on success the value parsed into @out (a typed member). */
typedef const char *(*string_parse)(const char *value, void *out);

struct opt_spec {
	char letter;		/* procd's short option, or 0 */
	const char *name;	/* long option, or NULL */
	const char *json_key;	/* key in a jail file, or NULL */
	bool has_arg;
	enum opt_kind kind;
	size_t member;		/* offsetof() the OPT_STRING/OPT_FLAG member */
	string_check check;	/* or: */
	string_parse parse;	/* into the member at offsetof() ->parsed */
	size_t parsed;
	const char *refusal;	/* OPT_REFUSED: what it is, that it is missing */
};

/* ---- messages (options_msg.c) ---- */

FILE *opt_out_stream(void);
/* "ujail: WHERE: message" on jail_err; returns -1 for the caller. */
__attribute__((format(printf, 2, 3)))
int opt_fail(const char *where, const char *fmt, ...);
int opt_oom(void);
/* A message location ("FILE: ro[2].src") in @buf (WHERE_MAX), cut short. */
__attribute__((format(printf, 2, 3)))
void opt_where(char *buf, const char *fmt, ...);

/* ---- the table (options.c) ---- */

const struct opt_spec *opt_spec_by_key(const char *key);
char **opt_string_member(struct jail_opts *o, const struct opt_spec *s);
bool *opt_flag_member(struct jail_opts *o, const struct opt_spec *s);

/* ---- values (options_values.c) ---- */

/* Decimal digits only (no sign, no blanks), at most @max. */
bool opt_parse_number(const char *s, size_t len, unsigned long max, unsigned long *out);
int opt_set_string(struct jail_opts *o, const struct opt_spec *s, const char *value,
		   const char *where);
int opt_set_timeout(struct jail_opts *o, const char *value, const char *where);
int opt_set_debug(struct jail_opts *o, const char *value, const char *where);
int opt_keep_env(struct jail_opts *o, const char *name, const char *where);
/* Replaces the command with copies of @args[0..@n). */
int opt_set_command(struct jail_opts *o, const char *const *args, int n, const char *where);
void opt_free_command(struct jail_opts *o);

/* ---- -r / -w (options_paths.c) ---- */

/* @path normalized into *@out; @role ("source", "destination") or NULL. */
int opt_check_path(const char *path, const char *role, const char *where, char **out);
/* Adds @src at @dst (both owned from here on); the same entry twice is one. */
int opt_stage(struct jail_opts *o, char *src, char *dst, bool writable, const char *where);
int opt_stage_arg(struct jail_opts *o, const char *arg, bool writable, const char *where);

/* ---- -j (options_join.c) ---- */

int opt_join_ns(const struct jail_opts *o, unsigned int *flags, const char *ns,
		const char *where);
int opt_add_join(struct jail_opts *o, pid_t pid, unsigned int flags);
int opt_join_arg(struct jail_opts *o, const char *arg, const char *where);
/* A namespace cannot be both joined and new. */
int opt_check_joins(const struct jail_opts *o);

/* ---- --veth (options_net.c) ---- */

/* The --veth options fit together; --veth turns -N on. */
int opt_check_net(struct jail_opts *o);

/* ---- --join (options_member.c) ---- */

/* A member of a running jail takes its namespaces, root and cgroup as
 * they are: the options that would make them are refused with --join. */
int opt_check_member(const struct jail_opts *o);

/* ---- the jail file (options_config.c) ---- */

int opt_load_config(struct jail_opts *o, const char *file);

/* ---- --help, --version (options_usage.c): print, return 1 ---- */

int opt_help(void);
int opt_version(void);

#endif
