/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Docker's and podman's conditional entries; see policy_cond.h. Their
 * semantics are those of moby's profiles/seccomp and containers/common's
 * pkg/seccomp: "arches" names the architecture as Docker does ("amd64",
 * "x86", "arm64", ...), "caps" are tested against the capabilities the
 * jail keeps, "minKernel" is "MAJOR.MINOR" compared with the kernel's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/capability.h>

#include "errmsg.h"
#include "policy.h"
#include "policy_cond.h"

/* ---- capabilities ---- */

int ujs_caps_effective(uint64_t *out, char *err, size_t errlen)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return ujs_fail(err, errlen, "capget: %s", strerror(errno));
	*out = (uint64_t)d[1].effective << 32 | d[0].effective;
	return 0;
}

/* Every capability the tables know. */
static uint64_t all_caps(void)
{
	unsigned int n = ujs_cap_count();

	return n >= 64 ? UINT64_MAX : (1ULL << n) - 1;
}

/* One element of a --caps list: a name, with or without "CAP_". */
static int add_cap(const char *name, uint64_t *caps, char *err, size_t errlen)
{
	char full[64];
	int n;

	if (strncasecmp(name, "CAP_", 4))
		snprintf(full, sizeof(full), "CAP_%s", name);
	else
		snprintf(full, sizeof(full), "%s", name);
	for (char *c = full; *c; c++)
		*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	n = ujs_cap_by_name(full);
	if (n < 0)
		return ujs_fail(err, errlen, "unknown capability \"%s\"", name);
	*caps |= 1ULL << n;
	return 0;
}

