// SPDX-License-Identifier: GPL-2.0
/* The jail's own cgroup v2; see cgroup.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "isolation/cgroup.h"
#include "isolation/clone_flags.h"
#include "seccomp/errmsg.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define LIST_MAX 512
/* Marks the cgroups ujail makes, so that only those are ever swept. */
#define OWNER_XATTR "trusted.ujail"	/* a cgroup.controllers or cgroup.subtree_control */

/* One limit option: its value goes into FILE, which CONTROLLER provides. */
struct limit {
	const char *option;
	size_t member;		/* offsetof() its char * in struct jail_opts */
	size_t value;		/* offsetof() what FILE takes, parsed by options.c */
	const char *controller;
	const char *file;
};

#define LIMIT(opt, m, ctl, f) \
	{ opt, offsetof(struct jail_opts, m), offsetof(struct jail_opts, m##_value), ctl, f }

static const struct limit limits[] = {
	LIMIT("--memory-max", memory_max, "memory", "memory.max"),
	LIMIT("--memory-high", memory_high, "memory", "memory.high"),
	LIMIT("--cpu-max", cpu_max, "cpu", "cpu.max"),
	LIMIT("--pids-max", pids_max, "pids", "pids.max"),
	LIMIT("--io-weight", io_weight, "io", "io.weight"),
};

#define N_LIMITS (sizeof(limits) / sizeof(limits[0]))

static const char *limit_value(const struct jail_opts *o, const struct limit *l)
{
	return *(char *const *)((const char *)o + l->member);
}

/* The option messages about the parent name. */
static const char *parent_option(const struct jail_opts *o, const struct jail_cgroup *cg)
{
	return o->cgroup_parent ? "--cgroup-parent" : cg->why;
}

/* Is @word one of the space-separated words of @list? */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len)
		if ((p == list || p[-1] == ' ') && (!p[len] || p[len] == ' ' || p[len] == '\n'))
			return true;
	return false;
}

/* DIR/FILE into @buf (LIST_MAX), without the final newline. */
static int read_list(const char *dir, const char *file, char *buf)
{
	char path[PATH_MAX];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, LIST_MAX - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_value(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	size_t len = strlen(value);
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, value, len) != (ssize_t)len)
		ret = -1;
	if (close(fd) < 0 && !ret)
		ret = -1;
	return ret;
}

/* Cut the last component off @path ("/a/b" -> "/a", "/a" -> "/"). */
static void cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash == path)
		path[1] = '\0';
	else if (slash)
		*slash = '\0';
}

/* The longest existing prefix of the parent: a directory in a cgroup2. */
static int find_existing(const struct jail_opts *o, struct jail_cgroup *cg, char *err,
			 size_t errlen)
{
	const char *opt = parent_option(o, cg);
	char path[PATH_MAX];
	struct statfs fs;
	struct stat st;

	snprintf(path, sizeof(path), "%s", cg->parent);
	while (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return ujs_fail(err, errlen, "%s: %s: %s", opt, path, strerror(errno));
		cut_last(path);
	}
	if (!S_ISDIR(st.st_mode))
		return ujs_fail(err, errlen, "%s: %s: not a directory", opt, path);
	if (statfs(path, &fs) < 0 || fs.f_type != CGROUP2_SUPER_MAGIC)
		return ujs_fail(err, errlen, "%s: %s is not a cgroup v2 directory "
				"(no cgroup2 file system is mounted there%s)", opt, path,
				o->cgroup_parent ? "" : "; --cgroup-parent names another place");
	cg->existing = strlen(path);
	snprintf(cg->mount, sizeof(cg->mount), "%s", path);
	return 0;
}

/* Walk up from the existing prefix to the top of its cgroup2 mount. */
static void find_mount(struct jail_cgroup *cg)
{
	struct stat here, up;
	char above[PATH_MAX];

	for (;;) {
		snprintf(above, sizeof(above), "%s", cg->mount);
		cut_last(above);
		if (!strcmp(above, cg->mount) || stat(cg->mount, &here) < 0 ||
		    stat(above, &up) < 0 || up.st_dev != here.st_dev)
			return;
		snprintf(cg->mount, sizeof(cg->mount), "%s", above);
	}
}

/* Every controller a limit needs is offered at the top of the mount. */
static int check_controllers(const struct jail_opts *o, const struct jail_cgroup *cg,
			     char *err, size_t errlen)
{
	char offered[LIST_MAX];

	if (read_list(cg->mount, "cgroup.controllers", offered) < 0)
		return ujs_fail(err, errlen, "%s: %s/cgroup.controllers: %s", cg->why,
				cg->mount, strerror(errno));
	for (size_t i = 0; i < N_LIMITS; i++)
		if (limit_value(o, &limits[i]) && !has_word(offered, limits[i].controller))
			return ujs_fail(err, errlen, "%s: the cgroup v2 controller \"%s\" is not "
					"available in %s (cgroup.controllers lists: %s)",
					limits[i].option, limits[i].controller, cg->mount,
					*offered ? offered : "nothing");
	return 0;
}

