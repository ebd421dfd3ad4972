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
#include <linux/capability.h>
#include <sys/types.h>

struct jail_creds {
	bool set_uid, set_gid;
	uid_t uid;
	gid_t gid;
};

/* Capability sets as bit masks (1 << CAP_*). */
struct jail_caps {
	uint64_t bounding, effective, inheritable, permitted, ambient;
	unsigned int given;	/* JAIL_CAPS_*: the sets -C names; the others stay */
	bool keep_all;		/* --keep-caps: no default drop from the bounding set */
};

#define JAIL_CAPS_BOUNDING	(1u << 0)
#define JAIL_CAPS_EFFECTIVE	(1u << 1)
#define JAIL_CAPS_INHERITABLE	(1u << 2)
#define JAIL_CAPS_PERMITTED	(1u << 3)
#define JAIL_CAPS_AMBIENT	(1u << 4)

/*
 * Dropped from the bounding set unless -C names a bounding set or
 * --keep-caps is given: what undoes a jail (mounts, modules, raw devices
 * and memory, tracing, reading by handle, kernel programs and logs, LSM
 * policy, device nodes, immutable files, process restore, accounting
 * files) and no daemon needs to start and drop its privileges.
 */
#define JAIL_CAPS_DANGEROUS \
	((1ULL << CAP_SYS_ADMIN) | (1ULL << CAP_SYS_MODULE) | (1ULL << CAP_SYS_RAWIO) | \
	 (1ULL << CAP_SYS_PTRACE) | (1ULL << CAP_SYS_BOOT) | (1ULL << CAP_DAC_READ_SEARCH) | \
	 (1ULL << CAP_BPF) | (1ULL << CAP_PERFMON) | (1ULL << CAP_MAC_ADMIN) | \
	 (1ULL << CAP_MAC_OVERRIDE) | (1ULL << CAP_SYSLOG) | (1ULL << CAP_AUDIT_CONTROL) | \
	 (1ULL << CAP_AUDIT_READ) | (1ULL << CAP_MKNOD) | (1ULL << CAP_LINUX_IMMUTABLE) | \
	 (1ULL << CAP_CHECKPOINT_RESTORE) | (1ULL << CAP_SYS_PACCT))

/*
 * procd's capabilities file: {"bounding": ["CAP_..."], "effective": [...],
 * "inheritable": [...], "permitted": [...], "ambient": [...]}. As procd, a
 * set the file does not name stays as it is (the bounding set: as without
 * -C) and other keys are ignored. 0, or -1 with @err naming the file and
 * key. Sets the five masks and @caps->given only (keep_all is the caller's).
 */
int jail_caps_load(const char *path, struct jail_caps *caps, char *err,
		   size_t errlen);

/*
 * The bounding set the service will have (ours, shrunk as
 * jail_privileges_apply will): what a seccomp policy's "caps"
 * conditions are tested against, as Docker and podman do.
 */
uint64_t jail_caps_bounding(const struct jail_caps *caps);

/*
 * In the service, as root with every capability: shrink the bounding set
 * (to -C's, else all but JAIL_CAPS_DANGEROUS unless keep_all), switch to
 * @c, set the sets -C names, and lock the securebits in their usual state,
 * as procd does: execve() then gives a root service its bounding set, and
 * any other user its ambient set. 0, or -1 with @err naming the step.
 */
int jail_privileges_apply(const struct jail_creds *c,
			  const struct jail_caps *caps, char *err,
			  size_t errlen);

#endif
