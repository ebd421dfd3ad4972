// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a jail's cgroup (keeper.h): nothing of the jail may survive
 * it, and its directory goes. Also linked into ujail, for the jail that
 * could not be handed to the keeper.
 */
#include <dirent.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "keeper.h"

#define EMPTY_TIMEOUT_MS 10000	/* SIGKILLed processes take far less */
#define POLL_MS 50

static int open_in(const char *dir, const char *file, int flags)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, flags | O_CLOEXEC);
}

/* Kernels before 5.14 have no cgroup.kill: each listed process, then. */
static void kill_listed(const char *dir)
{
	int fd = open_in(dir, "cgroup.procs", O_RDONLY);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[32];
	long pid;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* One pid a line; strtol, not fscanf: scanf weighs 8 KB in the keeper. */
	while (fgets(line, sizeof(line), f)) {
		pid = strtol(line, NULL, 10);
		if (pid > 0)
			kill((pid_t)pid, SIGKILL);
	}
	fclose(f);
}

/* SIGKILL everything in the cgroup; true when cgroup.kill did it. */
static bool kill_all(const char *dir)
{
	int fd = open_in(dir, "cgroup.kill", O_WRONLY);
	bool done = fd >= 0 && write(fd, "1", 1) == 1;

	if (fd >= 0)
		close(fd);
	if (!done)
		kill_listed(dir);
	return done;
}

/* cgroup.events: 1 while a process is in the cgroup (or below), 0, -1. */
static int populated(int events_fd)
{
	char buf[128];
	ssize_t n = pread(events_fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return strstr(buf, "populated 1") != NULL;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Until cgroup.events says "populated 0" (the kernel notifies a change). */
static int wait_empty(const char *dir, bool killed, char *err, size_t errlen)
{
	int fd = open_in(dir, "cgroup.events", O_RDONLY);
	long deadline = now_ms() + EMPTY_TIMEOUT_MS;
	int state;

	if (fd < 0) {
		snprintf(err, errlen, "cgroup %s: cgroup.events: %s", dir, strerror(errno));
		return -1;
	}
	while ((state = populated(fd)) == 1 && now_ms() < deadline) {
		struct pollfd pfd = { .fd = fd, .events = POLLPRI };

		poll(&pfd, 1, POLL_MS);
		if (!killed)
			kill_listed(dir);	/* what forked in the meantime */
	}
	close(fd);
	if (state)
		snprintf(err, errlen, "cgroup %s: %s", dir, state < 0 ? strerror(errno) :
			 "processes still in it after 10 s");
	return state ? -1 : 0;
}

/* rmdir @dir after the cgroups the jail may have made below it. */
static int remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) < sizeof(sub))
			remove_tree(sub);
	}
	if (d)
		closedir(d);
	return rmdir(dir);
}

int keeper_cgroup_end(const char *path, char *err, size_t errlen)
{
	if (wait_empty(path, kill_all(path), err, errlen) < 0)
		return -1;
	if (remove_tree(path) < 0) {
		snprintf(err, errlen, "cgroup %s left behind: rmdir: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
