/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service's credentials: -U/-G resolved on the host (accounts.h), and the capabilities of -C (procd's JSON), applied in the
 * service right before execve().
 */
#ifndef UJAIL_CREDS_H
#define UJAIL_CREDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct jail_creds {
	bool set_uid, set_gid;
	uid_t uid;
	gid_t gid;
};

/* Capability sets as bit masks (1 << CAP_*); all zero: drop everything. */
struct jail_caps {
	uint64_t bounding, effective, inheritable, permitted, ambient;
};

/*
 * procd's capabilities file: {"bounding": ["CAP_..."], "effective": [...],
 * "inheritable": [...], "permitted": [...], "ambient": [...]}; a missing
 * list is empty. 0, or -1 with @err naming the file and key.
 */
int jail_caps_load(const char *path, struct jail_caps *caps, char *err,
		   size_t errlen);

/*
 * In the service, as root with every capability: lock the securebits,
 * shrink the bounding set, switch to @c, leave exactly @caps. 0, or -1
 * with @err naming the step.
 */
int jail_privileges_apply(const struct jail_creds *c,
			  const struct jail_caps *caps, char *err,
			  size_t errlen);

#endif
