/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seccomp policy files, as procd has used them: the OCI seccomp JSON
 * ({"defaultAction": ..., "syscalls": [...]}) with Docker's and podman's
 * additions ("archMap", "includes"/"excludes", errno names), and the 2015
 * format ({"whitelist": [...], "policy": N}). Parsed with json-c into one
 * model; the conditions of Docker's entries are evaluated while parsing.
 */
#ifndef UJS_POLICY_H
#define UJS_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "syscalls.h"

enum ujs_action_kind {
	UJS_ACT_KILL_PROCESS,	/* SCMP_ACT_KILL_PROCESS */
	UJS_ACT_KILL_THREAD,	/* SCMP_ACT_KILL, SCMP_ACT_KILL_THREAD */
	UJS_ACT_TRAP,		/* SCMP_ACT_TRAP */
	UJS_ACT_ERRNO,		/* SCMP_ACT_ERRNO, SCMP_ACT_ERROR (procd), errnoRet */
	UJS_ACT_LOG_ERRNO,	/* SCMP_ACT_LOG_ERRNO (ours), errnoRet */
	UJS_ACT_TRACE,		/* SCMP_ACT_TRACE, errnoRet is the trace value */
	UJS_ACT_LOG,		/* SCMP_ACT_LOG */
	UJS_ACT_ALLOW,		/* SCMP_ACT_ALLOW */
};

struct ujs_action {
	enum ujs_action_kind kind;
	uint16_t data;		/* errno (ERRNO, LOG_ERRNO) or trace value */
};

/* The SECCOMP_RET_* value of @a (action | data). */
uint32_t ujs_action_ret(struct ujs_action a);
/* "SCMP_ACT_ERRNO(1)" style text for messages and dumps. */
const char *ujs_action_name(enum ujs_action_kind kind);

enum ujs_cmp_op {
	UJS_CMP_NE,		/* arg != value */
	UJS_CMP_LT,		/* arg <  value (unsigned 64-bit) */
	UJS_CMP_LE,
	UJS_CMP_EQ,
	UJS_CMP_GE,
	UJS_CMP_GT,
	UJS_CMP_MASKED_EQ,	/* (arg & value) == value_two */
};

struct ujs_arg_cmp {
	unsigned int index;	/* 0..5 */
	enum ujs_cmp_op op;
	uint64_t value;
	uint64_t value_two;
};

/*
 * One syscall name of one "syscalls" entry. The rules of a syscall are
 * tried in file order; the first whose comparisons all hold (an AND;
 * none = always) decides. No rule holds: the default action.
 */
struct ujs_rule {
	char *name;
	struct ujs_action action;
	size_t n_args;
	struct ujs_arg_cmp *args;
	char *where;		/* JSON path, e.g. "syscalls[3].names[1]" */
};

#define UJS_MAX_ARCHS 8

struct ujs_policy {
	char *file;		/* as given, for messages */
	struct ujs_action default_action;
	/* "architectures": none listed = the target's native one only. */
	size_t n_archs;
	const struct ujs_arch *archs[UJS_MAX_ARCHS];
	bool flag_log;		/* "flags": SECCOMP_FILTER_FLAG_LOG */
	bool flag_spec_allow;	/* "flags": SECCOMP_FILTER_FLAG_SPEC_ALLOW */
	size_t n_rules;
	struct ujs_rule *rules;
};

struct ujs_parse_opts {
	/* Architecture the policy is compiled for; NULL = native. */
	const struct ujs_arch *target;
	/*
	 * Syscall names: those of the target and the compat architectures the
	 * policy lists are kept, those of other architectures only are
	 * dropped quietly, and those no architecture has are dropped with a
	 * warning on @warn (NULL: none), or fail the parse when @strict.
	 */
	bool strict;
	FILE *warn;
	/*
	 * The capabilities the jail keeps, bit N for capability N (see
	 * ujs_caps_parse): the "caps" of Docker's and podman's "includes"
	 * and "excludes" are tested against them, as Docker and podman test
	 * them against the container's bounding set. NULL: the calling
	 * process's effective set (ujs_caps_effective).
	 */
	const uint64_t *caps;
	/*
	 * The kernel release "minKernel" is compared with, "MAJOR.MINOR[...]"
	 * ("6.12.48-amd64"); NULL: the running kernel's (uname -r).
	 */
	const char *kernel;
};

/*
 * A capability set from "CAP_CHOWN,CAP_SYS_ADMIN" (names with or without
 * "CAP_", any case), "all" or "none"/"" into @out (bit N = capability N).
 */
int ujs_caps_parse(const char *list, uint64_t *out, char *err, size_t errlen);
/* The calling process's effective capability set. */
int ujs_caps_effective(uint64_t *out, char *err, size_t errlen);

/*
 * Parse @path (or @len bytes of @text, named @name in messages). On error
 * returns -1 and puts "FILE: JSON.PATH: what is wrong" in @err.
 */
int ujs_policy_load(const char *path, const struct ujs_parse_opts *opts,
		    struct ujs_policy **out, char *err, size_t errlen);
int ujs_policy_parse(const char *text, size_t len, const char *name,
		     const struct ujs_parse_opts *opts,
		     struct ujs_policy **out, char *err, size_t errlen);
void ujs_policy_free(struct ujs_policy *p);

#endif
