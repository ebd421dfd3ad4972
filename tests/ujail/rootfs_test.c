/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jail_rootfs_enter() for real (root only). Each case forks a child that
 * unshares a mount and a pid namespace; the child's child, PID 1 there,
 * builds the jail, checks it from inside and reports every check as a line
 * on a pipe ("1 text" or "0 text"), turned into TAP by the parent. The
 * parent then checks the host: mount table unchanged, no scratch directory
 * left in /tmp, writes from the jail visible, host files untouched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "root/fs_backend.h"
#include "root/rootfs.h"
#include "tap.h"

#define MAX_PATHS 16

struct tcase {
	const char *name;
	void (*setup)(struct jail_opts *o, struct path_set *deps);	/* parent */
	void (*prepare)(void);		/* jail's PID 1, before entering: a fake host */
	void (*inside)(void);		/* jail's PID 1, in the jail */
	const char *expect_err[3];	/* entering must fail, naming these */
	void (*host_after)(void);	/* parent, after the jail is gone */
};

static char base[64];			/* the test's host directory in /tmp */
static char host_hostname[256], host_resolv[4096];
static char root_passwd[512], nobody_passwd[512];
static struct stat etc_before, passwd_before;
static bool host_has_sysrq;
/* UJAIL_FS=jailfs|bind|auto (default bind): the backend under test. */
static const struct stage_ops *backend;
static const char *case_name;
static int report_fd = -1;
static struct jail_path paths[MAX_PATHS];

/* ---- helpers ---- */

static char *at(const char *rel)
{
	static char bufs[8][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 8];

	snprintf(buf, PATH_MAX, "%s/%s", base, rel);
	return buf;
}

__attribute__((format(printf, 2, 3)))
static bool check(bool cond, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "%d %s: ", cond, case_name);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	dprintf(report_fd, "%s\n", line);
	return cond;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Reads @path into @buf; the byte count, or -1 with errno. */
static ssize_t read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -1;
	while ((size_t)total < len - 1 && (n = read(fd, buf + total, len - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return n < 0 ? -1 : total;
}

static bool file_is(const char *path, const char *text)
{
	char buf[4096];

	return read_file(path, buf, sizeof(buf)) >= 0 && !strcmp(buf, text);
}

static bool link_is(const char *path, const char *target)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, target);
}

static int errno_of(int ret)
{
	return ret < 0 ? errno : 0;
}

static int open_errno(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int lstat_errno(const char *path)
{
	struct stat sb;

	return errno_of(lstat(path, &sb));
}

/* Per-mount options of the topmost mount on @point, "" if none. */
static void mount_opts(const char *point, char *opts, size_t len)
{
	char line[4096], mnt[PATH_MAX], o[512];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	opts[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s %511s", mnt, o) == 2 &&
		    !strcmp(mnt, point))
			snprintf(opts, len, "%s", o);
	}
	fclose(f);
}

static bool has_opt(const char *opts, const char *opt)
{
	size_t len = strlen(opt);

	for (const char *p = opts; *p; p += strcspn(p, ","), p += *p == ',') {
		if (!strncmp(p, opt, len) && (p[len] == ',' || p[len] == '\0'))
			return true;
	}
	return false;
}

static int count_lines(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		n++;
	fclose(f);
	return n;
}

/* Entries of @dir whose name starts with @prefix ("" for all; "." and ".." not counted). */
static int count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    !strncmp(de->d_name, prefix, strlen(prefix)))
			n++;
	}
	closedir(d);
	return n;
}

static int run_status(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void add_path(struct jail_opts *o, const char *src, const char *dst, bool writable)
{
	struct jail_path *p = &paths[o->n_paths++];

	p->src = strdup(src);
	p->dst = strdup(dst ? dst : src);
	p->writable = writable;
	o->paths = paths;
}

static void free_paths(struct jail_opts *o)
{
	for (size_t i = 0; i < o->n_paths; i++) {
		free(paths[i].src);
		free(paths[i].dst);
	}
}

/* ---- fake host objects, in the case's own mount namespace ---- */

static int bound_socket(const char *path, int type)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 4) < 0))
		return -1;
	return fd;
}

static int connect_errno(const char *path, int type)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0), ret;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	ret = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
	close(fd);
	return ret;
}

