/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a jailed service tries, one thing per subcommand, printing the
 * outcome ("ok" or the errno name) on stdout for tests/ujail/jail_test.sh.
 * Built static (needs nothing staged) and dynamic (glibc and musl: checks
 * that libraries are staged and the seccomp shim loads).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "surface.h"

static const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
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
	case ENODEV: return "ENODEV";
	case ENETUNREACH: return "ENETUNREACH";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EAGAIN: return "EAGAIN";
	case ENOSPC: return "ENOSPC";
	default: return strerror(e);
	}
}

static int report(long ret)
{
	puts(errname(ret < 0 ? errno : 0));
	return 0;
}

int probe_report(long ret)
{
	return report(ret);
}

/*
 * The capability sets and no_new_privs as /proc/self/status shows them,
 * from the system calls: a jail without /proc (ntpd's) has them too.
 */
static int caps_lines(void)
{
	/* capget(2)'s ABI (musl has no <linux/capability.h>). */
	struct { uint32_t version; int pid; } h = { 0x20080522, 0 };
	struct { uint32_t effective, permitted, inheritable; } d[2];
	unsigned long long bnd = 0;

	if (syscall(SYS_capget, &h, d) < 0)
		return report(-1);
	for (int cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
			bnd |= 1ULL << cap;
	printf("CapInh:\t%08x%08x\nCapPrm:\t%08x%08x\nCapEff:\t%08x%08x\n",
	       d[1].inheritable, d[0].inheritable, d[1].permitted, d[0].permitted,
	       d[1].effective, d[0].effective);
	printf("CapBnd:\t%016llx\nNoNewPrivs:\t%d\n", bnd,
	       prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	return 0;
}

/* A raw socket, as dnsmasq opens for ICMP (CAP_NET_RAW). */
static int raw_socket(void)
{
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	report(fd);
	if (fd >= 0)
		close(fd);
	return 0;
}

/*
 * A stand-in for a daemon's socket (ubus, syslog's /dev/log): bound at
 * @path, stream or dgram, then waits to be killed.
 */
static int unix_listen(const char *path, const char *type)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	bool dgram = !strcmp(type, "dgram");
	int fd = socket(AF_UNIX, dgram ? SOCK_DGRAM : SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (!dgram && listen(fd, 8) < 0))
		return report(-1);
	for (;;)
		pause();
}

/*
 * The classic chroot escape: chroot below the working directory, climb
 * out with "..", chroot there. Then: can @path, a host file, be reached?
 */
static int chroot_escape(const char *path)
{
	if (chroot("/dev") < 0)
		return report(-1);
	for (int i = 0; i < 64; i++)
		if (chdir("..") < 0)
			return report(-1);
	if (chroot(".") < 0)
		return report(-1);
	return report(access(path, F_OK));
}

/* Opens @path by handle, as an escape does (needs CAP_DAC_READ_SEARCH). */
static int open_by_handle(const char *path)
{
	union {
		struct file_handle fh;
		char room[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} h = { .fh.handle_bytes = MAX_HANDLE_SZ };
	int mount_id, fd, mount_fd;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return report(-1);
	/* The handle is decoded on the mount of this descriptor: the file's own,
	 * not the working directory's (another filesystem in the QEMU guest). */
	mount_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (mount_fd < 0)
		return report(-1);
	fd = open_by_handle_at(mount_fd, &h.fh, O_RDONLY);
	report(fd);
	if (fd >= 0)
		close(fd);
	close(mount_fd);
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

/* A file's contents, as the jail reads it. */
static int cat_file(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return report(-1);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

/* Owner and group of a path, as the jail sees them. */
static int owner(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return report(-1);
	printf("%u:%u\n", (unsigned)st.st_uid, (unsigned)st.st_gid);
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

/* ---- the network, for --veth: UDP both ways, what an interface has ---- */

/* "ADDR" (IPv4 or IPv6) and a port; false if not an address. */
static bool sock_addr(const char *addr, const char *port, struct sockaddr_in6 *sa6,
		      socklen_t *len)
{
	struct sockaddr_in *sa = (struct sockaddr_in *)sa6;

	memset(sa6, 0, sizeof(*sa6));
	if (inet_pton(AF_INET, addr, &sa->sin_addr) == 1) {
		sa->sin_family = AF_INET;
		sa->sin_port = htons((uint16_t)atoi(port));
		*len = sizeof(*sa);
		return true;
	}
	sa6->sin6_family = AF_INET6;
	sa6->sin6_port = htons((uint16_t)atoi(port));
	*len = sizeof(*sa6);
	return inet_pton(AF_INET6, addr, &sa6->sin6_addr) == 1;
}

/* Answer one datagram on ADDR:PORT with itself (10 s at most). */
static int udp_echo(const char *addr, const char *port)
{
	struct sockaddr_in6 sa, peer;
	socklen_t len, peer_len = sizeof(peer);
	char buf[256];
	ssize_t n;
	int fd;

	if (!sock_addr(addr, port, &sa, &len))
		return report((errno = EINVAL, -1));
	fd = socket(sa.sin6_family, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0)
		return report(-1);
	if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 10000) != 1)
		return report((errno = ETIMEDOUT, -1));
	n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &peer_len);
	if (n < 0 || sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&peer, peer_len) < 0)
		return report(-1);
	return report(0);
}

/* Send MSG to ADDR:PORT until it comes back (the echo may not be up yet),
 * 10 s at most; print the answer. */
static int udp_ask(const char *addr, const char *port, const char *msg)
{
	struct sockaddr_in6 sa;
	socklen_t len;
	char buf[256];
	int fd;

	if (!sock_addr(addr, port, &sa, &len))
		return report((errno = EINVAL, -1));
	fd = socket(sa.sin6_family, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, len) < 0)
		return report(-1);
	for (int i = 0; i < 50; i++) {
		ssize_t n;

		if (send(fd, msg, strlen(msg), 0) < 0 && errno != ECONNREFUSED)
			return report(-1);
		if (poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 200) != 1)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0 && errno == ECONNREFUSED)
			continue;	/* not listening yet */
		if (n < 0)
			return report(-1);
		buf[n] = '\0';
		puts(buf);
		return 0;
	}
	return report((errno = ETIMEDOUT, -1));
}

