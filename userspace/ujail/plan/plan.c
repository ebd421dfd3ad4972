/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan, on the host (plan.h): every decision that can fail is taken
 * here, before anything is created, so a bad option, file or policy starts
 * nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deps/elf_deps.h"
#include "exec/jail_keeper.h"
#include "isolation/clone_flags.h"
#include "isolation/idrange.h"
#include "isolation/userns.h"
#include "plan/plan.h"
#include "plan/plan_paths.h"
#include "root/fs_backend.h"
#include "root/rootfs.h"
#include "seccomp/errmsg.h"
#include "seccomp/load.h"

void jail_plan_init(struct jail_plan *p, const struct jail_opts *o)
{
	*p = (struct jail_plan){
		.o = o, .status_sock = { -1, -1 }, .parent_alive = { -1, -1 }, .keeper_fd = -1,
		.userns_fd = -1, .idrange_fd = -1,
		.veth.host_netns = -1,
		.cgroup = { .dir_fd = -1 },
		.record.fd = -1,
	};
	p->name = o->name ? o->name : strrchr(o->argv[0], '/') ?
		  strrchr(o->argv[0], '/') + 1 : o->argv[0];
	p->seccomp.memfd = p->seccomp.keeper_fd = -1;
	p->seccomp.notify_sock[0] = p->seccomp.notify_sock[1] = -1;
}

void jail_msg(const struct jail_plan *p, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ujail: %s: %s\n", p->name, line);
}

/* A relative name is staged where the host has it: below our directory. */
static int make_absolute(struct jail_plan *p)
{
	char cwd[PATH_MAX], rel[PATH_MAX];

	if (p->exe[0] == '/')
		return 0;
	snprintf(rel, sizeof(rel), "%s", p->exe);
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(p->exe, sizeof(p->exe), "%s/%s", cwd, rel) >= sizeof(p->exe)) {
		jail_msg(p, "%s: cannot make the path absolute", rel);
		return -1;
	}
	return 0;
}

