/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside ujail's command line (options*.c), not for other modules: the
 * option table's types, the messages, and the setters every source of a
 * setting (short option, long option, jail file) goes through.
 *
 *   option_table.c    the option table (option_table.h)
 *   options.c         getopt, jail_opts_parse/free
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

#include "options/option_table.h"
#include "options/options.h"

#define PROG "ujail"
#define MAX_TIMEOUT 86400	/* a day; more is a typo, not a policy */
#define MAX_DEBUG 9
#define WHERE_MAX 512		/* "-r '...'" or "FILE: key[i].sub" */

/* ---- messages (options_msg.c) ---- */

FILE *opt_out_stream(void);
/* "ujail: WHERE: message" on jail_err; returns -1 for the caller. */
__attribute__((format(printf, 2, 3)))
int opt_fail(const char *where, const char *fmt, ...);
int opt_oom(void);
/* A message location ("FILE: ro[2].src") in @buf (WHERE_MAX), cut short. */
__attribute__((format(printf, 2, 3)))
void opt_where(char *buf, const char *fmt, ...);

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