/* A tmpfs /dev holding the host's nodes, and /dev/log if @with_log. */
static void fake_dev(bool with_log)
{
	static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
	int fds[6];
	char path[64];

	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "/dev/%s", nodes[i]);
		fds[i] = (int)syscall(SYS_open_tree, AT_FDCWD, path, 1 /* OPEN_TREE_CLONE */);
	}
	if (mount("tmpfs", "/dev", "tmpfs", 0, "mode=0755") < 0)
		check(false, "fake /dev: mount tmpfs: %s", strerror(errno));
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "/dev/%s", nodes[i]);
		close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
		if (fds[i] < 0 || syscall(SYS_move_mount, fds[i], "", AT_FDCWD, path,
					  0x04 /* MOVE_MOUNT_F_EMPTY_PATH */) < 0)
			check(false, "fake /dev: %s: %s", path, strerror(errno));
	}
	if (with_log && bound_socket("/dev/log", SOCK_DGRAM) < 0)
		check(false, "fake /dev/log: %s", strerror(errno));
}

/* An empty tmpfs on /var/run, with the ubus and udebug sockets if @with_sockets. */
static void fake_var_run(bool with_sockets)
{
	if (mount("tmpfs", "/var/run", "tmpfs", 0, "mode=0755") < 0)
		check(false, "fake /var/run: %s", strerror(errno));
	if (with_sockets && (mkdir("/var/run/ubus", 0755) < 0 ||
			     bound_socket("/var/run/ubus/ubus.sock", SOCK_STREAM) < 0 ||
			     bound_socket("/var/run/udebug.sock", SOCK_STREAM) < 0))
		check(false, "fake ubus and udebug sockets: %s", strerror(errno));
}

/* ---- case: everything at once ---- */

static void full_setup(struct jail_opts *o, struct path_set *deps)
{
	path_set_add(deps, "/bin/busybox");
	add_path(o, at("ro"), NULL, false);
	add_path(o, at("rw"), NULL, true);
	add_path(o, at("mapped.txt"), "/mapped/file.txt", false);
	add_path(o, at("ro/sub"), "/elsewhere/sub", false);
	add_path(o, at("link"), NULL, false);
	add_path(o, at("wlink"), NULL, true);
	add_path(o, "/etc/hostname", NULL, false);
	add_path(o, at("mapped.txt"), "/dev/mapped", false);
	o->proc = true;
	o->sys = true;
	o->user = "nobody";
	o->group = "nogroup";
}

/* A writable submount in the -r directory: the jail must see it read-only too. */
static void full_prepare(void)
{
	if (mount("tmpfs", at("ro/submnt"), "tmpfs", 0, "mode=0755") < 0)
		check(false, "submount: %s", strerror(errno));
}

