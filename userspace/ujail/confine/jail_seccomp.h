/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -S: the policy compiled by the outer ujail before the jail exists, and
 * loaded in the service the way "ujail-seccomp run" does it (load.h):
 * dynamic programs through the preload shim (staged read-only at its host
 * path) and a sealed memfd, static ones right before execve().
 *
 * Mode: log-errno when the kernel has it, else notify: the jail's PID 1
 * (ujail-keeper init, with its own copy of the program) is the supervisor, as "ujail-seccomp run" is for its
 * command (supervise.h): it gets the listener from the service over a
 * socket pair, logs each denial on ujail's stderr and answers it with the
 * policy's errno.
 */
#ifndef UJAIL_JAIL_SECCOMP_H
#define UJAIL_JAIL_SECCOMP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deps/pathset.h"
#include "seccomp/compile.h"
#include "seccomp/install.h"

struct jail_seccomp {
	bool enabled;
	bool dynamic;			/* through the shim */
	enum ujs_mode mode;
	struct ujs_policy *policy;
	struct ujs_program compiled;
	struct ujs_loaded_program loaded; /* points into @compiled */
	char shim[PATH_MAX];		/* dynamic: the shim's real path */
	int memfd;			/* dynamic: the sealed program, or -1 */
	int keeper_fd;			/* notify: the same for ujail-keeper, or -1 */
	int notify_sock[2];		/* notify: [0] the stub's, [1] the service's */
};

/*
 * Compile @policy_path for @exe (resolved command), its "includes" and
 * "excludes" caps tested against @caps (the jail's bounding set); for a dynamic @exe
 * find the shim (next to @self_exe: ../lib/[musl/]libpreload-seccomp.so,
 * or $UJAIL_PRELOAD) and add it to @deps. With the @baseline, the calls
 * it answers ENOSYS that the policy does not name get ENOSYS too, not the
 * policy's default (baseline.h). 0, or -1 with @err.
 */
int jail_seccomp_prepare(struct jail_seccomp *sc, const char *policy_path, uint64_t caps,
			 bool baseline, const char *exe, const char *self_exe,
			 struct path_set *deps, char *err, size_t errlen);

/* The fd the service must keep open (-1: none). */
int jail_seccomp_keep_fd(const struct jail_seccomp *sc);

/* In the stub, before the service is forked: the notify socket pair. */
int jail_seccomp_notify_open(struct jail_seccomp *sc, char *err, size_t errlen);
bool jail_seccomp_notifies(const struct jail_seccomp *sc);

/*
 * In the service, last step before execve(): for a dynamic program add
 * the shim's variables to the environment being built (@env/@n, room for
 * 4 more entries) and let the shim inherit its descriptors; for a static
 * one install the filter. 0, or -1 with @err.
 */
int jail_seccomp_env(const struct jail_seccomp *sc, char **env,
		     size_t *n, char *err, size_t errlen);
int jail_seccomp_install_static(struct jail_seccomp *sc, char *err,
				size_t errlen);

void jail_seccomp_free(struct jail_seccomp *sc);

#endif
