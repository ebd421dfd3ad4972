// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent stress of jailfs: readers, writers, renamers (in the jail and
 * on the host, moving directories out of the entry and back), unlinkers and
 * a loop of mounts and unmounts, all at once for JAILFS_STRESS_SECONDS
 * (default 10). Races may fail single calls with the errors a real
 * filesystem gives; an error that means corruption (EIO, EFAULT, EBADF,
 * ENOMEM, EUCLEAN) fails the test. Kernel reports (KASAN, lockdep, oops)
 * are caught by the runner from the kernel log; kmemleak by the script that
 * runs this on the debug kernel.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "jailfs_util.h"

#define DIRS 8
#define FILES 8
#define RO_ENTRIES 200

struct role {
	const char *name;
	void (*step)(unsigned int *seed);
	unsigned int copies;
};

static unsigned long ops, bad;
static sigjmp_buf bus_jump;

/*
 * Only the writer changes a file's size, so a SIGBUS on its mapping inside
 * the size it just set means the fs lost the page: count it, keep going.
 */
static void on_sigbus(int sig)
{
	siglongjmp(bus_jump, sig);
}

/* Count one call; remember it if its error means the fs broke. */
static void check(long ret)
{
	ops++;
	if (ret < 0 && (errno == EIO || errno == EFAULT || errno == EBADF ||
			errno == ENOMEM || errno == EUCLEAN)) {
		if (!bad++)
			fprintf(stderr, "# unexpected error: %s\n", strerror(errno));
	}
}

static void rw_path(char *buf, size_t size, const char *top, unsigned int *seed)
{
	snprintf(buf, size, "%s/rw/d%d/f%d", top, rand_r(seed) % DIRS,
		 rand_r(seed) % FILES);
}

static void reader(unsigned int *seed)
{
	char path[256], buf[512];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int fd;

	rw_path(path, sizeof(path), JAIL, seed);
	fd = open(path, O_RDONLY);
	check(fd);
	if (fd >= 0) {
		check(read(fd, buf, sizeof(buf)));
		close(fd);
	}
	snprintf(path, sizeof(path), JAIL "/ro/f%d", rand_r(seed) % RO_ENTRIES);
	check(stat(path, &st));
	snprintf(path, sizeof(path), JAIL "/rw/d%d", rand_r(seed) % DIRS);
	dir = opendir(path);
	check(dir ? 0 : -1);
	if (dir) {
		while ((de = readdir(dir)))
			ops++;
		closedir(dir);
	}
}

static void writer(unsigned int *seed)
{
	char path[256], data[256];
	void *map;
	int fd;

	rw_path(path, sizeof(path), JAIL, seed);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	check(fd);
	if (fd < 0)
		return;
	memset(data, 'a' + rand_r(seed) % 26, sizeof(data));
	check(pwrite(fd, data, sizeof(data), rand_r(seed) % 8192));
	check(ftruncate(fd, rand_r(seed) % 16384));
	if (rand_r(seed) % 4 == 0) {
		check(ftruncate(fd, 8192));
		map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		check(map == MAP_FAILED ? -1 : 0);
		if (map != MAP_FAILED) {
			if (sigsetjmp(bus_jump, 1) == 0)
				memset(map, 'm', 64);
			else if (!bad++)
				fprintf(stderr, "# SIGBUS inside the mapped file's size\n");
			munmap(map, 4096);
		}
	}
	check(fsync(fd));
	close(fd);
}

static void jail_renamer(unsigned int *seed)
{
	char a[256], b[256];

	rw_path(a, sizeof(a), JAIL, seed);
	rw_path(b, sizeof(b), JAIL, seed);
	check(rename(a, b));
	snprintf(a, sizeof(a), JAIL "/rw/d%d", rand_r(seed) % DIRS);
	snprintf(b, sizeof(b), JAIL "/rw/d%d/sub", rand_r(seed) % DIRS);
	check(rename(a, b));
	check(rename(b, a));
}

static void host_renamer(unsigned int *seed)
{
	char a[256], b[256];
	int d = rand_r(seed) % DIRS;

	/* Out of the entry and back: the jail must not follow it out. */
	snprintf(a, sizeof(a), HOST "/rw/d%d", d);
	snprintf(b, sizeof(b), HOST "/outside%d", d);
	check(rename(a, b));
	check(rename(b, a));
	rw_path(a, sizeof(a), HOST, seed);
	rw_path(b, sizeof(b), HOST, seed);
	check(rename(a, b));
}

