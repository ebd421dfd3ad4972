/* SPDX-License-Identifier: GPL-2.0 */
/* -r / -w: SRC[:DST] staging entries, their paths normalized. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "options/options_int.h"


/*
 * Why @path cannot be staged, or NULL with *@out its normal form: no "//",
 * no "." component, no trailing '/'. ".." is refused rather than resolved:
 * on the host it would follow symlinks, and the jail's DST has none yet.
 */
static const char *normalize_path(const char *path, char **out)
{
	const char *p = path;
	char *norm, *w;

	*out = NULL;
	if (!*path)
		return "empty path";
	if (*path != '/')
		return "not an absolute path";
	norm = malloc(strlen(path) + 2);
	if (!norm)
		return "out of memory";
	w = norm;
	while (*p) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			free(norm);
			return "'..' is not allowed in a path";
		}
		if (len && !(len == 1 && *p == '.')) {
			*w++ = '/';
			memcpy(w, p, len);
			w += len;
		}
		p += len;
	}
	if (w == norm)
		*w++ = '/';
	*w = '\0';
	*out = norm;
	return NULL;
}

/* @role ("source", "destination") names the half of a SRC:DST argument. */
int opt_check_path(const char *path, const char *role, const char *where,
		   char **out)
{
	const char *why = normalize_path(path, out);

	if (!why)
		return 0;
	if (role)
		return opt_fail(where, "%s '%s': %s", role, path, why);
	return opt_fail(where, "%s", why);
}

/* Adds @src at @dst (both owned from here on); the same entry twice is one. */
int opt_stage(struct jail_opts *o, char *src, char *dst, bool writable,
	      const char *where)
{
	struct jail_path *grown;
	int ret = -1;

	if (!strcmp(dst, "/")) {
		opt_fail(where, "cannot stage over the jail's root '/'");
		goto drop;
	}
	for (size_t i = 0; i < o->n_paths; i++) {
		const struct jail_path *p = &o->paths[i];

		if (strcmp(p->dst, dst))
			continue;
		if (strcmp(p->src, src))
			opt_fail(where, "'%s' is already staged from '%s'", dst, p->src);
		else if (p->writable != writable)
			opt_fail(where, "'%s' is already staged %s", dst,
				 p->writable ? "writable (-w)" : "read-only (-r)");
		else
			ret = 0;
		goto drop;
	}
	grown = realloc(o->paths, (o->n_paths + 1) * sizeof(*grown));
	if (!grown) {
		opt_oom();
		goto drop;
	}
	o->paths = grown;
	grown[o->n_paths++] = (struct jail_path){ src, dst, writable };
	return 0;
drop:
	free(src);
	free(dst);
	return ret;
}

/* "SRC" or "SRC:DST", split at the first ':' as procd does. */
int opt_stage_arg(struct jail_opts *o, const char *arg, bool writable,
		  const char *where)
{
	const char *colon = strchr(arg, ':');
	char *src_text, *src, *dst;
	int ret;

	if (!colon) {
		if (opt_check_path(arg, NULL, where, &src))
			return -1;
		dst = strdup(src);
		if (!dst) {
			free(src);
			return opt_oom();
		}
		return opt_stage(o, src, dst, writable, where);
	}
	src_text = strndup(arg, (size_t)(colon - arg));
	if (!src_text)
		return opt_oom();
	ret = opt_check_path(src_text, "source", where, &src);
	free(src_text);
	if (ret)
		return -1;
	if (opt_check_path(colon + 1, "destination", where, &dst)) {
		free(src);
		return -1;
	}
	return opt_stage(o, src, dst, writable, where);
}
