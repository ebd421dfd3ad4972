/* SPDX-License-Identifier: GPL-2.0 */
/* Plain option values: strings, numbers, -e names, the command. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "options/options_int.h"

/* Decimal digits only (no sign, no blanks), at most @max. */
bool opt_parse_number(const char *s, size_t len, unsigned long max,
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

int opt_set_string(struct jail_opts *o, const struct opt_spec *s,
		   const char *value, const char *where)
{
	char **member = opt_string_member(o, s);
	const char *why = s->parse ? s->parse(value, (char *)o + s->parsed) :
			  s->check ? s->check(value) : NULL;
	char *copy;

	if (why)
		return opt_fail(where, "%s", why);
	copy = strdup(value);
	if (!copy)
		return opt_oom();
	free(*member);
	*member = copy;
	return 0;
}

int opt_set_timeout(struct jail_opts *o, const char *value, const char *where)
{
	unsigned long v;

	if (!opt_parse_number(value, strlen(value), MAX_TIMEOUT, &v))
		return opt_fail(where, "expected a number of seconds from 0 to %d",
				MAX_TIMEOUT);
	o->term_timeout = (unsigned int)v;
	o->timeout_given = true;
	return 0;
}

int opt_set_debug(struct jail_opts *o, const char *value, const char *where)
{
	unsigned long v;

	if (!opt_parse_number(value, strlen(value), MAX_DEBUG, &v))
		return opt_fail(where, "expected a level from 0 to %d", MAX_DEBUG);
	o->debug = (unsigned int)v;
	return 0;
}

/* -e NAME: procd passes names only and sets the values in ujail's env. */
int opt_keep_env(struct jail_opts *o, const char *name, const char *where)
{
	char **grown;

	if (!*name)
		return opt_fail(where, "must not be empty");
	if (strchr(name, '='))
		return opt_fail(where, "expected a variable name; its value is taken "
				"from ujail's environment");
	for (size_t i = 0; i < o->n_keep_env; i++)
		if (!strcmp(o->keep_env[i], name))
			return 0;
	grown = realloc(o->keep_env, (o->n_keep_env + 2) * sizeof(*grown));
	if (!grown)
		return opt_oom();
	o->keep_env = grown;
	grown[o->n_keep_env] = strdup(name);
	if (!grown[o->n_keep_env])
		return opt_oom();
	grown[++o->n_keep_env] = NULL;
	return 0;
}


/* ---- the command ----------------------------------------------------- */

void opt_free_command(struct jail_opts *o)
{
	for (int i = 0; i < o->argc; i++)
		free(o->argv[i]);
	free(o->argv);
	o->argv = NULL;
	o->argc = 0;
}

/* Replaces the command with copies of @args[0..@n). */
int opt_set_command(struct jail_opts *o, const char *const *args, int n,
		    const char *where)
{
	if (!*args[0])
		return opt_fail(where, "empty command name");
	opt_free_command(o);
	o->argv = calloc((size_t)n + 1, sizeof(*o->argv));
	if (!o->argv)
		return opt_oom();
	for (; o->argc < n; o->argc++) {
		o->argv[o->argc] = strdup(args[o->argc]);
		if (!o->argv[o->argc])
			return opt_oom();
	}
	return 0;
}
