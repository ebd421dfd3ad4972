// SPDX-License-Identifier: GPL-2.0
/* The service's user namespace; see userns.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/*
 * The helpers are clone()d with CLONE_VM (the namespaces' first processes
 * with CLONE_NEWUSER: unshare() refuses a shared memory): sharing ujail's,
 * they copy none of its page tables (a fork() of the static ujail did,
 * twice). They run on these stacks, wait on pipes and make only plain
 * system calls; the outer ujail is blocked on a pipe while they work, so
 * the errno they share with it is never read in between.
 */
#define HELPER_STACK_SIZE (32 * 1024)

struct helper_stack {
	_Alignas(16) char bytes[HELPER_STACK_SIZE];
};

static struct helper_stack holder_stack, creator_stack, nested_stack;

/*
 * What the holder needs: its ends of the pipes, the maps, and the outer
 * ujail's ends, which its copy of the descriptors has too (no CLONE_FILES)
 * and it closes: it and the nested process read "go" until EOF.
 */
struct holder_args {
	int ready_fd, go_fd, outer_ready_fd, outer_go_fd;
	struct jail_idmap uid, gid;
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

/* The nested namespace's first process: stays until the outer ujail has it open. */
static int nested_child(void *arg)
{
	const struct holder_args *a = arg;
	char byte;

	close(a->ready_fd);
	while (read(a->go_fd, &byte, 1) > 0)
		;
	return 0;
}

/* The holder's job for the nested namespace's creator. */
struct nest_job {
	struct holder_args *a;
	struct nest_report *r;
};

/*
 * The creator, in the mapped namespace: as its root (an owner must be
 * mapped), start the nested namespace's first process, the holder's child
 * (CLONE_PARENT). The holder waits (CLONE_VFORK) and keeps host uid 0,
 * which writing that process's maps needs: ujail is not dumpable, so its
 * processes' /proc files belong to the host's root.
 */
static int create_nested(void *arg)
{
	struct nest_job *j = arg;

	/*
	 * Raw calls: the C library's set*id() would also act on what it
	 * takes for this process's other threads, ujail's.
	 */
	if (syscall(SYS_setresgid, 0, 0, 0) < 0 || syscall(SYS_setresuid, 0, 0, 0) < 0 ||
	    (j->r->pid = clone(nested_child, nested_stack.bytes + sizeof(nested_stack.bytes),
			       CLONE_VM | CLONE_NEWUSER | CLONE_PARENT | SIGCHLD, j->a)) < 0)
		j->r->err = errno;
	return 0;
}

/*
 * In the mapped namespace, with every capability there: cap its user
 * namespaces at 1 and make that one, with identity maps.
 */
static struct nest_report nest(struct holder_args *a)
{
	struct nest_report r = { 0, -1, "" };
	struct nest_job j = { a, &r };
	pid_t creator;

	if (write_text("/proc/sys/user/max_user_namespaces", "1\n") < 0) {
		r.err = errno;
		snprintf(r.what, sizeof(r.what), "write its max_user_namespaces");
		return r;
	}
	creator = clone(create_nested, creator_stack.bytes + sizeof(creator_stack.bytes),
			CLONE_VM | CLONE_VFORK | SIGCHLD, &j);
	if (creator < 0)
		r.err = errno;
	else
		waitpid(creator, NULL, 0);
	if (r.err) {
		snprintf(r.what, sizeof(r.what), "start the nested one");
	} else if (write_map(r.pid, "uid_map", "nested", (struct jail_idmap){ 0, a->uid.count },
			     NULL, 0) ||
		   write_map(r.pid, "gid_map", "nested", (struct jail_idmap){ 0, a->gid.count },
			     NULL, 0)) {
		r.err = errno;
		snprintf(r.what, sizeof(r.what), "write the nested one's maps");
	}
	return r;
}

/*
 * The namespace's first process: waits until the maps are written; then,
 * if told ('n'), makes the nested namespace and says which process has it.
 * It stays until the outer ujail has opened the namespace (EOF on go_fd),
 * and the nested one's process with it.
 */
static int hold_new_userns(void *arg)
{
	struct holder_args *a = arg;
	struct nest_report r;
	char byte;
	int ret = 0;

	close(a->outer_ready_fd);
	close(a->outer_go_fd);
	if (read(a->go_fd, &byte, 1) != 1 || byte != 'n')
		return 0;
	r = nest(a);
	if (write(a->ready_fd, &r, sizeof(r)) != sizeof(r))
		ret = 1;
	while (read(a->go_fd, &byte, 1) > 0)
		;
	if (r.pid > 0)
		waitpid(r.pid, NULL, 0);
	return ret;
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

static int clone_failed(int saved, char *err, size_t errlen)
{
	return ujs_fail(err, errlen, "-f: clone(CLONE_NEWUSER): %s%s", strerror(saved),
			saved == EPERM ?
			" (the kernel refuses it to a chrooted process, and where user namespaces are restricted)" :
			saved == ENOSPC || saved == EUSERS ?
			" (user namespaces at their limit: see user.max_user_namespaces)" : "");
}

int jail_userns_create(struct jail_idmap uid, struct jail_idmap gid, bool limit,
		       char *err, size_t errlen)
{
	int ready[2], go[2], fd = -1;
	struct holder_args a;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) < 0)
		return ujs_fail(err, errlen, "-f: pipe: %s", strerror(errno));
	if (pipe2(go, O_CLOEXEC) < 0) {
		close(ready[0]);
		close(ready[1]);
		return ujs_fail(err, errlen, "-f: pipe: %s", strerror(errno));
	}
	a = (struct holder_args){ ready[1], go[0], ready[0], go[1], uid, gid };
	pid = clone(hold_new_userns, holder_stack.bytes + sizeof(holder_stack.bytes),
		    CLONE_VM | CLONE_NEWUSER | SIGCHLD, &a);
	close(ready[1]);
	close(go[0]);
	if (pid < 0)
		clone_failed(errno, err, errlen);
	else
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
