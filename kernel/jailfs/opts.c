// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs mount options' text: keys, "SRC[:DST]" values and mount(2) data.
 * Kernel-independent (see opts.h): the messages are left to the caller.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "opts.h"

static const char *const jailfs_key_names[JAILFS_NR_KINDS] = {
	[JAILFS_RO] = "ro_path",
	[JAILFS_RW] = "rw_path",
	[JAILFS_DIR] = "dir",
};

const char *jailfs_key_name(enum jailfs_kind kind)
{
	return jailfs_key_names[kind];
}

int jailfs_key_kind(const char *key)
{
	int kind;

	for (kind = 0; kind < JAILFS_NR_KINDS; kind++)
		if (!strcmp(key, jailfs_key_names[kind]))
			return kind;
	return -1;
}

static int jailfs_refuse(struct jailfs_value *v, const char *what,
			 const char *why)
{
	v->what = what;
	v->why = why;
	return -EINVAL;
}

/*
 * Split VALUE at its first unescaped ':' into SRC and DST, undoing the
 * "\:" and "\\" escapes. Both land in BUF (SRC, NUL, DST, NUL); *dst is
 * NULL without a ':'.
 */
static int jailfs_split(const char *value, char *buf, char **dst,
			struct jailfs_value *v)
{
	const char *p;
	char *out = buf;

	*dst = NULL;
	for (p = value; *p; p++) {
		if (*p == '\\') {
			if (p[1] != ':' && p[1] != '\\')
				return jailfs_refuse(v, NULL,
						     "bad escape (only \\: and \\\\)");
			*out++ = *++p;
		} else if (*p == ':' && !*dst) {
			*out++ = '\0';
			*dst = out;
		} else {
			*out++ = *p;
		}
	}
	*out = '\0';
	return 0;
}

/*
 * Normalise PATH in place: drop repeated and trailing '/'. Refuses relative
 * paths and "." or ".." components, so a DST cannot climb out of the root.
 */
static int jailfs_normalise(char *path, const char *what,
			    struct jailfs_value *v)
{
	char *in = path, *out = path, *comp;

	if (*path != '/')
		return jailfs_refuse(v, what, "is not an absolute path");
	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		comp = in;
		while (*in && *in != '/')
			in++;
		if ((in - comp == 1 && comp[0] == '.') ||
		    (in - comp == 2 && comp[0] == '.' && comp[1] == '.'))
			return jailfs_refuse(v, what, "has a '.' or '..' component");
		/* NAME_MAX is 255 on every architecture (uapi). */
		if (in - comp > NAME_MAX)
			return jailfs_refuse(v, what, "has a name longer than 255 bytes");
		*out++ = '/';
		memmove(out, comp, in - comp);
		out += in - comp;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
	return 0;
}

int jailfs_parse_value(enum jailfs_kind kind, const char *value, char *buf,
		       struct jailfs_value *v)
{
	char *dst;
	int err;

	v->src = NULL;
	v->dst = NULL;
	v->what = NULL;
	v->why = NULL;
	err = jailfs_split(value, buf, &dst, v);
	if (err)
		return err;
	if (kind == JAILFS_DIR && dst)
		return jailfs_refuse(v, NULL, "takes one path (':' is \\:)");
	err = jailfs_normalise(buf, kind == JAILFS_DIR ? "path" : "source", v);
	if (!err && dst)
		err = jailfs_normalise(dst, "destination", v);
	if (err)
		return err;
	v->src = buf;
	v->dst = dst ? dst : buf;
	return 0;
}

char *jailfs_next_option(char **options, char **value, int *kind)
{
	char *key;

	while ((key = strsep(options, ",")) != NULL) {
		if (!*key)
			continue;
		*value = strchr(key, '=');
		if (*value)
			*(*value)++ = '\0';
		*kind = -1;
		if (*value && !strcmp(key, "ro"))
			*kind = JAILFS_RO;
		else if (*value && !strcmp(key, "rw"))
			*kind = JAILFS_RW;
		return key;
	}
	return NULL;
}
