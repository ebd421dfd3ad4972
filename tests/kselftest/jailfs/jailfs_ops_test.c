// SPDX-License-Identifier: GPL-2.0
/*
 * jailfs semantics: I/O, mmap and exec through the mount, changes inside
 * read-write entries, EROFS and EXDEV, symlinks that resolve inside the
 * jail, host renames that must not leak access, host chmod/chown seen by
 * exec, the lower mount's noexec/nodev/nosuid, and no file handles or
 * ioctls.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <linux/fs.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "jailfs_util.h"

#define PROG "/bin/busybox"	/* static; run as "true" it exits 0 */
#define PROBE_UID 77		/* owner of the set-uid probe */

/*
 * This program exec'd with JAILFS_EUID_PROBE set exits with its effective
 * uid, before the harness starts: the set-id probe of
 * host_chmod_and_chown_reach_exec.
 */
__attribute__((constructor)) static void euid_probe(void)
{
	if (getenv("JAILFS_EUID_PROBE"))
		_exit(geteuid() & 0xff);
}

/* The effective uid PATH runs with, from its exit status; -1 on error. */
static int exec_euid(const char *path)
{
	char *const argv[] = { "probe", NULL };
	char *const envp[] = { "JAILFS_EUID_PROBE=1", NULL };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve(path, argv, envp);
		_exit(255);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(ops) {
	char buf[4096];
};

FIXTURE_SETUP(ops)
{
	char cmd[256];

	ASSERT_EQ(0, scratch_setup());
	ASSERT_EQ(0, make_path(HOST "/ro/file", "read only\n"));
	ASSERT_EQ(0, make_path(HOST "/rw/file", "read write\n"));
	ASSERT_EQ(0, make_path(HOST "/rw/sub/x", "x\n"));
	ASSERT_EQ(0, make_path(HOST "/rw2", NULL));
	ASSERT_EQ(0, make_path(HOST "/secret", "secret\n"));
	snprintf(cmd, sizeof(cmd), "cp %s %s/bin-true", PROG, HOST);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/ro:/ro", "rw_path", HOST "/rw:/rw",
				  "rw_path", HOST "/rw2:/rw2",
				  "ro_path", HOST "/bin-true:/bin/true"));
}

FIXTURE_TEARDOWN(ops)
{
	scratch_teardown();
}

