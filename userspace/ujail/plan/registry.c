// SPDX-License-Identifier: GPL-2.0
/* Records of running named jails; see registry.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plan/registry.h"
#include "seccomp/errmsg.h"

#define CLAIM_TRIES 5
#define START_WAIT_MS 5000	/* a jail's record is written once its PID 1 exists */
#define START_POLL_MS 10

const char *jail_rundir(void)
{
	const char *env = getenv("UJAIL_RUNDIR");

	return env && *env ? env : JAIL_RUNDIR_DEFAULT;
}

static int record_path(const char *entry, char *path, size_t len, char *err, size_t errlen)
{
	if ((size_t)snprintf(path, len, "%s/%s", jail_rundir(), entry) >= len)
		return ujs_fail(err, errlen, "jail record %s/%s: path too long", jail_rundir(), entry);
	return 0;
}

/* A record's file name, "NAME@PID": NAME's length and PID; false for others. */
static bool split_entry(const char *entry, size_t *name_len, pid_t *pid)
{
	const char *at = strrchr(entry, '@');
	char *end;
	long v;

	if (!at || at == entry || !isdigit((unsigned char)at[1]))
		return false;
	errno = 0;
	v = strtol(at + 1, &end, 10);
	if (*end || errno || v <= 0 || v > INT_MAX)
		return false;
	*name_len = (size_t)(at - entry);
	*pid = (pid_t)v;
	return true;
}

