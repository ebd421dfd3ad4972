/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -f without --uid-map/--gid-map (and without -U/-G, which procd maps to
 * their host ids): the jail's ids come from a range of its own, so that
 * two jails do not own each other's files on the host. The ranges are
 * configured in $UJAIL_IDRANGES or /etc/ujail/idranges, one a line,
 * /etc/subuid-style ('#' starts a comment):
 *
 *   NAME:FIRST:COUNT	jails named NAME (-n, else the command's name):
 *			jail ids 0..COUNT-1 are host ids FIRST..FIRST+COUNT-1
 *   *:FIRST:COUNT	the pool for every other name: one host id of it,
 *			chosen from the name (FNV-1a hash modulo COUNT), so a
 *			jail gets the same id at every start
 *
 * Uids and gids alike. The ranges must not overlap each other (the file
 * is refused otherwise), nor 0. Two names may hash to the same pool id:
 * while a jail of one runs, a jail of the other is refused with a message
 * naming both (an entry of its own settles it). That is checked through
 * RUNDIR/ids/ID@NAME (registry.h's RUNDIR), held locked (shared) by each
 * jail's watcher while it runs. Without the file, or with neither an
 * entry for the name nor a pool, every -f jail maps to 65534 as before.
 */
#ifndef UJAIL_IDRANGE_H
#define UJAIL_IDRANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "isolation/userns.h"

#define JAIL_IDRANGES_DEFAULT "/etc/ujail/idranges"

struct jail_idrange {
	struct jail_idmap map;	/* the jail's ids */
	bool found;		/* from the file (else: the default) */
	int lock_fd;		/* pool id: RUNDIR/ids/ID@NAME, locked; -1 */
};

/*
 * The range of the jail @name. 0 (@r->found false: no range configured),
 * or -1 with @err (a bad file, a pool id a running jail of another name
 * holds).
 */
int jail_idrange_pick(const char *name, struct jail_idrange *r, char *err, size_t errlen);

#endif
