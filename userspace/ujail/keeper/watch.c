// SPDX-License-Identifier: GPL-2.0
/*
 * "ujail-keeper watch": the outer process of a running jail (keeper.h).
 * It waits on three things: signals (forwarded to the stub; SIGCHLD: the
 * stub ended), the status socket (the service's start, with its host pid
 * in the credentials) and the -t timer armed by a SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "keeper/keeper.h"
#include "keeper/msg.h"
#include "seccomp/errmsg.h"

struct watch_state {
	const struct keeper_watch *w;
	int status_fd, sigfd, timerfd;
	bool escalating;	/* SIGTERM seen: SIGKILL when the timer fires */
	bool killed;		/* the timer fired: SIGKILL sent */
	/*
	 * The pid file's directory, opened when the jail starts, and its name
	 * there: a directory others can write to (a service's own under
	 * /var/run) must not lead root's writes or unlink elsewhere.
	 */
	int piddir_fd;
	const char *pid_base;
	bool pidfile_written;
	dev_t pid_dev;		/* the file written: removed only if still there */
	ino_t pid_ino;
	int status;		/* wait status of the stub */
};

/* -P's directory, held open; -1 after a message when it cannot be. */
static int open_piddir(struct watch_state *s)
{
	const char *path = s->w->pidfile, *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? (slash == path ? "/" : path) : ".");
	s->pid_base = slash ? slash + 1 : path;
	s->piddir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->piddir_fd < 0)
		keeper_msg(s->w->name, "-P %s: directory %s: %s", path, dir, strerror(errno));
	return s->piddir_fd;
}

/*
 * A new file beside the name, then renamed over it: whatever was planted
 * there (a symbolic link, a hard link to another file) is replaced, never
 * followed or written through.
 */