static void full_inside_files(void)
{
	char opts[512], cwd[PATH_MAX], buf[1024];
	char *const busybox_true[] = { "/bin/busybox", "true", NULL };

	check(getpid() == 1, "running as PID 1 (%d)", (int)getpid());
	check(getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/"), "cwd is / (%s)", cwd);
	check(link_is("/bin", "usr/bin"), "/bin is the host's link usr/bin");
	check(run_status(busybox_true) == 0, "/bin/busybox runs in the jail");
	check(lstat_errno("/etc/shadow") == ENOENT, "/etc/shadow is absent");
	check(lstat_errno("/home") == ENOENT, "/home is absent");
	check(lstat_errno("/root") == ENOENT, "/root is absent");
	check(lstat_errno("/usr/bin/ls") == ENOENT, "/usr/bin/ls is absent (only deps staged)");
	check(file_is("/etc/hostname", host_hostname), "/etc/hostname is the host's");
	check(open_errno("/etc/hostname", O_WRONLY) == EROFS, "/etc/hostname write: EROFS");
	mount_opts("/etc/hostname", opts, sizeof(opts));
	check(has_opt(opts, "ro") && has_opt(opts, "nosuid") && has_opt(opts, "nodev"),
	      "/etc/hostname mounted ro,nosuid,nodev (%s)", opts);
	mount_opts("/usr/bin/busybox", opts, sizeof(opts));
	check(has_opt(opts, "ro") && has_opt(opts, "nosuid"), "dep busybox mounted ro (%s)", opts);
	check(file_is(at("ro/file"), "ro-file\n"), "-r dir: file readable");
	check(file_is(at("ro/sub/deep"), "deep\n"), "-r dir: whole subtree staged");
	check(open_errno(at("ro/new"), O_WRONLY | O_CREAT) == EROFS, "-r dir: create: EROFS");
	check(open_errno(at("ro/submnt/new"), O_WRONLY | O_CREAT) == EROFS,
	      "-r dir: its (writable) submount is read-only too");
	check(file_is("/elsewhere/sub/deep", "deep\n"), "-r DIR:DST maps a subtree");
	check(file_is("/mapped/file.txt", "mapped\n"), "-r SRC:DST maps a file");
	check(file_is("/dev/mapped", "mapped\n"), "-r SRC:/dev/... lands on top of /dev");
	check(link_is(at("link"), "mapped.txt"), "-r link staged as the same link");
	check(file_is(at("link"), "mapped\n"), "-r link: its target is staged too");
	check(link_is(at("wlink"), "/etc"), "-w link staged as the same link");
	check(lstat_errno(at("wlink/shadow")) == ENOENT,
	      "-w link: its target is not staged (leads to the jail's /etc)");
	check(write_file(at("rw/from-jail"), "written in jail\n") == 0, "-w dir: writable");
	mount_opts(at("rw"), opts, sizeof(opts));
	check(has_opt(opts, "rw") && has_opt(opts, "nosuid"), "-w dir mounted rw,nosuid (%s)",
	      opts);
	snprintf(buf, sizeof(buf), "%s%s", root_passwd, nobody_passwd);
	check(file_is("/etc/passwd", buf), "/etc/passwd: root and nobody only, no hashes");
	check(file_is("/etc/group", "root:x:0:\nnogroup:x:65534:\n"),
	      "/etc/group: root and nogroup only");
}

static void full_inside_dev(void)
{
	char buf[64], name[64];
	int fd;

	check(write_file("/dev/null", "x") == 0, "/dev/null writable");
	memset(buf, 1, sizeof(buf));
	fd = open("/dev/zero", O_RDONLY);
	check(fd >= 0 && read(fd, buf, 16) == 16 && !buf[0] && !buf[15], "/dev/zero reads zeros");
	close(fd);
	fd = open("/dev/urandom", O_RDONLY);
	check(fd >= 0 && read(fd, buf, 16) == 16, "/dev/urandom reads");
	close(fd);
	fd = open("/dev/full", O_WRONLY);
	check(fd >= 0 && write(fd, "x", 1) < 0 && errno == ENOSPC, "/dev/full: ENOSPC");
	close(fd);
	check(lstat_errno("/dev/tty") == 0, "/dev/tty present");
	check(lstat_errno("/dev/mem") == ENOENT && lstat_errno("/dev/kmsg") == ENOENT,
	      "/dev/mem, /dev/kmsg absent");
	check(link_is("/dev/ptmx", "pts/ptmx") && link_is("/dev/fd", "/proc/self/fd") &&
	      link_is("/dev/stderr", "/proc/self/fd/2"), "/dev links");
	fd = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	check(fd >= 0 && ptsname_r(fd, name, sizeof(name)) == 0 && !strcmp(name, "/dev/pts/0"),
	      "/dev/ptmx gives /dev/pts/0 (a new devpts instance)");
	check(count_entries("/dev/pts", "") == 2, "/dev/pts holds ptmx and 0 only (%d)",
	      count_entries("/dev/pts", ""));
	close(fd);
	check(write_file("/dev/shm/x", "shm") == 0, "/dev/shm writable");
	check(open_errno("/dev/newfile", O_WRONLY | O_CREAT) == 0, "/dev tmpfs writable");
}

static void full_inside_proc_sys(void)
{
	char buf[256], opts[512];
	struct statvfs sv;
	ssize_t n;
	int e;

	check(read_file("/proc/self/comm", buf, sizeof(buf)) > 0 && file_is("/proc/1/comm", buf),
	      "/proc/1 is the jail's PID 1");
	check(count_entries("/proc", "1") == 1 && count_entries("/proc", "2") == 0,
	      "/proc shows the jail's pid namespace only");
	n = read_file("/proc/kcore", buf, sizeof(buf));
	check(n <= 0, "/proc/kcore reads nothing (%zd)", n);
	n = read_file("/proc/timer_list", buf, sizeof(buf));
	check(n <= 0, "/proc/timer_list reads nothing (%zd)", n);
	n = read_file("/proc/keys", buf, sizeof(buf));
	check(n <= 0, "/proc/keys reads nothing (%zd)", n);
	e = open_errno("/proc/sysrq-trigger", O_WRONLY);
	check(host_has_sysrq ? e == EROFS : e == ENOENT,
	      "/proc/sysrq-trigger write: %s (%s on the host)", strerror(e),
	      host_has_sysrq ? "present" : "absent");
	check(open_errno("/proc/sys/kernel/hostname", O_WRONLY) == EROFS,
	      "/proc/sys/kernel/hostname write: EROFS");
	mount_opts("/proc/sys", opts, sizeof(opts));
	check(has_opt(opts, "ro"), "/proc/sys mounted ro (%s)", opts);
	check(count_entries("/proc/acpi", "") <= 0, "/proc/acpi empty or absent");
	check(statvfs("/sys", &sv) == 0 && (sv.f_flag & ST_RDONLY), "/sys is read-only");
	check(lstat_errno("/sys/kernel") == 0, "/sys/kernel present");
	e = open_errno("/sys/kernel/profiling", O_WRONLY);
	check(e == EROFS, "/sys/kernel/profiling write: %s", strerror(e));
	check(count_entries("/sys/firmware", "") <= 0, "/sys/firmware empty or absent");
}

static void full_inside(void)
{
	char buf[8192];

	full_inside_files();
	full_inside_dev();
	full_inside_proc_sys();
	check(read_file("/proc/self/mountinfo", buf, sizeof(buf)) > 0 && !strstr(buf, "shared:"),
	      "no shared mount in the jail");
	check(file_is("/etc/resolv.conf", host_resolv), "/etc/resolv.conf is the host's");
	check(open_errno("/etc/resolv.conf", O_WRONLY) == EROFS, "/etc/resolv.conf write: EROFS");
}

static void full_host_after(void)
{
	char buf[256];

	ok(file_is(at("rw/from-jail"), "written in jail\n"),
	   "full: the jail's write is on the host");
	ok(read_file("/etc/hostname", buf, sizeof(buf)) >= 0 && !strcmp(buf, host_hostname),
	   "full: host /etc/hostname unchanged");
	ok(lstat_errno(at("ro/new")) == ENOENT && lstat_errno(at("ro/sub/new")) == ENOENT,
	   "full: nothing created in the host's ro dir");
}

/* ---- case: -o ---- */

static void ro_root_setup(struct jail_opts *o, struct path_set *deps)
{
	path_set_add(deps, "/bin/busybox");
	o->ro_root = true;
}

static void ro_root_inside(void)
{
	char *const sh[] = { "/bin/busybox", "sh", "-c", "{ echo x > /x; } 2>/dev/null", NULL };

	check(errno_of(mkdir("/newdir", 0755)) == EROFS, "mkdir /newdir: EROFS");
	check(open_errno("/etc/passwd", O_WRONLY) == EROFS, "/etc/passwd write: EROFS");
	check(run_status(sh) != 0, "a shell cannot write / either");
	check(lstat_errno("/proc/self") == ENOENT, "no /proc without -p");
	check(lstat_errno("/sys/kernel") == ENOENT, "no /sys without -s");
	check(write_file("/dev/shm/x", "shm") == 0, "/dev/shm still writable");
	check(file_is("/etc/passwd", root_passwd), "/etc/passwd: root only");
}

/* ---- cases: symbolic link attacks ---- */

static void swap_dir_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, at("evil1"), "/data", true);
	add_path(o, "/etc/hostname", "/data/x/ujail-planted", false);
}

