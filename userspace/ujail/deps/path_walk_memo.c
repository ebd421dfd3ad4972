// SPDX-License-Identifier: GPL-2.0
/* path_walk() results kept by path; see path_walk_memo.h. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
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

/*
 * Where @path is, or would go, in @m's entries (kept sorted: a jail may
 * stage thousands of -r paths, each an entry).
 */
static size_t memo_find(const struct path_walk_memo *m, const char *path, bool *found)
{
	size_t lo = 0, hi = m->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->v[mid].path, path);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Walks @path into a new entry at index @at; NULL when out of memory. */
static const struct path_walk_entry *memo_walk(struct path_walk_memo *m, size_t at,
					       const char *sysroot, const char *path)
{
	struct path_walk_entry e = { .path = strdup(path) };
	char real[PATH_MAX];

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 32;
		struct path_walk_entry *v = realloc(m->v, cap * sizeof(*v));

		if (!v) {
			free(e.path);
			return NULL;
		}
		m->v = v;
		m->cap = cap;
	}
	e.ret = e.path ? path_walk(sysroot, path, real, &e.links) : -ENOMEM;
	if (!e.ret && !(e.real = strdup(real)))
		e.ret = -ENOMEM;
	/* Out of memory is no answer to keep. */
	if (e.ret == -ENOMEM) {
		entry_free(&e);
		return NULL;
	}
	memmove(&m->v[at + 1], &m->v[at], (m->n - at) * sizeof(*m->v));
	m->v[at] = e;
	m->n++;
	return &m->v[at];
}

int path_walk_memo(struct path_walk_memo *m, const char *sysroot, const char *path, char *real,
		   struct path_set *links)
{
	const struct path_walk_entry *e;
	bool found;
	size_t at = memo_find(m, path, &found);

	e = found ? &m->v[at] : memo_walk(m, at, sysroot, path);
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
