// SPDX-License-Identifier: GPL-2.0
/*
 * jailfs mount interface: entries given as mount(2) options and as
 * fsconfig() keys (thousands of them), synthesized parents that list only
 * what leads to entries, and bad options that fail with a message and
 * leave nothing mounted.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "jailfs_util.h"

/* Names in directory PATH, sorted, joined by spaces ("." and ".." left out). */
static int list_dir(const char *path, char *out, size_t size)
{
	struct dirent **names;
	int n, i;
	size_t used = 0;

	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		return -errno;
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
			used += snprintf(out + used, used < size ? size - used : 0, "%s%s",
					 used ? " " : "", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return 0;
}

FIXTURE(mnt) {
	char log[1024];
	char list[4096];
};

FIXTURE_SETUP(mnt)
{
	ASSERT_EQ(0, scratch_setup());
	ASSERT_EQ(0, make_path(HOST "/etc/passwd", "root:x:0:0\n"));
	ASSERT_EQ(0, make_path(HOST "/etc/shadow", "secret\n"));
	ASSERT_EQ(0, make_path(HOST "/usr/lib/libc.so", "ELF\n"));
	ASSERT_EQ(0, make_path(HOST "/usr/lib/sub/deep", "deep\n"));
	ASSERT_EQ(0, make_path(HOST "/var/run/svc", NULL));
	ASSERT_EQ(0, symlink("libc.so", HOST "/usr/lib/libc.so.6"));
}

FIXTURE_TEARDOWN(mnt)
{
	scratch_teardown();
}

TEST_F(mnt, mount2_options_make_the_entries)
{
	char buf[64];
	const char *opts = "ro=" HOST "/etc/passwd,rw=" HOST "/var/run/svc:/run/svc,dir=/proc";

	ASSERT_EQ(0, mount("none", JAIL, "jailfs", 0, opts)) {
		TH_LOG("mount -o %s: %s", opts, strerror(errno));
	}
	ASSERT_EQ(11, read_all(JAIL HOST "/etc/passwd", buf, sizeof(buf)));
	EXPECT_STREQ("root:x:0:0\n", buf);
	ASSERT_EQ(0, list_dir(JAIL, self->list, sizeof(self->list)));
	EXPECT_STREQ("proc run tmp", self->list);
	ASSERT_EQ(0, list_dir(JAIL "/run", self->list, sizeof(self->list)));
	EXPECT_STREQ("svc", self->list);
	/* "ro" alone is still the read-only mount flag. */
	EXPECT_EQ(0, umount(JAIL));
	ASSERT_EQ(0, mount("none", JAIL, "jailfs", MS_RDONLY, "ro,dir=/x"));
	EXPECT_EQ(EROFS, ERRNO_OF(mkdir(JAIL "/y", 0755)));
}

TEST_F(mnt, parents_list_only_what_leads_to_entries)
{
	struct stat st;

	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/etc/passwd:/etc/passwd",
				  "ro_path", HOST "/usr/lib/libc.so:/usr/lib/libc.so"));
	ASSERT_EQ(0, list_dir(JAIL, self->list, sizeof(self->list)));
	EXPECT_STREQ("etc usr", self->list);
	ASSERT_EQ(0, list_dir(JAIL "/etc", self->list, sizeof(self->list)));
	EXPECT_STREQ("passwd", self->list);
	ASSERT_EQ(0, list_dir(JAIL "/usr/lib", self->list, sizeof(self->list)));
	EXPECT_STREQ("libc.so", self->list);
	EXPECT_EQ(ENOENT, ERRNO_OF(stat(JAIL "/etc/shadow", &st)));
	EXPECT_EQ(ENOENT, ERRNO_OF(stat(JAIL "/usr/lib/sub", &st)));
	EXPECT_EQ(ENOENT, ERRNO_OF(stat(JAIL "/var", &st)));
	EXPECT_EQ(ENOENT, ERRNO_OF(open(JAIL "/tmp/jailfs-test", O_RDONLY)));
	/* Synthesized parents are directories that cannot be written. */
	ASSERT_EQ(0, stat(JAIL "/etc", &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(EROFS, ERRNO_OF(mkdir(JAIL "/etc/new", 0755)));
	EXPECT_EQ(EROFS, ERRNO_OF(open(JAIL "/new", O_CREAT | O_WRONLY, 0644)));
	EXPECT_EQ(EROFS, ERRNO_OF(chmod(JAIL "/etc", 0777)));
}

TEST_F(mnt, entries_are_files_directories_or_symlinks)
{
	char buf[64];
	struct stat st;

	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/usr/lib:/lib",
				  "ro_path", HOST "/usr/lib/libc.so.6:/libc.so.6"));
	/* A directory entry is its whole subtree, live. */
	ASSERT_EQ(5, read_all(JAIL "/lib/sub/deep", buf, sizeof(buf)));
	ASSERT_EQ(0, make_path(HOST "/usr/lib/later", "later\n"));
	ASSERT_EQ(6, read_all(JAIL "/lib/later", buf, sizeof(buf)));
	ASSERT_EQ(0, list_dir(JAIL "/lib", self->list, sizeof(self->list)));
	EXPECT_STREQ("later libc.so libc.so.6 sub", self->list);
	/* A symlink entry is the link; it resolves in the jail (no libc.so at /). */
	ASSERT_EQ(0, lstat(JAIL "/libc.so.6", &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	ASSERT_EQ(7, readlink(JAIL "/libc.so.6", buf, sizeof(buf)));
	EXPECT_EQ(ENOENT, ERRNO_OF(stat(JAIL "/libc.so.6", &st)));
	/* Inside the directory entry the same link resolves next to it. */
	ASSERT_EQ(4, read_all(JAIL "/lib/libc.so.6", buf, sizeof(buf)));
}

TEST_F(mnt, root_can_be_a_directory)
{
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/usr:/"));
	ASSERT_EQ(0, list_dir(JAIL, self->list, sizeof(self->list)));
	EXPECT_STREQ("lib", self->list);
}

#define MANY 3000

/*
 * 3000 files made and 3000 fsconfig calls: on the debug kernel under TCG,
 * with the host's cores busy, that outlasted the harness's default 30 s.
 * The timeout only guards against a hang.
 */
TEST_F_TIMEOUT(mnt, thousands_of_fsconfig_entries, 300)
{
	char src[128], val[300], want[64];
	struct jailfs_mount jm;
	struct dirent *de;
	int i, count = 0;
	DIR *dir;

	ASSERT_EQ(0, make_path(HOST "/many", NULL));
	for (i = 0; i < MANY; i++) {
		snprintf(src, sizeof(src), HOST "/many/f%04d", i);
		ASSERT_EQ(0, make_path(src, src));
	}
	ASSERT_EQ(0, jm_open(&jm));
	/* Given in reverse order: the order of keys does not matter. */
	for (i = MANY - 1; i >= 0; i--) {
		snprintf(val, sizeof(val), HOST "/many/f%04d:/usr/lib/l%04d.so", i, i);
		ASSERT_EQ(0, jm_set(&jm, i % 2 ? "ro_path" : "rw_path", val)) {
			TH_LOG("%s: %s", val, jm.log);
		}
	}
	ASSERT_EQ(0, jm_mount(&jm, JAIL)) {
		TH_LOG("%s", jm.log);
	}
	dir = opendir(JAIL "/usr/lib");
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(want, sizeof(want), "l%04d.so", count);
		ASSERT_STREQ(want, de->d_name);
		count++;
	}
	closedir(dir);
	EXPECT_EQ(MANY, count);
	for (i = 0; i < MANY; i += 97) {
		snprintf(src, sizeof(src), JAIL "/usr/lib/l%04d.so", i);
		snprintf(want, sizeof(want), HOST "/many/f%04d", i);
		ASSERT_EQ((ssize_t)strlen(want), read_all(src, val, sizeof(val)));
		EXPECT_STREQ(want, val);
	}
}

