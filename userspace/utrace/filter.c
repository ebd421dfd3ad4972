// SPDX-License-Identifier: GPL-2.0
/* The tracee's seccomp filter; see filter.h. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp/errmsg.h"
#include "utrace/counts.h"
#include "utrace/filter.h"

int utrace_seen_check(const struct ujs_policy *seen, char *err, size_t errlen)
{
	for (size_t i = 0; i < seen->n_rules; i++) {
		const struct ujs_rule *r = &seen->rules[i];

		if (r->action.kind != UJS_ACT_ALLOW || r->n_args)
			return ujs_fail(err, errlen,
					"%s: %s: \"%s\" is not a plain SCMP_ACT_ALLOW name "
					"(--coverage extends policies that utrace wrote)",
					seen->file, r->where, r->name);
	}
	return 0;
}

bool utrace_seen_covers(const struct ujs_policy *seen, uint32_t audit_arch, uint32_t nr)
{
	const struct ujs_arch *a = utrace_arch_of(audit_arch, nr);
	const char *name = ujs_syscall_name_audit(audit_arch, nr);
	bool listed = seen->n_archs == 0 && a == ujs_arch_native();

	for (size_t i = 0; i < seen->n_archs && !listed; i++)
		listed = seen->archs[i] == a;
	for (size_t i = 0; listed && name && i < seen->n_rules; i++)
		if (!strcmp(seen->rules[i].name, name))
			return true;
	return false;
}

/*
 * The compiler kills the architectures a policy does not list (and x32
 * on x86_64 unless listed); the tracer wants to see their calls too. In a
 * program whose rules are all ALLOW and whose default is TRACE, every
 * KILL_PROCESS return is such an architecture's.
 */
static void trace_unlisted_archs(struct ujs_program *prog)
{
	for (size_t i = 0; i < prog->len; i++)
		if (prog->insns[i].code == (BPF_RET | BPF_K) &&
		    prog->insns[i].k == SECCOMP_RET_KILL_PROCESS)
			prog->insns[i].k = SECCOMP_RET_TRACE;
}

int utrace_filter_build(struct utrace_filter *f, const struct ujs_policy *seen,
			char *err, size_t errlen)
{
	struct ujs_policy p = { .default_action = { .kind = UJS_ACT_TRACE } };
	char why[512];
	int ret;

	memset(f, 0, sizeof(*f));
	if (seen) {
		if (utrace_seen_check(seen, err, errlen))
			return -1;
		p.n_archs = seen->n_archs;
		memcpy(p.archs, seen->archs, sizeof(p.archs));
		p.n_rules = seen->n_rules;
		p.rules = seen->rules;
	}
	ret = ujs_compile(&p, NULL, &f->prog, why, sizeof(why));
	if (ret)
		return ujs_fail(err, errlen, "the tracing filter: %s", why);
	trace_unlisted_archs(&f->prog);
	return 0;
}

/* seccomp(2), or prctl() where it is missing (valgrind does not know it). */
static int set_filter(struct sock_fprog *fp)
{
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, fp) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fp, 0, 0);
}

int utrace_filter_install(const struct utrace_filter *f, char *err, size_t errlen)
{
	struct sock_fprog fp = {
		.len = (unsigned short)f->prog.len, .filter = f->prog.insns,
	};

	if (set_filter(&fp) == 0)
		return 0;
	/* Without CAP_SYS_ADMIN the kernel asks for no_new_privs. */
	if (errno == EACCES && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && set_filter(&fp) == 0)
		return 0;
	return ujs_fail(err, errlen, "install the tracing filter: %s", strerror(errno));
}

void utrace_filter_free(struct utrace_filter *f)
{
	ujs_program_free(&f->prog);
	memset(f, 0, sizeof(*f));
}
