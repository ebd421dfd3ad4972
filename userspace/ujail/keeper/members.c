// SPDX-License-Identifier: GPL-2.0
/*
 * The members of a shared jail (ujail --join, keeper.h). A member is
 * started into the jail's pid namespace by another ujail, which stays
 * its parent outside: here it shows PPid 0, and its end reaches PID 1
 * through a pidfd, not SIGCHLD. PID 1 reads its namespace's processes
 * through a procfs mounted nowhere (fsmount() without move_mount()), so
 * the jail's mount table does not change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "keeper/keeper.h"
#include "keeper/msg.h"
#include "root/mount_api.h"

#define MAX_MEMBERS 64		/* watched at once; the rest on the next look */

static int open_private_proc(void)
{
	int fs = (int)syscall(SYS_fsopen, "proc", UJ_FSOPEN_CLOEXEC);
	int mnt;

	if (fs < 0)
		return -1;
	if (syscall(SYS_fsconfig, fs, UJ_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		close(fs);
		return -1;
	}
	mnt = (int)syscall(SYS_fsmount, fs, UJ_FSMOUNT_CLOEXEC,
			   UJ_MOUNT_ATTR_NOEXEC | UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV);
	close(fs);
	return mnt;
}

/* The parent of process @pid as this namespace sees it, or -1. */
static long parent_of(int proc, int pid)
{
	char path[64], buf[1024];
	const char *ppid;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%d/status", pid);
	fd = openat(proc, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	ppid = strstr(buf, "\nPPid:");
	return ppid ? strtol(ppid + 6, NULL, 10) : -1;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* pidfds of the members alive now, at most @max; how many. */
static int find_members(int proc, int *fds, int max)
{
	int dfd = openat(proc, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;
	int n = 0;

	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	while (n < max && (e = readdir(dir))) {
		int pid = all_digits(e->d_name) ? atoi(e->d_name) : 0;
		int fd;

		if (pid <= 1 || parent_of(proc, pid) != 0)
			continue;
		fd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (fd >= 0)
			fds[n++] = fd;
	}
	closedir(dir);
	return n;
}

/* Orphans are ours to reap; other signals go to every member. */
static void handle_signal(int sigfd, const int *fds, int n)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return;
	if (si.ssi_signo == SIGCHLD) {
		while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
			;
		return;
	}
	for (int i = 0; i < n; i++)
		syscall(SYS_pidfd_send_signal, fds[i], (int)si.ssi_signo, NULL, 0);
}

/* Until one of the members @fds ends. */
static void wait_for_one(int sigfd, const int *fds, int n)
{
	struct pollfd pfd[MAX_MEMBERS + 1];

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		for (int i = 0; i < n; i++)
			pfd[i + 1] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		if (poll(pfd, (nfds_t)n + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (pfd[0].revents & POLLIN)
			handle_signal(sigfd, fds, n);
		for (int i = 0; i < n; i++)
			if (pfd[i + 1].revents)
				return;
	}
}

void keeper_wait_members(const char *name, int sigfd)
{
	int fds[MAX_MEMBERS], proc, n;

	if (getpid() != 1)
		return;	/* -j pid: not this jail's namespace to keep */
	/* Alone in the namespace (the common end): no member to look for. */
	if (kill(-1, 0) < 0 && errno == ESRCH)
		return;
	proc = open_private_proc();
	if (proc < 0) {
		keeper_msg(name, "members: a procfs of the jail: %s; the jail ends now",
			   strerror(errno));
		return;
	}
	/* A new member may join while others run: look again after each end. */
	while ((n = find_members(proc, fds, MAX_MEMBERS)) > 0) {
		wait_for_one(sigfd, fds, n);
		for (int i = 0; i < n; i++)
			close(fds[i]);
	}
	close(proc);
}
