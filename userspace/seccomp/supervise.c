/* SPDX-License-Identifier: GPL-2.0 */
/* The supervisor loop of ujail-seccomp run; see supervise.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf.h"
#include "errmsg.h"
#include "fdpass.h"
#include "supervise.h"
#include "syscalls.h"

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

struct state {
	const struct ujs_supervisor *sv;
	pid_t child;
	bool exited;
	int status;		/* wait status of the child */
	int sock;		/* the listener comes on it; -1 once it did or cannot */
	int listener;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
};

void ujs_supervise_sigset(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(set, forwarded_signals[i]);
	sigaddset(set, SIGCHLD);
}

void ujs_log_comm(char *buf, size_t len, const char *comm)
{
	const unsigned char *p;
	size_t at = 0;

	for (p = (const unsigned char *)comm; *p; p++) {
		if (*p == '"' || *p < 0x21 || *p > 0x7e)
			break;
	}
	if (!*p) {
		snprintf(buf, len, "%s", comm);
		return;
	}
	if (len)
		buf[0] = '\0';
	for (p = (const unsigned char *)comm; *p && at + 2 < len; p++, at += 2)
		snprintf(buf + at, 3, "%02X", *p);
}

void ujs_denial_line(char *buf, size_t len, const char *jail, const char *comm,
		     pid_t pid, uint32_t audit_arch, uint32_t nr)
{
	const char *name = ujs_syscall_name_audit(audit_arch, nr);
	char field[2 * UJS_COMM_MAX + 1];

	ujs_log_comm(field, sizeof(field), comm);
	snprintf(buf, len, "jail %s: %s[%d] denied syscall %s (%u)", jail, field,
		 (int)pid, name ? name : "?", nr);
}

static void read_comm(pid_t pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, len - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(comm, len, "?");
		return;
	}
	/* The name may hold a newline too: only the last one is /proc's. */
	if (comm[n - 1] == '\n')
		n--;
	comm[n] = '\0';
}

/* The errno the policy gives the call: the data of its LOG_ERRNO return. */
static int policy_errno(struct state *st, const struct seccomp_data *data)
{
	char err[256];
	uint32_t ret;

	if (ujs_bpf_run(st->sv->insns, st->sv->len, data, &ret, err, sizeof(err))) {
		fprintf(st->sv->log, "ujail-seccomp: policy: %s; answering EPERM\n", err);
		return EPERM;
	}
	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_LOG_ERRNO) {
		/* Only LOG_ERRNO returns notify: never let a call through here. */
		fprintf(st->sv->log,
			"ujail-seccomp: notification for a call the policy answers 0x%08x; answering EPERM\n",
			ret);
		return EPERM;
	}
	return (int)(ret & SECCOMP_RET_DATA);
}

static int handle_notification(struct state *st, char *err, size_t errlen)
{
	char comm[64], line[256];
	int denied_errno;

	memset(st->req, 0, st->req_size);
	if (ioctl(st->listener, SECCOMP_IOCTL_NOTIF_RECV, st->req) < 0) {
		/* The caller died or was interrupted by a signal meanwhile. */
		if (errno == EINTR || errno == ENOENT)
			return 0;
		return ujs_fail(err, errlen, "SECCOMP_IOCTL_NOTIF_RECV: %s", strerror(errno));
	}
	denied_errno = policy_errno(st, &st->req->data);
	read_comm((pid_t)st->req->pid, comm, sizeof(comm));
	/* Still the same task: the pid (and its comm) was not reused. */
	if (ioctl(st->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &st->req->id) < 0)
		return 0;
	ujs_denial_line(line, sizeof(line), st->sv->name, comm, (pid_t)st->req->pid,
			st->req->data.arch, (uint32_t)st->req->data.nr);
	fprintf(st->sv->log, "%s\n", line);
	fflush(st->sv->log);
	memset(st->resp, 0, st->resp_size);
	st->resp->id = st->req->id;
	st->resp->error = -denied_errno;
	if (ioctl(st->listener, SECCOMP_IOCTL_NOTIF_SEND, st->resp) < 0 && errno != ENOENT)
		return ujs_fail(err, errlen, "SECCOMP_IOCTL_NOTIF_SEND: %s", strerror(errno));
	return 0;
}