#define NAME64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define NAME256 (NAME64 NAME64 NAME64 NAME64)

TEST_F(mnt, long_values_go_through_fsconfig_binary)
{
	char dst[400], val[600], buf[16];
	struct jailfs_mount jm;

	int i;

	/* Four components of 99 bytes: the path is long, each name is not. */
	for (i = 0; i < 4; i++) {
		dst[i * 100] = '/';
		memset(dst + i * 100 + 1, 'a' + i, 99);
	}
	dst[400 - 1] = '\0';
	snprintf(val, sizeof(val), HOST "/etc/passwd:%s", dst);
	ASSERT_EQ(0, jm_open(&jm));
	EXPECT_EQ(-EINVAL, jm_set(&jm, "ro_path", val));	/* over 255 bytes */
	ASSERT_EQ(0, sys_fsconfig(jm.fsfd, FSCONFIG_SET_BINARY, "ro_path", val,
				  strlen(val)));
	ASSERT_EQ(0, jm_mount(&jm, JAIL));
	snprintf(val, sizeof(val), JAIL "%s", dst);
	EXPECT_EQ(11, read_all(val, buf, sizeof(buf)));

	/* A name over NAME_MAX is refused, whatever the length of the path. */
	ASSERT_EQ(0, jm_open(&jm));
	snprintf(val, sizeof(val), "/%s", NAME256);
	EXPECT_EQ(-1, sys_fsconfig(jm.fsfd, FSCONFIG_SET_BINARY, "dir", val, strlen(val)));
	EXPECT_EQ(EINVAL, errno);
	read_fc_log(jm.fsfd, jm.log, sizeof(jm.log));
	EXPECT_NE(NULL, strstr(jm.log, "longer than 255 bytes"));
	close(jm.fsfd);
}

