/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Landlock scoping (ABI 6, Linux 6.12): a domain with no filesystem or
 * network rules, only scopes, so that the service cannot connect to
 * abstract unix sockets nor signal processes outside its domain. The
 * uapi is defined here: the build's headers may predate it.
 */
#ifndef UJAIL_LANDLOCK_H
#define UJAIL_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

#define JAIL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define JAIL_LANDLOCK_SCOPE_SIGNAL		 (1ULL << 1)
#define JAIL_LANDLOCK_SCOPE_ABI			 6

/* The kernel's Landlock ABI version, or -errno (ENOSYS: not built in,
 * EOPNOTSUPP: not enabled at boot). */
int jail_landlock_abi(void);

/* Why @abi (<= 0, or below the scoping ABI) gives no scoping, in words. */
const char *jail_landlock_why_not(int abi);

/* Restrict the calling thread to a new domain scoping @scopes. Needs
 * no_new_privs or CAP_SYS_ADMIN in its user namespace. 0, or -1 with @err. */
int jail_landlock_scope(uint64_t scopes, char *err, size_t errlen);

#endif
