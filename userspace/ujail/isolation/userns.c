// SPDX-License-Identifier: GPL-2.0
/* The service's user namespace; see userns.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolation/userns.h"
#include "seccomp/errmsg.h"

bool jail_userns_wanted(const struct jail_opts *o)
{
	return o->userns || o->uid_map || o->gid_map;
}

static int write_map(pid_t pid, const char *file, const char *option,
		     struct jail_idmap map, char *err, size_t errlen)
{
	char path[64], line[64];
	int len = snprintf(line, sizeof(line), "0 %u %u\n", map.host, map.count);
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, line, (size_t)len) != len) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		errno = saved;
		return ujs_fail(err, errlen, "%s %u:%u: write %s: %s", option, map.host,
				map.count, path, strerror(saved));
	}
	close(fd);
	return 0;
}

/* What the holder says of the nested namespace: its first process, or why not. */
struct nest_report {
	int err;
	pid_t pid;
	char what[64];
};

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int ret = fd >= 0 && write(fd, text, (size_t)len) == len ? 0 : -1;
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
	return ret;
}

/* The nested namespace's first process: as the mapped root (an owner must
 * be mapped), unshare, say so, stay until the outer ujail has it open. */
static void nested_child(int report_fd, int go_fd)
{
	int err = 0;
	char byte;

	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0 || unshare(CLONE_NEWUSER) < 0)
		err = errno;
	if (write(report_fd, &err, sizeof(err)) != sizeof(err))
		_exit(1);
	close(report_fd);
	_exit(read(go_fd, &byte, 1) < 0);
}

/* In the mapped namespace, with every capability there: cap its user
 * namespaces at 1 and make that one, with identity maps. */
static struct nest_report nest(int go_fd, struct jail_idmap uid, struct jail_idmap gid)
{
	struct nest_report r = { 0, -1, "" };
	int gp[2], child_err = 0;

	if (write_text("/proc/sys/user/max_user_namespaces", "1\n") < 0) {
		r.err = errno;
		snprintf(r.what, sizeof(r.what), "write its max_user_namespaces");
		return r;
	}
	if (pipe2(gp, O_CLOEXEC) < 0 || (r.pid = fork()) < 0) {
		r.err = errno;
		snprintf(r.what, sizeof(r.what), "start the nested one");
		return r;
	}
	if (r.pid == 0)
		nested_child(gp[1], go_fd);
	close(gp[1]);
	if (read(gp[0], &child_err, sizeof(child_err)) != sizeof(child_err))
		child_err = ECHILD;
	close(gp[0]);
	if (child_err) {
		r.err = child_err;
		snprintf(r.what, sizeof(r.what), "unshare the nested one");
	} else if (write_map(r.pid, "uid_map", "nested", (struct jail_idmap){ 0, uid.count },
			     NULL, 0) ||
		   write_map(r.pid, "gid_map", "nested", (struct jail_idmap){ 0, gid.count },
			     NULL, 0)) {
		r.err = errno;
		snprintf(r.what, sizeof(r.what), "write the nested one's maps");
	}
	return r;
}

/*
 * The child: unshare, say so, wait until the maps are written; then, if
 * told ('n'), make the nested namespace and say which process has it.
 * It stays until the outer ujail has opened the namespace (EOF on @go_fd).
 */
static int hold_new_userns(int ready_fd, int go_fd, struct jail_idmap uid, struct jail_idmap gid)
{
	int err = unshare(CLONE_NEWUSER) < 0 ? errno : 0;
	struct nest_report r;
	char byte;

	if (write(ready_fd, &err, sizeof(err)) != sizeof(err))
		return 1;
	if (read(go_fd, &byte, 1) != 1 || byte != 'n')
		return 0;
	r = nest(go_fd, uid, gid);
	if (write(ready_fd, &r, sizeof(r)) != sizeof(r))
		return 1;
	while (read(go_fd, &byte, 1) > 0)
		;
	if (r.pid > 0)
		waitpid(r.pid, NULL, 0);
	return 0;
}

static int open_ns(pid_t pid, char *err, size_t errlen)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ujs_fail(err, errlen, "-f: open %s: %s", path, strerror(errno));
	return fd;
}

/* The holder makes the nested namespace; a descriptor of it, or -1 with @err. */
static int nest_and_open(int go_fd, int ready_fd, char *err, size_t errlen)
{
	struct nest_report r;

	if (write(go_fd, "n", 1) != 1 || read(ready_fd, &r, sizeof(r)) != sizeof(r))
		return ujs_fail(err, errlen, "-f: the namespace's first process died");
	if (r.err)
		return ujs_fail(err, errlen, "-f: the baseline's nested user namespace: %s: %s "
				"(--no-baseline goes without)", r.what, strerror(r.err));
	return open_ns(r.pid, err, errlen);
}

/* Both maps, then a descriptor of the namespace (@limit: of the nested one). */
static int map_and_open(pid_t pid, struct jail_idmap uid, struct jail_idmap gid, bool limit,
			int go_fd, int ready_fd, char *err, size_t errlen)
{
	if (write_map(pid, "uid_map", "--uid-map", uid, err, errlen) ||
	    write_map(pid, "gid_map", "--gid-map", gid, err, errlen))
		return -1;
	return limit ? nest_and_open(go_fd, ready_fd, err, errlen) : open_ns(pid, err, errlen);
}

static int wait_ready(int ready_fd, char *err, size_t errlen)
{
	int child_err;

	if (read(ready_fd, &child_err, sizeof(child_err)) != sizeof(child_err))
		return ujs_fail(err, errlen, "-f: the namespace's first process died");
	if (child_err)
		return ujs_fail(err, errlen, "-f: unshare(CLONE_NEWUSER): %s%s",
				strerror(child_err),
				child_err == EPERM ?
				" (the kernel refuses it to a chrooted process, and where user namespaces are restricted)" :
				child_err == ENOSPC || child_err == EUSERS ?
				" (user namespaces at their limit: see user.max_user_namespaces)" : "");
	return 0;
}

int jail_userns_create(struct jail_idmap uid, struct jail_idmap gid, bool limit,
		       char *err, size_t errlen)
{
	int ready[2], go[2], fd = -1;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) < 0)
		return ujs_fail(err, errlen, "-f: pipe: %s", strerror(errno));
	if (pipe2(go, O_CLOEXEC) < 0) {
		close(ready[0]);
		close(ready[1]);
		return ujs_fail(err, errlen, "-f: pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* Only the parent's end of "go" may keep it open. */
		close(go[1]);
		close(ready[0]);
		_exit(hold_new_userns(ready[1], go[0], uid, gid));
	}
	close(ready[1]);
	close(go[0]);
	if (pid < 0)
		ujs_fail(err, errlen, "-f: fork: %s", strerror(errno));
	else if (wait_ready(ready[0], err, errlen) == 0)
		fd = map_and_open(pid, uid, gid, limit, go[1], ready[0], err, errlen);
	close(go[1]);
	close(ready[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return fd;
}

int jail_userns_enter(int fd, char *err, size_t errlen)
{
	int ret = setns(fd, CLONE_NEWUSER);
	int saved = errno;

	close(fd);
	if (ret < 0)
		return ujs_fail(err, errlen, "-f: join the user namespace: %s", strerror(saved));
	return 0;
}
