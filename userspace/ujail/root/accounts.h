/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -U/-G on the host, and the jail's /etc/passwd and /etc/group: one read
 * of each host file, by the outer ujail. Accounts come from /etc/passwd
 * and /etc/group only, as on OpenWrt (no NSS modules: ujail links
 * statically, and a service account belongs in those files).
 */
#ifndef UJAIL_ACCOUNTS_H
#define UJAIL_ACCOUNTS_H

#include <stddef.h>

#include "creds/creds.h"

#define JAIL_ACCOUNTS_SIZE 2048

/*
 * The jail's files: root (the host's uid/gid 0 entry, or a plain one) and
 * the -U user / -G group (without -G: the user's own group), without
 * password hashes or group members.
 */
struct jail_accounts {
	char passwd[JAIL_ACCOUNTS_SIZE];
	char group[JAIL_ACCOUNTS_SIZE];
};

/* The host's files; tests name others. */
struct jail_account_files {
	const char *passwd, *group;
};

extern const struct jail_account_files jail_host_accounts;

/*
 * Resolve @user and @group (either may be NULL) in @files into @c, and
 * write the jail's files into @a. 0, or -1 with @err naming the account.
 */
int jail_accounts_resolve(const struct jail_account_files *files,
			  const char *user, const char *group,
			  struct jail_creds *c, struct jail_accounts *a,
			  char *err, size_t errlen);

#endif