TEST_F(ops, read_write_stat_truncate_fsync)
{
	struct stat st, host;
	int fd;

	ASSERT_EQ(10, read_all(JAIL "/ro/file", self->buf, sizeof(self->buf)));
	fd = open(JAIL "/rw/file", O_RDWR | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(6, write(fd, "more!\n", 6));
	EXPECT_EQ(0, fsync(fd));
	EXPECT_EQ(0, fdatasync(fd));
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(17, st.st_size);
	ASSERT_EQ(0, stat(HOST "/rw/file", &host));
	EXPECT_EQ(host.st_ino, st.st_ino);
	EXPECT_EQ(host.st_size, st.st_size);
	EXPECT_EQ(host.st_mtime, st.st_mtime);
	EXPECT_EQ(0, ftruncate(fd, 4));
	EXPECT_EQ(0, fallocate(fd, 0, 0, 8192));
	close(fd);
	ASSERT_EQ(0, stat(HOST "/rw/file", &host));
	EXPECT_EQ(8192, host.st_size);
	EXPECT_EQ(0, truncate(JAIL "/rw/file", 2));
	ASSERT_EQ(2, read_all(HOST "/rw/file", self->buf, sizeof(self->buf)));
	EXPECT_STREQ("re", self->buf);
	/* Host-side changes show at once. */
	ASSERT_EQ(0, make_path(HOST "/ro/file", "changed\n"));
	ASSERT_EQ(8, read_all(JAIL "/ro/file", self->buf, sizeof(self->buf)));
}

TEST_F(ops, readonly_entries_give_erofs)
{
	EXPECT_EQ(EROFS, ERRNO_OF(open(JAIL "/ro/file", O_WRONLY)));
	EXPECT_EQ(EROFS, ERRNO_OF(open(JAIL "/ro/new", O_WRONLY | O_CREAT, 0644)));
	EXPECT_EQ(EROFS, ERRNO_OF(truncate(JAIL "/ro/file", 0)));
	EXPECT_EQ(EROFS, ERRNO_OF(chmod(JAIL "/ro/file", 0777)));
	EXPECT_EQ(EROFS, ERRNO_OF(chown(JAIL "/ro/file", 1, 1)));
	EXPECT_EQ(EROFS, ERRNO_OF(unlink(JAIL "/ro/file")));
	EXPECT_EQ(EROFS, ERRNO_OF(mkdir(JAIL "/ro/d", 0755)));
	EXPECT_EQ(EROFS, ERRNO_OF(symlink("x", JAIL "/ro/l")));
	EXPECT_EQ(EROFS, ERRNO_OF(rename(JAIL "/ro/file", JAIL "/ro/file2")));
	EXPECT_EQ(EROFS, ERRNO_OF(utimensat(AT_FDCWD, JAIL "/ro/file", NULL, 0)));
	EXPECT_EQ(10, read_all(HOST "/ro/file", self->buf, sizeof(self->buf)));
}

TEST_F(ops, names_change_inside_readwrite_entries)
{
	struct stat st;

	ASSERT_EQ(0, make_path(JAIL "/rw/new", "new\n"));
	EXPECT_EQ(4, read_all(HOST "/rw/new", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, mkdir(JAIL "/rw/dir", 0700));
	ASSERT_EQ(0, stat(HOST "/rw/dir", &st));
	EXPECT_EQ(0700, st.st_mode & 07777);
	ASSERT_EQ(0, rename(JAIL "/rw/new", JAIL "/rw/dir/moved"));
	EXPECT_EQ(4, read_all(HOST "/rw/dir/moved", self->buf, sizeof(self->buf)));
	EXPECT_EQ(ENOENT, ERRNO_OF(access(JAIL "/rw/new", F_OK)));
	ASSERT_EQ(0, link(JAIL "/rw/dir/moved", JAIL "/rw/hard"));
	ASSERT_EQ(0, stat(JAIL "/rw/hard", &st));
	EXPECT_EQ(2, st.st_nlink);
	ASSERT_EQ(0, symlink("dir/moved", JAIL "/rw/soft"));
	EXPECT_EQ(4, read_all(JAIL "/rw/soft", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, mknod(JAIL "/rw/fifo", S_IFIFO | 0600, 0));
	ASSERT_EQ(0, lstat(HOST "/rw/fifo", &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	EXPECT_EQ(0, unlink(JAIL "/rw/fifo"));
	EXPECT_EQ(EEXIST, ERRNO_OF(mkdir(JAIL "/rw/dir", 0755)));
	EXPECT_EQ(ENOTEMPTY, ERRNO_OF(rmdir(JAIL "/rw/dir")));
	EXPECT_EQ(0, unlink(JAIL "/rw/dir/moved"));
	EXPECT_EQ(0, rmdir(JAIL "/rw/dir"));
	EXPECT_EQ(ENOENT, ERRNO_OF(access(HOST "/rw/dir", F_OK)));
	ASSERT_EQ(0, renameat2(AT_FDCWD, JAIL "/rw/hard", AT_FDCWD, JAIL "/rw/file",
			       RENAME_EXCHANGE));
	EXPECT_EQ(4, read_all(HOST "/rw/file", self->buf, sizeof(self->buf)));
	EXPECT_EQ(EEXIST, ERRNO_OF(renameat2(AT_FDCWD, JAIL "/rw/hard", AT_FDCWD,
					     JAIL "/rw/file", RENAME_NOREPLACE)));
}

TEST_F(ops, across_entries_is_exdev)
{
	EXPECT_EQ(EXDEV, ERRNO_OF(rename(JAIL "/rw/file", JAIL "/rw2/file")));
	EXPECT_EQ(EXDEV, ERRNO_OF(link(JAIL "/rw/file", JAIL "/rw2/file")));
	EXPECT_EQ(EXDEV, ERRNO_OF(link(JAIL "/ro/file", JAIL "/rw/ro-link")));
	EXPECT_EQ(0, access(HOST "/rw/file", F_OK));
}

TEST_F(ops, readdir_offsets_are_stable)
{
	long offsets[64];
	char names[64][NAME_MAX + 1];
	struct dirent *de;
	int i, n = 0;
	DIR *dir;

	for (i = 0; i < 40; i++) {
		snprintf(self->buf, sizeof(self->buf), JAIL "/rw/f%02d", i);
		ASSERT_EQ(0, make_path(self->buf, "x"));
	}
	dir = opendir(JAIL "/rw");
	ASSERT_NE(NULL, dir);
	while (n < 64 && (de = readdir(dir))) {
		offsets[n] = telldir(dir);
		snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	}
	EXPECT_EQ(40 + 4, n);	/* . .. file sub and f00..f39 */
	for (i = n - 2; i >= 0; i -= 7) {
		seekdir(dir, offsets[i]);
		de = readdir(dir);
		ASSERT_NE(NULL, de);
		EXPECT_STREQ(names[i + 1], de->d_name);
	}
	closedir(dir);
}

TEST_F(ops, mmap_and_exec_from_the_jail)
{
	char *map, line[512];
	int fd, status, found = 0;
	FILE *maps;
	pid_t pid;

	fd = open(JAIL "/rw/file", O_RDWR);
	ASSERT_LE(0, fd);
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	map[0] = 'R';
	EXPECT_EQ(0, msync(map, 4096, MS_SYNC));
	maps = fopen("/proc/self/maps", "r");
	ASSERT_NE(NULL, maps);
	while (fgets(line, sizeof(line), maps))
		found |= !!strstr(line, JAIL "/rw/file");
	fclose(maps);
	EXPECT_TRUE(found);	/* the jail's path, not the host's */
	munmap(map, 4096);
	close(fd);
	ASSERT_EQ(1, read_all(HOST "/rw/file", self->buf, 2));
	EXPECT_EQ('R', self->buf[0]);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		execl(JAIL "/bin/true", "true", NULL);
		_exit(errno);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(ops, direct_io_where_the_lower_fs_has_it)
{
	int lower = open(HOST "/rw/file", O_RDONLY | O_DIRECT);
	int upper = open(JAIL "/rw/file", O_RDONLY | O_DIRECT);

	EXPECT_EQ(lower < 0, upper < 0);
	if (lower >= 0)
		close(lower);
	if (upper >= 0)
		close(upper);
}

/* In a child chrooted into the jail: what the service sees. */
static int in_jail(int (*fn)(const void *), const void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chroot(JAIL) || chdir("/"))
			_exit(100);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WEXITSTATUS(status);
}

static int open_errno(const void *path)
{
	int fd = open(path, O_RDONLY);

	return fd < 0 ? errno : 0;
}

TEST_F(ops, symlinks_resolve_inside_the_jail)
{
	ASSERT_EQ(0, symlink(HOST "/secret", HOST "/rw/to-secret"));
	ASSERT_EQ(0, symlink("../../../../../secret", HOST "/rw/up-secret"));
	ASSERT_EQ(0, symlink("/ro/file", HOST "/rw/to-ro"));
	EXPECT_EQ(ENOENT, in_jail(open_errno, "/rw/to-secret"));
	EXPECT_EQ(ENOENT, in_jail(open_errno, "/rw/up-secret"));
	EXPECT_EQ(ENOENT, in_jail(open_errno, "/rw/../../secret"));
	EXPECT_EQ(0, in_jail(open_errno, "/rw/to-ro"));
}

static int cwd_escape(const int *fds)
{
	char buf[64];

	if (chdir("/rw/sub"))
		return 101;
	/* The host now moves this directory out of the entry. */
	if (write(fds[0], "m", 1) != 1 || read(fds[1], buf, 1) != 1)
		return 102;
	return open_errno("x");
}

TEST_F(ops, host_rename_out_of_the_entry_does_not_leak)
{
	int to_host[2], to_jail[2], fds[2], status;
	char c;
	pid_t pid;

	/* A cached path is looked up again after the host moved it. */
	ASSERT_EQ(2, read_all(JAIL "/rw/sub/x", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, rename(HOST "/rw/sub", HOST "/outside"));
	EXPECT_EQ(-ENOENT, read_all(JAIL "/rw/sub/x", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, rename(HOST "/outside", HOST "/rw/sub"));
	EXPECT_EQ(2, read_all(JAIL "/rw/sub/x", self->buf, sizeof(self->buf)));

	/* A process whose cwd is in the moved directory loses access too. */
	ASSERT_EQ(0, pipe(to_host));
	ASSERT_EQ(0, pipe(to_jail));
	fds[0] = to_host[1];
	fds[1] = to_jail[0];
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (chroot(JAIL))
			_exit(100);
		_exit(cwd_escape(fds));
	}
	ASSERT_EQ(1, read(to_host[0], &c, 1));
	ASSERT_EQ(0, rename(HOST "/rw/sub", HOST "/outside"));
	ASSERT_EQ(1, write(to_jail[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(ENOENT, WEXITSTATUS(status));
}

/*
 * Cached names follow what the host does inside an entry: path walks
 * revalidate them in RCU mode, which only confirms an unchanged lower
 * dentry and leaves every change to the ref-walk check.
 */
TEST_F(ops, host_changes_inside_the_entry_are_seen)
{
	ASSERT_EQ(0, make_path(HOST "/rw/a", "one\n"));
	ASSERT_EQ(4, read_all(JAIL "/rw/a", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, rename(HOST "/rw/a", HOST "/rw/b"));
	EXPECT_EQ(-ENOENT, read_all(JAIL "/rw/a", self->buf, sizeof(self->buf)));
	EXPECT_EQ(4, read_all(JAIL "/rw/b", self->buf, sizeof(self->buf)));

	ASSERT_EQ(0, make_path(HOST "/rw/a", "second\n"));
	ASSERT_EQ(7, read_all(JAIL "/rw/a", self->buf, sizeof(self->buf)));
	ASSERT_EQ(0, rename(HOST "/rw/b", HOST "/rw/a"));
	EXPECT_EQ(4, read_all(JAIL "/rw/a", self->buf, sizeof(self->buf)));
	EXPECT_EQ(-ENOENT, read_all(JAIL "/rw/b", self->buf, sizeof(self->buf)));

	ASSERT_EQ(0, rename(HOST "/rw/sub/x", HOST "/rw/x"));
	EXPECT_EQ(-ENOENT, read_all(JAIL "/rw/sub/x", self->buf, sizeof(self->buf)));
	EXPECT_EQ(2, read_all(JAIL "/rw/x", self->buf, sizeof(self->buf)));

	ASSERT_EQ(0, unlink(HOST "/rw/a"));
	EXPECT_EQ(-ENOENT, read_all(JAIL "/rw/a", self->buf, sizeof(self->buf)));
}

/*
 * exec takes the set-id bits and the owner from the jailfs inode: a host
 * chmod or chown of the lower file after the jail first used it must reach
 * the next exec, with no stat in between (a set-uid bit the host removed
 * must not survive in the jail).
 */
TEST_F(ops, host_chmod_and_chown_reach_exec)
{
	const char *probe = HOST "/ro/probe";
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && chmod 0755 %s",
		 getpid(), probe, probe);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, exec_euid(JAIL "/ro/probe"));

	ASSERT_EQ(0, chown(probe, PROBE_UID, PROBE_UID));
	ASSERT_EQ(0, chmod(probe, 04755));
	EXPECT_EQ(PROBE_UID, exec_euid(JAIL "/ro/probe"));

	ASSERT_EQ(0, chmod(probe, 0755));
	EXPECT_EQ(0, exec_euid(JAIL "/ro/probe"));
}

TEST_F(ops, lower_noexec_nodev_nosuid_are_honoured)
{
	char cmd[256];
	struct stat st;
	int fd, status;
	void *map;
	pid_t pid;

	umount2(JAIL, MNT_DETACH);
	ASSERT_EQ(0, make_path(SCRATCH "/nx", NULL));
	ASSERT_EQ(0, mount("nx", SCRATCH "/nx", "tmpfs", MS_NOEXEC | MS_NODEV | MS_NOSUID, NULL));
	snprintf(cmd, sizeof(cmd), "cp %s %s/nx/prog && chmod 6755 %s/nx/prog",
		 PROG, SCRATCH, SCRATCH);
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, mknod(SCRATCH "/nx/null", S_IFCHR | 0666, makedev(1, 3)));
	ASSERT_EQ(0, jailfs_mount("ro_path", SCRATCH "/nx:/nx"));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		execl(JAIL "/nx/prog", "prog", NULL);
		_exit(errno);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(EACCES, WEXITSTATUS(status));
	fd = open(JAIL "/nx/prog", O_RDONLY);
	ASSERT_LE(0, fd);
	map = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(EPERM, errno);
	map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(EACCES, ERRNO_OF(mprotect(map, 4096, PROT_READ | PROT_EXEC)));
	munmap(map, 4096);
	close(fd);
	ASSERT_EQ(0, stat(JAIL "/nx/prog", &st));
	EXPECT_EQ(0, st.st_mode & (S_ISUID | S_ISGID));
	EXPECT_EQ(EACCES, ERRNO_OF(open(JAIL "/nx/null", O_RDWR)));
	umount2(JAIL, MNT_DETACH);
	umount2(SCRATCH "/nx", MNT_DETACH);
}

TEST_F(ops, no_file_handles_or_ioctls)
{
	struct file_handle *fh = calloc(1, sizeof(*fh) + 128);
	int mount_id, fd, flags, err, host_err;

	ASSERT_NE(NULL, fh);
	fh->handle_bytes = 128;
	err = ERRNO_OF(name_to_handle_at(AT_FDCWD, JAIL "/rw/file", fh, &mount_id, 0));
	EXPECT_NE(0, err);
	/*
	 * A kernel without CONFIG_FHANDLE (our small test config) fails the
	 * call for every file, the lower one too: no handle either way.
	 */
	fh->handle_bytes = 128;
	host_err = ERRNO_OF(name_to_handle_at(AT_FDCWD, HOST "/rw/file", fh, &mount_id, 0));
	if (err != EOPNOTSUPP && err == host_err)
		TH_LOG("no file handles in this kernel at all (errno %d)", err);
	else
		EXPECT_EQ(EOPNOTSUPP, err);
	free(fh);
	fd = open(JAIL "/rw/file", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(ENOTTY, ERRNO_OF(ioctl(fd, FS_IOC_GETFLAGS, &flags)));
	close(fd);
}

TEST_HARNESS_MAIN