static int alloc_notif_buffers(struct state *st, char *err, size_t errlen)
{
	struct seccomp_notif_sizes sizes;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return ujs_fail(err, errlen, "SECCOMP_GET_NOTIF_SIZES: %s", strerror(errno));
	st->req_size = sizes.seccomp_notif > sizeof(*st->req) ?
		       sizes.seccomp_notif : sizeof(*st->req);
	st->resp_size = sizes.seccomp_notif_resp > sizeof(*st->resp) ?
			sizes.seccomp_notif_resp : sizeof(*st->resp);
	st->req = calloc(1, st->req_size);
	st->resp = calloc(1, st->resp_size);
	if (!st->req || !st->resp)
		return ujs_fail(err, errlen, "out of memory");
	return 0;
}

/* One message with the listener, or the end of the socket. */
static int receive_listener(struct state *st, int flags, char *err, size_t errlen)
{
	struct ujs_fd_msg m;
	ssize_t n;
	int fd;

	ujs_fd_msg_init(&m, -1);
	n = recvmsg(st->sock, &m.msg, MSG_CMSG_CLOEXEC | flags);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n < 0)
		return ujs_fail(err, errlen, "receiving the seccomp listener: %s", strerror(errno));
	fd = ujs_fd_msg_fd(&m, n);
	if (fd >= 0) {
		st->listener = fd;
		if (alloc_notif_buffers(st, err, errlen))
			return -1;
	}
	/* One handoff per run: the socket is done with either way. */
	close(st->sock);
	st->sock = -1;
	return 0;
}

/* As PID 1: every zombie of the namespace is ours to reap. */
static void reap_all(struct state *st)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG | __WALL)) > 0) {
		if (pid == st->child && !st->exited) {
			st->status = status;
			st->exited = true;
		}
	}
}

static int handle_signal(struct state *st, int sigfd, char *err, size_t errlen)
{
	struct signalfd_siginfo si;
	ssize_t n = read(sigfd, &si, sizeof(si));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n != (ssize_t)sizeof(si))
		return ujs_fail(err, errlen, "signalfd: %s", n < 0 ? strerror(errno) : "short read");
	if (si.ssi_signo != SIGCHLD) {
		kill(st->child, (int)si.ssi_signo);
		return 0;
	}
	if (st->sv->as_init) {
		reap_all(st);
		return 0;
	}
	if (!st->exited && waitpid(st->child, &st->status, WNOHANG) == st->child)
		st->exited = true;
	return 0;
}

static int poll_once(struct state *st, int sigfd, char *err, size_t errlen)
{
	struct pollfd fds[3] = {
		{ .fd = sigfd, .events = POLLIN },
		{ .fd = st->exited ? -1 : st->sock, .events = POLLIN },
		{ .fd = st->listener, .events = POLLIN },
	};

	if (poll(fds, 3, -1) < 0)
		return errno == EINTR ? 0 : ujs_fail(err, errlen, "poll: %s", strerror(errno));
	if ((fds[2].revents & POLLIN) && handle_notification(st, err, errlen))
		return -1;
	if (fds[2].revents & (POLLHUP | POLLERR | POLLNVAL)) {
		/* No task uses the filter any more. */
		close(st->listener);
		st->listener = -1;
	}
	if (fds[1].revents && receive_listener(st, 0, err, errlen))
		return -1;
	if (fds[0].revents & POLLIN)
		return handle_signal(st, sigfd, err, errlen);
	return 0;
}

static int exit_status(int status)
{
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static bool finished(struct state *st, char *err, size_t errlen)
{
	if (st->sv->as_init)
		return st->exited;
	if (!st->exited || st->listener >= 0)
		return false;
	/* The child may have handed the listener over just before exiting,
	 * to descendants that still run under the filter. */
	if (st->sock >= 0 && receive_listener(st, MSG_DONTWAIT, err, errlen) == 0)
		return st->listener < 0;
	return true;
}

int ujs_supervise(const struct ujs_supervisor *sv, pid_t child, int sigfd,
		  int sock, char *err, size_t errlen)
{
	struct state st = {
		.sv = sv, .child = child, .sock = sock, .listener = -1,
	};
	int ret = 0;

	while (ret == 0 && !finished(&st, err, errlen))
		ret = poll_once(&st, sigfd, err, errlen);
	if (ret < 0 && !st.exited) {
		kill(child, SIGKILL);
		waitpid(child, &st.status, 0);
	}
	if (st.sock >= 0)
		close(st.sock);
	if (st.listener >= 0)
		close(st.listener);
	free(st.req);
	free(st.resp);
	return ret < 0 ? -1 : exit_status(st.status);
}
