// SPDX-License-Identifier: GPL-2.0
/* A member started into a running jail; see join.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/jail_keeper.h"
#include "exec/join.h"
#include "exec/service.h"
#include "isolation/cgroup.h"
#include "isolation/ns_names.h"
#include "isolation/userns.h"
#include "keeper/keeper.h"
#include "plan/plan.h"
#include "plan/registry.h"
#include "root/mount_api.h"
#include "seccomp/errmsg.h"

#define INIT_WAIT_MS 5000	/* from the record to the jail's keeper */
#define INIT_POLL_MS 10
#define UJ_RESOLVE_IN_ROOT 0x10
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

/* Where a bare command name is looked for in the jail (find_bare_command()). */
static const char *const jail_path[] = {
	"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin",
};

/* The namespaces a member joins, besides the pid one. */
static const unsigned int joined_ns[] = {
	CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP,
};

/*
 * A member is a plan (plan.h) that jail_service_exec() runs as it runs a
 * jail's service: made by jail_plan_init(), freed by jail_plan_free(),
 * with only the member's own parts filled; p.cgroup is the jail's (active:
 * it has one).
 */
struct member {
	struct jail_plan p;
	struct jail_record_info info;
	int pidfd;			/* the jail's PID 1 */
	int root_fd;			/* its root: /proc/PID/root */
	int exe_fd;			/* COMMAND in the jail, O_PATH */
	int ns_flags;			/* CLONE_NEW* to join, but pid */
};

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * Is process @pid "ujail-keeper init @name ..."? Anyone can write such a
 * command line: it only tells that the jail has started, once
 * check_identity() found the process to be the jail's PID 1.
 */
static bool is_keeper_init(pid_t pid, const char *name)
{
	char path[64], cmd[512], want[512];
	int want_len = snprintf(want, sizeof(want), "ujail-keeper%cinit%c%s%c", 0, 0, name, 0);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, cmd, sizeof(cmd));
	close(fd);
	return want_len > 0 && (size_t)want_len < sizeof(want) && n >= want_len &&
	       !memcmp(cmd, want, (size_t)want_len);
}

/* Our pidfd's process is still alive: what /proc/PID showed us was its. */
static bool init_alive(const struct member *m)
{
	return syscall(SYS_pidfd_send_signal, m->pidfd, 0, NULL, 0) == 0;
}

/*
 * The pid may have been reused since the record was read (the jail ended
 * meanwhile): the process must have the start time and the pid namespace
 * the record gives, which no other process can have.
 */
static int check_identity(const struct member *m, char *err, size_t errlen)
{
	const struct jail_pid_identity *want = &m->info.init_id;
	struct jail_pid_identity id;

	if (jail_pid_identity_read(m->info.init_pid, &id) < 0 || !init_alive(m))
		return ujs_fail(err, errlen, "--join %s: the jail ended", m->info.name);
	if (id.start_time != want->start_time || id.pidns_ino != want->pidns_ino)
		return ujs_fail(err, errlen, "--join %s: host pid %d is not the jail's PID 1 "
				"any more (started at %llu, not %llu; pid namespace %llu, not "
				"%llu): the jail ended", m->info.name, (int)m->info.init_pid,
				id.start_time, want->start_time, id.pidns_ino, want->pidns_ino);
	return 0;
}

/* The record names a live PID 1; once the jail runs, it is the keeper. */
static int open_jail_init(struct member *m, char *err, size_t errlen)
{
	const char *name = m->info.name;
	pid_t pid = m->info.init_pid;

	m->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (m->pidfd < 0)
		return ujs_fail(err, errlen, "--join %s: its PID 1 (host pid %d) is gone: %s",
				name, (int)pid, strerror(errno));
	if (check_identity(m, err, errlen))
		return -1;
	for (long waited = 0; !is_keeper_init(pid, name); waited += INIT_POLL_MS) {
		if (!init_alive(m))
			return ujs_fail(err, errlen, "--join %s: the jail ended", name);
		if (waited >= INIT_WAIT_MS)
			return ujs_fail(err, errlen, "--join %s: host pid %d is not the jail's "
					"ujail-keeper after %d ms", name, (int)pid, INIT_WAIT_MS);
		sleep_ms(INIT_POLL_MS);
	}
	return 0;
}

static bool same_ns(pid_t pid, const char *ns)
{
	char theirs[64], ours[64];
	struct stat a, b;

	snprintf(theirs, sizeof(theirs), "/proc/%d/ns/%s", (int)pid, ns);
	snprintf(ours, sizeof(ours), "/proc/self/ns/%s", ns);
	if (stat(theirs, &a) < 0 || stat(ours, &b) < 0)
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The user namespace is not one of them: it is each service's own (-f). */
static void plan_namespaces(struct member *m)
{
	for (size_t i = 0; i < sizeof(joined_ns) / sizeof(joined_ns[0]); i++)
		if (!same_ns(m->info.init_pid, jail_ns_name(joined_ns[i])))
			m->ns_flags |= (int)joined_ns[i];
}

/* @path inside the jail's root, symlinks resolved there: an executable file. */
static int open_in_jail(struct member *m, const char *path)
{
	struct uj_open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = UJ_RESOLVE_IN_ROOT | UJ_RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd = (int)syscall(SYS_openat2, m->root_fd, path, &how, sizeof(how));

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111)) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

