/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conditions of Docker's and podman's seccomp profiles (internal to the
 * policy parser): a "syscalls" entry's "includes" and "excludes", each with
 * "arches", "caps" and "minKernel", decide whether the entry is part of the
 * filter at all, evaluated once, when the policy is compiled.
 */
#ifndef UJS_POLICY_COND_H
#define UJS_POLICY_COND_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "json_input.h"
#include "syscalls.h"

/* What the conditions are evaluated against. */
struct ujs_cond_env {
	const struct ujs_arch *target;
	uint64_t caps;			/* the jail's: bit N = capability N */
	unsigned int kernel_major;	/* of the kernel the jail runs on */
	unsigned int kernel_minor;
};

/*
 * @env for @target with the capabilities @caps (NULL: the calling
 * process's effective set) and the kernel release @kernel ("6.12.48-...";
 * NULL: the running kernel's, from uname).
 */
int ujs_cond_env_init(struct ujs_cond_env *env, const struct ujs_arch *target,
		      const uint64_t *caps, const char *kernel,
		      char *err, size_t errlen);

/*
 * The "includes" (@include true) or "excludes" object @o at @path of an
 * entry: *@keep is false when it rules the entry out. As Docker and podman
 * read them: includes needs the target among "arches", every one of
 * "caps", and a kernel at least "minKernel"; excludes rules the entry out
 * on the target among "arches", any one of "caps", or a kernel at least
 * "minKernel".
 */
int ujs_cond_eval(const struct ujs_json_err *je, const char *path,
		  struct json_object *o, bool include,
		  const struct ujs_cond_env *env, bool *keep);

#endif