/* "up" or "down", then NAME's IPv4 and global IPv6 addresses as ADDR/LEN. */
static int if_addrs(const char *name)
{
	struct ifaddrs *list, *a;
	unsigned int flags = 0;
	bool found = false;
	char text[INET6_ADDRSTRLEN], line[512] = "";

	if (getifaddrs(&list) < 0)
		return report(-1);
	for (a = list; a; a = a->ifa_next) {
		int family = a->ifa_addr ? a->ifa_addr->sa_family : 0;
		const void *bytes = family == AF_INET ?
			(const void *)&((struct sockaddr_in *)a->ifa_addr)->sin_addr :
			(const void *)&((struct sockaddr_in6 *)a->ifa_addr)->sin6_addr;
		int len = 0;

		if (strcmp(a->ifa_name, name))
			continue;
		found = true;
		flags = a->ifa_flags;
		if (family != AF_INET && family != AF_INET6)
			continue;
		if (family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(bytes))
			continue;
		inet_ntop(family, bytes, text, sizeof(text));
		for (const unsigned char *m = family == AF_INET ?
		     (const void *)&((struct sockaddr_in *)a->ifa_netmask)->sin_addr :
		     (const void *)&((struct sockaddr_in6 *)a->ifa_netmask)->sin6_addr,
		     *end = m + (family == AF_INET ? 4 : 16); m < end; m++)
			len += __builtin_popcount(*m);
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %s/%d", text, len);
	}
	freeifaddrs(list);
	if (!found)
		return report((errno = ENODEV, -1));
	printf("%s%s\n", flags & IFF_UP ? "up" : "down", line);
	return 0;
}

/* The IPv4 default route, from /proc/net/route: "default via GW dev IF". */
static int default_route(void)
{
	char line[256], dev[IFNAMSIZ + 1];
	unsigned int dst, gw;
	FILE *f = fopen("/proc/net/route", "r");

	if (!f)
		return report(-1);
	while (fgets(line, sizeof(line), f)) {
		struct in_addr a;

		if (sscanf(line, "%16s %x %x", dev, &dst, &gw) != 3 || dst != 0)
			continue;
		a.s_addr = gw;
		printf("default via %s dev %s\n", inet_ntoa(a), dev);
		fclose(f);
		return 0;
	}
	fclose(f);
	puts("no default route");
	return 0;
}

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

/* A fork bomb's child: forks twice, its children too, 3 levels deep. */
__attribute__((noreturn))
static void bomb_child(int depth)
{
	for (int i = 0; depth < 3 && i < 2; i++)
		if (fork() == 0)
			bomb_child(depth + 1);
	for (;;)
		pause();
}

