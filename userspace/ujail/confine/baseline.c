// SPDX-License-Identifier: GPL-2.0
/* The baseline filter and scopes of every jail; see baseline.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine/baseline.h"
#include "confine/landlock.h"
#include "seccomp/errmsg.h"
#include "seccomp/policy.h"
#include "seccomp/seccomp_uapi.h"
#include "seccomp/syscalls.h"

#define CLONE_NEWUSER_FLAG 0x10000000

/*
 * ENOSYS where programs have a fallback for a kernel without the call
 * (glibc goes from clone3 to clone, io_uring users to epoll); EPERM, the
 * kernel's answer to an unprivileged caller, for the rest.
 */
const char *const jail_baseline_enosys[] = {
	"clone3", "io_uring_setup", "io_uring_enter", "io_uring_register", "uselib", NULL,
};
#define denied_enosys jail_baseline_enosys
static const char *const denied_eperm[] = {
	"open_by_handle_at", "bpf", "perf_event_open", "userfaultfd", "kexec_load",
	"kexec_file_load", "init_module", "finit_module", "delete_module", "keyctl",
	"add_key", "request_key", "vm86", "vm86old",
};
/* And by argument: unshare and clone with CLONE_NEWUSER; personality. */
#define N_BY_ARG 3

/*
 * The personality() values allowed, as Docker's: none re-enables an old
 * ABI or weakens the address space (READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE,
 * MMAP_PAGE_ZERO, ADDR_COMPAT_LAYOUT...).
 */
static const unsigned long personalities[] = {
	0x0,		/* PER_LINUX */
	0x8,		/* PER_LINUX32 */
	0x20000,	/* UNAME26 */
	0x20008,	/* UNAME26 | PER_LINUX32 */
	0xffffffff,	/* the query */
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* How many syscalls the filter names (the documented list). */
static size_t n_denied(void)
{
	return N_OF(denied_enosys) - 1 + N_OF(denied_eperm) + N_BY_ARG;
}

/* Appends printf output to a growing buffer; false when out of memory. */
struct text {
	char *buf;
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3)))
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len) {
		t->oom = true;	/* the buffer is sized for the policy: never */
		return;
	}
	t->len += (size_t)n;
}

static void put_names(struct text *t, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put(t, "%s\"%s\"", i ? ", " : "", names[i]);
}

/* The native architecture and those its kernel also runs (x86_64: i386, x32). */
static void put_archs(struct text *t)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n = ujs_arch_compat(ujs_arch_native(), compat, UJS_MAX_ARCHS);

	put(t, "\"%s\"", ujs_arch_native()->oci_name);
	for (size_t i = 0; i < n; i++)
		if (compat[i])
			put(t, ", \"%s\"", compat[i]->oci_name);
}

static void put_policy(struct text *t)
{
	put(t, "{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [");
	put_archs(t);
	put(t, "], \"syscalls\": [ { \"names\": [");
	put_names(t, denied_enosys, N_OF(denied_enosys) - 1);
	put(t, "], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"ENOSYS\" }, { \"names\": [");
	put_names(t, denied_eperm, N_OF(denied_eperm));
	put(t, "], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EPERM\" }, "
	    "{ \"names\": [\"unshare\", \"clone\"], \"action\": \"SCMP_ACT_ERRNO\", "
	    "\"errno\": \"EPERM\", \"args\": [ { \"index\": 0, \"value\": %d, "
	    "\"valueTwo\": %d, \"op\": \"SCMP_CMP_MASKED_EQ\" } ] }, "
	    "{ \"names\": [\"personality\"], \"action\": \"SCMP_ACT_ERRNO\", "
	    "\"errno\": \"EPERM\", \"args\": [", CLONE_NEWUSER_FLAG, CLONE_NEWUSER_FLAG);
	/* Denied when it is none of them: an AND of "not equal". */
	for (size_t i = 0; i < N_OF(personalities); i++)
		put(t, "%s { \"index\": 0, \"value\": %lu, \"op\": \"SCMP_CMP_NE\" }",
		    i ? "," : "", personalities[i]);
	put(t, " ] } ] }");
}

