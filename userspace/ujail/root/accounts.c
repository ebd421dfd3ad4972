// SPDX-License-Identifier: GPL-2.0
/* -U/-G and the jail's passwd and group files; see accounts.h. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "root/accounts.h"
#include "seccomp/errmsg.h"

const struct jail_account_files jail_host_accounts = {
	.passwd = "/etc/passwd", .group = "/etc/group",
};

/* What one pass over a file found. */
struct found_user {
	bool root_found, user_found;
	char root_line[512], user_line[512];
	uid_t uid;
	gid_t gid;
};

struct found_group {
	bool root_found, group_found;
	char root_line[256], group_line[256];
	gid_t gid;
};

/* "name:x:uid:gid:gecos:dir:shell" (no password hash, ever). */
static void passwd_line(char *buf, size_t len, const struct passwd *pw)
{
	snprintf(buf, len, "%s:x:%u:%u:%s:%s:%s\n", pw->pw_name, (unsigned int)pw->pw_uid,
		 (unsigned int)pw->pw_gid, pw->pw_gecos ? pw->pw_gecos : "",
		 pw->pw_dir ? pw->pw_dir : "/", pw->pw_shell ? pw->pw_shell : "/bin/false");
}

/* "name:x:gid:" (no members: they would name other accounts). */
static void group_line(char *buf, size_t len, const struct group *gr)
{
	snprintf(buf, len, "%s:x:%u:\n", gr->gr_name, (unsigned int)gr->gr_gid);
}

/* Account files larger than this are not account files. */
#define ACCOUNT_FILE_MAX (4 << 20)

/*
 * A stream over the whole of @path read in one go: glibc's fgetpwent()
 * asks the kernel for the file position once per entry, a memory stream
 * does not. *@buf is the memory behind it, freed after fclose(). NULL if
 * the file cannot be read.
 */
static FILE *open_in_memory(const char *path, char **buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n = -1;
	FILE *fp = NULL;

	*buf = NULL;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size < ACCOUNT_FILE_MAX)
		*buf = malloc(st.st_size + 1);
	if (*buf)
		n = read(fd, *buf, st.st_size + 1);
	close(fd);
	if (n > 0 && n <= st.st_size)
		fp = fmemopen(*buf, n, "r");
	if (!fp) {
		free(*buf);
		*buf = NULL;
	}
	return fp;
}

/* The first uid 0 entry and the first entry named @user. A missing file: neither. */
static void scan_passwd(const char *path, const char *user, struct found_user *f)
{
	char *buf;
	FILE *fp = open_in_memory(path, &buf);
	struct passwd *pw;

	if (!fp)
		return;
	while ((pw = fgetpwent(fp))) {
		if (!f->root_found && pw->pw_uid == 0) {
			passwd_line(f->root_line, sizeof(f->root_line), pw);
			f->root_found = true;
		}
		if (user && !f->user_found && !strcmp(pw->pw_name, user)) {
			passwd_line(f->user_line, sizeof(f->user_line), pw);
			f->uid = pw->pw_uid;
			f->gid = pw->pw_gid;
			f->user_found = true;
		}
	}
	fclose(fp);
	free(buf);
}

/* The first gid 0 entry and the first named @group (else numbered @gid). */
static void scan_group(const char *path, const char *group, const gid_t *gid,
		       struct found_group *f)
{
	char *buf;
	FILE *fp = open_in_memory(path, &buf);
	struct group *gr;

	if (!fp)
		return;
	while ((gr = fgetgrent(fp))) {
		bool wanted = group ? !strcmp(gr->gr_name, group) : gid && gr->gr_gid == *gid;

		if (!f->root_found && gr->gr_gid == 0) {
			group_line(f->root_line, sizeof(f->root_line), gr);
			f->root_found = true;
		}
		if (wanted && !f->group_found) {
			group_line(f->group_line, sizeof(f->group_line), gr);
			f->gid = gr->gr_gid;
			f->group_found = true;
		}
	}
	fclose(fp);
	free(buf);
}

static void write_files(const struct found_user *u, const struct found_group *g,
			struct jail_accounts *a)
{
	snprintf(a->passwd, sizeof(a->passwd), "%s%s",
		 u->root_found ? u->root_line : "root:x:0:0:root:/root:/bin/sh\n",
		 u->user_found && u->uid != 0 ? u->user_line : "");
	snprintf(a->group, sizeof(a->group), "%s%s",
		 g->root_found ? g->root_line : "root:x:0:\n",
		 g->group_found && g->gid != 0 ? g->group_line : "");
}

int jail_accounts_resolve(const struct jail_account_files *files,
			  const char *user, const char *group,
			  struct jail_creds *c, struct jail_accounts *a,
			  char *err, size_t errlen)
{
	struct found_user u = { 0 };
	struct found_group g = { 0 };

	memset(c, 0, sizeof(*c));
	scan_passwd(files->passwd, user, &u);
	if (user && !u.user_found)
		return ujs_fail(err, errlen, "user %s: not found in the host's %s", user,
				files->passwd);
	scan_group(files->group, group, u.user_found ? &u.gid : NULL, &g);
	if (group && !g.group_found)
		return ujs_fail(err, errlen, "group %s: not found in the host's %s", group,
				files->group);
	if (user) {
		c->set_uid = c->set_gid = true;
		c->uid = u.uid;
		c->gid = u.gid;		/* the user's group unless -G */
	}
	if (group) {
		c->set_gid = true;
		c->gid = g.gid;
	}
	write_files(&u, &g, a);
	return 0;
}