static int resolve_command(struct jail_plan *p)
{
	const struct elf_deps_opts opts = { .session = &p->deps_session };
	char err[ERR_MAX];

	if (ujs_resolve_command(p->o->argv[0], p->exe, sizeof(p->exe), err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	if (make_absolute(p))
		return JAIL_EXIT_NOT_STARTED;
	/* On the host's filesystem the command finds its libraries itself. */
	if (!jail_ns_wants_root(p->o))
		return 0;
	if (elf_deps_collect(p->exe, &opts, &p->deps, err, sizeof(err)) < 0) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	return 0;
}

/* Only the -e variables, with room for the seccomp shim's four. */
int jail_plan_env(struct jail_plan *p)
{
	size_t n = 0;

	p->envp = calloc(p->o->n_keep_env + 5, sizeof(*p->envp));
	if (!p->envp)
		return -1;
	for (size_t i = 0; i < p->o->n_keep_env; i++) {
		const char *value = getenv(p->o->keep_env[i]);

		if (value && asprintf(&p->envp[n++], "%s=%s", p->o->keep_env[i], value) < 0)
			return -1;
	}
	return 0;
}

/* The pid file is written later: check now that it can be. */
static int check_pidfile_dir(struct jail_plan *p)
{
	const char *path = p->o->pidfile;
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? (slash == path ? "/" : path) : ".");
	if (access(dir, W_OK) < 0) {
		jail_msg(p, "-P %s: directory %s: %s", path, dir, strerror(errno));
		return -1;
	}
	return 0;
}

void jail_self_exe(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/*
 * -f -U/-G without a map, as procd does it: the jail's uid and gid 0 are
 * the host ids of -U and -G (or -U's group), and the service stays 0 in
 * its namespace, with a warning, since -U then names no id inside it.
 */
static int map_user_as_procd(struct jail_plan *p, struct jail_idmap *uid,
			     struct jail_idmap *gid, char *err, size_t errlen)
{
	const struct jail_opts *o = p->o;
	struct jail_creds *c = &p->creds;

	if (c->set_uid && c->uid == 0)
		return ujs_fail(err, errlen, "-f -U %s: uid 0 would make the jail's root the "
				"host's root (give --uid-map)", o->user);
	if (c->set_gid && c->gid == 0)
		return ujs_fail(err, errlen, "-f -G/-U: gid 0 would make the jail's root group the "
				"host's (give --gid-map)");
	if (c->set_uid)
		*uid = (struct jail_idmap){ (uint32_t)c->uid, 1 };
	if (c->set_gid)
		*gid = (struct jail_idmap){ (uint32_t)c->gid, 1 };
	jail_msg(p, "warning: -f with -U/-G: the service runs as uid %u gid %u on the host, "
		 "as uid and gid 0 in its user namespace (as procd does; --uid-map to choose)",
		 (unsigned)uid->host, (unsigned)gid->host);
	c->set_uid = c->set_gid = false;
	return 0;
}

/* -f alone: the jail's own range (idrange.h), else 65534. */
static int map_jail_range(struct jail_plan *p, struct jail_idmap *uid,
			  struct jail_idmap *gid, char *err, size_t errlen)
{
	struct jail_idrange r;

	if (jail_idrange_pick(p->name, &r, err, errlen))
		return -1;
	if (r.found) {
		*uid = *gid = r.map;
		p->idrange_fd = r.lock_fd;
	}
	return 0;
}

/*
 * -f: the ids the service takes are the jail's, 0 unless -U/-G say
 * otherwise, and must be inside the maps.
 */
int jail_plan_userns(struct jail_plan *p, char *err, size_t errlen)
{
	const struct jail_opts *o = p->o;
	const struct jail_idmap nobody = { JAIL_USERNS_DEFAULT_ID, 1 };
	struct jail_idmap uid = o->uid_map ? o->uid_ids : nobody;
	struct jail_idmap gid = o->gid_map ? o->gid_ids : uid;
	struct jail_creds *c = &p->creds;
	bool mapped = o->uid_map || o->gid_map, as_procd = c->set_uid || c->set_gid;

	if (!mapped && as_procd && map_user_as_procd(p, &uid, &gid, err, errlen))
		return -1;
	if (!mapped && !as_procd && map_jail_range(p, &uid, &gid, err, errlen))
		return -1;
	if (!c->set_uid) {
		c->set_uid = true;
		c->uid = 0;
	}
	if (!c->set_gid) {
		c->set_gid = true;
		c->gid = 0;
	}
	if (c->uid >= uid.count)
		return ujs_fail(err, errlen, "-U %s: uid %u is not mapped in the user namespace "
				"(jail uids 0..%u: --uid-map %u:%u)", o->user, (unsigned)c->uid,
				uid.count - 1, uid.host, uid.count);
	if (c->gid >= gid.count)
		return ujs_fail(err, errlen, "-G/-U: gid %u is not mapped in the user namespace "
				"(jail gids 0..%u: --gid-map %u:%u)", (unsigned)c->gid,
				gid.count - 1, gid.host, gid.count);
	/* The baseline's limit: the service in a namespace nested below the capped one. */
	p->userns_fd = jail_userns_create(uid, gid, p->baseline.on, err, errlen);
	return p->userns_fd < 0 ? -1 : 0;
}

int jail_plan_make(struct jail_plan *p)
{
	char err[ERR_MAX], exe[PATH_MAX];
	const struct jail_opts *o = p->o;
	int status = resolve_command(p);

	if (status)
		return status;
	if (jail_plan_paths(p)) {
		jail_msg(p, "-r/-w paths: out of memory");
		return JAIL_EXIT_SETUP;
	}
	jail_self_exe(exe, sizeof(exe));
	p->caps.keep_all = o->keep_caps;
	p->keeper_fd = jail_keeper_open(exe, err, sizeof(err));
	if (p->keeper_fd < 0 ||
	    jail_accounts_resolve(&jail_host_accounts, o->user, o->group, &p->creds,
				  &p->accounts, err, sizeof(err)) ||
	    (o->capabilities && jail_caps_load(o->capabilities, &p->caps, err, sizeof(err))) ||
	    jail_baseline_plan(&p->baseline, o, true, true, err, sizeof(err)) ||
	    jail_seccomp_prepare(&p->seccomp, o->seccomp, jail_caps_bounding(&p->caps),
				 p->baseline.on, p->exe, exe, &p->deps, err, sizeof(err)) ||
	    jail_ns_plan(o, &p->ns, err, sizeof(err)) ||
	    jail_veth_plan(o, &p->veth, err, sizeof(err)) ||
	    jail_cgroup_plan(o, &p->cgroup, err, sizeof(err)) ||
	    jail_fs_choose(o, &p->fs_ops, err, sizeof(err)) ||
	    (jail_userns_wanted(o) && jail_plan_userns(p, err, sizeof(err)))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_SETUP;
	}
	/* -F with a cgroup: the stub unshares once inside it (cgroup.h). */
	if (p->cgroup.active)
		p->ns.clone_flags &= ~CLONE_NEWCGROUP;
	/* Named, with a pid namespace of its own: others can --join it. */
	if (o->name && (p->ns.clone_flags & CLONE_NEWPID) &&
	    jail_record_claim(o->name, &p->record, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_SETUP;
	}
	if (o->debug)
		jail_msg(p, "root staged through %s (--fs=%s)", p->fs_ops->name,
			 jail_fs_kind_name(o->fs_kind));
	if (o->debug) {
		jail_baseline_describe(&p->baseline, err, sizeof(err));
		jail_msg(p, "%s", err);
	}
	if (o->debug && o->udebug && access(JAIL_UDEBUG_SOCKET, F_OK) < 0)
		jail_msg(p, "-D: no udebug socket on the host (%s): not staged",
			 JAIL_UDEBUG_SOCKET);
	if (o->pidfile && check_pidfile_dir(p))
		return JAIL_EXIT_SETUP;
	if (jail_plan_env(p)) {
		jail_msg(p, "environment: out of memory");
		return JAIL_EXIT_SETUP;
	}
	return 0;
}

void jail_plan_free(struct jail_plan *p)
{
	for (size_t i = 0; p->envp && p->envp[i]; i++)
		free(p->envp[i]);
	free(p->envp);
	path_set_free(&p->deps);
	elf_deps_session_free(&p->deps_session);
	free(p->paths);
	jail_seccomp_free(&p->seccomp);
	jail_baseline_free(&p->baseline);
	jail_ns_close(&p->ns);
	jail_veth_close(&p->veth);
	jail_cgroup_close(&p->cgroup);
	if (p->keeper_fd >= 0)
		close(p->keeper_fd);
	if (p->userns_fd >= 0)
		close(p->userns_fd);
	if (p->idrange_fd >= 0)
		close(p->idrange_fd);
	jail_record_abandon(&p->record);
	for (int i = 0; i < 2; i++) {
		if (p->status_sock[i] >= 0)
			close(p->status_sock[i]);
		if (p->parent_alive[i] >= 0)
			close(p->parent_alive[i]);
	}
}
