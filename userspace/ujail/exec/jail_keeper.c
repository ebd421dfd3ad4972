// SPDX-License-Identifier: GPL-2.0
/* Handing a started jail over to ujail-keeper; see jail_keeper.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec/jail_keeper.h"
#include "seccomp/errmsg.h"

#define KEEPER_REL_PATH "../lib/ujail/ujail-keeper"

static int keeper_path(const char *self_exe, char *out, size_t len)
{
	const char *env = getenv("UJAIL_KEEPER");
	const char *slash = strrchr(self_exe, '/');

	if (env && *env)
		return (size_t)snprintf(out, len, "%s", env) < len ? 0 : -1;
	if (!slash)
		return -1;
	return (size_t)snprintf(out, len, "%.*s/%s", (int)(slash - self_exe), self_exe,
				KEEPER_REL_PATH) < len ? 0 : -1;
}

int jail_keeper_open(const char *self_exe, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (keeper_path(self_exe, path, sizeof(path)) < 0)
		return ujs_fail(err, errlen, "cannot locate ujail-keeper beside %s (set UJAIL_KEEPER)",
				self_exe);
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return ujs_fail(err, errlen, "ujail-keeper %s: %s (installed with ujail; "
				"UJAIL_KEEPER names another)", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR)) {
		close(fd);
		return ujs_fail(err, errlen, "ujail-keeper %s: not an executable file", path);
	}
	return fd;
}

/* Descriptors the keeper is told about must survive the exec. */
static int keep_across_exec(int fd)
{
	return fd < 0 ? 0 : fcntl(fd, F_SETFD, 0);
}

static void exec_keeper(int keeper_fd, char **argv)
{
	static char *const no_env[] = { NULL };

	syscall(SYS_execveat, keeper_fd, "", argv, no_env, AT_EMPTY_PATH);
}

void jail_keeper_exec_watch(int keeper_fd, const struct jail_watch *w)
{
	char stub_s[16], fd_s[16], timeout_s[16], ifindex_s[16];
	char *argv[] = {
		"ujail-keeper", "watch", (char *)w->name, stub_s, fd_s, timeout_s,
		(char *)(w->pidfile ? w->pidfile : ""), w->host_ifindex > 0 ? ifindex_s : "",
		(char *)(w->cgroup ? w->cgroup : ""),
		w->record_fd >= 0 ? (char *)w->record : NULL, NULL,
	};

	snprintf(stub_s, sizeof(stub_s), "%d", (int)w->stub);
	snprintf(fd_s, sizeof(fd_s), "%d", w->status_fd);
	snprintf(timeout_s, sizeof(timeout_s), "%u", w->term_timeout);
	snprintf(ifindex_s, sizeof(ifindex_s), "%d", w->host_ifindex);
	if (keep_across_exec(w->status_fd) == 0 && keep_across_exec(w->record_fd) == 0)
		exec_keeper(keeper_fd, argv);
}

void jail_keeper_exec_init(int keeper_fd, const char *name, pid_t service,
			   int notify_fd, int program_fd)
{
	char service_s[16], notify_s[16], program_s[16];
	char *argv[] = {
		"ujail-keeper", "init", (char *)name, service_s,
		notify_fd >= 0 ? notify_s : NULL, program_s, NULL,
	};

	snprintf(service_s, sizeof(service_s), "%d", (int)service);
	snprintf(notify_s, sizeof(notify_s), "%d", notify_fd);
	snprintf(program_s, sizeof(program_s), "%d", program_fd);
	if (keep_across_exec(notify_fd) == 0 && keep_across_exec(program_fd) == 0)
		exec_keeper(keeper_fd, argv);
}