static int compile_filter(struct jail_baseline *b, char *err, size_t errlen)
{
	static char room[4096];
	struct text t = { room, 0, sizeof(room), false };
	uint64_t caps = 0;	/* the policy has no "includes"/"excludes" */
	struct ujs_parse_opts opts = { .caps = &caps };
	struct ujs_policy *policy;
	char why[512];
	int ret;

	put_policy(&t);
	if (t.oom)
		return ujs_fail(err, errlen, "baseline filter: policy text too long");
	if (ujs_policy_parse(t.buf, t.len, "ujail's baseline", &opts, &policy, why, sizeof(why)))
		return ujs_fail(err, errlen, "baseline filter: %s", why);
	ret = ujs_compile(policy, NULL, &b->filter, why, sizeof(why));
	ujs_policy_free(policy);
	if (ret)
		return ujs_fail(err, errlen, "baseline filter: %s", why);
	return 0;
}

/* --no-baseline, "no_baseline": true, else $UJAIL_BASELINE (procd cannot pass options). */
static int baseline_wanted(struct jail_baseline *b, const struct jail_opts *o, char *err,
			   size_t errlen)
{
	const char *env = getenv("UJAIL_BASELINE");

	b->on = false;
	if (o->no_baseline) {
		b->off_by = o->config ? "--no-baseline or the jail file's no_baseline" :
			    "--no-baseline";
		return 0;
	}
	if (env && strcmp(env, "on") && strcmp(env, "off"))
		return ujs_fail(err, errlen, "UJAIL_BASELINE=%s: must be on or off", env);
	if (env && !strcmp(env, "off")) {
		b->off_by = "UJAIL_BASELINE=off";
		return 0;
	}
	b->on = true;
	return 0;
}

int jail_baseline_plan(struct jail_baseline *b, const struct jail_opts *o,
		       bool signals, bool abstract, char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	if (baseline_wanted(b, o, err, errlen))
		return -1;
	if (!b->on)
		return 0;
	b->landlock_abi = jail_landlock_abi();
	if (b->landlock_abi >= JAIL_LANDLOCK_SCOPE_ABI)
		b->scopes = (signals ? JAIL_LANDLOCK_SCOPE_SIGNAL : 0) |
			    (abstract ? JAIL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0);
	return compile_filter(b, err, errlen);
}

int jail_baseline_apply(const struct jail_baseline *b, char *err, size_t errlen)
{
	struct sock_fprog prog = { .len = (unsigned short)b->filter.len,
				   .filter = b->filter.insns };

	if (!b->on)
		return 0;
	if (b->scopes && jail_landlock_scope(b->scopes, err, errlen))
		return -1;
	/* No no_new_privs: we hold CAP_SYS_ADMIN, and a root service keeps set-uid. */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return ujs_fail(err, errlen, "install the baseline filter: %s", strerror(errno));
	return 0;
}

static void describe_landlock(const struct jail_baseline *b, char *buf, size_t len)
{
	if (b->scopes)
		snprintf(buf, len, "Landlock ABI %d scopes %s%s%s to the service", b->landlock_abi,
			 b->scopes & JAIL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET ?
			 "abstract unix sockets" : "",
			 b->scopes == (JAIL_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET |
				       JAIL_LANDLOCK_SCOPE_SIGNAL) ? " and " : "",
			 b->scopes & JAIL_LANDLOCK_SCOPE_SIGNAL ? "signals" : "");
	else if (b->landlock_abi >= JAIL_LANDLOCK_SCOPE_ABI)
		snprintf(buf, len, "Landlock ABI %d: no scope needed for a member of a jail "
			 "with its own network namespace", b->landlock_abi);
	else if (b->landlock_abi > 0)
		snprintf(buf, len, "Landlock scoping not available: ABI %d: %s", b->landlock_abi,
			 jail_landlock_why_not(b->landlock_abi));
	else
		snprintf(buf, len, "Landlock scoping not available: %s",
			 jail_landlock_why_not(b->landlock_abi));
}

void jail_baseline_describe(const struct jail_baseline *b, char *buf, size_t len)
{
	char landlock[256];

	if (!b->on) {
		snprintf(buf, len, "baseline off (%s): no baseline filter, nested user "
			 "namespaces and Landlock scoping left to the kernel", b->off_by);
		return;
	}
	describe_landlock(b, landlock, sizeof(landlock));
	snprintf(buf, len, "baseline on: seccomp filter denying %zu syscalls (user namespaces, "
		 "io_uring, open_by_handle_at, bpf, perf_event_open, userfaultfd, kexec, "
		 "modules, keys, personality; see ujail(8)), before any -S; %s",
		 n_denied(), landlock);
}

void jail_baseline_free(struct jail_baseline *b)
{
	if (b->filter.insns)
		ujs_program_free(&b->filter);
	memset(b, 0, sizeof(*b));
}
