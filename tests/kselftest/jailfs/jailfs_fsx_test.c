// SPDX-License-Identifier: GPL-2.0
/*
 * An fsx-style exerciser: random writes, reads, truncates, fallocates and
 * shared-mmap reads and writes on a read-write file through jailfs, and the
 * same operations on a second file directly on the lower filesystem. After
 * every operation both must agree with each other and with an in-memory
 * model of the file; at the end the lower file under jailfs must hold the
 * model's bytes.
 *
 * JAILFS_FSX_OPS (default 20000) and JAILFS_FSX_SEED (default 1) in the
 * environment change the run; a failure logs the seed and operation number.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "jailfs_util.h"

#define MAX_SIZE (256 * 1024)
#define PAGE 4096

enum fsx_op { OP_WRITE, OP_READ, OP_TRUNCATE, OP_FALLOCATE, OP_MAPWRITE,
	      OP_MAPREAD, OP_NR };

static const char *const op_names[] = {
	"write", "read", "truncate", "fallocate", "mapwrite", "mapread",
};

struct fsx {
	int fd[2];		/* 0: through jailfs, 1: the lower fs directly */
	unsigned char *model;
	unsigned char *buf[2];
	off_t size;
	unsigned int seed;
};

static unsigned long env_or(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : def;
}

static unsigned long rnd(struct fsx *f, unsigned long n)
{
	return n ? (unsigned long)rand_r(&f->seed) % n : 0;
}

static int do_write(struct fsx *f, int i, off_t off, size_t len)
{
	return pwrite(f->fd[i], f->buf[0], len, off) == (ssize_t)len ? 0 : -1;
}

static int do_mapwrite(struct fsx *f, int i, off_t off, size_t len)
{
	off_t start = off & ~(off_t)(PAGE - 1);
	size_t maplen = off + len - start;
	unsigned char *map;

	map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd[i], start);
	if (map == MAP_FAILED)
		return -1;
	memcpy(map + (off - start), f->buf[0], len);
	if (msync(map, maplen, MS_SYNC))
		return -1;
	return munmap(map, maplen);
}

static int do_mapread(struct fsx *f, int i, off_t off, size_t len)
{
	off_t start = off & ~(off_t)(PAGE - 1);
	size_t maplen = off + len - start;
	unsigned char *map;

	map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, f->fd[i], start);
	if (map == MAP_FAILED)
		return -1;
	memcpy(f->buf[i], map + (off - start), len);
	return munmap(map, maplen);
}

/* One operation on both files; the model follows. Returns 0 if they agree. */
static int fsx_step(struct fsx *f, enum fsx_op op, off_t off, size_t len)
{
	int i;

	for (i = 0; i < 2; i++) {
		int err = 0;

		switch (op) {
		case OP_WRITE:
			err = do_write(f, i, off, len);
			break;
		case OP_MAPWRITE:
			err = do_mapwrite(f, i, off, len);
			break;
		case OP_READ:
			err = pread(f->fd[i], f->buf[i], len, off) == (ssize_t)len ? 0 : -1;
			break;
		case OP_MAPREAD:
			err = do_mapread(f, i, off, len);
			break;
		case OP_TRUNCATE:
			err = ftruncate(f->fd[i], off);
			break;
		case OP_FALLOCATE:
			err = fallocate(f->fd[i], 0, off, len);
			break;
		default:
			return -1;
		}
		if (err)
			return -1;
	}
	switch (op) {
	case OP_WRITE:
	case OP_MAPWRITE:
		memcpy(f->model + off, f->buf[0], len);
		break;
	case OP_TRUNCATE:
		/* The model stays zero beyond the size, for later extensions. */
		if (off < f->size)
			memset(f->model + off, 0, f->size - off);
		f->size = off;
		return 0;
	case OP_FALLOCATE:
		if (off + (off_t)len > f->size)
			f->size = off + len;
		return 0;
	default:
		return memcmp(f->buf[0], f->buf[1], len) ||
		       memcmp(f->buf[0], f->model + off, len);
	}
	if (off + (off_t)len > f->size)
		f->size = off + len;
	return 0;
}

