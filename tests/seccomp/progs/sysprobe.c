/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysprobe CALL...: makes each named syscall (raw, so that the libc cannot
 * substitute another one) and prints one line per call:
 *   getppid: ok
 *   mkdir: errno 13 (Permission denied)
 * CALL is NAME or NAME:ARG; "env" prints the environment, one "env: ..."
 * line per variable. $SYSPROBE_CTOR=NAME makes a constructor do NAME
 * first ("ctor NAME: ..."), to show what runs before the filter.
 * $SYSPROBE_THREAD makes a constructor start a thread; "thread:NAME" has
 * that thread make the call ("thread NAME: ..."), to show that threads
 * started before the filter have it too.
 * Built with glibc and musl, dynamic and static.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

/* Result of one call: 0 or an errno value. */
static int result(long ret)
{
	return ret < 0 ? errno : 0;
}

static int call_socket(const char *arg)
{
	long fd = syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);

	(void)arg;
	if (fd >= 0)
		syscall(SYS_close, fd);
	return result(fd);
}

static int call_getppid(const char *arg)
{
	(void)arg;
	return result(syscall(SYS_getppid));
}

static int call_getpid(const char *arg)
{
	(void)arg;
	return result(syscall(SYS_getpid));
}

static int call_getuid(const char *arg)
{
	(void)arg;
	return result(syscall(SYS_getuid));
}

static int call_getgid(const char *arg)
{
	(void)arg;
	return result(syscall(SYS_getgid));
}

static int call_getegid(const char *arg)
{
	(void)arg;
	return result(syscall(SYS_getegid));
}

/* dup:FD, for rules that decide by argument. */
static int call_dup(const char *arg)
{
	long fd = syscall(SYS_dup, arg ? atoi(arg) : 0);

	if (fd >= 0)
		syscall(SYS_close, fd);
	return result(fd);
}

static int call_uname(const char *arg)
{
	struct utsname u;

	(void)arg;
	return result(syscall(SYS_uname, &u));
}

static int call_mkdir(const char *arg)
{
	return result(syscall(SYS_mkdirat, AT_FDCWD, arg ? arg : "/tmp/sysprobe", 0700));
}

static int call_chdir(const char *arg)
{
	return result(syscall(SYS_chdir, arg ? arg : "/"));
}

static int call_env(const char *arg)
{
	(void)arg;
	for (char **e = environ; *e; e++)
		printf("env: %s\n", *e);
	return 0;
}

static const struct probe {
	const char *name;
	int (*call)(const char *arg);
} probes[] = {
	{ "chdir", call_chdir },
	{ "dup", call_dup },
	{ "env", call_env },
	{ "getegid", call_getegid },
	{ "getgid", call_getgid },
	{ "getpid", call_getpid },
	{ "getppid", call_getppid },
	{ "getuid", call_getuid },
	{ "mkdir", call_mkdir },
	{ "socket", call_socket },
	{ "uname", call_uname },
};

static const struct probe *find_probe(const char *spec, const char **arg)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);

	*arg = colon ? colon + 1 : NULL;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (strlen(probes[i].name) == len && strncmp(probes[i].name, spec, len) == 0)
			return &probes[i];
	fprintf(stderr, "sysprobe: %s: unknown call\n", spec);
	return NULL;
}

static void print_result(const char *prefix, const char *name, int err)
{
	if (err)
		printf("%s%s: errno %d (%s)\n", prefix, name, err, strerror(err));
	else
		printf("%s%s: ok\n", prefix, name);
	fflush(stdout);
}

/* The constructor's thread: makes the calls main() sends it. */
static int to_thread[2] = { -1, -1 }, from_thread[2] = { -1, -1 };

static void *thread_loop(void *unused)
{
	const struct probe *p;
	const char *arg;
	int err;

	(void)unused;
	while (read(to_thread[0], &p, sizeof(p)) == sizeof(p) &&
	       read(to_thread[0], &arg, sizeof(arg)) == sizeof(arg)) {
		err = p->call(arg);
		if (write(from_thread[1], &err, sizeof(err)) != sizeof(err))
			break;
	}
	return NULL;
}

static int call_in_thread(const struct probe *p, const char *arg)
{
	int err;

	if (to_thread[1] < 0) {
		fprintf(stderr, "sysprobe: thread: SYSPROBE_THREAD is not set\n");
		return -1;
	}
	if (write(to_thread[1], &p, sizeof(p)) != sizeof(p) ||
	    write(to_thread[1], &arg, sizeof(arg)) != sizeof(arg) ||
	    read(from_thread[0], &err, sizeof(err)) != sizeof(err)) {
		fprintf(stderr, "sysprobe: thread: no answer\n");
		return -1;
	}
	print_result("thread ", p->name, err);
	return 0;
}

/* Runs "NAME[:ARG]" or "thread:NAME[:ARG]" and prints its line. */
static int probe(const char *prefix, const char *spec)
{
	bool in_thread = strncmp(spec, "thread:", 7) == 0;
	const struct probe *p = find_probe(in_thread ? spec + 7 : spec, &spec);

	if (!p)
		return -1;
	if (in_thread)
		return call_in_thread(p, spec);
	print_result(prefix, p->name, p->call(spec));
	return 0;
}

__attribute__((constructor))
static void ctor_probe(void)
{
	const char *spec = getenv("SYSPROBE_CTOR");
	pthread_t thread;

	if (spec)
		probe("ctor ", spec);
	if (getenv("SYSPROBE_THREAD") &&
	    (pipe(to_thread) || pipe(from_thread) ||
	     pthread_create(&thread, NULL, thread_loop, NULL))) {
		fprintf(stderr, "sysprobe: cannot start the thread\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sysprobe CALL[:ARG]...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (probe("", argv[i]))
			return 2;
	return 0;
}
