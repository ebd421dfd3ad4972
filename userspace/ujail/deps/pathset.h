/* SPDX-License-Identifier: GPL-2.0 */
/* A set of absolute paths, kept sorted and unique (what a jail stages). */
#ifndef UJAIL_PATHSET_H
#define UJAIL_PATHSET_H

#include <stdbool.h>
#include <stddef.h>

struct path_set {
	char **paths;
	size_t n, cap;
};

/* Adds a copy of @path; 0, or -1 when out of memory. */
int path_set_add(struct path_set *s, const char *path);
bool path_set_has(const struct path_set *s, const char *path);
void path_set_free(struct path_set *s);

#endif