static void swap_dir_host_after(void)
{
	struct stat sb;

	ok(lstat_errno("/etc/ujail-planted") == ENOENT, "swap_dir: nothing created in host /etc");
	ok(stat("/etc", &sb) == 0 && sb.st_mtim.tv_sec == etc_before.st_mtim.tv_sec &&
	   sb.st_mtim.tv_nsec == etc_before.st_mtim.tv_nsec, "swap_dir: host /etc unchanged");
	ok(link_is(at("evil1/x"), "/etc") && count_entries(at("evil1"), "") == 1,
	   "swap_dir: the planted link is left as it was");
}

static void swap_final_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, at("evil2"), "/data", true);
	add_path(o, at("mapped.txt"), "/data/h", false);
}

static void swap_final_host_after(void)
{
	struct stat sb;

	ok(stat("/etc/passwd", &sb) == 0 && sb.st_ino == passwd_before.st_ino &&
	   sb.st_mtim.tv_nsec == passwd_before.st_mtim.tv_nsec,
	   "swap_final: host /etc/passwd unchanged");
	ok(link_is(at("evil2/h"), "/etc/passwd"), "swap_final: the planted link is left as it was");
}

static void jail_link_setup(struct jail_opts *o, struct path_set *deps)
{
	path_set_add(deps, "/bin/busybox");
	add_path(o, at("mapped.txt"), "/bin/evil", false);
}

