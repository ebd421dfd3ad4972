/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan: every decision that needs the host (the command, its
 * libraries, users, capabilities, the seccomp program, namespaces, the
 * cgroup), taken by the outer ujail before anything is created. The stages
 * that run it (exec/: the stub and the service) only read it. jail.h tells
 * which processes share it.
 */
#ifndef UJAIL_PLAN_H
#define UJAIL_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "confine/baseline.h"
#include "confine/jail_seccomp.h"
#include "creds/creds.h"
#include "deps/elf_deps.h"
#include "deps/pathset.h"
#include "exec/exit_status.h"
#include "isolation/cgroup.h"
#include "isolation/ns.h"
#include "isolation/veth.h"
#include "options/options.h"
#include "plan/registry.h"
#include "plan/trace_hook.h"
#include "root/accounts.h"
#include "root/stage.h"

struct jail_plan {
	const struct jail_opts *o;
	const char *name;		/* for messages: -n, else the command */
	char exe[PATH_MAX];		/* the command, resolved on the host */
	struct path_set deps;		/* staged read-only */
	struct elf_deps_session deps_session; /* what filling deps shares */
	struct jail_path *paths;	/* the -r/-w the host has (plan_paths.h) */
	size_t n_paths;
	char **envp;			/* the service's environment */
	struct jail_creds creds;
	struct jail_accounts accounts;	/* the jail's /etc/passwd and group */
	struct jail_caps caps;
	struct jail_seccomp seccomp;
	struct jail_baseline baseline;	/* before -S, in every jail */
	struct jail_ns ns;
	struct jail_veth veth;		/* --veth; host_ifindex set by the stub */
	int status_sock[2];		/* [1]: the service says it starts;
					 * [0]: the outer learns its host pid */
	int parent_alive[2];		/* [1] held by the outer only: EOF = it died */
	int keeper_fd;			/* ujail-keeper, O_PATH */
	int userns_fd;			/* -f: the service's user namespace, or -1 */
	int idrange_fd;			/* -f: the pool id's lock (idrange.h), or -1 */
	const struct stage_ops *fs_ops;	/* --fs: the root's stage backend */
	struct jail_cgroup cgroup;	/* the limits: the jail's own cgroup */
	struct jail_record record;	/* -n NAME: the record --join finds */
	const struct jail_trace_hook *trace;	/* --trace, else NULL */
};

/* Fill @p from @o: nothing decided yet, every descriptor -1. */
void jail_plan_init(struct jail_plan *p, const struct jail_opts *o);
/* Decide everything on the host; 0 or an exit status (after a message). */
int jail_plan_make(struct jail_plan *p);
/* Free what jail_plan_make() took and close its descriptors. */
void jail_plan_free(struct jail_plan *p);

/* Shared by the jail and its members (exec/join.c): */
/* @p->envp from -e: only those variables, with room for the shim's. */
int jail_plan_env(struct jail_plan *p);
/* -f: the user namespace, and ids the service takes inside its maps. */
int jail_plan_userns(struct jail_plan *p, char *err, size_t errlen);
/* Our own executable's path (the keeper and the shims are found beside it). */
void jail_self_exe(char *buf, size_t len);

/* "ujail: NAME: " + message on stderr. */
__attribute__((format(printf, 2, 3)))
void jail_msg(const struct jail_plan *p, const char *fmt, ...);

#endif