/* A random operation that stays within the file where it must. */
static enum fsx_op fsx_pick(struct fsx *f, off_t *off, size_t *len)
{
	enum fsx_op op = rnd(f, OP_NR);
	size_t i;

	if ((op == OP_READ || op == OP_MAPREAD || op == OP_MAPWRITE) && f->size < 2)
		op = OP_WRITE;
	switch (op) {
	case OP_READ:
	case OP_MAPREAD:
	case OP_MAPWRITE:
		*off = rnd(f, f->size - 1);
		*len = 1 + rnd(f, f->size - *off - 1);
		break;
	case OP_TRUNCATE:
		*off = rnd(f, MAX_SIZE);
		*len = 0;
		break;
	default:
		*off = rnd(f, MAX_SIZE - 1);
		*len = 1 + rnd(f, (MAX_SIZE - *off) / 4);
		break;
	}
	for (i = 0; i < *len; i++)
		f->buf[0][i] = rnd(f, 256);
	return op;
}

FIXTURE(fsx) {
	struct fsx f;
};

FIXTURE_SETUP(fsx)
{
	ASSERT_EQ(0, scratch_setup());
	ASSERT_EQ(0, make_path(HOST "/rw/file", ""));
	ASSERT_EQ(0, make_path(HOST "/direct", ""));
	ASSERT_EQ(0, jailfs_mount("rw_path", HOST "/rw:/rw"));
	self->f.fd[0] = open(JAIL "/rw/file", O_RDWR);
	self->f.fd[1] = open(HOST "/direct", O_RDWR);
	ASSERT_LE(0, self->f.fd[0]);
	ASSERT_LE(0, self->f.fd[1]);
	self->f.model = calloc(1, MAX_SIZE * 2);
	self->f.buf[0] = malloc(MAX_SIZE);
	self->f.buf[1] = malloc(MAX_SIZE);
	ASSERT_NE(NULL, self->f.model);
	ASSERT_NE(NULL, self->f.buf[0]);
	ASSERT_NE(NULL, self->f.buf[1]);
}

FIXTURE_TEARDOWN(fsx)
{
	close(self->f.fd[0]);
	close(self->f.fd[1]);
	free(self->f.model);
	free(self->f.buf[0]);
	free(self->f.buf[1]);
	scratch_teardown();
}

TEST_F_TIMEOUT(fsx, random_operations_match_the_lower_fs, 600)
{
	unsigned long ops = env_or("JAILFS_FSX_OPS", 20000), n;
	unsigned int seed = env_or("JAILFS_FSX_SEED", 1);
	unsigned long counts[OP_NR] = { 0 };
	struct fsx *f = &self->f;
	struct stat st;
	enum fsx_op op;
	off_t off;
	size_t len;
	int i;

	f->seed = seed;
	for (n = 0; n < ops; n++) {
		op = fsx_pick(f, &off, &len);
		counts[op]++;
		ASSERT_EQ(0, fsx_step(f, op, off, len)) {
			TH_LOG("seed %u, op %lu: %s at %ld, %zu bytes: %s", seed, n,
			       op_names[op], (long)off, len, strerror(errno));
		}
	}
	for (i = 0; i < OP_NR; i++)
		TH_LOG("%s: %lu", op_names[i], counts[i]);
	ASSERT_EQ(0, fstat(f->fd[0], &st));
	EXPECT_EQ(f->size, st.st_size);
	close(f->fd[0]);
	f->fd[0] = open(HOST "/rw/file", O_RDONLY);
	ASSERT_LE(0, f->fd[0]);
	ASSERT_EQ(f->size, pread(f->fd[0], f->buf[0], f->size, 0));
	EXPECT_EQ(0, memcmp(f->buf[0], f->model, f->size));
}

TEST_HARNESS_MAIN