/* ---- case: /etc/resolv.conf as a chain of links ---- */

static void chain_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)o;
	(void)deps;
}

static void chain_prepare(void)
{
	if (mount("tmpfs", "/etc", "tmpfs", 0, "mode=0755") < 0 ||
	    symlink(at("chain/hop1"), "/etc/resolv.conf") < 0)
		check(false, "fake /etc/resolv.conf: %s", strerror(errno));
}

static void chain_inside(void)
{
	check(link_is("/etc/resolv.conf", at("chain/hop1")), "/etc/resolv.conf: the host's link");
	check(link_is(at("chain/hop1"), "dirlink/resolv.conf.auto"), "second hop: the same link");
	check(link_is(at("chain/dirlink"), "real"), "a linked directory on the way: the same link");
	check(file_is("/etc/resolv.conf", "nameserver 192.0.2.1\n"), "resolves to the host's file");
	check(open_errno("/etc/resolv.conf", O_WRONLY) == EROFS, "read-only");
	check(file_is("/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n"),
	      "no host passwd: a default root line only");
	check(file_is("/etc/group", "root:x:0:\n"), "no host group: a default root line only");
}

/* ---- case: /dev/log, ubus and udebug ---- */

static void sockets_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->dev_log = true;
	o->ubus = true;
	o->udebug = true;
}

static void sockets_prepare(void)
{
	fake_dev(true);
	fake_var_run(true);
}

static void sockets_inside(void)
{
	struct stat sb;

	check(lstat("/dev/log", &sb) == 0 && S_ISSOCK(sb.st_mode), "/dev/log is a socket");
	check(connect_errno("/dev/log", SOCK_DGRAM) == 0, "/dev/log reaches the host's logger");
	check(connect_errno("/var/run/ubus/ubus.sock", SOCK_STREAM) == 0,
	      "the ubus socket reaches the host's ubusd");
	check(connect_errno("/var/run/udebug.sock", SOCK_STREAM) == 0,
	      "-D: the udebug socket reaches the host's udebugd");
	check(lstat("/var/run", &sb) == 0 && S_ISLNK(sb.st_mode),
	      "/var/run is the host's link (as the host resolves it)");
}

/* ---- cases: errors ---- */

static void no_log_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->dev_log = true;
}

static void no_log_prepare(void)
{
	fake_dev(false);
}

static void no_ubus_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->ubus = true;
}

static void no_ubus_prepare(void)
{
	fake_var_run(false);
}

/* ---- case: -D without a udebug socket: skipped, as procd does ---- */

static void no_udebug_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->udebug = true;
}

static void no_udebug_prepare(void)
{
	fake_var_run(false);
}

static void no_udebug_inside(void)
{
	check(lstat_errno("/var/run/udebug.sock") == ENOENT,
	      "-D without a udebug socket on the host: none in the jail, no error");
}

static void bad_user_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->user = "ujail-no-such-user";
}

static void bad_group_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	o->group = "ujail-no-such-group";
}

static void missing_src_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, at("does-not-exist"), NULL, false);
}

static void bad_dst_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, at("mapped.txt"), "/a/../../etc/x", false);
}

/*
 * ---- cases: -r /tmp, -r /dev/shm do not bring the jail's own root along
 * (its scratch directory is in one of them) ----
 */

static void tmp_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, "/tmp", NULL, false);
}

static void shm_setup(struct jail_opts *o, struct path_set *deps)
{
	(void)deps;
	add_path(o, "/tmp", NULL, false);
	add_path(o, "/dev/shm", NULL, false);
}

