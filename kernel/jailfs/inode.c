// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs inodes: synthesized directories, and wrappers of lower inodes.
 *
 * Every check a bind mount would make is made on the lower inode with the
 * caller's credentials; jailfs only adds restrictions: EROFS for read-only
 * entries and synthesized directories, and the lower mount's noexec, nodev
 * and nosuid, which the VFS would otherwise only check on the jailfs mount.
 */
#include <linux/cred.h>
#include <linux/fs_stack.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/xattr.h>

#include "jailfs.h"

/* The inode flags that still mean something on the jailfs inode. */
#define JAILFS_INODE_FLAGS (S_SYNC | S_NOATIME | S_APPEND | S_IMMUTABLE | S_DIRSYNC)

static bool jailfs_lower_nosuid(struct jailfs_entry *entry)
{
	return (entry->src.mnt->mnt_flags & MNT_NOSUID) ||
	       (entry->src.mnt->mnt_sb->s_flags & SB_NOSUID);
}

/*
 * Refresh the jailfs inode from the lower one (after it may have changed).
 * Mode and flags are computed first and stored once: exec reads i_mode
 * without a lock, and must never see a set-id bit of a nosuid lower file
 * between a copy and the clearing of the bit.
 */
void jailfs_copy_attr(struct inode *inode)
{
	struct jailfs_inode *ji = JAILFS_I(inode);
	struct inode *lower = ji->lower;
	unsigned int flags;
	umode_t mode;

	if (!lower)
		return;
	mode = READ_ONCE(lower->i_mode);
	if (jailfs_lower_nosuid(ji->entry))
		mode &= ~(S_ISUID | S_ISGID);
	flags = (READ_ONCE(inode->i_flags) & ~JAILFS_INODE_FLAGS) |
		(READ_ONCE(lower->i_flags) & JAILFS_INODE_FLAGS);
	WRITE_ONCE(inode->i_mode, mode);
	WRITE_ONCE(inode->i_flags, flags);
	inode->i_uid = lower->i_uid;
	inode->i_gid = lower->i_gid;
	inode->i_rdev = lower->i_rdev;
	inode->i_blkbits = lower->i_blkbits;
	set_nlink(inode, READ_ONCE(lower->i_nlink));
	fsstack_copy_attr_times(inode, lower);
	fsstack_copy_inode_size(inode, lower);
}

static int jailfs_test_node(struct inode *inode, void *data)
{
	return JAILFS_I(inode)->node == data;
}

static int jailfs_set_node(struct inode *inode, void *data)
{
	JAILFS_I(inode)->node = data;
	return 0;
}

struct inode *jailfs_synth_inode(struct super_block *sb, struct jailfs_node *node)
{
	struct inode *inode;

	inode = iget5_locked(sb, (unsigned long)node, jailfs_test_node,
			     jailfs_set_node, node);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	inode->i_ino = node->ino;
	inode->i_mode = S_IFDIR | 0755;
	inode->i_uid = GLOBAL_ROOT_UID;
	inode->i_gid = GLOBAL_ROOT_GID;
	set_nlink(inode, 2);
	jailfs_init_times(inode);
	inode->i_op = &jailfs_synth_dir_iops;
	inode->i_fop = &jailfs_synth_dir_fops;
	unlock_new_inode(inode);
	return inode;
}

/* Lower inodes are wrapped once per entry: the entry decides ro or rw. */
struct jailfs_inode_key {
	struct inode *lower;
	struct jailfs_entry *entry;
};

static int jailfs_test_lower(struct inode *inode, void *data)
{
	struct jailfs_inode_key *key = data;

	return JAILFS_I(inode)->lower == key->lower &&
	       JAILFS_I(inode)->entry == key->entry;
}

static int jailfs_set_lower(struct inode *inode, void *data)
{
	struct jailfs_inode_key *key = data;

	JAILFS_I(inode)->lower = key->lower;
	JAILFS_I(inode)->entry = key->entry;
	ihold(key->lower);
	return 0;
}

static void jailfs_set_ops(struct inode *inode, struct inode *lower)
{
	switch (lower->i_mode & S_IFMT) {
	case S_IFDIR:
		inode->i_op = &jailfs_dir_iops;
		inode->i_fop = &jailfs_dir_fops;
		break;
	case S_IFREG:
		inode->i_op = &jailfs_file_iops;
		inode->i_fop = &jailfs_file_fops;
		break;
	case S_IFLNK:
		inode->i_op = &jailfs_symlink_iops;
		break;
	default:
		inode->i_op = &jailfs_special_iops;
		init_special_inode(inode, lower->i_mode, lower->i_rdev);
		break;
	}
}

struct inode *jailfs_lower_inode(struct super_block *sb, struct inode *lower,
				 struct jailfs_entry *entry)
{
	struct jailfs_inode_key key = { .lower = lower, .entry = entry };
	struct inode *inode;

	inode = iget5_locked(sb, (unsigned long)lower, jailfs_test_lower,
			     jailfs_set_lower, &key);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	inode->i_ino = lower->i_ino;
	inode->i_mode = lower->i_mode;
	jailfs_copy_attr(inode);
	jailfs_set_ops(inode, lower);
	unlock_new_inode(inode);
	return inode;
}

