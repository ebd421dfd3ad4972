/* SPDX-License-Identifier: GPL-2.0 */
/* -S: the seccomp policy of the service; see jail_seccomp.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "confine/baseline.h"
#include "confine/jail_seccomp.h"
#include "seccomp/errmsg.h"
#include "seccomp/load.h"
#include "seccomp/policy.h"
#include "seccomp/program.h"

static bool policy_names(const struct ujs_policy *p, const char *name)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (!strcmp(p->rules[i].name, name))
			return true;
	return false;
}

/* The baseline's ENOSYS calls the policy does not name: ENOSYS, not its default. */
static int add_baseline_fallbacks(struct ujs_policy *p)
{
	struct ujs_action enosys = { UJS_ACT_ERRNO, 0 };
	int num = ujs_errno_by_name(ujs_arch_native(), "ENOSYS");
	size_t n = 0;
	struct ujs_rule *rules;

	while (jail_baseline_enosys[n])
		n++;
	rules = realloc(p->rules, (p->n_rules + n) * sizeof(*rules));
	if (!rules)
		return -1;
	p->rules = rules;
	enosys.data = (uint16_t)(num > 0 ? num : ENOSYS);
	for (size_t i = 0; i < n; i++) {
		struct ujs_rule *r = &p->rules[p->n_rules];

		if (policy_names(p, jail_baseline_enosys[i]) ||
		    ujs_syscall_nr(ujs_arch_native(), jail_baseline_enosys[i]) < 0)
			continue;
		*r = (struct ujs_rule){ .name = strdup(jail_baseline_enosys[i]), .action = enosys,
					.where = strdup("ujail's baseline") };
		if (!r->name || !r->where) {
			free(r->name);
			free(r->where);
			return -1;
		}
		p->n_rules++;
	}
	return 0;
}

static int compile_policy(struct jail_seccomp *sc, const char *path, uint64_t caps,
			  bool baseline, char *err, size_t errlen)
{
	struct ujs_parse_opts opts = { .warn = stderr, .caps = &caps };
	char why[512];

	if (ujs_policy_load(path, &opts, &sc->policy, why, sizeof(why)))
		return ujs_fail(err, errlen, "seccomp policy %s", why);
	if (baseline && add_baseline_fallbacks(sc->policy))
		return ujs_fail(err, errlen, "seccomp policy %s: out of memory", path);
	/* The compiler's messages name the file already. */
	if (ujs_compile(sc->policy, NULL, &sc->compiled, why, sizeof(why)))
		return ujs_fail(err, errlen, "seccomp policy %s", why);
	ujs_loaded_from_compiled(&sc->loaded, &sc->compiled, sc->policy);
	return 0;
}

/*
 * The shim alone: it needs only the libc, which the program's loader
 * already maps (elf_deps refuses a library without PT_INTERP as a program).
 */
static int stage_shim(struct jail_seccomp *sc, struct path_set *deps, char *err,
		      size_t errlen)
{
	if (!path_set_has(deps, sc->shim) && path_set_add(deps, sc->shim) < 0)
		return ujs_fail(err, errlen, "seccomp preload shim %s: out of memory", sc->shim);
	return 0;
}

int jail_seccomp_prepare(struct jail_seccomp *sc, const char *policy_path, uint64_t caps,
			 bool baseline, const char *exe, const char *self_exe,
			 struct path_set *deps, char *err, size_t errlen)
{
	enum ujs_link link;
	char why[512];