/* An ending jail may unlink its record between our open() and flock(). */
static bool still_linked(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

static int try_claim(struct jail_record *rec, char *err, size_t errlen)
{
	int fd = open(rec->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);

	if (fd < 0)
		return ujs_fail(err, errlen, "jail record %s: %s", rec->path, strerror(errno));
	/* Our pid is in its name: only a dead jail's record can be there. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;

		close(fd);
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

/* Records of @name whose jail is gone (SIGKILLed with its keeper): removed. */
static void remove_stale(const char *name)
{
	DIR *d = opendir(jail_rundir());
	struct dirent *e;
	size_t name_len;
	pid_t pid;

	while (d && (e = readdir(d))) {
		int fd;

		if (!split_entry(e->d_name, &name_len, &pid) || name_len != strlen(name) ||
		    memcmp(e->d_name, name, name_len))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlinkat(dirfd(d), e->d_name, 0);
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
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
	/* Made by an earlier start in the common case: no walk over its parents. */
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	memcpy(path, dir, len + 1);
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

int jail_rundir_make(void)
{
	return make_dirs(jail_rundir());
}

int jail_record_claim(const char *name, struct jail_record *rec, char *err, size_t errlen)
{
	char entry[NAME_MAX + 1];

	rec->fd = -1;
	if ((size_t)snprintf(entry, sizeof(entry), "%s@%d", name, (int)getpid()) >= sizeof(entry))
		return ujs_fail(err, errlen, "-n %s: too long for a jail record", name);
	if (record_path(entry, rec->path, sizeof(rec->path), err, errlen))
		return -1;
	if (make_dirs(jail_rundir()) < 0)
		return ujs_fail(err, errlen, "jail records: mkdir %s: %s (UJAIL_RUNDIR may name "
				"another directory)", jail_rundir(), strerror(errno));
	remove_stale(name);
	for (int i = 0; i < CLAIM_TRIES; i++) {
		int ret = try_claim(rec, err, errlen);

		if (ret <= 0)
			return ret;
	}
	return ujs_fail(err, errlen, "jail record %s: keeps being replaced", rec->path);
}

/* Field 22 of /proc/PID/stat, after the command name (which may hold ") "). */
static int read_start_time(pid_t pid, unsigned long long *start)
{
	char path[64], text[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	p = strrchr(text, ')');
	/* ") " then fields 3 (state) to 21, then the start time. */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	errno = 0;
	*start = strtoull(p + 1, NULL, 10);
	return errno ? -1 : 0;
}

int jail_pid_identity_read(pid_t pid, struct jail_pid_identity *id)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	if (read_start_time(pid, &id->start_time) < 0 || stat(path, &st) < 0)
		return -1;
	id->pidns_ino = (unsigned long long)st.st_ino;
	return 0;
}

int jail_record_write(struct jail_record *rec, pid_t pid, const char *cgroup, char *err,
		      size_t errlen)
{
	char text[PATH_MAX + 96];
	struct jail_pid_identity id;
	int len;

	if (jail_pid_identity_read(pid, &id) < 0)
		return ujs_fail(err, errlen, "jail record %s: /proc/%d: %s", rec->path, (int)pid,
				strerror(errno));
	len = snprintf(text, sizeof(text), "%d\n%s\n%llu %llu\n", (int)pid, cgroup ? cgroup : "",
		       id.start_time, id.pidns_ino);
	if (len < 0 || (size_t)len >= sizeof(text) || pwrite(rec->fd, text, (size_t)len, 0) != len)
		return ujs_fail(err, errlen, "jail record %s: write: %s", rec->path,
				len < 0 || (size_t)len >= sizeof(text) ? "too long" : strerror(errno));
	return 0;
}

/* Close our descriptor only. */
static void record_close(struct jail_record *rec)
{
	if (rec->fd >= 0)
		close(rec->fd);
	rec->fd = -1;
}

void jail_record_abandon(struct jail_record *rec)
{
	if (rec->fd < 0)
		return;
	unlink(rec->path);
	record_close(rec);
}

/* "START PIDNS\n": PID 1's identity. */
static int parse_identity(const char *text, struct jail_pid_identity *id)
{
	char *end;

	if (!isdigit((unsigned char)*text))
		return -1;
	id->start_time = strtoull(text, &end, 10);
	if (*end != ' ' || !isdigit((unsigned char)end[1]))
		return -1;
	id->pidns_ino = strtoull(end + 1, &end, 10);
	return *end == '\n' ? 0 : -1;
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
	if (num_end != nl || pid <= 0 || pid > INT_MAX)
		return -1;
	cg = nl + 1;
	end = strchr(cg, '\n');
	if (!end || (size_t)(end - cg) >= sizeof(info->cgroup) ||
	    parse_identity(end + 1, &info->init_id))
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

static int count_lines(const char *text)
{
	int n = 0;

	for (; (text = strchr(text, '\n')); text++)
		n++;
	return n;
}

/* The record of a locked (running) jail; it may still be empty, just claimed. */
static int read_locked(int fd, const char *path, struct jail_record_info *info, char *err,
		       size_t errlen)
{
	char text[PATH_MAX + 96];

	for (long waited = 0;; waited += START_POLL_MS) {
		ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

		if (n < 0)
			return ujs_fail(err, errlen, "jail record %s: %s", path, strerror(errno));
		text[n] = '\0';
		if (n > 0 && parse_record(text, info) == 0)
			return 0;
		/* Written at once: a complete record that does not parse is bad. */
		if (n > 0 && text[n - 1] == '\n' && count_lines(text) >= 3)
			return ujs_fail(err, errlen, "jail record %s: malformed", path);
		if (waited >= START_WAIT_MS)
			return ujs_fail(err, errlen, "jail record %s: still empty after %d ms",
					path, START_WAIT_MS);
		sleep_ms(START_POLL_MS);
	}
}

/* Record @entry of the open RUNDIR, if a running jail holds it: its fd, or -1. */
static int open_live(int dir_fd, const char *entry)
{
	int fd = openat(dir_fd, entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	/* Whoever runs the jail holds the lock: one we can take is a dead jail's. */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0 || errno != EWOULDBLOCK) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The jail's PID 1 as its record has it now; 0 while it starts. */
static pid_t init_pid_now(int fd)
{
	char text[PATH_MAX + 96];
	struct jail_record_info info;
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	if (n <= 0)
		return 0;
	text[n] = '\0';
	return parse_record(text, &info) == 0 ? info.init_pid : 0;
}

#define MAX_LISTED 16	/* jails of one name named in a message */

struct record_hits {
	size_t n, total;
	int fd[MAX_LISTED];
	char entry[MAX_LISTED][NAME_MAX + 1];
};

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* Does record @entry (NAME@PID) answer to @which: its name, itself, or a pid? */
static bool record_matches(const char *which, const char *entry, int fd)
{
	size_t name_len;
	pid_t pid;

	if (!split_entry(entry, &name_len, &pid))
		return false;
	if ((strlen(which) == name_len && !memcmp(entry, which, name_len)) || !strcmp(entry, which))
		return true;
	if (!all_digits(which))
		return false;
	return pid == atoi(which) || init_pid_now(fd) == atoi(which);
}

static int find_records(const char *which, struct record_hits *hits, char *err, size_t errlen)
{
	DIR *d = opendir(jail_rundir());
	struct dirent *e;

	if (!d && errno == ENOENT)
		return 0;
	if (!d)
		return ujs_fail(err, errlen, "jail records: %s: %s", jail_rundir(), strerror(errno));
	while ((e = readdir(d))) {
		int fd = e->d_name[0] == '.' ? -1 : open_live(dirfd(d), e->d_name);

		if (fd < 0)
			continue;
		if (!record_matches(which, e->d_name, fd)) {
			close(fd);
			continue;
		}
		if (hits->n < MAX_LISTED) {
			hits->fd[hits->n] = fd;
			snprintf(hits->entry[hits->n++], NAME_MAX + 1, "%s", e->d_name);
		} else {
			close(fd);
		}
		hits->total++;
	}
	closedir(d);
	return 0;
}

/* Several jails answer to @which: none is picked, each is named. */
static int list_hits(const char *which, const struct record_hits *hits, char *err,
		     size_t errlen)
{
	size_t len = (size_t)snprintf(err, errlen, "--join %s: %zu running jails answer to it:",
				      which, hits->total);

	for (size_t i = 0; i < hits->n && len < errlen; i++) {
		size_t name_len;
		pid_t pid;

		split_entry(hits->entry[i], &name_len, &pid);
		len += (size_t)snprintf(err + len, errlen - len, "%s %.*s (ujail pid %d, PID 1 "
					"host pid %d)", i ? "," : "", (int)name_len,
					hits->entry[i], (int)pid, (int)init_pid_now(hits->fd[i]));
	}
	if (len < errlen)
		snprintf(err + len, errlen - len, "; join one by its ujail pid (--join PID)");
	return -1;
}

static int read_hit(const struct record_hits *hits, struct jail_record_info *info, char *err,
		    size_t errlen)
{
	char path[PATH_MAX];
	size_t name_len;
	pid_t pid;

	split_entry(hits->entry[0], &name_len, &pid);
	snprintf(info->name, sizeof(info->name), "%.*s", (int)name_len, hits->entry[0]);
	info->ujail_pid = pid;
	if (record_path(hits->entry[0], path, sizeof(path), err, errlen))
		return -1;
	return read_locked(hits->fd[0], path, info, err, errlen);
}

int jail_record_read(const char *which, struct jail_record_info *info, char *err,
		     size_t errlen)
{
	struct record_hits hits = { 0 };
	int ret = find_records(which, &hits, err, errlen);

	if (ret == 0 && hits.total == 0)
		ret = ujs_fail(err, errlen, "--join %s: no running jail of that name or pid "
			       "(records in %s)", which, jail_rundir());
	else if (ret == 0 && hits.total > 1)
		ret = list_hits(which, &hits, err, errlen);
	else if (ret == 0)
		ret = read_hit(&hits, info, err, errlen);
	for (size_t i = 0; i < hits.n; i++)
		close(hits.fd[i]);
	return ret;
}
