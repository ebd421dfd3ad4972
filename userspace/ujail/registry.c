// SPDX-License-Identifier: GPL-2.0
/* Records of running named jails; see registry.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errmsg.h"
#include "registry.h"

#define CLAIM_TRIES 5
#define START_WAIT_MS 5000	/* a jail's record is written once its PID 1 exists */
#define START_POLL_MS 10

static const char *rundir(void)
{
	const char *env = getenv("UJAIL_RUNDIR");

	return env && *env ? env : JAIL_RUNDIR_DEFAULT;
}

static int record_path(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	if ((size_t)snprintf(path, len, "%s/%s", rundir(), name) >= len)
		return ujs_fail(err, errlen, "jail record %s/%s: path too long", rundir(), name);
	return 0;
}

/* The pid in an open record, for messages; 0 if it has none yet. */
static long record_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* An ending jail may unlink its record between our open() and flock(). */
static bool still_linked(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int try_claim(struct jail_record *rec, const char *name, char *err, size_t errlen)
{
	int fd = open(rec->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0)
		return ujs_fail(err, errlen, "jail record %s: %s", rec->path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		long pid = record_pid(fd);

		close(fd);
		if (e == EWOULDBLOCK)
			return ujs_fail(err, errlen, "-n %s: a jail of that name is running "
					"(PID 1: host pid %ld; record %s); the names of running "
					"jails are unique", name, pid, rec->path);
		return ujs_fail(err, errlen, "jail record %s: flock: %s", rec->path, strerror(e));
	}
	if (!still_linked(fd, rec->path)) {
		close(fd);
		return 1;
	}
	if (ftruncate(fd, 0) < 0) {
		ujs_fail(err, errlen, "jail record %s: %s", rec->path, strerror(errno));
		close(fd);
		return -1;
	}
	rec->fd = fd;
	return 0;
}

/* mkdir -p: a system without /var/run still gets its records. */
static int make_dirs(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	if (len >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, len + 1);
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

int jail_record_claim(const char *name, struct jail_record *rec, char *err, size_t errlen)
{
	rec->fd = -1;
	if (record_path(name, rec->path, sizeof(rec->path), err, errlen))
		return -1;
	if (make_dirs(rundir()) < 0)
		return ujs_fail(err, errlen, "jail records: mkdir %s: %s (UJAIL_RUNDIR may name "
				"another directory)", rundir(), strerror(errno));
	for (int i = 0; i < CLAIM_TRIES; i++) {
		int ret = try_claim(rec, name, err, errlen);

		if (ret <= 0)
			return ret;
	}
	return ujs_fail(err, errlen, "jail record %s: keeps being replaced", rec->path);
}

int jail_record_write(struct jail_record *rec, pid_t pid, const char *cgroup, char *err,
		      size_t errlen)
{
	char text[PATH_MAX + 32];
	int len = snprintf(text, sizeof(text), "%d\n%s\n", (int)pid, cgroup ? cgroup : "");

	if (len < 0 || (size_t)len >= sizeof(text) || pwrite(rec->fd, text, (size_t)len, 0) != len)
		return ujs_fail(err, errlen, "jail record %s: write: %s", rec->path,
				len < 0 || (size_t)len >= sizeof(text) ? "too long" : strerror(errno));
	return 0;
}

void jail_record_abandon(struct jail_record *rec)
{
	if (rec->fd < 0)
		return;
	unlink(rec->path);
	jail_record_close(rec);
}

void jail_record_close(struct jail_record *rec)
{
	if (rec->fd >= 0)
		close(rec->fd);
	rec->fd = -1;
}

static int parse_record(const char *text, struct jail_record_info *info)
{
	const char *nl = strchr(text, '\n');
	const char *cg, *end;
	char *num_end;
	long pid;

	if (!nl)
		return -1;
	pid = strtol(text, &num_end, 10);
	if (num_end != nl || pid <= 0)
		return -1;
	cg = nl + 1;
	end = strchr(cg, '\n');
	if (!end || (size_t)(end - cg) >= sizeof(info->cgroup))
		return -1;
	info->init_pid = (pid_t)pid;
	memcpy(info->cgroup, cg, (size_t)(end - cg));
	info->cgroup[end - cg] = '\0';
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* The record of a locked (running) jail; it may still be empty, just claimed. */
static int read_locked(int fd, const char *path, struct jail_record_info *info, char *err,
		       size_t errlen)
{
	char text[PATH_MAX + 32];

	for (long waited = 0;; waited += START_POLL_MS) {
		ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

		if (n < 0)
			return ujs_fail(err, errlen, "jail record %s: %s", path, strerror(errno));
		text[n] = '\0';
		if (n > 0 && parse_record(text, info) == 0)
			return 0;
		if (n > 0 && strchr(text, '\n') && strchr(strchr(text, '\n') + 1, '\n'))
			return ujs_fail(err, errlen, "jail record %s: malformed", path);
		if (waited >= START_WAIT_MS)
			return ujs_fail(err, errlen, "jail record %s: still empty after %d ms",
					path, START_WAIT_MS);
		sleep_ms(START_POLL_MS);
	}
}

int jail_record_read(const char *name, struct jail_record_info *info, char *err,
		     size_t errlen)
{
	char path[PATH_MAX];
	int fd, ret;

	if (record_path(name, path, sizeof(path), err, errlen))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT)
		return ujs_fail(err, errlen, "--join %s: no running jail of that name (no record "
				"%s)", name, path);
	if (fd < 0)
		return ujs_fail(err, errlen, "jail record %s: %s", path, strerror(errno));
	/* Whoever runs the jail holds the lock: one we can take is a dead jail's. */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		close(fd);
		return ujs_fail(err, errlen, "--join %s: no running jail of that name (record %s "
				"is a jail's that ended)", name, path);
	}
	ret = errno == EWOULDBLOCK ? read_locked(fd, path, info, err, errlen) :
	      ujs_fail(err, errlen, "jail record %s: flock: %s", path, strerror(errno));
	close(fd);
	return ret;
}