/*
 * Can the jail write the file at @fd? Its mount or jailfs entry is not
 * read-only (root, we pass any other check): the jail's service may have
 * put it there.
 */
static bool jail_can_write(int fd)
{
	return syscall(SYS_faccessat2, fd, "", W_OK, AT_EMPTY_PATH | AT_EACCESS) == 0 ||
	       errno != EROFS;
}

/*
 * A bare name in jail_path[], in order, skipping copies the jail can
 * write: one the service planted early in the path (/usr/local/sbin) is
 * not taken for the program staged read-only later in it.
 */
static int find_bare_command(struct member *m, const char *cmd, bool *skipped)
{
	char *exe = m->p.exe;
	size_t len = sizeof(m->p.exe);

	for (size_t i = 0; i < sizeof(jail_path) / sizeof(jail_path[0]); i++) {
		int fd;

		if ((size_t)snprintf(exe, len, "%s/%s", jail_path[i], cmd) >= len)
			continue;
		fd = open_in_jail(m, exe);
		if (fd >= 0 && jail_can_write(fd)) {
			close(fd);
			*skipped = true;
			continue;
		}
		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* COMMAND as the jail has it: a path from its root, or a name in jail_path[]. */
static int find_command(struct member *m, char *err, size_t errlen)
{
	const char *cmd = m->p.o->argv[0];
	bool skipped = false;

	if (strchr(cmd, '/')) {
		snprintf(m->p.exe, sizeof(m->p.exe), "%s%s", cmd[0] == '/' ? "" : "/", cmd);
		m->exe_fd = open_in_jail(m, m->p.exe);
	} else {
		m->exe_fd = find_bare_command(m, cmd, &skipped);
	}
	if (m->exe_fd < 0 && skipped)
		return ujs_fail(err, errlen, "%s: the jail %s has it only where the jail can write "
				"it, not taken for a bare name (give its path)", cmd, m->p.name);
	if (m->exe_fd < 0)
		return ujs_fail(err, errlen, "%s: no such executable in the jail %s (its root "
				"has what it was started with: -r/-w)", cmd, m->p.name);
	return 0;
}

/*
 * The member's filter is installed right before execve(), whatever the
 * program: its dynamic loader, libraries and constructors come from the
 * jail, which the jail's service may have written, and must not run
 * before the filter as they would with the shim (installed before main()).
 */
static void filter_before_exec(struct member *m)
{
	struct jail_seccomp *sc = &m->p.seccomp;

	if (!sc->enabled || !sc->dynamic)
		return;
	sc->dynamic = false;
	if (sc->memfd >= 0)
		close(sc->memfd);
	sc->memfd = -1;
}

static int open_cgroup(struct member *m, char *err, size_t errlen)
{
	struct jail_cgroup *cg = &m->p.cgroup;

	if (!m->info.cgroup[0])
		return 0;
	snprintf(cg->path, sizeof(cg->path), "%s", m->info.cgroup);
	cg->dir_fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->dir_fd < 0)
		return ujs_fail(err, errlen, "--join %s: the jail's cgroup %s: %s", m->p.name,
				cg->path, strerror(errno));
	cg->active = true;
	return 0;
}

/* The member's own settings, checked on the host as ujail checks a jail's. */
static int plan_service(struct member *m, const char *self, char *err, size_t errlen)
{
	const struct jail_opts *o = m->p.o;
	char exe_path[64];
	int ret;

	snprintf(exe_path, sizeof(exe_path), "/proc/self/fd/%d", m->exe_fd);
	m->p.caps.keep_all = o->keep_caps;
	ret = jail_accounts_resolve(&jail_host_accounts, o->user, o->group, &m->p.creds,
				    &m->p.accounts, err, errlen) ||
	      (o->capabilities && jail_caps_load(o->capabilities, &m->p.caps, err, errlen)) ||
	      /* No signal scope: a member may signal the service (kill -HUP); the
	       * jail's pid namespace confines it. Abstract sockets: where it
	       * would otherwise share the host's. */
	      jail_baseline_plan(&m->p.baseline, o, false, !(m->ns_flags & CLONE_NEWNET),
				 err, errlen) ||
	      /* The shim it would stage goes to p.deps, unused: a member stages nothing. */
	      jail_seccomp_prepare(&m->p.seccomp, o->seccomp, jail_caps_bounding(&m->p.caps),
				   m->p.baseline.on, exe_path, self, &m->p.deps, err, errlen) ||
	      (jail_userns_wanted(o) && jail_plan_userns(&m->p, err, errlen));
	filter_before_exec(m);
	return ret ? -1 : 0;
}

static int plan_member(struct member *m)
{
	char err[ERR_MAX], self[PATH_MAX], root[64];

	jail_self_exe(self, sizeof(self));
	if (jail_record_read(m->p.name, &m->info, err, sizeof(err)) ||
	    open_jail_init(m, err, sizeof(err)))
		goto fail;
	/* Its messages and its -f range (idrange.h) are the jail's name's. */
	m->p.name = m->info.name;
	plan_namespaces(m);
	snprintf(root, sizeof(root), "/proc/%d/root", (int)m->info.init_pid);
	m->root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (m->root_fd < 0) {
		ujs_fail(err, sizeof(err), "--join %s: %s: %s", m->p.name, root, strerror(errno));
		goto fail;
	}
	/* Alive after those looks at /proc/PID: they were at the jail's PID 1. */
	if (!init_alive(m)) {
		ujs_fail(err, sizeof(err), "--join %s: the jail ended", m->p.name);
		goto fail;
	}
	if (find_command(m, err, sizeof(err))) {
		jail_msg(&m->p, "%s", err);
		return JAIL_EXIT_NOT_STARTED;
	}
	m->p.keeper_fd = jail_keeper_open(self, err, sizeof(err));
	if (m->p.keeper_fd < 0 || plan_service(m, self, err, sizeof(err)) ||
	    open_cgroup(m, err, sizeof(err)))
		goto fail;
	if (m->p.o->debug) {
		jail_baseline_describe(&m->p.baseline, err, sizeof(err));
		jail_msg(&m->p, "%s", err);
	}
	if (jail_plan_env(&m->p)) {
		ujs_fail(err, sizeof(err), "environment: out of memory");
		goto fail;
	}
	return 0;
fail:
	jail_msg(&m->p, "%s", err);
	return JAIL_EXIT_SETUP;
}

/* The member, in the jail's pid namespace: the rest of the jail, before the service. */
static void member_enter(struct jail_plan *p, void *arg)
{
	struct member *m = arg;
	char err[ERR_MAX];

	(void)p;
	/* The cgroup first (unless born in it): nothing of the member runs outside its limits. */
	if (jail_cgroup_enter(&m->p.cgroup, false, err, sizeof(err)) < 0) {
		jail_msg(&m->p, "%s", err);
		_exit(JAIL_EXIT_SETUP);
	}
	if (m->ns_flags && setns(m->pidfd, m->ns_flags) < 0) {
		jail_msg(&m->p, "join the jail's namespaces (%#x): %s", m->ns_flags,
			 strerror(errno));
		_exit(JAIL_EXIT_SETUP);
	}
	if (chdir("/") < 0) {
		jail_msg(&m->p, "chdir / in the jail: %s", strerror(errno));
		_exit(JAIL_EXIT_SETUP);
	}
}

static int open_member_channels(struct member *m)
{
	char err[ERR_MAX];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, m->p.status_sock) < 0) {
		jail_msg(&m->p, "status socket: %s", strerror(errno));
		return -1;
	}
	if (jail_seccomp_notify_open(&m->p.seccomp, err, sizeof(err)) < 0) {
		jail_msg(&m->p, "%s", err);
		return -1;
	}
	return 0;
}