int jail_cgroup_plan(const struct jail_opts *o, struct jail_cgroup *cg, char *err,
		     size_t errlen)
{
	size_t len;

	memset(cg, 0, sizeof(*cg));
	cg->dir_fd = -1;
	for (size_t i = 0; i < N_LIMITS && !cg->why; i++)
		if (limit_value(o, &limits[i]))
			cg->why = limits[i].option;
	if (!cg->why && o->cgroup_parent)
		cg->why = "--cgroup-parent";
	if (!cg->why)
		return 0;
	cg->active = true;
	len = (size_t)snprintf(cg->parent, sizeof(cg->parent), "%s",
			       o->cgroup_parent ? o->cgroup_parent : CGROUP_DEFAULT_PARENT);
	if (len >= sizeof(cg->parent) - 32)
		return ujs_fail(err, errlen, "--cgroup-parent: path too long");
	while (len > 1 && cg->parent[len - 1] == '/')
		cg->parent[--len] = '\0';
	if (find_existing(o, cg, err, errlen))
		return -1;
	find_mount(cg);
	return check_controllers(o, cg, err, errlen);
}

/* ---- creation ---- */

/* Enable in @dir's cgroup.subtree_control what the limits need. */
static int enable_controllers(const struct jail_opts *o, const char *dir, char *err,
			      size_t errlen)
{
	char enabled[LIST_MAX], plus[32];

	if (read_list(dir, "cgroup.subtree_control", enabled) < 0)
		return ujs_fail(err, errlen, "%s/cgroup.subtree_control: %s", dir,
				strerror(errno));
	for (size_t i = 0; i < N_LIMITS; i++) {
		const struct limit *l = &limits[i];

		if (!limit_value(o, l) || has_word(enabled, l->controller))
			continue;
		snprintf(plus, sizeof(plus), "+%s", l->controller);
		if (write_value(dir, "cgroup.subtree_control", plus) < 0)
			return ujs_fail(err, errlen, "%s: cannot enable the \"%s\" controller in "
					"%s/cgroup.subtree_control: %s%s", l->option,
					l->controller, dir, strerror(errno),
					errno == EBUSY ? " (that cgroup has processes of its own)" : "");
		strncat(enabled, " ", sizeof(enabled) - strlen(enabled) - 1);
		strncat(enabled, l->controller, sizeof(enabled) - strlen(enabled) - 1);
	}
	return 0;
}

/* From the mount down to the parent: make what is missing, enable the
 * controllers in each (a cgroup gets those its parent enables). */
static int prepare_parent(const struct jail_opts *o, struct jail_cgroup *cg, char *err,
			  size_t errlen)
{
	size_t len = strlen(cg->mount), end = strlen(cg->parent);
	char dir[PATH_MAX];

	for (;;) {
		snprintf(dir, sizeof(dir), "%.*s", (int)len, cg->parent);
		if (len > cg->existing && mkdir(dir, 0755) < 0 && errno != EEXIST)
			return ujs_fail(err, errlen, "%s: mkdir %s: %s", parent_option(o, cg),
					dir, strerror(errno));
		if (enable_controllers(o, dir, err, errlen))
			return -1;
		if (len >= end)
			return 0;
		len += strcspn(cg->parent + len + 1, "/") + 1;
	}
}

static int write_limits(const struct jail_opts *o, const struct jail_cgroup *cg, char *err,
			size_t errlen)
{
	for (size_t i = 0; i < N_LIMITS; i++) {
		const struct limit *l = &limits[i];
		const char *v = limit_value(o, l);
		const char *value = (const char *)o + l->value;

		if (!v)
			continue;
		if (write_value(cg->path, l->file, value) < 0)
			return ujs_fail(err, errlen, "%s '%s': %s/%s: %s", l->option, v,
					cg->path, l->file, strerror(errno));
	}
	return 0;
}

/*
 * A ujail killed by SIGKILL cannot remove its jail's cgroup (the jail dies
 * with it, the directory stays): the next jail in the parent removes the
 * empty ones it marked whose ujail, the PID of NAME-PID, is gone.
 */
static void sweep_dead(const struct jail_cgroup *cg)
{
	DIR *d = opendir(cg->parent);
	char path[PATH_MAX], mark;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		const char *dash = strrchr(e->d_name, '-');
		char *end = NULL;
		long pid = dash ? strtol(dash + 1, &end, 10) : 0;

		if (e->d_type != DT_DIR || pid <= 0 || *end)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* its ujail still runs */
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", cg->parent, e->d_name) <
		    sizeof(path) && getxattr(path, OWNER_XATTR, &mark, 1) == 1)
			rmdir(path);	/* fails while a process is in it */
	}
	if (d)
		closedir(d);
}

