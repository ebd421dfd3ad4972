/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -f: the service runs in a user namespace of its own, as uid and gid 0
 * there, which are unprivileged ids on the host (65534, or --uid-map and
 * --gid-map ID[:COUNT]: jail ids 0..COUNT-1 are host ids ID..ID+COUNT-1).
 *
 * Only the service enters it, last of all: the root, /dev, /proc and the
 * other namespaces are made by the host's root before, so they belong to
 * the host's user namespace and the jail's root, whatever capabilities
 * it is given, cannot mount, set the hostname or reconfigure the network.
 * The namespace is made by the outer ujail before the jail (a short-lived
 * child is cloned into it, sharing ujail's memory, and the outer, root on
 * the host, writes its maps);
 * the service joins it through a file descriptor.
 *
 * With the baseline (baseline.h) the service's namespace is a second one,
 * nested in the mapped one with identity maps, as bubblewrap's
 * --disable-userns makes it: the outer one's max_user_namespaces is 1,
 * used by the service's, so the kernel refuses any user namespace made
 * below it (ENOSPC). The service cannot lift that limit: it is the outer
 * namespace's, where it has no capability.
 */
#ifndef UJAIL_USERNS_H
#define UJAIL_USERNS_H

#include <stdbool.h>
#include <stddef.h>
#include "options/idmap.h"
#include "options/options.h"

/* -f, --userns, or a map given. */
bool jail_userns_wanted(const struct jail_opts *o);

/*
 * Outer ujail: a new user namespace with these maps (@limit: and the one
 * nested in it, see above); returns an O_CLOEXEC descriptor of it, or -1
 * with @err.
 */
int jail_userns_create(struct jail_idmap uid, struct jail_idmap gid, bool limit,
		       char *err, size_t errlen);

/* The service, before its credentials are set: join @fd and close it. */
int jail_userns_enter(int fd, char *err, size_t errlen);

#endif
