/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Users, groups and capabilities of the service; see creds.h.
 *
 * Securebits: SECBIT_NOROOT makes uid 0 gain nothing at execve(), so what
 * the service holds afterwards is only its ambient set (the capabilities
 * procd's files list in "ambient", which must also be permitted and
 * inheritable). SECBIT_NO_SETUID_FIXUP keeps our capabilities across
 * setuid() until we drop them ourselves. Every bit is locked.
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <json-c/json.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "errmsg.h"
#include "creds.h"

/* ---- procd's capabilities JSON ---- */

static int cap_by_name(const char *name, int *cap)
{
	char lower[64];
	cap_value_t v;
	size_t i;

	for (i = 0; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	if (name[i] || strncmp(lower, "cap_", 4) || cap_from_name(lower, &v) < 0 ||
	    v < 0 || v > 63)
		return -1;
	*cap = v;
	return 0;
}

static int caps_list(const char *path, json_object *root, const char *key,
		     uint64_t *mask, char *err, size_t errlen)
{
	json_object *list, *item;
	int cap;

	*mask = 0;
	if (!json_object_object_get_ex(root, key, &list))
		return 0;
	if (!json_object_is_type(list, json_type_array))
		return ujs_fail(err, errlen, "%s: %s: not an array", path, key);
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		item = json_object_array_get_idx(list, i);
		if (!json_object_is_type(item, json_type_string))
			return ujs_fail(err, errlen, "%s: %s[%zu]: not a string", path, key, i);
		if (cap_by_name(json_object_get_string(item), &cap))
			return ujs_fail(err, errlen, "%s: %s[%zu]: unknown capability %s",
					  path, key, i, json_object_get_string(item));
		*mask |= 1ULL << cap;
	}
	return 0;
}

static int caps_check_keys(const char *path, json_object *root, char *err, size_t errlen)
{
	static const char *const known[] = {
		"bounding", "effective", "inheritable", "permitted", "ambient",
	};

	json_object_object_foreach(root, key, val) {
		bool ok = false;

		(void)val;
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			ok |= strcmp(key, known[i]) == 0;
		if (!ok)
			return ujs_fail(err, errlen, "%s: %s: unknown key", path, key);
	}
	return 0;
}

/* json-c's own message names its internals and ends in a newline. */
static int caps_file_error(const char *path, char *err, size_t errlen)
{
	if (access(path, R_OK))
		return ujs_fail(err, errlen, "%s: %s", path, strerror(errno));
	return ujs_fail(err, errlen, "%s: not valid JSON", path);
}

int jail_caps_load(const char *path, struct jail_caps *caps, char *err,
		   size_t errlen)
{
	json_object *root = json_object_from_file(path);
	int ret = -1;

	memset(caps, 0, sizeof(*caps));
	if (!root)
		return caps_file_error(path, err, errlen);
	if (!json_object_is_type(root, json_type_object))
		ujs_fail(err, errlen, "%s: not a JSON object", path);
	else if (caps_check_keys(path, root, err, errlen) == 0 &&
		 caps_list(path, root, "bounding", &caps->bounding, err, errlen) == 0 &&
		 caps_list(path, root, "effective", &caps->effective, err, errlen) == 0 &&
		 caps_list(path, root, "inheritable", &caps->inheritable, err, errlen) == 0 &&
		 caps_list(path, root, "permitted", &caps->permitted, err, errlen) == 0 &&
		 caps_list(path, root, "ambient", &caps->ambient, err, errlen) == 0)
		ret = 0;
	json_object_put(root);
	return ret;
}

/* ---- applying them ---- */

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int last = CAP_LAST_CAP;

	/* The jail may have no /proc: the headers' value is then the bound. */
	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = CAP_LAST_CAP;
		fclose(f);
	}
	return last;
}

static int set_caps(uint64_t eff, uint64_t prm, uint64_t inh)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {
		{ (uint32_t)eff, (uint32_t)prm, (uint32_t)inh },
		{ (uint32_t)(eff >> 32), (uint32_t)(prm >> 32), (uint32_t)(inh >> 32) },
	};

	return (int)syscall(SYS_capset, &h, d);
}

static int get_permitted(uint64_t *prm)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	*prm = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	return 0;
}

static int shrink_bounding_set(uint64_t keep, int last, char *err, size_t errlen)
{
	for (int cap = 0; cap <= last; cap++)
		if (!(keep & (1ULL << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return ujs_fail(err, errlen, "drop capability %d from the bounding set: %s",
					  cap, strerror(errno));
	return 0;
}

static int switch_ids(const struct jail_creds *c, char *err, size_t errlen)
{
	/* No supplementary groups, not even the caller's: the jail's /etc/group has none. */
	if (setgroups(0, NULL) < 0)
		return ujs_fail(err, errlen, "setgroups: %s", strerror(errno));
	if (c->set_gid && setresgid(c->gid, c->gid, c->gid) < 0)
		return ujs_fail(err, errlen, "setresgid %u: %s", (unsigned)c->gid, strerror(errno));
	if (c->set_uid && setresuid(c->uid, c->uid, c->uid) < 0)
		return ujs_fail(err, errlen, "setresuid %u: %s", (unsigned)c->uid, strerror(errno));
	return 0;
}

static int raise_ambient(uint64_t ambient, int last, char *err, size_t errlen)
{
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return ujs_fail(err, errlen, "clear the ambient set: %s", strerror(errno));
	for (int cap = 0; cap <= last; cap++)
		if ((ambient & (1ULL << cap)) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			return ujs_fail(err, errlen,
					  "raise capability %d in the ambient set (%s; it must be permitted and inheritable too)",
					  cap, strerror(errno));
	return 0;
}

int jail_privileges_apply(const struct jail_creds *c,
			  const struct jail_caps *caps, char *err,
			  size_t errlen)
{
	const unsigned long final_bits =
		SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
		SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
		SECBIT_KEEP_CAPS_LOCKED |
		SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
	uint64_t held;
	int last = last_cap();

	/* Keep our capabilities through setuid() until we drop them. */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) < 0)
		return ujs_fail(err, errlen, "securebits: %s", strerror(errno));
	if (shrink_bounding_set(caps->bounding, last, err, errlen) ||
	    switch_ids(c, err, errlen))
		return -1;
	/* Ambient needs permitted and inheritable; keep the rest meanwhile. */
	if (get_permitted(&held) < 0 || set_caps(held, held, caps->inheritable) < 0)
		return ujs_fail(err, errlen, "capset (inheritable %#llx): %s",
				  (unsigned long long)caps->inheritable, strerror(errno));
	if (raise_ambient(caps->ambient, last, err, errlen))
		return -1;
	if (prctl(PR_SET_SECUREBITS, final_bits, 0, 0, 0) < 0)
		return ujs_fail(err, errlen, "lock the securebits: %s", strerror(errno));
	if (set_caps(caps->effective, caps->permitted, caps->inheritable) < 0)
		return ujs_fail(err, errlen, "capset (effective %#llx, permitted %#llx): %s",
				  (unsigned long long)caps->effective,
				  (unsigned long long)caps->permitted, strerror(errno));
	return 0;
}
