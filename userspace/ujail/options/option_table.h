/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option table (option_table.c): one row per setting, read by the
 * command line (options.c) and the jail file (options_config.c), which
 * therefore depend on it and not on each other.
 */
#ifndef UJAIL_OPTION_TABLE_H
#define UJAIL_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "options/options.h"

#define OPT_MAX_SPECS 64	/* room for the rows (checked by option_table.c) */

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

extern const struct opt_spec opt_specs[];
extern const size_t opt_n_specs;

/* The row of jail file key @key, or NULL. */
const struct opt_spec *opt_spec_by_key(const char *key);
char **opt_string_member(struct jail_opts *o, const struct opt_spec *s);
bool *opt_flag_member(struct jail_opts *o, const struct opt_spec *s);

#endif
