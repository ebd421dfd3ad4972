/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --uid-map and --gid-map ID[:COUNT]: jail ids 0..COUNT-1 are host ids
 * ID..ID+COUNT-1 (isolation/userns.h). Pure parsing, no system call: the
 * option table parses each value once into struct jail_opts.
 */
#ifndef UJAIL_IDMAP_H
#define UJAIL_IDMAP_H

#include <stdint.h>

#define JAIL_USERNS_DEFAULT_ID 65534	/* nobody / nogroup */

struct jail_idmap {
	uint32_t host;		/* first host id */
	uint32_t count;		/* jail ids 0..count-1 */
};

/*
 * "ID[:COUNT]" into @out: ID 1..4294967294 (0 would make the jail's root
 * the host's), COUNT at least 1, the range below 4294967295. NULL, or
 * why not (@out then undefined).
 */
const char *jail_idmap_parse(const char *text, struct jail_idmap *out);

#endif