	memset(sc, 0, sizeof(*sc));
	sc->memfd = sc->keeper_fd = sc->notify_sock[0] = sc->notify_sock[1] = -1;
	if (!policy_path)
		return 0;
	sc->enabled = true;
	sc->mode = ujs_mode_detect(1);
	if (compile_policy(sc, policy_path, caps, baseline, err, errlen))
		return -1;
	/* Its own descriptor: the shim's read() moves the offset of the other. */
	if (sc->mode == UJS_MODE_NOTIFY) {
		sc->keeper_fd = ujs_program_memfd(&sc->loaded, why, sizeof(why));
		if (sc->keeper_fd < 0)
			return ujs_fail(err, errlen, "seccomp: %s", why);
	}
	if (ujs_link_kind(exe, &link, why, sizeof(why)))
		return ujs_fail(err, errlen, "seccomp: %s", why);
	sc->dynamic = link != UJS_LINK_STATIC;
	if (!sc->dynamic)
		return 0;
	if (ujs_shim_find(NULL, self_exe, link, sc->shim, why, sizeof(why)))
		return ujs_fail(err, errlen, "seccomp: %s", why);
	if (stage_shim(sc, deps, err, errlen))
		return -1;
	sc->memfd = ujs_program_memfd(&sc->loaded, why, sizeof(why));
	if (sc->memfd < 0)
		return ujs_fail(err, errlen, "seccomp: %s", why);
	return 0;
}

int jail_seccomp_keep_fd(const struct jail_seccomp *sc)
{
	return sc->enabled && sc->dynamic ? sc->memfd : -1;
}

static char *env_entry(const char *name, const char *value)
{
	char *s;

	return asprintf(&s, "%s=%s", name, value) < 0 ? NULL : s;
}

bool jail_seccomp_notifies(const struct jail_seccomp *sc)
{
	return sc->enabled && sc->mode == UJS_MODE_NOTIFY;
}

int jail_seccomp_notify_open(struct jail_seccomp *sc, char *err, size_t errlen)
{
	if (jail_seccomp_notifies(sc) &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sc->notify_sock) < 0)
		return ujs_fail(err, errlen, "seccomp: notify socketpair: %s", strerror(errno));
	return 0;
}

static int add_env_fd(const char *name, int fd, char **env, size_t *n)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", fd);
	env[*n] = env_entry(name, num);
	env[++*n] = NULL;
	/* The shim reads it after execve(). */
	return env[*n - 1] && fcntl(fd, F_SETFD, 0) == 0 ? 0 : -1;
}

int jail_seccomp_env(const struct jail_seccomp *sc, char **env, size_t *n,
		     char *err, size_t errlen)
{
	if (!sc->enabled || !sc->dynamic)
		return 0;
	env[*n] = env_entry("LD_PRELOAD", sc->shim);
	env[++*n] = NULL;
	env[*n] = env_entry(UJS_ENV_MODE, ujs_mode_name(sc->mode));
	env[++*n] = NULL;
	if (!env[*n - 1] || !env[*n - 2] || add_env_fd(UJS_ENV_FD, sc->memfd, env, n) ||
	    (jail_seccomp_notifies(sc) &&
	     add_env_fd(UJS_ENV_NOTIFY_FD, sc->notify_sock[1], env, n)))
		return ujs_fail(err, errlen, "seccomp: the shim's environment: %s", strerror(errno));
	return 0;
}

int jail_seccomp_install_static(struct jail_seccomp *sc, char *err, size_t errlen)
{
	char why[256];

	if (!sc->enabled || sc->dynamic)
		return 0;
	/* In notify mode the socket is closed by ujs_install_mode(). */
	if (ujs_install_mode(&sc->loaded, sc->mode,
			     jail_seccomp_notifies(sc) ? sc->notify_sock[1] : -1,
			     why, sizeof(why)) < 0)
		return ujs_fail(err, errlen, "seccomp: install the filter: %s", why);
	return 0;
}

void jail_seccomp_free(struct jail_seccomp *sc)
{
	if (sc->policy) {
		ujs_program_free(&sc->compiled);
		ujs_policy_free(sc->policy);
	}
	if (sc->memfd >= 0)
		close(sc->memfd);
	if (sc->keeper_fd >= 0)
		close(sc->keeper_fd);
	for (int i = 0; i < 2; i++)
		if (sc->notify_sock[i] >= 0)
			close(sc->notify_sock[i]);
	memset(sc, 0, sizeof(*sc));
	sc->memfd = sc->keeper_fd = sc->notify_sock[0] = sc->notify_sock[1] = -1;
}