/* No DIR/ujail-root.* in the jail shows a jail root (is not empty). */
static void no_root_shown(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int nonempty = 0;
	char path[PATH_MAX];

	check(d != NULL, "%s staged", dir);
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "ujail-root.", 11))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (count_entries(path, "") != 0)
			nonempty++;
	}
	if (d)
		closedir(d);
	check(nonempty == 0, "no %s/ujail-root.* shows a jail root inside the jail", dir);
}

static void tmp_inside(void)
{
	no_root_shown("/tmp");
	check(file_is(at("mapped.txt"), "mapped\n"), "host /tmp content visible");
}

static void shm_inside(void)
{
	no_root_shown("/dev/shm");
	no_root_shown("/tmp");
}

/* Scratch directories on the host, wherever ujail puts them. */
static int count_scratch(void)
{
	return count_entries("/tmp", "ujail-root.") +
	       (access("/dev/shm", F_OK) == 0 ? count_entries("/dev/shm", "ujail-root.") : 0);
}

static const struct tcase cases[] = {
	{ "full", full_setup, full_prepare, full_inside, { NULL }, full_host_after },
	{ "ro_root", ro_root_setup, NULL, ro_root_inside, { NULL }, NULL },
	{ "swap_dir", swap_dir_setup, NULL, NULL,
	  { "/data/x/ujail-planted", "symbolic link", "refused" }, swap_dir_host_after },
	{ "swap_final", swap_final_setup, NULL, NULL, { "/data/h", "symbolic link" },
	  swap_final_host_after },
	{ "jail_link", jail_link_setup, NULL, NULL,
	  { "/bin/evil", "/bin is a symbolic link" }, NULL },
	{ "resolv_chain", chain_setup, chain_prepare, chain_inside, { NULL }, NULL },
	{ "sockets", sockets_setup, sockets_prepare, sockets_inside, { NULL }, NULL },
	{ "no_dev_log", no_log_setup, no_log_prepare, NULL, { "no /dev/log on the host" }, NULL },
	{ "no_ubus", no_ubus_setup, no_ubus_prepare, NULL,
	  { "no ubus socket", "ubus.sock" }, NULL },
	{ "no_udebug", no_udebug_setup, no_udebug_prepare, no_udebug_inside, { NULL }, NULL },
	{ "bad_user", bad_user_setup, NULL, NULL, { "ujail-no-such-user", "not found" }, NULL },
	{ "bad_group", bad_group_setup, NULL, NULL, { "ujail-no-such-group", "not found" }, NULL },
	{ "missing_src", missing_src_setup, NULL, NULL,
	  { "does-not-exist", "No such file" }, NULL },
	{ "bad_dst", bad_dst_setup, NULL, NULL, { "/a/../../etc/x" }, NULL },
	{ "tmp", tmp_setup, NULL, tmp_inside, { NULL }, NULL },
	{ "shm", shm_setup, NULL, shm_inside, { NULL }, NULL },
};

/* ---- running a case ---- */

static int jail_pid1(const struct tcase *c, const struct jail_opts *o,
		     const struct path_set *deps)
{
	struct jail_host_files files = { deps, o->paths, o->n_paths };
	char err[1024] = "";
	int rc;

	struct jail_accounts accounts;
	struct jail_creds creds;

	if (c->prepare)
		c->prepare();
	/* As ujail does it: the accounts first, on the host. */
	rc = jail_accounts_resolve(&jail_host_accounts, o->user, o->group, &creds, &accounts,
				   err, sizeof(err));
	if (rc == 0)
		rc = jail_rootfs_enter(o, backend, &files, &accounts, err, sizeof(err));
	if (c->expect_err[0]) {
		check(rc == -1, "entering fails (%s)", err);
		for (int i = 0; i < 3 && c->expect_err[i]; i++)
			check(strstr(err, c->expect_err[i]) != NULL, "the error names \"%s\"",
			      c->expect_err[i]);
		return 0;
	}
	if (!check(rc == 0, "jail_rootfs_enter: %s", rc ? err : "ok"))
		return 1;
	c->inside();
	return 0;
}