static int put_pidfile(struct watch_state *s, const char *line, size_t len)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int fd = -1, ret = -1;

	/* A name nobody can have planted beforehand. */
	for (int tries = 0; fd < 0 && tries < 8; tries++) {
		unsigned int r;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			return -1;
		if (snprintf(tmp, sizeof(tmp), ".%s.%08x", s->pid_base, r) >= (int)sizeof(tmp)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = openat(s->piddir_fd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	if (fd < 0)
		return -1;
	if (write(fd, line, len) == (ssize_t)len && fstat(fd, &st) == 0 &&
	    renameat(s->piddir_fd, tmp, s->piddir_fd, s->pid_base) == 0) {
		s->pid_dev = st.st_dev;
		s->pid_ino = st.st_ino;
		ret = 0;
	}
	if (close(fd) < 0)
		ret = -1;
	if (ret < 0)
		unlinkat(s->piddir_fd, tmp, 0);
	return ret;
}

static void write_pidfile(struct watch_state *s, pid_t pid)
{
	char line[32];
	int len = snprintf(line, sizeof(line), "%d\n", (int)pid);

	if (!s->w->pidfile)
		return;
	if (put_pidfile(s, line, (size_t)len) < 0) {
		keeper_msg(s->w->name, "-P %s: %s; stopping the jail", s->w->pidfile,
			   strerror(errno));
		kill(s->w->stub, SIGKILL);
		return;
	}
	s->pidfile_written = true;
}

/* Our pid file, if it is still the file we wrote (not one put in its place). */
static void remove_pidfile(const struct watch_state *s)
{
	struct stat st;

	if (s->pidfile_written &&
	    fstatat(s->piddir_fd, s->pid_base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == s->pid_dev && st.st_ino == s->pid_ino)
		unlinkat(s->piddir_fd, s->pid_base, 0);
}

/* The service's one message: its pid, as our namespace sees it. */
static void read_service_pid(struct watch_state *s)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *c;
	ssize_t n = recvmsg(s->status_fd, &msg, MSG_CMSG_CLOEXEC);

	if (n < 0 && errno == EINTR)
		return;
	for (c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cred;

			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			write_pidfile(s, cred.pid);
		}
	}
	/* One message, or the end: either way the socket is done with. */
	close(s->status_fd);
	s->status_fd = -1;
}

static void start_escalation(struct watch_state *s)
{
	struct itimerspec when = { .it_value = { .tv_sec = s->w->term_timeout } };

	if (s->escalating)
		return;
	s->escalating = true;
	if (s->w->term_timeout == 0 || timerfd_settime(s->timerfd, 0, &when, NULL) < 0)
		kill(s->w->stub, SIGKILL);
}

/* Has the stub ended? It is left a zombie: reap_stub() reaps it. */
static bool stub_ended(struct watch_state *s)
{
	siginfo_t si = { 0 };

	return waitid(P_PID, (id_t)s->w->stub, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == s->w->stub;
}

/*
 * The record goes first: until the zombie is reaped its pid cannot be
 * reused, so a --join that read the record finds the jail's PID 1 or none.
 */
static void reap_stub(struct watch_state *s)
{
	if (s->w->record)
		unlink(s->w->record);
	waitpid(s->w->stub, &s->status, 0);
}

/* Returns true once the stub has ended. */
static bool handle_signal(struct watch_state *s)
{
	struct signalfd_siginfo si;

	if (read(s->sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return false;
	if (si.ssi_signo == SIGCHLD)
		return stub_ended(s);
	kill(s->w->stub, (int)si.ssi_signo);
	if (si.ssi_signo == SIGTERM)
		start_escalation(s);
	return false;
}

/* Returns once the stub has ended (a signal may have come before the exec). */
static void watch_loop(struct watch_state *s)
{
	while (!stub_ended(s)) {
		struct pollfd fds[3] = {
			{ .fd = s->sigfd, .events = POLLIN },
			{ .fd = s->status_fd, .events = POLLIN },
			{ .fd = s->killed ? -1 : s->timerfd, .events = POLLIN },
		};

		if (poll(fds, 3, -1) < 0 && errno != EINTR) {
			keeper_msg(s->w->name, "poll: %s; stopping the jail", strerror(errno));
			kill(s->w->stub, SIGKILL);
			return;
		}
		if (fds[1].revents)
			read_service_pid(s);
		if (fds[2].revents & POLLIN) {
			/* The service outlived -t seconds after SIGTERM. */
			kill(s->w->stub, SIGKILL);
			s->killed = true;
		}
		if ((fds[0].revents & POLLIN) && handle_signal(s))
			return;
	}
}

static void end_cgroup(const struct keeper_watch *w)
{
	char err[ERR_MAX];

	if (w->cgroup && keeper_cgroup_end(w->cgroup, err, sizeof(err)) < 0)
		keeper_msg(w->name, "%s", err);
}

int keeper_watch_run(const struct keeper_watch *w)
{
	struct watch_state s = {
		.w = w, .status_fd = w->status_fd, .sigfd = keeper_signalfd(w->name),
		.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), .piddir_fd = -1,
	};

	if (s.sigfd < 0 || s.timerfd < 0 || (w->pidfile && open_piddir(&s) < 0)) {
		if (s.timerfd < 0)
			keeper_msg(w->name, "timerfd: %s; stopping the jail", strerror(errno));
		kill(w->stub, SIGKILL);
		reap_stub(&s);
		end_cgroup(w);
		if (w->host_ifindex)
			keeper_delete_link(w->name, w->host_ifindex);
		return KEEPER_EXIT_SETUP;
	}
	watch_loop(&s);
	/* Still locked by us: no new jail of the name can have replaced the record. */
	reap_stub(&s);
	/* The stub (the jail's PID 1) ended: whatever else is in the cgroup too. */
	end_cgroup(w);
	if (w->host_ifindex)
		keeper_delete_link(w->name, w->host_ifindex);
	remove_pidfile(&s);
	return keeper_exit_code(s.status);
}