TEST_F(mnt, escapes_and_normalised_paths)
{
	char buf[64];

	ASSERT_EQ(0, make_path(HOST "/a:b", "colon\n"));
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/a\\:b://x//y\\:z/",
				  "dir", "/d\\\\e/"));
	EXPECT_EQ(6, read_all(JAIL "/x/y:z", buf, sizeof(buf)));
	ASSERT_EQ(0, list_dir(JAIL, self->list, sizeof(self->list)));
	EXPECT_STREQ("d\\e x", self->list);
}

struct bad_case {
	const char *key, *value, *key2, *value2;
	int err;
	const char *message;
};

static const struct bad_case bad_cases[] = {
	{ "ro_path", "relative/path", NULL, NULL, EINVAL, "not an absolute path" },
	{ "ro_path", HOST "/etc/passwd:relative", NULL, NULL, EINVAL, "not an absolute path" },
	{ "ro_path", HOST "/etc/passwd:/a/../etc", NULL, NULL, EINVAL, "'.' or '..'" },
	{ "rw_path", HOST "/missing", NULL, NULL, ENOENT, "cannot resolve" },
	{ "ro_path", HOST "/etc\\x", NULL, NULL, EINVAL, "bad escape" },
	{ "dir", "/a:/b", NULL, NULL, EINVAL, "takes one path" },
	{ "ro_path", "", NULL, NULL, EINVAL, "needs a value" },
	{ "bogus", "/x", NULL, NULL, EINVAL, "unknown key 'bogus'" },
	{ "ro_path", "/proc/version:/version", NULL, NULL, EINVAL, "cannot be passed through" },
	{ "ro_path", "/proc/self:/self", NULL, NULL, EINVAL, "cannot be passed through" },
	{ "ro_path", "/sys/kernel:/k", NULL, NULL, EINVAL, "cannot be passed through" },
	{ "ro_path", HOST "/lnk/passwd", NULL, NULL, ELOOP, "a symlink in the source path" },
	{ "ro_path", HOST "/fifo", NULL, NULL, EINVAL, "a socket or FIFO" },
	{ "rw_path", HOST "/sock:/s", NULL, NULL, EINVAL, "a socket or FIFO" },
	/* Checked when the superblock is made. */
	{ "ro_path", HOST "/etc/passwd:/a", "rw_path", HOST "/etc/passwd:/a", EINVAL,
	  "given twice" },
	{ "ro_path", HOST "/etc/passwd:/a", "ro_path", HOST "/etc/shadow:/a", EINVAL,
	  "given twice" },
	{ "ro_path", HOST "/usr:/u", "ro_path", HOST "/etc/passwd:/u/lib/x", EINVAL,
	  "lies inside the entry /u" },
	{ "ro_path", HOST "/etc/passwd:/a", "dir", "/a", EINVAL, "given twice" },
	{ "ro_path", HOST "/usr:/", "dir", "/tmp", EINVAL, "lies inside the entry /" },
	{ "ro_path", HOST "/etc/passwd:/", NULL, NULL, EINVAL, "only be a directory" },
};

