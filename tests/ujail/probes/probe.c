/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a jailed service tries, one thing per subcommand, printing the
 * outcome ("ok" or the errno name) on stdout for tests/ujail/jail_test.sh.
 * Built static (needs nothing staged) and dynamic (glibc and musl: checks
 * that libraries are staged and the seccomp shim loads).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EIO: return "EIO";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	case EROFS: return "EROFS";
	case ENOTTY: return "ENOTTY";
	case ENXIO: return "ENXIO";
	case ENOSYS: return "ENOSYS";
	case EADDRINUSE: return "EADDRINUSE";
	default: return strerror(e);
	}
}

static int report(long ret)
{
	puts(errname(ret < 0 ? errno : 0));
	return 0;
}

/* Pids visible in /proc, space-separated. */
static int list_pids(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return report(-1);
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			printf("%s ", e->d_name);
	putchar('\n');
	closedir(d);
	return 0;
}

static int list_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return report(-1);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d))
			printf("%s ", e->d_name);
	putchar('\n');
	closedir(d);
	return 0;
}

static int status_lines(void)
{
	static const char *const keys[] = {
		"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:",
	};
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return report(-1);
	while (fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(line, keys[i], strlen(keys[i])))
				fputs(line, stdout);
	fclose(f);
	return 0;
}

static int write_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return report(-1);
	close(fd);
	return report(0);
}

static int tiocsti(void)
{
	char c = 'x';
	int tty = open("/dev/tty", O_RDWR);

	printf("open /dev/tty: %s\n", errname(tty < 0 ? errno : 0));
	printf("TIOCSTI on 0: ");
	return report(ioctl(0, TIOCSTI, &c));
}

static int ids(void)
{
	gid_t groups[16];
	int n = getgroups(16, groups);

	printf("uid=%u gid=%u groups=%d\n", (unsigned)getuid(), (unsigned)getgid(), n);
	return 0;
}

static int bind_port(int port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return report(-1);
	return report(bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
}

static int count_zombies(void);

/* The service's child exits, leaving its own child to PID 1: reaped? */
static int orphans(int n)
{
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (fork() == 0)
				_exit(0);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	usleep(300000);
	return count_zombies();
}

/* Bytes of the first read of @path: 0 for a masked /proc file. */
static int read_size(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return report(-1);
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return report(-1);
	printf("%zd\n", n);
	close(fd);
	return 0;
}

static int ns_link(const char *name)
{
	char path[64], target[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return report(-1);
	target[n] = '\0';
	puts(target);
	return 0;
}

__attribute__((noreturn))
static int sleep_forever(int ignore_term)
{
	if (ignore_term)
		signal(SIGTERM, SIG_IGN);
	puts("sleeping");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "pids"))
		return list_pids();
	if (!strcmp(cmd, "kill"))
		return report(kill(atoi(arg), 0));
	if (!strcmp(cmd, "open"))
		return report(open(arg, O_RDONLY));
	if (!strcmp(cmd, "write"))
		return write_file(arg);
	if (!strcmp(cmd, "remount-rw"))
		return report(mount(NULL, arg, NULL, MS_REMOUNT | MS_BIND, NULL));
	if (!strcmp(cmd, "mount-tmpfs"))
		return report(mount("none", arg, "tmpfs", 0, NULL));
	if (!strcmp(cmd, "umount"))
		return report(umount2(arg, MNT_DETACH));
	if (!strcmp(cmd, "pivot"))
		return report(syscall(SYS_pivot_root, "/", "/"));
	if (!strcmp(cmd, "chroot"))
		return report(chroot(".."));
	if (!strcmp(cmd, "status"))
		return status_lines();
	if (!strcmp(cmd, "fds"))
		return list_fds();
	if (!strcmp(cmd, "tiocsti"))
		return tiocsti();
	if (!strcmp(cmd, "ptrace"))
		return report(ptrace(PTRACE_ATTACH, atoi(arg), 0, 0));
	if (!strcmp(cmd, "exit"))
		return atoi(arg);
	if (!strcmp(cmd, "sleep"))
		return sleep_forever(0);
	if (!strcmp(cmd, "sleep-ignore-term"))
		return sleep_forever(1);
	if (!strcmp(cmd, "orphans"))
		return orphans(atoi(arg));
	if (!strcmp(cmd, "id"))
		return ids();
	if (!strcmp(cmd, "bind"))
		return bind_port(atoi(arg));
	if (!strcmp(cmd, "mkdir"))
		return report(mkdir(arg, 0755));
	if (!strcmp(cmd, "read"))
		return read_size(arg);
	if (!strcmp(cmd, "ns"))
		return ns_link(arg);
	if (!strcmp(cmd, "raise"))
		return kill(getpid(), atoi(arg)) ? report(-1) : 0;
	if (!strcmp(cmd, "hostname")) {
		char h[256] = "";

		gethostname(h, sizeof(h));
		puts(h);
		return 0;
	}
	if (!strcmp(cmd, "env")) {
		extern char **environ;

		for (char **e = environ; *e; e++)
			puts(*e);
		return 0;
	}
	fprintf(stderr, "probe: unknown subcommand '%s'\n", cmd);
	return 64;
}

static int count_zombies(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int zombies = 0;

	if (!d)
		return report(-1);
	while ((e = readdir(d))) {
		char path[300], stat[512];
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (f && fgets(stat, sizeof(stat), f) && strstr(stat, ") Z "))
			zombies++;
		if (f)
			fclose(f);
	}
	closedir(d);
	printf("zombies=%d\n", zombies);
	return 0;
}
