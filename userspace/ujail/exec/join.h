/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ujail --join NAME -- COMMAND: COMMAND becomes a member of the running
 * jail NAME (registry.h): in the jail's namespaces (pid, mount and the
 * root, net, ipc, uts, cgroup) and cgroup, with its own credentials,
 * capabilities, seccomp policy, environment and user namespace.
 *
 * COMMAND must be in the jail already (its root is not staged again);
 * with -S, a dynamic COMMAND needs the seccomp shim in the jail too,
 * which a jail started with -S has. The joining ujail stays outside as
 * the member's parent: it forwards signals, supervises the seccomp
 * filter in notify mode, and exits with the member's status. The jail's
 * PID 1 keeps the jail until its last member has ended.
 */
#ifndef UJAIL_JOIN_H
#define UJAIL_JOIN_H

#include "options/options.h"

/* Returns ujail's exit status (jail.h); on success it does not return. */
int jail_join_run(const struct jail_opts *o);

#endif
