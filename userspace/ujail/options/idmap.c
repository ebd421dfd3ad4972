// SPDX-License-Identifier: GPL-2.0
/* --uid-map, --gid-map; see idmap.h. */
#include <stdbool.h>
#include <string.h>

#include "options/idmap.h"

#define ID_LIMIT 4294967295ULL	/* (uid_t)-1 is never an id */

static bool parse_u32(const char *s, const char *end, unsigned long long *out)
{
	unsigned long long v = 0;

	if (s == end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned long long)(*s - '0');
		if (v >= ID_LIMIT)
			return false;
	}
	*out = v;
	return true;
}

const char *jail_idmap_parse(const char *text, struct jail_idmap *out)
{
	const char *colon = strchr(text, ':');
	const char *end = text + strlen(text);
	unsigned long long id, count = 1;

	if (!parse_u32(text, colon ? colon : end, &id))
		return "ID must be a number below 4294967295 (ID or ID:COUNT)";
	if (colon && !parse_u32(colon + 1, end, &count))
		return "COUNT must be a number below 4294967295 (ID:COUNT)";
	if (id == 0)
		return "ID 0 would make the jail's root the host's root";
	if (count == 0)
		return "COUNT must be at least 1";
	if (id + count > ID_LIMIT)
		return "the range ends beyond the last id, 4294967294";
	*out = (struct jail_idmap){ (uint32_t)id, (uint32_t)count };
	return NULL;
}