/* A new file, never a truncated old one: the writer may have it mapped. */
static int create_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	return fd < 0 ? -1 : close(fd);
}

static void unlinker(unsigned int *seed)
{
	char path[256];

	rw_path(path, sizeof(path), JAIL, seed);
	check(unlink(path));
	check(create_new(path));
	snprintf(path, sizeof(path), JAIL "/rw/d%d/dir", rand_r(seed) % DIRS);
	check(mkdir(path, 0755));
	check(rmdir(path));
	rw_path(path, sizeof(path), HOST, seed);
	check(unlink(path));
	check(link(HOST "/ro/f0", path));
	check(symlink("f0", path));
}

static void mounter(unsigned int *seed)
{
	char opts[256];
	struct stat st;

	snprintf(opts, sizeof(opts), "ro=%s/ro/f%d:/f,rw=%s/rw:/rw,dir=/proc",
		 HOST, rand_r(seed) % RO_ENTRIES, HOST);
	if (mount("none", SCRATCH "/m", "jailfs", 0, opts)) {
		check(-1);
		return;
	}
	check(stat(SCRATCH "/m/f", &st));
	check(stat(SCRATCH "/m/rw/d0", &st));
	check(umount2(SCRATCH "/m", rand_r(seed) % 2 ? MNT_DETACH : 0));
}

static const struct role roles[] = {
	{ "reader", reader, 2 },
	{ "writer", writer, 1 },
	{ "jail-renamer", jail_renamer, 1 },
	{ "host-renamer", host_renamer, 1 },
	{ "unlinker", unlinker, 1 },
	{ "mounter", mounter, 1 },
};

static int run_role(const struct role *role, unsigned int seed, time_t until)
{
	signal(SIGBUS, on_sigbus);
	while (time(NULL) < until)
		role->step(&seed);
	printf("# %s: %lu calls, %lu bad\n", role->name, ops, bad);
	fflush(stdout);
	return bad ? 1 : 0;
}

/* Say which role ended badly and how, so that a failure names its cause. */
static int role_failed(const char *name, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		printf("# %s: killed by signal %d (%s)\n", name, WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
	else
		printf("# %s: exit status %d\n", name, WEXITSTATUS(status));
	return 1;
}

FIXTURE(stress) {
	int unused;
};

FIXTURE_SETUP(stress)
{
	char path[256];
	int d, f;

	ASSERT_EQ(0, scratch_setup());
	for (d = 0; d < DIRS; d++)
		for (f = 0; f < FILES; f++) {
			snprintf(path, sizeof(path), HOST "/rw/d%d/f%d", d, f);
			ASSERT_EQ(0, make_path(path, "start"));
		}
	for (f = 0; f < RO_ENTRIES; f++) {
		snprintf(path, sizeof(path), HOST "/ro/f%d", f);
		ASSERT_EQ(0, make_path(path, "ro"));
	}
	ASSERT_EQ(0, make_path(SCRATCH "/m", NULL));
	ASSERT_EQ(0, mount("none", JAIL, "jailfs", 0,
			   "rw=" HOST "/rw:/rw,ro=" HOST "/ro:/ro,dir=/tmp"));
}

FIXTURE_TEARDOWN(stress)
{
	umount2(SCRATCH "/m", MNT_DETACH);
	scratch_teardown();
}

TEST_F_TIMEOUT(stress, everything_at_once, 900)
{
	time_t until = time(NULL) + strtoul(getenv("JAILFS_STRESS_SECONDS") ?: "10", NULL, 0);
	unsigned int r, c, n = 0, failed = 0;
	const char *names[16];
	pid_t pids[16];
	int status;

	for (r = 0; r < ARRAY_SIZE(roles); r++)
		for (c = 0; c < roles[r].copies; c++) {
			names[n] = roles[r].name;
			pids[n] = fork();
			ASSERT_LE(0, pids[n]);
			if (pids[n] == 0)
				_exit(run_role(&roles[r], 1000 * r + c, until));
			n++;
		}
	while (n--) {
		ASSERT_EQ(pids[n], waitpid(pids[n], &status, 0));
		failed += role_failed(names[n], status);
	}
	EXPECT_EQ(0, failed);
}

TEST_HARNESS_MAIN