static int jailfs_synth_permission(jailfs_idmap_t *idmap, struct inode *inode,
				   int mask)
{
	if (mask & MAY_WRITE)
		return -EROFS;
	return generic_permission(idmap, inode, mask);
}

int jailfs_permission(jailfs_idmap_t *idmap, struct inode *inode, int mask)
{
	struct jailfs_inode *ji = JAILFS_I(inode);
	struct vfsmount *mnt = ji->entry->src.mnt;
	umode_t mode = ji->lower->i_mode;

	if ((mask & MAY_WRITE) && !ji->entry->writable &&
	    (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)))
		return -EROFS;
	if ((mask & MAY_EXEC) && S_ISREG(mode) &&
	    ((mnt->mnt_flags & MNT_NOEXEC) || (mnt->mnt_sb->s_iflags & SB_I_NOEXEC)))
		return -EACCES;
	if ((mask & MAY_OPEN) && (S_ISCHR(mode) || S_ISBLK(mode)) &&
	    ((mnt->mnt_flags & MNT_NODEV) || (mnt->mnt_sb->s_iflags & SB_I_NODEV)))
		return -EACCES;
	return inode_permission(jailfs_mnt_idmap(mnt), ji->lower, mask);
}

static int jailfs_synth_getattr(jailfs_idmap_t *idmap, const struct path *path,
				struct kstat *stat, u32 request_mask,
				unsigned int flags)
{
	jailfs_fillattr(idmap, request_mask, d_inode(path->dentry), stat);
	return 0;
}

/*
 * The VFS asks without security checks (AT_GETATTR_NOSEC, 6.7+) when it
 * made them already, on the jailfs inode; the lower fs is asked the same way.
 */
static int jailfs_lower_getattr(const struct path *lower, struct kstat *stat,
				u32 request_mask, unsigned int flags)
{
#ifdef AT_GETATTR_NOSEC
	if (flags & AT_GETATTR_NOSEC)
		return vfs_getattr_nosec(lower, stat, request_mask, flags);
#endif
	return vfs_getattr(lower, stat, request_mask, flags);
}

int jailfs_getattr(jailfs_idmap_t *idmap, const struct path *path,
		   struct kstat *stat, u32 request_mask, unsigned int flags)
{
	struct inode *inode = d_inode(path->dentry);
	struct path lower;
	int err;

	jailfs_lower_path(path->dentry, &lower);
	err = jailfs_lower_getattr(&lower, stat, request_mask, flags);
	if (err)
		return err;
	stat->dev = inode->i_sb->s_dev;
	if (jailfs_lower_nosuid(JAILFS_I(inode)->entry))
		stat->mode &= ~(S_ISUID | S_ISGID);
	jailfs_copy_attr(inode);
	return 0;
}

static int jailfs_synth_setattr(jailfs_idmap_t *idmap, struct dentry *dentry,
				struct iattr *attr)
{
	return -EROFS;
}

int jailfs_setattr(jailfs_idmap_t *idmap, struct dentry *dentry,
		   struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	struct jailfs_inode *ji = JAILFS_I(inode);
	struct dentry *lower = jailfs_lower_dentry(dentry);
	struct iattr lower_attr = *attr;
	int err;

	if (!ji->entry->writable)
		return -EROFS;
	/* The file is the jailfs one; the lower fs must not see it. */
	lower_attr.ia_valid &= ~ATTR_FILE;
	/* notify_change() recomputes the mode when it kills set-id bits. */
	if (lower_attr.ia_valid & (ATTR_KILL_SUID | ATTR_KILL_SGID))
		lower_attr.ia_valid &= ~ATTR_MODE;

	err = mnt_want_write(ji->entry->src.mnt);
	if (err)
		return err;
	inode_lock(ji->lower);
	err = notify_change(jailfs_mnt_idmap(ji->entry->src.mnt), lower,
			    &lower_attr, NULL);
	inode_unlock(ji->lower);
	mnt_drop_write(ji->entry->src.mnt);
	jailfs_copy_attr(inode);
	return err;
}

static const char *jailfs_get_link(struct dentry *dentry, struct inode *inode,
				   struct delayed_call *done)
{
	if (!dentry)
		return ERR_PTR(-ECHILD);
	return vfs_get_link(jailfs_lower_dentry(dentry), done);
}

const struct inode_operations jailfs_synth_dir_iops = {
	.lookup = jailfs_lookup,
	.permission = jailfs_synth_permission,
	.getattr = jailfs_synth_getattr,
	.setattr = jailfs_synth_setattr,
};

const struct inode_operations jailfs_file_iops = {
	.permission = jailfs_permission,
	.getattr = jailfs_getattr,
	.setattr = jailfs_setattr,
};

const struct inode_operations jailfs_symlink_iops = {
	.get_link = jailfs_get_link,
	.getattr = jailfs_getattr,
	.setattr = jailfs_setattr,
};

const struct inode_operations jailfs_special_iops = {
	.permission = jailfs_permission,
	.getattr = jailfs_getattr,
	.setattr = jailfs_setattr,
};