/* Start the member and become its keeper; returns only on failure. */
static int start_member(struct member *m)
{
	struct jail_seccomp *sc = &m->p.seccomp;
	bool notify = jail_seccomp_notifies(sc);
	sigset_t set;
	int status;

	if (open_member_channels(m))
		return JAIL_EXIT_SETUP;
	/* Our children are born in the jail's pid namespace; we stay outside. */
	if (setns(m->pidfd, CLONE_NEWPID) < 0) {
		jail_msg(&m->p, "join the jail's pid namespace: %s", strerror(errno));
		return JAIL_EXIT_SETUP;
	}
	keeper_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	/* Born in the jail's cgroup where the kernel can, else moved in by member_enter(). */
	status = jail_service_run(&m->p, &m->p.cgroup, member_enter, m);
	/* Closed by a hand-over that failed: not again by jail_plan_free(). */
	m->p.status_sock[1] = -1;
	if (notify)
		sc->notify_sock[1] = -1;
	return status;
}

/* Nothing opened yet; messages name the jail joined until its record says. */
static void member_init(struct member *m, const struct jail_opts *o)
{
	*m = (struct member){ .pidfd = -1, .root_fd = -1, .exe_fd = -1 };
	jail_plan_init(&m->p, o);
	m->p.name = o->join;
	m->p.cgroup.why = "--join";
}

static void member_free(struct member *m)
{
	const int fds[] = { m->pidfd, m->root_fd, m->exe_fd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	jail_plan_free(&m->p);
}

int jail_join_run(const struct jail_opts *o)
{
	struct member m;
	int status;

	member_init(&m, o);
	/* Not dumpable: nothing in the jail may ptrace us or the member. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (geteuid() != 0) {
		jail_msg(&m.p, "must run as root");
		return JAIL_EXIT_SETUP;
	}
	status = plan_member(&m);
	if (status == 0)
		status = start_member(&m);
	member_free(&m);
	return status;
}
