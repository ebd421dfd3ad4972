// SPDX-License-Identifier: GPL-2.0
/*
 * jailfs_bench: a jail root of N staged files made with one jailfs mount,
 * next to ujail's bind backend (a tmpfs root and one bind mount per file)
 * and bubblewrap (--ro-bind per file). Run as root, on a kernel with
 * jailfs loaded (bench/jailfs_bench.sh boots one in QEMU).
 *
 *   jailfs_bench [-r RUNS] [-u UNSHARE_RUNS] [-a ACCESS_ITERS] [-x EXEC_ITERS]
 *                [-b BWRAP] [N]...
 *   jailfs_bench noop        exit 0 (the program exec'd by the benchmarks)
 *   jailfs_bench mounts      print the number of lines of /proc/self/mountinfo
 *
 * For each N (default 10 100 1000 5000), it prints the median of RUNS:
 *   - jailfs: fsopen, one fsconfig("ro_path", SRC) per file, CMD_CREATE,
 *     fsmount, move_mount onto an empty directory;
 *   - bind: the syscalls of userspace/ujail/root/stage_bind.c per file (open
 *     O_PATH, mount point created beneath the root with openat2, open_tree
 *     clone, mount_setattr ro,nosuid,nodev, move_mount) on a fresh tmpfs;
 *   - bwrap: a whole `bwrap --ro-bind F F ... PROG noop` run, as is;
 *   - the mounts each adds to the mount table (bwrap: all its jail has);
 *   - unshare(CLONE_NEWNS) in a forked child while the root is mounted;
 * then the cost of open/read/close, stat and fork+exec+wait of a static
 * binary through a jailfs entry, through a bind mount, through a read-only
 * overlayfs of the same lower tree and on the host, and the steps of an
 * open+read+close one by one (the path walk alone as an O_PATH open, open
 * and close, a read, an fstat), which tell where an open's time goes.
 * It measures and prints; it never judges the numbers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../userspace/ujail/root/mount_api.h"

#define BASE "/tmp/jb"
#define SRC BASE "/src"
#define ROOT BASE "/root"
#define ACC BASE "/acc"
/* overlayfs without an upper layer needs two lower ones: this one is empty. */
#define EMPTY "/tmp/jb-empty"
#define FILES_PER_DIR 100
#define MAX_COUNTS 16

static int runs = 5, unshare_runs = 11;
static long access_iters = 20000, exec_iters = 200;
static const char *bwrap;
static bool have_jailfs, have_overlay;

static void die(const char *what)
{
	fprintf(stderr, "jailfs_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long mount_count(void)
{
	char buf[65536];
	long lines = 0;
	ssize_t n;
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open /proc/self/mountinfo");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	close(fd);
	return lines;
}

static void mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			die(tmp);
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		die(tmp);
}

static void write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd) < 0)
		die(path);
}

/* Prints the fs_context log of @fs_fd (what jailfs said about a refusal). */
static void print_fs_log(int fs_fd)
{
	char msg[512];
	ssize_t n;

	while ((n = read(fs_fd, msg, sizeof(msg) - 1)) > 0) {
		msg[n] = '\0';
		fprintf(stderr, "jailfs_bench:   fs log: %s\n", msg);
	}
}