/* PARENT/NAME-PID; one left by a dead ujail of the same pid is removed. */
static int make_jail_dir(struct jail_cgroup *cg, const char *name, char *err, size_t errlen)
{
	if ((size_t)snprintf(cg->path, sizeof(cg->path), "%s/%s-%d", cg->parent, name,
			     (int)getpid()) >= sizeof(cg->path)) {
		cg->path[0] = '\0';
		return ujs_fail(err, errlen, "%s: the cgroup's path is too long", cg->why);
	}
	if (mkdir(cg->path, 0755) == 0 || (errno == EEXIST && rmdir(cg->path) == 0 &&
					   mkdir(cg->path, 0755) == 0)) {
		setxattr(cg->path, OWNER_XATTR, "1", 1, 0);	/* for sweep_dead() */
		return 0;
	}
	ujs_fail(err, errlen, "%s: mkdir %s: %s", cg->why, cg->path, strerror(errno));
	cg->path[0] = '\0';
	return -1;
}

int jail_cgroup_create(const struct jail_opts *o, struct jail_cgroup *cg, const char *name,
		       char *err, size_t errlen)
{
	if (!cg->active)
		return 0;
	if (prepare_parent(o, cg, err, errlen))
		goto fail;
	sweep_dead(cg);
	if (make_jail_dir(cg, name, err, errlen) ||
	    write_limits(o, cg, err, errlen))
		goto fail;
	cg->dir_fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->dir_fd < 0) {
		ujs_fail(err, errlen, "%s: %s: %s", cg->why, cg->path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	jail_cgroup_remove(cg);
	return -1;
}

void jail_cgroup_remove(struct jail_cgroup *cg)
{
	char dir[PATH_MAX];

	jail_cgroup_close(cg);
	if (cg->path[0])
		rmdir(cg->path);
	cg->path[0] = '\0';
	/* The parents this run made, deepest first; one another jail uses stays. */
	snprintf(dir, sizeof(dir), "%s", cg->parent);
	while (strlen(dir) > cg->existing && rmdir(dir) == 0)
		cut_last(dir);
}

void jail_cgroup_close(struct jail_cgroup *cg)
{
	if (cg->dir_fd >= 0)
		close(cg->dir_fd);
	cg->dir_fd = -1;
}

/* ---- the start of the stub or of a member ---- */

#define UJ_CLONE_INTO_CGROUP 0x200000000ULL

/* struct clone_args of <linux/sched.h> up to .cgroup (5.7). */
struct uj_clone_args {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		stack_size, tls, set_tid, set_tid_size, cgroup;
};

/* clone3() into the cgroup, fork-like; -1 and errno as clone3's. */
static pid_t clone_into(struct jail_cgroup *cg, unsigned long flags)
{
	struct uj_clone_args args = {
		.flags = flags | UJ_CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = (unsigned long long)cg->dir_fd,
	};
	pid_t pid;

	/* Before the call: the child's copy of memory must say so too. */
	cg->born_inside = true;
	pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0)
		cg->born_inside = false;
	return pid;
}

/* No clone3() or no CLONE_INTO_CGROUP (before 5.7). */
static bool clone_into_unsupported(int err)
{
	return err == ENOSYS || err == E2BIG || err == EINVAL;
}

pid_t jail_cgroup_spawn(struct jail_cgroup *cg, unsigned long flags, int (*fn)(void *),
			void *arg, void *stack_top)
{
	pid_t pid;

	if (cg->active) {
		pid = clone_into(cg, flags | CLONE_VFORK);
		if (pid == 0)
			_exit(fn(arg));	/* in a copy of our memory */
		if (pid > 0 || !clone_into_unsupported(errno))
			return pid;
	}
	return clone(fn, stack_top, flags | CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
}

/* ---- in the stub ---- */

int jail_cgroup_enter(struct jail_cgroup *cg, bool newns, char *err, size_t errlen)
{
	int fd;

	if (!cg->active)
		return 0;
	if (!cg->born_inside) {
		/* "0": the writer itself; the service, its child, starts in there. */
		fd = openat(cg->dir_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			ujs_fail(err, errlen, "%s: join the cgroup %s: %s", cg->why, cg->path,
				 strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	/* -F: the namespace's root is the jail's cgroup: it sees "0::/". */
	if (newns && unshare(CLONE_NEWCGROUP) < 0)
		return ujs_fail(err, errlen, "-F: unshare the cgroup namespace: %s",
				strerror(errno));
	return 0;
}
