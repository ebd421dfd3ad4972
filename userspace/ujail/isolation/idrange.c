// SPDX-License-Identifier: GPL-2.0
/* Each -f jail's own ids; see idrange.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isolation/idrange.h"
#include "plan/registry.h"
#include "seccomp/errmsg.h"

#define MAX_RANGES 256

struct range_line {
	char name[NAME_MAX + 1];	/* "*": the pool */
	uint64_t first, count;
};

static const char *ranges_path(void)
{
	const char *env = getenv("UJAIL_IDRANGES");

	return env && *env ? env : JAIL_IDRANGES_DEFAULT;
}

/* "NAME:FIRST:COUNT"; false if malformed or out of range. */
static bool parse_line(const char *line, struct range_line *r)
{
	const char *c1 = strchr(line, ':');
	char *end;

	if (!c1 || c1 == line || (size_t)(c1 - line) > NAME_MAX)
		return false;
	memcpy(r->name, line, (size_t)(c1 - line));
	r->name[c1 - line] = '\0';
	errno = 0;
	r->first = strtoull(c1 + 1, &end, 10);
	if (end == c1 + 1 || *end != ':')
		return false;
	r->count = strtoull(end + 1, &end, 10);
	return !errno && *end == '\0' && end[-1] != ':' && r->first > 0 && r->count > 0 &&
	       r->first + r->count <= UINT32_MAX;
}

static bool overlap(const struct range_line *a, const struct range_line *b)
{
	return a->first < b->first + b->count && b->first < a->first + a->count;
}

/* The file's ranges, checked; -1 with @err, or their number (0: no file). */
static int read_ranges(struct range_line *out, char *err, size_t errlen)
{
	FILE *f = fopen(ranges_path(), "re");
	char line[512];
	int n = 0, lineno = 0;

	if (!f && errno == ENOENT)
		return 0;
	if (!f)
		return ujs_fail(err, errlen, "%s: %s", ranges_path(), strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		if (!line[strspn(line, " \t")])
			continue;
		if (n == MAX_RANGES || !parse_line(line, &out[n])) {
			fclose(f);
			return ujs_fail(err, errlen, "%s:%d: not NAME:FIRST:COUNT (FIRST 1.., the "
					"range below 4294967295; at most %d lines)", ranges_path(),
					lineno, MAX_RANGES);
		}
		for (int i = 0; i < n; i++) {
			if (overlap(&out[i], &out[n]) || !strcmp(out[i].name, out[n].name)) {
				fclose(f);
				return ujs_fail(err, errlen, "%s:%d: %s overlaps %s's range (each jail "
						"must own ids of its own)", ranges_path(), lineno,
						out[n].name, out[i].name);
			}
		}
		n++;
	}
	fclose(f);
	return n;
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* RUNDIR/ids, made if missing and opened. */
static int open_ids_dir(char *err, size_t errlen)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/ids", jail_rundir());
	if (jail_rundir_make() < 0 || (mkdir(path, 0700) < 0 && errno != EEXIST))
		return ujs_fail(err, errlen, "%s: %s", path, strerror(errno));
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return ujs_fail(err, errlen, "%s: %s", path, strerror(errno));
	return fd;
}

/* A running jail of another name holds pool id @id: its name in @other. */
static bool held_by_other(int dir_fd, const char *prefix, const char *ours, char *other,
			  size_t len)
{
	DIR *d = fdopendir(dup(dir_fd));
	struct dirent *e;
	bool held = false;

	while (d && !held && (e = readdir(d))) {
		int fd;

		if (strncmp(e->d_name, prefix, strlen(prefix)) || !strcmp(e->d_name, ours))
			continue;
		fd = openat(dir_fd, e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			unlinkat(dir_fd, e->d_name, 0);	/* its jail is gone */
		} else {
			held = true;
			snprintf(other, len, "%s", e->d_name + strlen(prefix));
		}
		close(fd);
	}
	if (d)
		closedir(d);
	return held;
}

/* Pool id @id for @name: locked (shared with jails of the same name). */
static int claim_pool_id(uint32_t id, const char *name, char *err, size_t errlen)
{
	char prefix[16], entry[NAME_MAX + 1], other[NAME_MAX + 1];
	int dir_fd = open_ids_dir(err, errlen), fd = -1;

	if (dir_fd < 0)
		return -1;
	snprintf(prefix, sizeof(prefix), "%u@", (unsigned)id);
	if ((size_t)snprintf(entry, sizeof(entry), "%s%s", prefix, name) >= sizeof(entry)) {
		close(dir_fd);
		return ujs_fail(err, errlen, "-f: jail name %s too long", name);
	}
	/* One jail at a time looks and claims. */
	if (flock(dir_fd, LOCK_EX) < 0)
		ujs_fail(err, errlen, "-f: lock %s/ids: %s", jail_rundir(), strerror(errno));
	else if (held_by_other(dir_fd, prefix, entry, other, sizeof(other)))
		ujs_fail(err, errlen, "-f: host id %u of the pool in %s is the running jail %s's "
			 "(its name and %s hash alike): give %s a line of its own there", (unsigned)id,
			 ranges_path(), other, name, name);
	else if ((fd = openat(dir_fd, entry, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			      0600)) < 0 || flock(fd, LOCK_SH) < 0)
		ujs_fail(err, errlen, "-f: %s/ids/%s: %s", jail_rundir(), entry, strerror(errno));
	else {
		close(dir_fd);
		return fd;
	}
	if (fd >= 0)
		close(fd);
	close(dir_fd);
	return -1;
}

/* A pool id for @name, from the hash of the name, claimed. */
static int pick_from_pool(const struct range_line *pool, const char *name,
			  struct jail_idrange *r, char *err, size_t errlen)
{
	r->map = (struct jail_idmap){ (uint32_t)(pool->first + fnv1a(name) % pool->count), 1 };
	r->lock_fd = claim_pool_id(r->map.host, name, err, errlen);
	r->found = r->lock_fd >= 0;
	return r->found ? 0 : -1;
}

int jail_idrange_pick(const char *name, struct jail_idrange *r, char *err, size_t errlen)
{
	struct range_line *lines = calloc(MAX_RANGES, sizeof(*lines));
	const struct range_line *pool = NULL;
	int n = lines ? read_ranges(lines, err, errlen) : ujs_fail(err, errlen, "out of memory");
	int ret = n < 0 ? -1 : 0;

	r->found = false;
	r->lock_fd = -1;
	for (int i = 0; i < n && !r->found; i++) {
		if (!strcmp(lines[i].name, "*")) {
			pool = &lines[i];
		} else if (!strcmp(lines[i].name, name)) {
			r->map = (struct jail_idmap){ (uint32_t)lines[i].first,
						      (uint32_t)lines[i].count };
			r->found = true;
		}
	}
	if (!r->found && pool)
		ret = pick_from_pool(pool, name, r, err, errlen);
	free(lines);
	return ret;
}