/* One jailfs mount of @n read-only entries (SRC or SRC:DST) on @target. */
static int jailfs_mount(const char *target, char **entries, size_t n)
{
	int fs_fd, mnt_fd;

	fs_fd = uj_fsopen("jailfs", UJ_FSOPEN_CLOEXEC);
	if (fs_fd < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (uj_fsconfig(fs_fd, UJ_FSCONFIG_SET_STRING, "ro_path", entries[i], 0) < 0) {
			fprintf(stderr, "jailfs_bench: fsconfig ro_path=%s: %s\n", entries[i],
				strerror(errno));
			goto fail;
		}
	}
	if (uj_fsconfig(fs_fd, UJ_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		fprintf(stderr, "jailfs_bench: fsconfig CMD_CREATE: %s\n", strerror(errno));
		goto fail;
	}
	mnt_fd = uj_fsmount(fs_fd, UJ_FSMOUNT_CLOEXEC, UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV);
	if (mnt_fd < 0)
		goto fail;
	close(fs_fd);
	if (uj_move_mount(mnt_fd, "", AT_FDCWD, target, UJ_MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		close(mnt_fd);
		return -1;
	}
	close(mnt_fd);
	return 0;
fail:
	print_fs_log(fs_fd);
	close(fs_fd);
	return -1;
}

/*
 * A read-only overlayfs of @lower (and the empty EMPTY below it) on @target:
 * no upper layer, as read-only as a jailfs -r entry or a read-only bind.
 */
static int overlay_mount(const char *target, const char *lower)
{
	char opts[PATH_MAX + 64];

	snprintf(opts, sizeof(opts), "lowerdir=%s:%s", lower, EMPTY);
	return mount("overlay", target, "overlay", MS_RDONLY | MS_NOSUID | MS_NODEV, opts);
}

/* A fresh tmpfs on @target, as ujail's root (nosuid, nodev); its O_PATH fd. */
static int tmpfs_root(const char *target)
{
	int fs_fd, mnt_fd, root_fd;

	fs_fd = uj_fsopen("tmpfs", UJ_FSOPEN_CLOEXEC);
	if (fs_fd < 0 || uj_fsconfig(fs_fd, UJ_FSCONFIG_SET_STRING, "mode", "0755", 0) < 0 ||
	    uj_fsconfig(fs_fd, UJ_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		die("tmpfs: fsopen/fsconfig");
	mnt_fd = uj_fsmount(fs_fd, UJ_FSMOUNT_CLOEXEC, UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV);
	if (mnt_fd < 0 || uj_move_mount(mnt_fd, "", AT_FDCWD, target,
					UJ_MOVE_MOUNT_F_EMPTY_PATH) < 0)
		die("tmpfs: fsmount/move_mount");
	close(mnt_fd);
	close(fs_fd);
	root_fd = open(target, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0)
		die(target);
	return root_fd;
}

/* openat2 one step beneath @dir_fd, symbolic links refused (stage.c's open_step). */
static int open_step(int dir_fd, const char *name, int flags)
{
	struct uj_open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = UJ_RESOLVE_BENEATH | UJ_RESOLVE_NO_SYMLINKS | UJ_RESOLVE_NO_MAGICLINKS,
	};

	return uj_openat2(dir_fd, name, &how);
}

/*
 * The mount point for jail path @path beneath @root_fd, made as
 * stage_mountpoint() makes it: each parent created and opened one step at
 * a time, then the file (or directory) itself, opened and checked.
 */
static int mountpoint(int root_fd, const char *path, bool dir)
{
	char name[NAME_MAX + 1];
	const char *p = path, *base = strrchr(path, '/') + 1;
	struct stat sb;
	int fd = open_step(root_fd, ".", O_PATH | O_DIRECTORY), next;

	if (fd < 0)
		return -1;
	for (;;) {
		size_t len;

		p += strspn(p, "/");
		if (p >= base)
			break;
		len = strcspn(p, "/");
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST)
			goto fail;
		next = open_step(fd, name, O_PATH | O_DIRECTORY);
		close(fd);
		if (next < 0)
			return -1;
		fd = next;
	}
	if ((dir ? mkdirat(fd, base, 0755) : mknodat(fd, base, S_IFREG | 0644, 0)) < 0 &&
	    errno != EEXIST)
		goto fail;
	next = open_step(fd, base, O_PATH);
	close(fd);
	if (next < 0)
		return -1;
	if (fstat(next, &sb) < 0 || !S_ISDIR(sb.st_mode) != !dir) {
		close(next);
		errno = ENOTDIR;
		return -1;
	}
	return next;
fail:
	close(fd);
	return -1;
}

/* One read-only bind mount of host @src at jail path @dst (stage_bind.c's bind_add). */
static int bind_add(int root_fd, const char *src, const char *dst)
{
	struct uj_mount_attr attr = {
		.attr_set = UJ_MOUNT_ATTR_RDONLY | UJ_MOUNT_ATTR_NOSUID | UJ_MOUNT_ATTR_NODEV,
	};
	struct stat sb;
	int src_fd, tree_fd, target_fd, ret = -1;

	src_fd = open(src, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (src_fd < 0)
		return -1;
	if (fstat(src_fd, &sb) < 0)
		goto out_src;
	tree_fd = uj_open_tree(src_fd, "", UJ_OPEN_TREE_CLONE | O_CLOEXEC | AT_EMPTY_PATH |
			       UJ_AT_RECURSIVE);
	if (tree_fd < 0)
		goto out_src;
	target_fd = mountpoint(root_fd, dst, S_ISDIR(sb.st_mode));
	if (target_fd >= 0) {
		if (uj_mount_setattr(tree_fd, "", AT_EMPTY_PATH | UJ_AT_RECURSIVE, &attr) == 0)
			ret = uj_move_mount(tree_fd, "", target_fd, "",
					    UJ_MOVE_MOUNT_F_EMPTY_PATH |
					    UJ_MOVE_MOUNT_T_EMPTY_PATH);
		close(target_fd);
	}
	close(tree_fd);
out_src:
	close(src_fd);
	return ret;
}

/* A bind-backend root of @n files on @target: tmpfs, then a bind per file. */
static void bind_root(const char *target, char **files, size_t n)
{
	int root_fd = tmpfs_root(target);

	for (size_t i = 0; i < n; i++) {
		if (bind_add(root_fd, files[i], files[i]) < 0) {
			fprintf(stderr, "jailfs_bench: bind %s: %s\n", files[i], strerror(errno));
			exit(1);
		}
	}
	close(root_fd);
}

static void unmount(const char *target)
{
	if (umount2(target, MNT_DETACH) < 0)
		die(target);
}

/* Median time (us) of unshare(CLONE_NEWNS) in a forked child of this namespace. */
static double unshare_us(void)
{
	double v[unshare_runs];

	for (int i = 0; i < unshare_runs; i++) {
		int pfd[2], status;
		double t = 0;
		pid_t pid;

		if (pipe(pfd) < 0)
			die("pipe");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			double t0 = now_ns();

			if (unshare(CLONE_NEWNS) < 0)
				_exit(1);
			t = now_ns() - t0;
			_exit(write(pfd[1], &t, sizeof(t)) == sizeof(t) ? 0 : 1);
		}
		close(pfd[1]);
		if (read(pfd[0], &t, sizeof(t)) != sizeof(t))
			t = -1;
		close(pfd[0]);
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("unshare(CLONE_NEWNS) in a child");
		v[i] = t / 1e3;
	}
	return median(v, unshare_runs);
}

/* Runs @argv; its stdout into @out (if not NULL); returns the exit status. */
static int run(char **argv, char *out, size_t outlen, bool quiet)
{
	int pfd[2], status, devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	size_t have = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(out ? pfd[1] : devnull, STDOUT_FILENO);
		if (quiet)
			dup2(devnull, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	close(devnull);
	while (out && have + 1 < outlen && (n = read(pfd[0], out + have, outlen - have - 1)) > 0)
		have += (size_t)n;
	if (out)
		out[have] = '\0';
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* bwrap --ro-bind F F (for each file) --ro-bind PROG PROG [--proc /proc] PROG CMD */
static char **bwrap_argv(char **files, size_t n, const char *prog, bool count)
{
	char **argv = calloc(3 * n + 12, sizeof(*argv));
	size_t a = 0;

	if (!argv)
		die("calloc");
	argv[a++] = (char *)bwrap;
	for (size_t i = 0; i < n; i++) {
		argv[a++] = "--ro-bind";
		argv[a++] = files[i];
		argv[a++] = files[i];
	}
	argv[a++] = "--ro-bind";
	argv[a++] = (char *)prog;
	argv[a++] = (char *)prog;
	if (count) {
		argv[a++] = "--proc";
		argv[a++] = "/proc";
	}
	argv[a++] = (char *)prog;
	argv[a++] = count ? "mounts" : "noop";
	return argv;
}

/* Median ms of bwrap runs with @n files; -1 when bwrap fails. *mounts: inside. */
static double bwrap_ms(char **files, size_t n, long *mounts)
{
	char **argv = bwrap_argv(files, n, ACC "/prog", true), out[64];
	double v[runs];

	*mounts = -1;
	if (run(argv, out, sizeof(out), false) != 0) {
		fprintf(stderr, "jailfs_bench: bwrap with %zu files failed (its message above):"
			" bwrap_ms n/a\n", n);
		free(argv);
		return -1;
	}
	*mounts = strtol(out, NULL, 10);
	free(argv);
	argv = bwrap_argv(files, n, ACC "/prog", false);
	for (int r = 0; r < runs; r++) {
		double t0 = now_ns();

		if (run(argv, NULL, 0, true) != 0)
			return -1;
		v[r] = (now_ns() - t0) / 1e6;
	}
	free(argv);
	return median(v, runs);
}

struct setup_row {
	size_t files;
	double jailfs_ms, bind_ms, bwrap_ms;
	long jailfs_mounts, bind_mounts, bwrap_mounts;
	double unshare_base_us, unshare_jailfs_us, unshare_bind_us;
};

/* N files in SRC/N/dXX/fXXXX, FILES_PER_DIR to a directory. */
static char **make_files(size_t n)
{
	char **files = calloc(n, sizeof(*files)), dir[PATH_MAX];

	if (!files)
		die("calloc");
	for (size_t i = 0; i < n; i++) {
		if (i % FILES_PER_DIR == 0) {
			snprintf(dir, sizeof(dir), SRC "/%zu/d%02zu", n, i / FILES_PER_DIR);
			mkdir_p(dir);
		}
		if (asprintf(&files[i], "%s/f%04zu", dir, i) < 0)
			die("asprintf");
		write_file(files[i], "x\n", 2, 0644);
	}
	return files;
}

static void setup_bench(size_t n, struct setup_row *row)
{
	char **files = make_files(n);
	double jv[runs], bv[runs];
	long before;

	row->files = n;
	row->jailfs_ms = row->unshare_jailfs_us = -1;
	row->jailfs_mounts = -1;
	row->unshare_base_us = unshare_us();
	for (int r = 0; r < runs; r++) {
		double t0;

		before = mount_count();
		if (have_jailfs) {
			t0 = now_ns();
			if (jailfs_mount(ROOT, files, n) < 0)
				die("jailfs mount");
			jv[r] = (now_ns() - t0) / 1e6;
			row->jailfs_mounts = mount_count() - before;
			if (r == runs - 1)
				row->unshare_jailfs_us = unshare_us();
			unmount(ROOT);
		}
		t0 = now_ns();
		bind_root(ROOT, files, n);
		bv[r] = (now_ns() - t0) / 1e6;
		row->bind_mounts = mount_count() - before;
		if (r == runs - 1)
			row->unshare_bind_us = unshare_us();
		unmount(ROOT);
	}
	if (have_jailfs)
		row->jailfs_ms = median(jv, runs);
	row->bind_ms = median(bv, runs);
	row->bwrap_ms = bwrap ? bwrap_ms(files, n, &row->bwrap_mounts) : -1;
	if (!bwrap)
		row->bwrap_mounts = -1;
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/*
 * Each op is timed alone and the table shows the median of all of them:
 * the machine is shared and TCG runs the guest in one host thread, so a
 * host preemption inflates the one op it lands in, not a whole loop.
 */
static double timer_ns;		/* the cost of one timing (now_ns twice) */

static void timer_calibrate(void)
{
	double v[10001];

	for (int i = 0; i < 10001; i++) {
		double t0 = now_ns();

		v[i] = now_ns() - t0;
	}
	timer_ns = median(v, 10001);
}

static double since(double t0)
{
	return now_ns() - t0 - timer_ns;
}

/* open/read/close of @path, @iters times; each one's ns into @t */
static void op_open_read(const char *path, long iters, double *t)
{
	char buf[256];

	for (long i = 0; i < iters; i++) {
		double t0 = now_ns();
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0 || close(fd) < 0)
			die(path);
		t[i] = since(t0);
	}
}

/* open(@flags)+close of @path: O_PATH is the path walk alone. */
static void op_open_close(const char *path, int flags, long iters, double *t)
{
	for (long i = 0; i < iters; i++) {
		double t0 = now_ns();
		int fd = open(path, flags | O_CLOEXEC);

		if (fd < 0 || close(fd) < 0)
			die(path);
		t[i] = since(t0);
	}
}

/* pread (@fstat_it false) or fstat of one open file: no path walk. */
static void op_on_fd(const char *path, bool fstat_it, long iters, double *t)
{
	char buf[256];
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die(path);
	for (long i = 0; i < iters; i++) {
		double t0 = now_ns();

		if ((fstat_it ? fstat(fd, &sb) : pread(fd, buf, sizeof(buf), 0)) < 0)
			die(path);
		t[i] = since(t0);
	}
	close(fd);
}

static void op_stat(const char *path, long iters, double *t)
{
	struct stat sb;

	for (long i = 0; i < iters; i++) {
		double t0 = now_ns();

		if (stat(path, &sb) < 0)
			die(path);
		t[i] = since(t0);
	}
}

static void op_exec(const char *path, long iters, double *t)
{
	char *argv[] = { (char *)path, "noop", NULL }, *envp[] = { NULL };

	for (long i = 0; i < iters; i++) {
		double t0 = now_ns();
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			execve(path, argv, envp);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die(path);
		t[i] = since(t0);
	}
}

/*
 * The ops: the three a service does, then the steps of the first one
 * (its path walk, the open and close of the file, a read, and an fstat).
 */
enum { OP_OPEN, OP_STAT, OP_EXEC, OP_WALK, OP_OPEN_CLOSE, OP_PREAD, OP_FSTAT, NR_OPS };
enum { W_HOST, W_BIND, W_OVERLAY, W_JAILFS, NR_WAYS };

static const char *const op_names[NR_OPS] = {
	"open+read+close", "stat", "fork+exec+wait", "O_PATH open+close",
	"open+close", "pread 256 B", "fstat",
};

static void run_op(int op, const char *dir, const char *file, long iters, double *t)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	switch (op) {
	case OP_OPEN:
		return op_open_read(path, iters, t);
	case OP_STAT:
		return op_stat(path, iters, t);
	case OP_WALK:
		return op_open_close(path, O_PATH, iters, t);
	case OP_OPEN_CLOSE:
		return op_open_close(path, O_RDONLY, iters, t);
	case OP_PREAD:
		return op_on_fd(path, false, iters, t);
	case OP_FSTAT:
		return op_on_fd(path, true, iters, t);
	default:
		return op_exec(path, iters, t);
	}
}

/* "n/a" for a way not measured, else the value (ns or a ratio). */
static void print_cell(double v, double div, int width, const char *f)
{
	if (v < 0 || div <= 0)
		printf(" %*s", width, "n/a");
	else
		printf(f, width, v / div);
}

/*
 * The median of every op through each way, over @runs rounds in which
 * the ways take turns, so drift hits all of them alike. @dirs[w] is the
 * directory holding @file (@exec_file for the exec) seen through way w
 * (NULL: not measured).
 */
static void access_table(const char *title, const char *const dirs[NR_WAYS],
			 const char *file, const char *exec_file, int nops)
{
	double res[NR_WAYS], *v[NR_WAYS];

	printf("\n%s\n", title);
	printf("%-18s %12s %12s %12s %12s %12s %12s\n", "op (ns/op)", "host", "bind",
	       "overlayfs", "jailfs", "jailfs/bind", "jailfs/ovl");
	for (int op = 0; op < nops; op++) {
		long iters = op == OP_EXEC ? exec_iters : access_iters;
		const char *f = op == OP_EXEC ? exec_file : file;

		for (int w = 0; w < NR_WAYS; w++) {
			v[w] = calloc((size_t)(runs * iters), sizeof(double));
			if (!v[w])
				die("calloc");
			if (dirs[w])
				run_op(op, dirs[w], f, iters / 10 + 1, v[w]);	/* warm up */
		}
		for (int r = 0; r < runs; r++)
			for (int w = 0; w < NR_WAYS; w++)
				if (dirs[w])
					run_op(op, dirs[w], f, iters, v[w] + r * iters);
		for (int w = 0; w < NR_WAYS; w++) {
			res[w] = dirs[w] ? median(v[w], (int)(runs * iters)) : -1;
			free(v[w]);
		}
		printf("%-18s", op_names[op]);
		for (int w = 0; w < NR_WAYS; w++)
			print_cell(res[w], 1, 12, " %*.0f");
		print_cell(res[W_JAILFS], res[W_BIND], 12, " %*.3f");
		print_cell(res[W_JAILFS], res[W_OVERLAY], 12, " %*.3f");
		printf("\n");
		fflush(stdout);
	}
}

/* Copies this program to @dst (the static binary the exec loop runs). */
static void copy_self(const char *dst)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);

	if (in < 0 || out < 0)
		die("copy /proc/self/exe");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			die(dst);
	if (n < 0 || close(out) < 0)
		die(dst);
	close(in);
}

/*
 * Access through one jailfs entry (the directory ACC at /acc), through a
 * read-only bind of it at /acc in a tmpfs, and through /acc in a read-only
 * overlay of BASE: each a root with /acc in it, at the same path depth.
 */
static void access_bench(void)
{
	char entry[] = ACC ":/acc", *entries[] = { entry };
	const char *dirs[NR_WAYS] = { ACC, ROOT "-bind/acc", NULL, NULL };
	int root_fd;

	mkdir_p(ROOT "-bind");
	mkdir_p(ROOT "-jailfs");
	mkdir_p(ROOT "-ovl");
	root_fd = tmpfs_root(ROOT "-bind");
	if (bind_add(root_fd, ACC, "/acc") < 0)
		die("bind " ACC);
	close(root_fd);
	if (have_jailfs) {
		if (jailfs_mount(ROOT "-jailfs", entries, 1) < 0)
			die("jailfs mount of " ACC);
		dirs[W_JAILFS] = ROOT "-jailfs/acc";
	}
	have_overlay = overlay_mount(ROOT "-ovl", BASE) == 0;
	if (have_overlay)
		dirs[W_OVERLAY] = ROOT "-ovl/acc";
	else
		fprintf(stderr, "jailfs_bench: no overlayfs (%s): overlayfs columns are n/a\n",
			strerror(errno));
	access_table("File access through a directory entry (" ACC " at /acc), median of all ops",
		     dirs, "small", "prog", NR_OPS);
	unmount(ROOT "-bind");
	if (have_jailfs)
		unmount(ROOT "-jailfs");
	if (have_overlay)
		unmount(ROOT "-ovl");
}

/*
 * The same, for one file in the roots of the largest N (lookups among N
 * entries); the overlay is one of all of BASE at its path in the root.
 */
static void access_big_bench(size_t n)
{
	char **files = make_files(n), file[PATH_MAX];
	const char *dirs[NR_WAYS] = { "", ROOT "-bind", NULL, NULL };

	snprintf(file, sizeof(file), "%s", files[n / 2] + 1);	/* no leading / */
	bind_root(ROOT "-bind", files, n);
	if (have_jailfs) {
		if (jailfs_mount(ROOT "-jailfs", files, n) < 0)
			die("jailfs mount");
		dirs[W_JAILFS] = ROOT "-jailfs";
	}
	mkdir_p(ROOT "-ovl" BASE);
	if (have_overlay) {
		if (overlay_mount(ROOT "-ovl" BASE, BASE) < 0)
			die("overlay mount of " BASE);
		dirs[W_OVERLAY] = ROOT "-ovl";
	}
	char title[PATH_MAX + 80];

	snprintf(title, sizeof(title), "File access to /%s in the roots of %zu files", file, n);
	access_table(title, dirs, file, NULL, 2);
	unmount(ROOT "-bind");
	if (have_jailfs)
		unmount(ROOT "-jailfs");
	if (have_overlay)
		unmount(ROOT "-ovl" BASE);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

static void fmt(char *buf, size_t len, double v, const char *f)
{
	if (v < 0)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, f, v);
}

static void print_setup(const struct setup_row *rows, int nrows)
{
	printf("\nRoot setup, median of %d runs (ms); mounts added to the mount table;\n"
	       "unshare(CLONE_NEWNS) with that root mounted, median of %d (us)\n", runs,
	       unshare_runs);
	printf("%6s %10s %10s %8s %10s %7s %7s %7s %10s %10s %10s\n", "files", "jailfs_ms",
	       "bind_ms", "speedup", "bwrap_ms", "m_jfs", "m_bind", "m_bwrap", "uns_none",
	       "uns_jfs", "uns_bind");
	for (int i = 0; i < nrows; i++) {
		const struct setup_row *r = &rows[i];
		char jms[32], bms[32], sp[32], wms[32], jm[32], wm[32], uj[32];

		fmt(jms, sizeof(jms), r->jailfs_ms, "%.2f");
		fmt(bms, sizeof(bms), r->bind_ms, "%.2f");
		fmt(sp, sizeof(sp), r->jailfs_ms < 0 ? -1 : r->bind_ms / r->jailfs_ms, "%.1fx");
		fmt(wms, sizeof(wms), r->bwrap_ms, "%.2f");
		fmt(jm, sizeof(jm), (double)r->jailfs_mounts, "%.0f");
		fmt(wm, sizeof(wm), (double)r->bwrap_mounts, "%.0f");
		fmt(uj, sizeof(uj), r->unshare_jailfs_us, "%.0f");
		printf("%6zu %10s %10s %8s %10s %7s %7ld %7s %10.0f %10s %10.0f\n", r->files, jms,
		       bms, sp, wms, jm, r->bind_mounts, wm, r->unshare_base_us, uj,
		       r->unshare_bind_us);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: jailfs_bench [-r RUNS] [-u UNSHARE_RUNS] [-a ACCESS_ITERS] "
		"[-x EXEC_ITERS] [-b BWRAP] [N]...\n"
		"       jailfs_bench noop|mounts\n");
	return 2;
}

int main(int argc, char **argv)
{
	size_t counts[MAX_COUNTS] = { 10, 100, 1000, 5000 };
	struct setup_row rows[MAX_COUNTS];
	struct utsname uts;
	int ncounts = 4, opt, fd;

	if (argc == 2 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "mounts")) {
		printf("%ld\n", mount_count());
		return 0;
	}
	while ((opt = getopt(argc, argv, "r:u:a:x:b:")) != -1) {
		switch (opt) {
		case 'r':
			runs = atoi(optarg);
			break;
		case 'u':
			unshare_runs = atoi(optarg);
			break;
		case 'a':
			access_iters = atol(optarg);
			break;
		case 'x':
			exec_iters = atol(optarg);
			break;
		case 'b':
			bwrap = optarg;
			break;
		default:
			return usage();
		}
	}
	if (runs < 1 || unshare_runs < 1 || access_iters < 1 || exec_iters < 1)
		return usage();
	if (optind < argc) {
		ncounts = 0;
		for (; optind < argc && ncounts < MAX_COUNTS; optind++) {
			long v = atol(argv[optind]);

			if (v < 1)
				return usage();
			counts[ncounts++] = (size_t)v;
		}
	}
	if (geteuid() != 0) {
		fprintf(stderr, "jailfs_bench: must run as root\n");
		return 1;
	}

	/* A mount namespace of our own, private, with a tmpfs for the trees. */
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("own mount namespace");
	mkdir_p(BASE);
	if (mount("jb", BASE, "tmpfs", 0, "mode=0755") < 0)
		die("mount tmpfs on " BASE);
	mkdir_p(ROOT);
	mkdir_p(ACC);
	write_file(ACC "/small", "a small file, read through each kind of mount\n", 46, 0644);
	copy_self(ACC "/prog");
	mkdir_p(EMPTY);

	fd = uj_fsopen("jailfs", UJ_FSOPEN_CLOEXEC);
	have_jailfs = fd >= 0;
	if (fd >= 0)
		close(fd);
	else
		fprintf(stderr, "jailfs_bench: no jailfs (%s): jailfs columns are n/a\n",
			strerror(errno));

	if (uname(&uts) < 0)
		die("uname");
	printf("jailfs benchmark, kernel %s, %ld CPUs; bind = the syscalls of ujail's bind "
	       "backend (stage_bind.c) reimplemented here;\nbwrap = a whole `bwrap --ro-bind F F"
	       " ... prog noop` run, start to exit%s;\noverlayfs = a read-only overlay "
	       "(lowerdir=DIR:" EMPTY ", no upper) of the same lower tree\n", uts.release, sysconf(_SC_NPROCESSORS_ONLN),
	       bwrap ? "" : " (not measured: no -b)");
	fflush(stdout);

	for (int i = 0; i < ncounts; i++) {
		setup_bench(counts[i], &rows[i]);
		fprintf(stderr, "jailfs_bench: %zu files done\n", counts[i]);
	}
	print_setup(rows, ncounts);
	timer_calibrate();
	printf("\nAccess: each op timed alone, %.0f ns of timing subtracted\n", timer_ns);
	fflush(stdout);
	access_bench();
	fflush(stdout);
	access_big_bench(counts[ncounts - 1]);
	return 0;
}
