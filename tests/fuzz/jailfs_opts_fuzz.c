/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz target: jailfs' mount option text (kernel/jailfs/opts.c, built
 * here as it is in the module). The input is mount(2) data; each entry's
 * value is parsed into a buffer of the size the module allocates, and a
 * value that parses must come out normalised (absolute, no '.' or '..',
 * no empty or over-long names) and parse again, escaped, to itself.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fuzz.h"
#include "opts.h"

/* What every parsed path must be: the kernel builds its tree from it. */
static void check_path(const char *path)
{
	const char *p = path, *comp;

	if (*p != '/')
		abort();
	if (!strcmp(path, "/"))
		return;
	while (*p) {
		if (*p++ != '/')
			abort();
		comp = p;
		while (*p && *p != '/')
			p++;
		if (p == comp || p - comp > NAME_MAX ||
		    (p - comp == 1 && comp[0] == '.') ||
		    (p - comp == 2 && comp[0] == '.' && comp[1] == '.'))
			abort();
	}
}

/* @path with the escapes ujail writes ("\:" and "\\"). */
static char *escape(char *out, const char *path)
{
	for (; *path; path++) {
		if (*path == ':' || *path == '\\')
			*out++ = '\\';
		*out++ = *path;
	}
	*out = '\0';
	return out;
}

/* A parsed value, written back as ujail would, parses to the same paths. */
static void check_round_trip(enum jailfs_kind kind, const struct jailfs_value *v)
{
	size_t len = 2 * (strlen(v->src) + strlen(v->dst)) + 2;
	char *value = malloc(len), *buf = malloc(len + 2), *end;
	struct jailfs_value again;

	if (!value || !buf)
		abort();
	end = escape(value, v->src);
	if (v->dst != v->src) {
		*end++ = ':';
		escape(end, v->dst);
	}
	if (jailfs_parse_value(kind, value, buf, &again) ||
	    strcmp(again.src, v->src) || strcmp(again.dst, v->dst))
		abort();
	free(value);
	free(buf);
}

/* jailfs_add_spec() without the lookup of the source. */
static int add_spec(enum jailfs_kind kind, const char *value)
{
	struct jailfs_value v;
	char msg[512], *buf;
	size_t len;
	int err;

	if (!value || !*value)
		return -EINVAL;
	len = strlen(value);
	if (len >= PATH_MAX * 2)
		return -EINVAL;
	buf = malloc(len + 2);	/* the module's size: ASan sees past it */
	if (!buf)
		abort();
	err = jailfs_parse_value(kind, value, buf, &v);
	if (err) {
		if (err != -EINVAL || !v.why)
			abort();
		snprintf(msg, sizeof(msg), "jailfs: %s=%s: %s%s%s", jailfs_key_name(kind),
			 value, v.what ? v.what : "", v.what ? " " : "", v.why);
	} else {
		check_path(v.src);
		check_path(v.dst);
		if (kind == JAILFS_DIR && v.dst != v.src)
			abort();
		check_round_trip(kind, &v);
	}
	free(buf);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *options = text, *key, *value;
	int kind;

	/* As the module: the first error ends the mount. */
	while ((key = jailfs_next_option(&options, &value, &kind)) != NULL) {
		if (kind < 0)
			kind = jailfs_key_kind(key);
		if (kind < 0 && !strcmp(key, "source"))
			continue;
		if (kind < 0 || add_spec(kind, value))
			break;
		if (jailfs_key_name(kind) == NULL)
			abort();
	}
	free(text);
	return 0;
}
