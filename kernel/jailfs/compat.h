/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernels jailfs builds against (6.1 to 6.12.y).
 * Each JAILFS_HAVE_* comes from a probe of the kernel's headers in Kbuild,
 * never from a version number: distributions backport interface changes.
 */
#ifndef _JAILFS_COMPAT_H
#define _JAILFS_COMPAT_H

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/stat.h>

#ifdef JAILFS_HAVE_IDMAP
/* 6.3+: inode operations take the mount's idmap. */
#define jailfs_idmap_t		struct mnt_idmap
#define jailfs_mnt_idmap(mnt)	mnt_idmap(mnt)
#define jailfs_nop_idmap	(&nop_mnt_idmap)
#define JAILFS_RENAMEDATA(old_map, new_map) \
	.old_mnt_idmap = (old_map), .new_mnt_idmap = (new_map)
#else
#define jailfs_idmap_t		struct user_namespace
#define jailfs_mnt_idmap(mnt)	mnt_user_ns(mnt)
#define jailfs_nop_idmap	(&init_user_ns)
#define JAILFS_RENAMEDATA(old_map, new_map) \
	.old_mnt_userns = (old_map), .new_mnt_userns = (new_map)
#endif

static inline void jailfs_fillattr(jailfs_idmap_t *idmap, u32 request_mask,
				   struct inode *inode, struct kstat *stat)
{
#ifdef JAILFS_HAVE_FILLATTR_MASK
	generic_fillattr(idmap, request_mask, inode, stat);
#else
	generic_fillattr(idmap, inode, stat);
#endif
}

/* 6.6+: timestamps are reached through accessors. */
static inline void jailfs_init_times(struct inode *inode)
{
#ifdef JAILFS_HAVE_INODE_INIT_TS
	simple_inode_init_ts(inode);
#else
	struct timespec64 now = current_time(inode);

	inode->i_atime = now;
	inode->i_mtime = now;
	inode->i_ctime = now;
#endif
}

/* 6.3+: vm_flags are changed through helpers (the VMA lock). */
static inline void jailfs_vma_forbid_exec(struct vm_area_struct *vma)
{
#ifdef JAILFS_HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYEXEC);
#else
	vma->vm_flags &= ~VM_MAYEXEC;
#endif
}

/*
 * 6.6+: __fput_sync() serves any task (close(2) uses it); before, it was
 * for kernel threads only. Kernels with backing files (6.8+) have that.
 */
static inline void jailfs_fput_now(struct file *file)
{
#ifdef JAILFS_HAVE_BACKING_FILE
	__fput_sync(file);
#else
	fput(file);
#endif
}

#endif /* _JAILFS_COMPAT_H */
