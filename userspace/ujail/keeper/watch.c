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
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "keeper.h"

struct watch_state {
	const struct keeper_watch *w;
	int status_fd, sigfd, timerfd;
	bool escalating;	/* SIGTERM seen: SIGKILL when the timer fires */
	bool killed;		/* the timer fired: SIGKILL sent */
	bool pidfile_written;
	int status;		/* wait status of the stub */
};

static void write_pidfile(struct watch_state *s, pid_t pid)
{
	const char *path = s->w->pidfile;
	char line[32];
	int len = snprintf(line, sizeof(line), "%d\n", (int)pid);
	int fd;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, line, (size_t)len) != len || close(fd) < 0) {
		keeper_msg(s->w->name, "-P %s: %s; stopping the jail", path, strerror(errno));
		kill(s->w->stub, SIGKILL);
		return;
	}
	s->pidfile_written = true;
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

/* Returns true once the stub has ended. */
static bool handle_signal(struct watch_state *s)
{
	struct signalfd_siginfo si;

	if (read(s->sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return false;
	if (si.ssi_signo == SIGCHLD)
		return waitpid(s->w->stub, &s->status, WNOHANG) == s->w->stub;
	kill(s->w->stub, (int)si.ssi_signo);
	if (si.ssi_signo == SIGTERM)
		start_escalation(s);
	return false;
}

/* A signal may have been consumed before the exec: look once anyway. */
static bool stub_ended(struct watch_state *s)
{
	return waitpid(s->w->stub, &s->status, WNOHANG) == s->w->stub;
}

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
			waitpid(s->w->stub, &s->status, 0);
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
	char err[PATH_MAX + 128];

	if (w->cgroup && keeper_cgroup_end(w->cgroup, err, sizeof(err)) < 0)
		keeper_msg(w->name, "%s", err);
}

int keeper_watch_run(const struct keeper_watch *w)
{
	struct watch_state s = {
		.w = w, .status_fd = w->status_fd, .sigfd = keeper_signalfd(w->name),
		.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC),
	};

	if (s.sigfd < 0 || s.timerfd < 0) {
		if (s.timerfd < 0)
			keeper_msg(w->name, "timerfd: %s; stopping the jail", strerror(errno));
		kill(w->stub, SIGKILL);
		waitpid(w->stub, &s.status, 0);
		end_cgroup(w);
		if (w->host_ifindex)
			keeper_delete_link(w->name, w->host_ifindex);
		if (w->record)
			unlink(w->record);
		return KEEPER_EXIT_SETUP;
	}
	watch_loop(&s);
	/* The stub (the jail's PID 1) ended: whatever else is in the cgroup too. */
	end_cgroup(w);
	if (w->host_ifindex)
		keeper_delete_link(w->name, w->host_ifindex);
	/* Still locked by us: no new jail of the name can have replaced it. */
	if (w->record)
		unlink(w->record);
	if (s.pidfile_written)
		unlink(w->pidfile);
	return keeper_exit_code(s.status);
}
