// SPDX-License-Identifier: GPL-2.0
/* path_walk() results kept by path; see path_walk_memo.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "deps/path_walk.h"
#include "deps/path_walk_memo.h"

struct path_walk_entry {
	char *path, *real;	/* real: NULL when the walk failed */
	struct path_set links;
	int ret;
};

static void entry_free(struct path_walk_entry *e)
{
	free(e->path);
	free(e->real);
	path_set_free(&e->links);
}

void path_walk_memo_free(struct path_walk_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		entry_free(&m->v[i]);
	free(m->v);
	*m = (struct path_walk_memo){ 0 };
}

static const struct path_walk_entry *memo_find(const struct path_walk_memo *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].path, path))
			return &m->v[i];
	return NULL;
}

/* Walks @path and keeps the result; NULL when out of memory. */
static const struct path_walk_entry *memo_walk(struct path_walk_memo *m, const char *sysroot,
					       const char *path)
{
	struct path_walk_entry *e;
	char real[PATH_MAX];

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 32;
		struct path_walk_entry *v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		m->v = v;
		m->cap = cap;
	}
	e = &m->v[m->n];
	*e = (struct path_walk_entry){ .path = strdup(path) };
	e->ret = e->path ? path_walk(sysroot, path, real, &e->links) : -ENOMEM;
	if (!e->ret && !(e->real = strdup(real)))
		e->ret = -ENOMEM;
	/* Out of memory is no answer to keep. */
	if (e->ret == -ENOMEM) {
		entry_free(e);
		return NULL;
	}
	m->n++;
	return e;
}

int path_walk_memo(struct path_walk_memo *m, const char *sysroot, const char *path, char *real,
		   struct path_set *links)
{
	const struct path_walk_entry *e = memo_find(m, path);

	if (!e)
		e = memo_walk(m, sysroot, path);
	if (!e)
		return -ENOMEM;
	if (e->ret < 0)
		return e->ret;
	strcpy(real, e->real);
	for (size_t i = 0; links && i < e->links.n; i++)
		if (path_set_add(links, e->links.paths[i]) < 0)
			return -ENOMEM;
	return 0;
}