int ujs_caps_parse(const char *list, uint64_t *out, char *err, size_t errlen)
{
	char *copy, *name, *save = NULL;
	int ret = 0;

	*out = 0;
	if (!strcmp(list, "all")) {
		*out = all_caps();
		return 0;
	}
	if (!strcmp(list, "none") || !*list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return ujs_fail(err, errlen, "out of memory");
	for (name = strtok_r(copy, ",", &save); name && !ret;
	     name = strtok_r(NULL, ",", &save))
		ret = add_cap(name, out, err, errlen);
	free(copy);
	return ret;
}

/* ---- the kernel version ---- */

/*
 * "MAJOR.MINOR" at the start of @s (a release: "6.12.48+deb13-amd64").
 * @whole: nothing may follow, and each part fits in 8 bits (Docker's
 * "minKernel").
 */
static bool parse_version(const char *s, bool whole, unsigned int *major,
			  unsigned int *minor)
{
	char *end;
	unsigned long v[2];

	for (int i = 0; i < 2; i++) {
		if (*s < '0' || *s > '9')
			return false;
		errno = 0;
		v[i] = strtoul(s, &end, 10);
		if (errno || (whole && v[i] > 255))
			return false;
		s = end;
		if (i == 0 && *s++ != '.')
			return false;
	}
	if (whole && *s)
		return false;
	*major = (unsigned int)v[0];
	*minor = (unsigned int)v[1];
	return true;
}

static int kernel_version(struct ujs_cond_env *env, const char *kernel,
			  char *err, size_t errlen)
{
	struct utsname u;

	if (!kernel) {
		if (uname(&u))
			return ujs_fail(err, errlen, "uname: %s", strerror(errno));
		kernel = u.release;
	}
	if (!parse_version(kernel, false, &env->kernel_major, &env->kernel_minor))
		return ujs_fail(err, errlen, "kernel release \"%s\": not MAJOR.MINOR[...]",
				kernel);
	return 0;
}

int ujs_cond_env_init(struct ujs_cond_env *env, const struct ujs_arch *target,
		      const uint64_t *caps, const char *kernel,
		      char *err, size_t errlen)
{
	memset(env, 0, sizeof(*env));
	env->target = target;
	if (caps)
		env->caps = *caps;
	else if (ujs_caps_effective(&env->caps, err, errlen))
		return -1;
	return kernel_version(env, kernel, err, errlen);
}

/* ---- conditions ---- */

/* Docker's name of each architecture ("arches" values), ours otherwise. */
static const char *docker_arch_name(const struct ujs_arch *a)
{
	static const char *const names[][2] = {
		{ "x86_64", "amd64" }, { "i386", "x86" }, { "aarch64", "arm64" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(a->name, names[i][0]))
			return names[i][1];
	return a->name;
}

/* "arches" @o at @path: whether it names the target (*@hit). */
static int match_arches(const struct ujs_json_err *je, const char *path,
			struct json_object *o, const struct ujs_cond_env *env,
			bool *hit)
{
	struct ujs_json_array arr;
	struct json_object *e;
	const char *name;

	*hit = false;
	if (ujs_json_array(je, path, o, "an array of strings", &arr))
		return -1;
	while (ujs_json_next(&arr, &e)) {
		if (ujs_json_get_string(je, arr.elem_path, e, &name))
			return -1;
		/* Other architectures' names are fine: they just do not match. */
		if (!strcmp(name, docker_arch_name(env->target)) ||
		    !strcmp(name, env->target->name))
			*hit = true;
	}
	return 0;
}

/* "caps" @o at @path: how many it lists, and how many the jail has. */
static int count_caps(const struct ujs_json_err *je, const char *path,
		      struct json_object *o, const struct ujs_cond_env *env,
		      size_t *listed, size_t *held)
{
	struct ujs_json_array arr;
	struct json_object *e;
	const char *name;
	int cap;

	*held = 0;
	if (ujs_json_array(je, path, o, "an array of strings", &arr))
		return -1;
	*listed = arr.n;
	while (ujs_json_next(&arr, &e)) {
		if (ujs_json_get_string(je, arr.elem_path, e, &name))
			return -1;
		cap = ujs_cap_by_name(name);
		if (cap < 0)
			return ujs_json_fail(je, arr.elem_path, "unknown capability \"%s\" (expected a CAP_* name)",
					     name);
		if (env->caps >> cap & 1)
			(*held)++;
	}
	return 0;
}

/* "minKernel" @o at @path: whether the kernel is at least that (*@hit). */
static int match_min_kernel(const struct ujs_json_err *je, const char *path,
			    struct json_object *o, const struct ujs_cond_env *env,
			    bool *hit, bool *given)
{
	unsigned int major, minor;
	const char *s;

	if (ujs_json_get_string(je, path, o, &s))
		return -1;
	/* Docker reads "" as no condition. */
	*given = *s != '\0';
	if (!*given)
		return 0;
	if (!parse_version(s, true, &major, &minor) || (!major && !minor))
		return ujs_json_fail(je, path, "\"%s\" is not a kernel version \"MAJOR.MINOR\"", s);
	*hit = env->kernel_major > major ||
	       (env->kernel_major == major && env->kernel_minor >= minor);
	return 0;
}

/* The "caps" and "minKernel" parts of ujs_cond_eval; *@keep only cleared. */
static int eval_caps_kernel(const struct ujs_json_err *je, const char *path,
			    struct json_object *o, bool include,
			    const struct ujs_cond_env *env, bool *keep)
{
	char kpath[UJS_JSON_PATH_LEN];
	struct json_object *v;
	size_t listed, held;
	bool hit = false, given;

	if (json_object_object_get_ex(o, "caps", &v)) {
		ujs_json_path_key(kpath, path, "caps");
		if (count_caps(je, kpath, v, env, &listed, &held))
			return -1;
		if (include ? held < listed : held > 0)
			*keep = false;
	}
	if (json_object_object_get_ex(o, "minKernel", &v)) {
		ujs_json_path_key(kpath, path, "minKernel");
		if (match_min_kernel(je, kpath, v, env, &hit, &given))
			return -1;
		if (given && hit != include)
			*keep = false;
	}
	return 0;
}

int ujs_cond_eval(const struct ujs_json_err *je, const char *path,
		  struct json_object *o, bool include,
		  const struct ujs_cond_env *env, bool *keep)
{
	static const char *const keys[] = { "arches", "caps", "minKernel", NULL };
	char kpath[UJS_JSON_PATH_LEN];
	struct json_object *v;
	struct ujs_json_array arr;
	bool hit;

	*keep = true;
	if (ujs_json_get_object(je, path, o, "an object") ||
	    ujs_json_check_keys(je, path, o, keys, "arches, caps, minKernel, comment"))
		return -1;
	if (json_object_object_get_ex(o, "arches", &v)) {
		ujs_json_path_key(kpath, path, "arches");
		if (match_arches(je, kpath, v, env, &hit))
			return -1;
		/* An empty list is no condition, as in Docker. */
		ujs_json_array(je, kpath, v, "", &arr);
		if (arr.n && hit != include)
			*keep = false;
	}
	return eval_caps_kernel(je, path, o, include, env, keep);
}