/*
 * A fork bomb, bounded (64 subtrees of 15) in case nothing contains it:
 * says which errno stopped it, or "not contained".
 */
static int fork_bomb(void)
{
	for (int forks = 0; forks < 64; forks++) {
		pid_t pid = fork();

		if (pid == 0)
			bomb_child(0);
		if (pid < 0) {
			printf("%s after %d forks\n", errname(errno), forks);
			return 0;
		}
	}
	puts("not contained after 64 forks");
	return 0;
}

/* Touch @mb MiB, one at a time; "survived" when nothing stopped it. */
static int memory_hog(int mb)
{
	for (int i = 0; i < mb; i++) {
		char *p = malloc(1 << 20);

		if (!p)
			return report(-1);
		memset(p, i, 1 << 20);
	}
	puts("survived");
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

/*
 * A process whose command line is a jail's PID 1's, for --join to refuse;
 * it holds @record locked, as a running jail's ujail does.
 */
static int forge_keeper(const char *name, const char *record)
{
	char *const argv[] = { "ujail-keeper", "init", (char *)name, NULL };
	int fd = open(record, O_RDONLY);

	if (fd < 0 || flock(fd, LOCK_EX) < 0)
		return report(-1);
	execv("/proc/self/exe", argv);
	return report(-1);
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
	if (!strcmp(cmd, "chroot-escape"))
		return chroot_escape(arg);
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
	if (!strcmp(cmd, "forge-keeper") && argc > 3)
		return forge_keeper(arg, argv[3]);
	if (!strcmp(cmd, "init"))	/* the forged keeper (forge-keeper) */
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
	if (!strcmp(cmd, "udp-echo") && argc > 3)
		return udp_echo(arg, argv[3]);
	if (!strcmp(cmd, "udp-ask") && argc > 4)
		return udp_ask(arg, argv[3], argv[4]);
	if (!strcmp(cmd, "ifaddr"))
		return if_addrs(arg);
	if (!strcmp(cmd, "ifindex"))
		return report(if_nametoindex(arg) ? 0 : -1);
	if (!strcmp(cmd, "route"))
		return default_route();
	if (!strcmp(cmd, "forkbomb"))
		return fork_bomb();
	if (!strcmp(cmd, "memhog"))
		return memory_hog(atoi(arg));
	if (!strcmp(cmd, "raise"))
		return kill(getpid(), atoi(arg)) ? report(-1) : 0;
	if (!strcmp(cmd, "cat"))
		return cat_file(arg);
	if (!strcmp(cmd, "owner"))
		return owner(arg);
	if (!strcmp(cmd, "chown"))
		return report(chown(arg, (uid_t)atoi(argc > 3 ? argv[3] : "0"), (gid_t)-1));
	if (!strcmp(cmd, "mknod"))
		return report(mknod(arg, S_IFCHR | 0600, makedev(1, 3)));
	if (!strcmp(cmd, "sethostname"))
		return report(sethostname(arg, strlen(arg)));
	if (!strcmp(cmd, "hostname")) {
		char h[256] = "";

		gethostname(h, sizeof(h));
		puts(h);
		return 0;
	}
	/* A module that is not one: EPERM without CAP_SYS_MODULE, else EFAULT. */
	if (!strcmp(cmd, "init-module"))
		return report(syscall(SYS_init_module, NULL, 0UL, ""));
	if (!strcmp(cmd, "open-by-handle"))
		return open_by_handle(arg);
	if (!strcmp(cmd, "raw"))
		return raw_socket();
	if (!strcmp(cmd, "caps"))
		return caps_lines();
	/* setuid UID: a daemon dropping to its own user. */
	if (!strcmp(cmd, "setuid")) {
		uid_t uid = (uid_t)atoi(arg);

		return report(setresuid(uid, uid, uid));
	}
	if (!strcmp(cmd, "exists"))
		return report(access(arg, F_OK));
	if (!strcmp(cmd, "unix-listen") && argc > 3)
		return unix_listen(arg, argv[3]);
	/* exec PATH ARGS...: what a service's helper (a -r program) needs. */
	if (!strcmp(cmd, "exec") && argc > 2) {
		execv(argv[2], argv + 2);
		return report(-1);
	}
	if (!strcmp(cmd, "env")) {
		extern char **environ;

		for (char **e = environ; *e; e++)
			puts(*e);
		return 0;
	}
	if (surface_probe(cmd, arg) == 0)
		return 0;
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