TEST_F(mnt, bad_options_fail_with_a_message_and_mount_nothing)
{
	unsigned int i;
	int err;
	struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = HOST "/sock" };
	int sock = socket(AF_UNIX, SOCK_STREAM, 0);

	ASSERT_LE(0, sock);
	ASSERT_EQ(0, bind(sock, (struct sockaddr *)&addr, sizeof(addr)));
	ASSERT_EQ(0, mkfifo(HOST "/fifo", 0600));
	ASSERT_EQ(0, symlink(HOST "/etc", HOST "/lnk"));
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];

		if (c->key2)
			err = jailfs_mount_pairs(self->log, sizeof(self->log), c->key,
						 c->value, c->key2, c->value2, NULL);
		else
			err = jailfs_mount_pairs(self->log, sizeof(self->log), c->key,
						 c->value, NULL);
		EXPECT_EQ(-c->err, err) {
			TH_LOG("%s=%s: %s", c->key, c->value, self->log);
		}
		EXPECT_NE(NULL, strstr(self->log, c->message)) {
			TH_LOG("%s=%s: log '%s' lacks '%s'", c->key, c->value,
			       self->log, c->message);
		}
		EXPECT_EQ(0, jail_is_mounted());
	}
	close(sock);
}

TEST_F(mnt, exact_duplicates_are_accepted_once)
{
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/etc/passwd:/p",
				  "ro_path", HOST "//etc/passwd:/p/", "dir", "/d", "dir", "/d"));
	ASSERT_EQ(0, list_dir(JAIL, self->list, sizeof(self->list)));
	EXPECT_STREQ("d p", self->list);
}

TEST_F(mnt, entries_cannot_change_on_remount)
{
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/etc/passwd:/p"));
	EXPECT_EQ(EINVAL, ERRNO_OF(mount("none", JAIL, NULL, MS_REMOUNT,
					 "ro=" HOST "/etc/shadow:/s")));
	EXPECT_EQ(ENOENT, ERRNO_OF(access(JAIL "/s", F_OK)));
}

TEST_F(mnt, stacking_is_limited)
{
	char opt[128];

	/* tmpfs (0) <- jailfs (1) <- jailfs (2) <- a third one is refused. */
	ASSERT_EQ(0, jailfs_mount("ro_path", HOST "/etc:/etc"));
	ASSERT_EQ(0, make_path(SCRATCH "/j2", NULL));
	ASSERT_EQ(0, make_path(SCRATCH "/j3", NULL));
	snprintf(opt, sizeof(opt), "ro=%s/etc:/etc", JAIL);
	ASSERT_EQ(0, mount("none", SCRATCH "/j2", "jailfs", 0, opt));
	snprintf(opt, sizeof(opt), "ro=%s/j2/etc:/etc", SCRATCH);
	EXPECT_EQ(ELOOP, ERRNO_OF(mount("none", SCRATCH "/j3", "jailfs", 0, opt)));
	umount2(SCRATCH "/j2", MNT_DETACH);
}

TEST_HARNESS_MAIN
