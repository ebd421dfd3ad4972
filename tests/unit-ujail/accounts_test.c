// SPDX-License-Identifier: GPL-2.0
/*
 * -U/-G and the jail's /etc/passwd and /etc/group: what
 * jail_accounts_resolve() makes of host files written by the test. TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "root/accounts.h"
#include "tap.h"

static char dir[] = "/tmp/accounts_test.XXXXXX";
static char passwd_path[256], group_path[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static const char host_passwd[] =
	"root:$6$secret:0:0:root:/root:/bin/bash\n"
	"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
	"dnsmasq:x:453:453:dnsmasq:/var/run/dnsmasq:/bin/false\n"
	"toor:x:0:0:second root:/root:/bin/sh\n"
	"nogroupuser:x:700:7777::/:/bin/false\n";
static const char host_group[] =
	"root:x:0:admin\n"
	"daemon:x:1:\n"
	"dnsmasq:x:453:alice,bob\n"
	"network:x:101:dnsmasq\n";

static int resolve(const char *user, const char *group, struct jail_creds *c,
		   struct jail_accounts *a, char *err, size_t len)
{
	struct jail_account_files files = { passwd_path, group_path };

	return jail_accounts_resolve(&files, user, group, c, a, err, len);
}

static void test_user_and_group(void)
{
	struct jail_accounts a;
	struct jail_creds c;
	char err[512] = "";

	ok(resolve("dnsmasq", "network", &c, &a, err, sizeof(err)) == 0 &&
	   c.set_uid && c.set_gid && c.uid == 453 && c.gid == 101,
	   "-U dnsmasq -G network: 453:101 (%s)", err);
	ok(!strcmp(a.passwd, "root:x:0:0:root:/root:/bin/bash\n"
		   "dnsmasq:x:453:453:dnsmasq:/var/run/dnsmasq:/bin/false\n"),
	   "passwd: root and the user, no hash (%s)", a.passwd);
	ok(!strcmp(a.group, "root:x:0:\nnetwork:x:101:\n"),
	   "group: root and -G, no members (%s)", a.group);
	ok(resolve("dnsmasq", NULL, &c, &a, err, sizeof(err)) == 0 && c.gid == 453 &&
	   !strcmp(a.group, "root:x:0:\ndnsmasq:x:453:\n"),
	   "-U alone: the user's own group (%s)", a.group);
	ok(resolve(NULL, "network", &c, &a, err, sizeof(err)) == 0 && !c.set_uid &&
	   c.set_gid && c.gid == 101 && !strcmp(a.passwd, "root:x:0:0:root:/root:/bin/bash\n"),
	   "-G alone: gid only, passwd holds root");
	ok(resolve("toor", NULL, &c, &a, err, sizeof(err)) == 0 && c.uid == 0 &&
	   !strcmp(a.passwd, "root:x:0:0:root:/root:/bin/bash\n"),
	   "a uid-0 user is not listed twice");
	ok(resolve("nogroupuser", NULL, &c, &a, err, sizeof(err)) == 0 && c.gid == 7777 &&
	   !strcmp(a.group, "root:x:0:\n"),
	   "a primary group missing from group: the gid, no line");
	ok(resolve(NULL, NULL, &c, &a, err, sizeof(err)) == 0 && !c.set_uid && !c.set_gid &&
	   !strcmp(a.group, "root:x:0:\n"), "neither: nothing to change, root only");
}

static void test_unknown(void)
{
	struct jail_accounts a;
	struct jail_creds c;
	char err[512] = "";

	ok(resolve("no-such-user-x", NULL, &c, &a, err, sizeof(err)) == -1 &&
	   strstr(err, "no-such-user-x") && strstr(err, passwd_path),
	   "an unknown user is named, with the file (%s)", err);
	ok(resolve(NULL, "no-such-group-x", &c, &a, err, sizeof(err)) == -1 &&
	   strstr(err, "no-such-group-x") && strstr(err, group_path),
	   "an unknown group is named, with the file (%s)", err);
}

static void test_missing_files(void)
{
	struct jail_accounts a;
	struct jail_creds c;
	char err[512] = "";

	unlink(passwd_path);
	unlink(group_path);
	ok(resolve(NULL, NULL, &c, &a, err, sizeof(err)) == 0 &&
	   !strcmp(a.passwd, "root:x:0:0:root:/root:/bin/sh\n") &&
	   !strcmp(a.group, "root:x:0:\n"), "no host files: plain root lines");
	ok(resolve("dnsmasq", NULL, &c, &a, err, sizeof(err)) == -1 &&
	   strstr(err, "dnsmasq"), "no host files: -U fails (%s)", err);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(passwd_path, sizeof(passwd_path), "%s/passwd", dir);
	snprintf(group_path, sizeof(group_path), "%s/group", dir);
	write_file(passwd_path, host_passwd);
	write_file(group_path, host_group);
	test_user_and_group();
	test_unknown();
	test_missing_files();
	rmdir(dir);
	return tap_done();
}
