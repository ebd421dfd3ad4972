/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --uid-map and --gid-map ID[:COUNT] (options/idmap.c): each row a value
 * and the range it parses to, or the message it is refused with. Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "options/idmap.h"
#include "tap.h"

#define ID_WHY "ID must be a number below 4294967295 (ID or ID:COUNT)"
#define COUNT_WHY "COUNT must be a number below 4294967295 (ID:COUNT)"

static const struct {
	const char *in;
	unsigned int host, count;	/* count 0: refused */
	const char *why;
} rows[] = {
	{ "200000", 200000, 1, NULL },
	{ "200000:65536", 200000, 65536, NULL },
	{ "1", 1, 1, NULL },
	{ "4294967294", 4294967294U, 1, NULL },		/* the last id */
	{ "1:4294967294", 1, 4294967294U, NULL },	/* every id but 0 */
	{ "0", 0, 0, "ID 0 would make the jail's root the host's root" },
	{ "0:10", 0, 0, "ID 0 would make the jail's root the host's root" },
	{ "200000:0", 0, 0, "COUNT must be at least 1" },
	{ "4294967294:2", 0, 0, "the range ends beyond the last id, 4294967294" },
	{ "4294967295", 0, 0, ID_WHY },
	{ "", 0, 0, ID_WHY },
	{ ":10", 0, 0, ID_WHY },
	{ "-1", 0, 0, ID_WHY },
	{ "1e3", 0, 0, ID_WHY },
	{ "200000:", 0, 0, COUNT_WHY },
	{ "200000:4294967295", 0, 0, COUNT_WHY },
	{ "200000:1:2", 0, 0, COUNT_WHY },
	{ "200000: 2", 0, 0, COUNT_WHY },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct jail_idmap m = { 0, 0 };
		const char *why = jail_idmap_parse(rows[i].in, &m);

		if (rows[i].count)
			ok(!why && m.host == rows[i].host && m.count == rows[i].count,
			   "'%s': host ids %u, %u of them (got %s)", rows[i].in, rows[i].host,
			   rows[i].count, why ? why : "parsed");
		else
			ok(why && !strcmp(why, rows[i].why), "'%s' refused: %s (got %s)", rows[i].in,
			   rows[i].why, why ? why : "accepted");
	}
	return tap_done();
}