/* In new mount and pid namespaces; the next child is PID 1 there. */
static int jail_child(const struct tcase *c, const struct jail_opts *o,
		      const struct path_set *deps)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWNS | CLONE_NEWPID) < 0) {
		check(false, "unshare: %s", strerror(errno));
		return 1;
	}
	/* The fake host objects of prepare() must not reach the host either. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		check(false, "make mounts private: %s", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid == 0)
		_exit(jail_pid1(c, o, deps));
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Turns the "1 text" / "0 text" lines of the jail into TAP; returns how many. */
static int relay(int fd)
{
	FILE *f = fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int count = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		ok(line[0] == '1', "%s", line + 2);
		count++;
	}
	free(line);
	fclose(f);
	return count;
}

static void run_case(const struct tcase *c)
{
	struct jail_opts o = { 0 };
	struct path_set deps = { 0 };
	int mounts = count_lines("/proc/self/mountinfo");
	int scratch = count_scratch();
	int pipe_fds[2], status, reports;
	pid_t pid;

	case_name = c->name;
	c->setup(&o, &deps);
	if (pipe(pipe_fds) < 0) {
		ok(false, "%s: pipe: %s", c->name, strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pipe_fds[0]);
		report_fd = pipe_fds[1];
		_exit(jail_child(c, &o, &deps));
	}
	close(pipe_fds[1]);
	reports = relay(pipe_fds[0]);
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0 && reports > 0, "%s: the jail reported %d checks and exited 0",
	   c->name, reports);
	ok(count_lines("/proc/self/mountinfo") == mounts, "%s: host mount table unchanged (%d)",
	   c->name, mounts);
	ok(count_scratch() == scratch, "%s: no scratch directory left in /tmp or /dev/shm",
	   c->name);
	if (c->host_after)
		c->host_after();
	free_paths(&o);
	path_set_free(&deps);
}

/* ---- the host directory ---- */

static int make_host_tree(void)
{
	strcpy(base, "/tmp/ujail-rootfs-test.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	return mkdir(at("ro"), 0755) | mkdir(at("ro/sub"), 0755) | mkdir(at("rw"), 0755) |
	       mkdir(at("ro/submnt"), 0755) |
	       write_file(at("ro/file"), "ro-file\n") | write_file(at("ro/sub/deep"), "deep\n") |
	       write_file(at("mapped.txt"), "mapped\n") | symlink("mapped.txt", at("link")) |
	       symlink("/etc", at("wlink")) |
	       mkdir(at("evil1"), 0755) | symlink("/etc", at("evil1/x")) |
	       mkdir(at("evil2"), 0755) | symlink("/etc/passwd", at("evil2/h")) |
	       mkdir(at("chain"), 0755) | mkdir(at("chain/real"), 0755) |
	       symlink("dirlink/resolv.conf.auto", at("chain/hop1")) |
	       symlink("real", at("chain/dirlink")) |
	       write_file(at("chain/real/resolv.conf.auto"), "nameserver 192.0.2.1\n");
}

/* The line the jail's /etc/passwd should have for @uid: no hash. */
static void host_passwd_line(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s:x:%u:%u:%s:%s:%s\n", pw->pw_name, (unsigned int)pw->pw_uid,
			 (unsigned int)pw->pw_gid, pw->pw_gecos, pw->pw_dir, pw->pw_shell);
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int choose_backend(void)
{
	const char *want = getenv("UJAIL_FS");
	char err[256];

	if (jail_fs_choose(want ? want : "bind", &backend, err, sizeof(err)) < 0) {
		printf("# %s\n", err);
		return -1;
	}
	return 0;
}

int main(void)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (namespaces, mounts)\n");
		return 0;
	}
	if (!ok(choose_backend() == 0, "stage backend %s", backend ? backend->name : "none"))
		return tap_done();
	if (!ok(make_host_tree() == 0, "host test tree in %s", base))
		return tap_done();
	read_file("/etc/hostname", host_hostname, sizeof(host_hostname));
	read_file("/etc/resolv.conf", host_resolv, sizeof(host_resolv));
	host_passwd_line(0, root_passwd, sizeof(root_passwd));
	host_passwd_line(65534, nobody_passwd, sizeof(nobody_passwd));
	stat("/etc", &etc_before);
	host_has_sysrq = access("/proc/sysrq-trigger", F_OK) == 0;
	stat("/etc/passwd", &passwd_before);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
