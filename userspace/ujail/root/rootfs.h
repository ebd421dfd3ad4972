/* SPDX-License-Identifier: GPL-2.0 */
/* The jail's root filesystem: built, then entered with pivot_root. */
#ifndef UJAIL_ROOTFS_H
#define UJAIL_ROOTFS_H

#include <stddef.h>

#include "deps/pathset.h"
#include "options/options.h"
#include "root/accounts.h"
#include "root/stage.h"

/* procd's udebug socket (-D). */
#define JAIL_UDEBUG_SOCKET "/var/run/udebug.sock"

/* What the jail gets from the host: the plan's choice (jail.h). */
struct jail_host_files {
	const struct path_set *deps;	/* the command's and the programs' needs */
	const struct jail_path *paths;	/* -r/-w the host has */
	size_t n_paths;
};

/*
 * Builds the jail's root and makes it the caller's "/". Call it in the
 * jail's PID 1: a process in a new mount namespace and PID 1 of a new pid
 * namespace (for /proc). The root is a tmpfs (0755, nosuid, nodev) with:
 *  - /etc/passwd and /etc/group from @accounts (accounts.h); a staged
 *    /etc goes on top;
 *  - every path of @files->deps, read-only, where the host has it;
 *  - every -r/-w path of @files, read-only or writable, at its DST; a path without
 *    DST is staged as the host resolves it: each symbolic link on the way
 *    becomes the same link in the jail, and for -r the target of a link
 *    as last component is staged too (for -w such a link is staged alone:
 *    a jail could have planted it in one of its writable directories);
 *  - with -u the ubus socket, with -D the udebug socket where the host has
 *    one, and the host's /etc/resolv.conf (its chain of links included,
 *    e.g. OpenWrt's /tmp/resolv.conf.d/...), read-only;
 *  - /dev (tmpfs with null zero full random urandom tty from the host,
 *    a new devpts instance, /dev/shm, the fd links; with -l /dev/log),
 *    with -p a new /proc (kernel knobs read-only, sensitive files
 *    masked), with -s a read-only /sys; -r/-w paths below those are
 *    staged after them, on top;
 *  - with -o, "/" itself read-only at the end.
 * @backend stages the host's paths: one bind mount each on the tmpfs, or
 * (jailfs) one jailfs mount for all of them and the tmpfs's files, which
 * becomes the root; that root is read-only but for -w paths, -o or not.
 * Returns 0, or -1 with @err naming the path, the step and errno.
 */
int jail_rootfs_enter(const struct jail_opts *o, const struct stage_ops *backend,
		      const struct jail_host_files *files, const struct jail_accounts *accounts,
		      char *err, size_t errlen);

#endif
