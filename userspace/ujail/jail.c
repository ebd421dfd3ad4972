/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outer ujail process; see jail.h. Everything that can fail on the
 * host is checked before the jail is created, so a bad option, file or
 * policy starts nothing. Afterwards this process only waits: it forwards
 * signals to the stub, escalates a SIGTERM to SIGKILL after -t seconds,
 * writes the pid file when the service starts, and returns its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolation/clone_flags.h"
#include "deps/elf_deps.h"
#include "seccomp/errmsg.h"
#include "root/fs_backend.h"
#include "exec/init.h"
#include "jail.h"
#include "exec/jail_keeper.h"
#include "keeper/keeper.h"
#include "seccomp/load.h"
#include "plan/plan_paths.h"
#include "root/rootfs.h"
#include "isolation/idrange.h"
#include "isolation/userns.h"

#define STUB_STACK_SIZE (1024 * 1024)

void jail_msg(const struct jail_plan *p, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ujail: %s: %s\n", p->name, line);
}

/* ---- the plan, on the host ---- */

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
	char err[1024];

	if (ujs_resolve_command(p->o->argv[0], p->exe, sizeof(p->exe), err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	if (make_absolute(p))
		return JAIL_EXIT_NOT_STARTED;
	/* On the host's filesystem the command finds its libraries itself. */
	if (!jail_ns_wants_root(p->o))
		return 0;
	if (elf_deps_collect(p->exe, NULL, &p->deps, err, sizeof(err)) < 0) {
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

/* --fs, else $UJAIL_FS (procd cannot pass --fs), else NULL: auto. */
static const char *jail_fs_wanted(const struct jail_opts *o)
{
	return o->fs ? o->fs : getenv("UJAIL_FS");
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
	struct jail_idmap uid = jail_idmap_parse(o->uid_map);
	struct jail_idmap gid = o->gid_map ? jail_idmap_parse(o->gid_map) : uid;
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

static int plan_jail(struct jail_plan *p)
{
	char err[1024], exe[PATH_MAX];
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
	    jail_fs_choose(jail_fs_wanted(o), &p->fs_ops, err, sizeof(err)) ||
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
			 jail_fs_wanted(o) ? jail_fs_wanted(o) : "auto");
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

static int open_channels(struct jail_plan *p)
{
	const int on = 1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p->status_sock) < 0 ||
	    setsockopt(p->status_sock[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0 ||
	    pipe2(p->parent_alive, O_CLOEXEC) < 0) {
		jail_msg(p, "channels to the jail: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void plan_free(struct jail_plan *p)
{
	for (size_t i = 0; p->envp && p->envp[i]; i++)
		free(p->envp[i]);
	free(p->envp);
	path_set_free(&p->deps);
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

/* ---- the jail's start ---- */

static pid_t start_stub(struct jail_plan *p)
{
	char *stack = malloc(STUB_STACK_SIZE);
	char err[256];
	pid_t pid;

	if (!stack) {
		jail_msg(p, "clone: out of memory");
		return -1;
	}
	if (jail_ns_join_pid(&p->ns, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		free(stack);
		return -1;
	}
	fflush(NULL);
	/* Returns once the stub has become the keeper, or died. */
	pid = jail_cgroup_spawn(&p->cgroup, p->ns.clone_flags, jail_stub_main, p,
				stack + STUB_STACK_SIZE);
	if (pid < 0)
		jail_msg(p, "clone (new namespaces %#x): %s", p->ns.clone_flags, strerror(errno));
	free(stack);
	return pid;
}

/* Start the jail and become its watcher; returns only on failure. */
static int run_jail(struct jail_plan *p)
{
	const char *cgroup = p->cgroup.active ? p->cgroup.path : NULL;
	struct jail_watch watch = {
		.name = p->name, .status_fd = p->status_sock[0], .term_timeout = p->o->term_timeout,
		.pidfile = p->o->pidfile, .cgroup = cgroup, .record_fd = p->record.fd,
		.record = p->record.path,
	};
	char err[1024];
	sigset_t set;
	pid_t stub;
	int status;

	if (jail_cgroup_create(p->o, &p->cgroup, p->name, err, sizeof(err))) {
		jail_msg(p, "%s", err);
		return JAIL_EXIT_SETUP;
	}
	/* Blocked before clone(): what comes before the keepers read it stays pending. */
	keeper_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	stub = start_stub(p);
	if (stub < 0) {
		jail_cgroup_remove(&p->cgroup);
		return JAIL_EXIT_SETUP;
	}
	close(p->status_sock[1]);
	p->status_sock[1] = -1;
	watch.stub = stub;
	/* A stub cloned into the cgroup had its own memory: ask the kernel. */
	if (p->veth.on && !p->veth.host_ifindex)
		p->veth.host_ifindex = (int)if_nametoindex(p->veth.host);
	watch.host_ifindex = p->veth.host_ifindex;
	if (p->record.fd >= 0 && jail_record_write(&p->record, stub, cgroup, err, sizeof(err))) {
		jail_msg(p, "%s; stopping the jail", err);
	} else {
		/* The watcher holds the pool id's lock for as long as the jail runs. */
		if (p->idrange_fd >= 0)
			fcntl(p->idrange_fd, F_SETFD, 0);
		jail_keeper_exec_watch(p->keeper_fd, &watch);
		jail_msg(p, "exec ujail-keeper: %s; stopping the jail", strerror(errno));
	}
	kill(stub, SIGKILL);
	waitpid(stub, &status, 0);
	if (cgroup && keeper_cgroup_end(cgroup, err, sizeof(err)) < 0)
		jail_msg(p, "%s", err);
	jail_veth_delete_host(&p->veth);
	return JAIL_EXIT_SETUP;
}

int jail_run(const struct jail_opts *o)
{
	struct jail_plan p = {
		.o = o, .status_sock = { -1, -1 }, .parent_alive = { -1, -1 }, .keeper_fd = -1,
		.userns_fd = -1, .idrange_fd = -1,
		.veth.host_netns = -1,
		.cgroup = { .dir_fd = -1 },
		.record.fd = -1,
	};
	int status;

	p.name = o->name ? o->name : strrchr(o->argv[0], '/') ?
		 strrchr(o->argv[0], '/') + 1 : o->argv[0];
	p.seccomp.memfd = p.seccomp.keeper_fd = p.seccomp.notify_sock[0] = p.seccomp.notify_sock[1] = -1;
	/* Not dumpable: nothing in the jail may ptrace us or the stub. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (geteuid() != 0) {
		jail_msg(&p, "must run as root");
		return JAIL_EXIT_SETUP;
	}
	status = plan_jail(&p);
	if (status == 0)
		status = open_channels(&p) ? JAIL_EXIT_SETUP : run_jail(&p);
	plan_free(&p);
	return status;
}
