/* SPDX-License-Identifier: GPL-2.0 */
/* Sorted unique string set: binary search, insertion by memmove. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deps/pathset.h"

/* Index of @path in @s, or where it would go; *found says which. */
static size_t path_set_find(const struct path_set *s, const char *path, bool *found)
{
	size_t lo = 0, hi = s->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(path, s->paths[mid]);

		if (cmp == 0) {
			*found = true;
			return mid;
		}
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int path_set_grow(struct path_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 16;
	char **paths;

	if (cap < s->cap || cap > SIZE_MAX / sizeof(*paths))
		return -1;
	paths = realloc(s->paths, cap * sizeof(*paths));
	if (!paths)
		return -1;
	s->paths = paths;
	s->cap = cap;
	return 0;
}

int path_set_add(struct path_set *s, const char *path)
{
	bool found;
	size_t at = path_set_find(s, path, &found);
	char *copy;

	if (found)
		return 0;
	if (s->n == s->cap && path_set_grow(s) < 0)
		return -1;
	copy = strdup(path);
	if (!copy)
		return -1;
	memmove(&s->paths[at + 1], &s->paths[at], (s->n - at) * sizeof(*s->paths));
	s->paths[at] = copy;
	s->n++;
	return 0;
}

bool path_set_has(const struct path_set *s, const char *path)
{
	bool found;

	path_set_find(s, path, &found);
	return found;
}

void path_set_free(struct path_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->paths[i]);
	free(s->paths);
	s->paths = NULL;
	s->n = 0;
	s->cap = 0;
}
