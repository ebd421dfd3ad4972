/* SPDX-License-Identifier: GPL-2.0 */
/* --fs: choosing the stage backend, on the host, before the jail exists. */
#include <errno.h>
#include <unistd.h>

#include "root/fs_backend.h"
#include "root/mount_api.h"

/* 0 if the kernel has jailfs (built in or loaded), else an errno. */
static int jailfs_probe(void)
{
	int fd = uj_fsopen("jailfs", UJ_FSOPEN_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int jail_fs_choose(const struct jail_opts *o, const struct stage_ops **ops, char *err,
		   size_t errlen)
{
	int errnum;

	if (o->fs_kind == JAIL_FS_BAD_ENV)
		return stage_fail(err, errlen, 0, "UJAIL_FS=%s: must be " JAIL_FS_WORDS, o->fs_env);
	if (o->fs_kind == JAIL_FS_BIND) {
		*ops = &stage_bind_ops;
		return 0;
	}
	errnum = jailfs_probe();
	if (!errnum) {
		*ops = &stage_jailfs_ops;
		return 0;
	}
	if (o->fs_kind == JAIL_FS_AUTO) {
		*ops = &stage_bind_ops;
		return 0;
	}
	if (errnum == ENODEV)
		return stage_fail(err, errlen, 0,
				  "--fs=jailfs: the kernel has no jailfs filesystem "
				  "(load the module: modprobe jailfs), or use --fs=bind");
	return stage_fail(err, errlen, errnum, "--fs=jailfs: fsopen(\"jailfs\")");
}
