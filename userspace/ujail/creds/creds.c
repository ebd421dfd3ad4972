/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Users, groups and capabilities of the service; see creds.h.
 *
 * Securebits: SECBIT_NO_SETUID_FIXUP keeps our capabilities across
 * setuid() until the sets are made what they must be; then every bit is
 * cleared and locked, so execve() treats the service as any process of
 * its uid (root gets its bounding set, another user its ambient set) and
 * the service cannot change that, nor raise ambient capabilities.
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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "creds/creds.h"
#include "seccomp/errmsg.h"
#include "seccomp/syscalls.h"

/* ---- procd's capabilities JSON ---- */

/*
 * As procd: any case of a CAP_* name of the kernel's headers (the table
 * ujail-seccomp compiles policies with), CAP_LAST_CAP being no capability.
 */
static int cap_by_name(const char *name, int *cap)
{
	char upper[64];
	size_t i;
	int v;

	for (i = 0; name[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)toupper((unsigned char)name[i]);
	upper[i] = '\0';
	if (name[i] || !strcmp(upper, "CAP_LAST_CAP"))
		return -1;
	v = ujs_cap_by_name(upper);
	if (v < 0 || v > 63)
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

/* The five sets: JSON key, bit in jail_caps.given, where the mask goes. */
static int caps_sets(const char *path, json_object *root, struct jail_caps *caps, char *err,
		     size_t errlen)
{
	const struct {
		const char *key;
		unsigned int bit;
		uint64_t *mask;
	} sets[] = {
		{ "bounding", JAIL_CAPS_BOUNDING, &caps->bounding },
		{ "effective", JAIL_CAPS_EFFECTIVE, &caps->effective },
		{ "inheritable", JAIL_CAPS_INHERITABLE, &caps->inheritable },
		{ "permitted", JAIL_CAPS_PERMITTED, &caps->permitted },
		{ "ambient", JAIL_CAPS_AMBIENT, &caps->ambient },
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (caps_list(path, root, sets[i].key, sets[i].mask, err, errlen))
			return -1;
		if (json_object_object_get_ex(root, sets[i].key, NULL))
			caps->given |= sets[i].bit;
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

	caps->given = 0;
	if (!root)
		return caps_file_error(path, err, errlen);
	if (!json_object_is_type(root, json_type_object))
		ujs_fail(err, errlen, "%s: not a JSON object", path);
	else
		ret = caps_sets(path, root, caps, err, errlen);
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

static int get_sets(uint64_t *prm, uint64_t *inh)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	*prm = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	*inh = (uint64_t)d[1].inheritable << 32 | d[0].inheritable;
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

/* The bounding set the service keeps: -C's, else all but the dangerous ones. */
static uint64_t bounding_kept(const struct jail_caps *caps)
{
	if (caps->given & JAIL_CAPS_BOUNDING)
		return caps->bounding;
	return caps->keep_all ? ~0ULL : ~JAIL_CAPS_DANGEROUS;
}

uint64_t jail_caps_bounding(const struct jail_caps *caps)
{
	uint64_t ours = 0;
	int last = last_cap();

	for (int cap = 0; cap <= last && cap < 64; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1)
			ours |= 1ULL << cap;
	return ours & bounding_kept(caps);
}

/* -C's effective, permitted and inheritable sets; those it does not name stay. */
static int set_named_caps(const struct jail_caps *caps, char *err, size_t errlen)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	uint64_t eff, prm, inh;

	if (syscall(SYS_capget, &h, d) < 0)
		return ujs_fail(err, errlen, "capget: %s", strerror(errno));
	eff = (uint64_t)d[1].effective << 32 | d[0].effective;
	prm = (uint64_t)d[1].permitted << 32 | d[0].permitted;
	inh = (uint64_t)d[1].inheritable << 32 | d[0].inheritable;
	if (caps->given & JAIL_CAPS_EFFECTIVE)
		eff = caps->effective;
	if (caps->given & JAIL_CAPS_PERMITTED)
		prm = caps->permitted;
	if (caps->given & JAIL_CAPS_INHERITABLE)
		inh = caps->inheritable;
	if (set_caps(eff & prm, prm, inh) < 0)
		return ujs_fail(err, errlen, "capset (effective %#llx, permitted %#llx, "
				"inheritable %#llx): %s", (unsigned long long)eff,
				(unsigned long long)prm, (unsigned long long)inh, strerror(errno));
	return 0;
}

int jail_privileges_apply(const struct jail_creds *c,
			  const struct jail_caps *caps, char *err,
			  size_t errlen)
{
	const unsigned long final_bits =
		SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED |
		SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
	uint64_t held, inh;
	int last = last_cap();

	/* Keep our capabilities through setuid() until we drop them. */
	if (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) < 0)
		return ujs_fail(err, errlen, "securebits: %s", strerror(errno));
	if (shrink_bounding_set(bounding_kept(caps), last, err, errlen) ||
	    switch_ids(c, err, errlen))
		return -1;
	if (caps->given & JAIL_CAPS_AMBIENT) {
		/* Ambient needs permitted and inheritable: -C's inheritable set first. */
		if (get_sets(&held, &inh) < 0)
			return ujs_fail(err, errlen, "capget: %s", strerror(errno));
		if (caps->given & JAIL_CAPS_INHERITABLE)
			inh = caps->inheritable;
		if (set_caps(held, held, inh) < 0)
			return ujs_fail(err, errlen, "capset (inheritable %#llx): %s",
					(unsigned long long)inh, strerror(errno));
		if (raise_ambient(caps->ambient, last, err, errlen))
			return -1;
	}
	/* While CAP_SETPCAP is still effective. */
	if (prctl(PR_SET_SECUREBITS, final_bits, 0, 0, 0) < 0)
		return ujs_fail(err, errlen, "lock the securebits: %s", strerror(errno));
	return set_named_caps(caps, err, errlen);
}
