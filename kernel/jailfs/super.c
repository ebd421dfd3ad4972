// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs: one mount that shows a jailed service only its allow-listed
 * host paths, read-only or read-write; every other path does not exist.
 * It replaces the tmpfs plus one bind mount per staged file of a jail root.
 *
 * See README.md in this directory for the mount interface.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/statfs.h>

#include "jailfs.h"

static struct kmem_cache *jailfs_inode_cachep;

static struct inode *jailfs_alloc_inode(struct super_block *sb)
{
	struct jailfs_inode *ji;

	ji = alloc_inode_sb(sb, jailfs_inode_cachep, GFP_KERNEL);
	if (!ji)
		return NULL;
	ji->lower = NULL;
	ji->entry = NULL;
	ji->node = NULL;
	return &ji->vfs_inode;
}

static void jailfs_free_inode(struct inode *inode)
{
	kmem_cache_free(jailfs_inode_cachep, JAILFS_I(inode));
}

static void jailfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	iput(JAILFS_I(inode)->lower);
}

static int jailfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct path lower;
	int err;

	if (!jailfs_lower_dentry(dentry))
		return simple_statfs(dentry, buf);
	jailfs_lower_path(dentry, &lower);
	err = vfs_statfs(&lower, buf);
	buf->f_type = JAILFS_MAGIC;
	return err;
}

static const struct super_operations jailfs_super_ops = {
	.alloc_inode = jailfs_alloc_inode,
	.free_inode = jailfs_free_inode,
	.evict_inode = jailfs_evict_inode,
	.drop_inode = generic_delete_inode,
	.statfs = jailfs_statfs,
};

static struct inode *jailfs_root_inode(struct super_block *sb)
{
	struct jailfs_node *root = JAILFS_SB(sb)->root;

	if (!root->entry)
		return jailfs_synth_inode(sb, root);
	return jailfs_lower_inode(sb, d_inode(root->entry->src.dentry), root->entry);
}

static int jailfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct jailfs_sb_info *sbi;
	struct jailfs_node *root;
	struct inode *inode;
	int err;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	sb->s_fs_info = sbi;
	err = jailfs_build_tree(fc, sbi);
	if (err)
		return err;

	sb->s_stack_depth = jailfs_stack_depth(sbi);
	if (sb->s_stack_depth > FILESYSTEM_MAX_STACK_DEPTH) {
		errorf(fc, "jailfs: the entries' filesystems are stacked too deep already");
		return -ELOOP;
	}
	sb->s_magic = JAILFS_MAGIC;
	sb->s_op = &jailfs_super_ops;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_time_gran = 1;

	inode = jailfs_root_inode(sb);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	sb->s_root = d_make_root(inode);
	if (!sb->s_root)
		return -ENOMEM;
	root = sbi->root;
	if (root->entry) {
		d_set_d_op(sb->s_root, &jailfs_entry_root_dops);
		sb->s_root->d_fsdata = dget(root->entry->src.dentry);
	}
	return 0;
}

int jailfs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, jailfs_fill_super);
}

static void jailfs_kill_sb(struct super_block *sb)
{
	struct jailfs_sb_info *sbi = JAILFS_SB(sb);

	kill_anon_super(sb);
	if (sbi) {
		jailfs_free_tree(sbi);
		kfree(sbi);
	}
}

static struct file_system_type jailfs_fs_type = {
	.owner = THIS_MODULE,
	.name = "jailfs",
	.init_fs_context = jailfs_init_fs_context,
	.kill_sb = jailfs_kill_sb,
};
MODULE_ALIAS_FS("jailfs");

static void jailfs_inode_init_once(void *data)
{
	struct jailfs_inode *ji = data;

	inode_init_once(&ji->vfs_inode);
}

static int __init jailfs_init(void)
{
	int err;

	jailfs_inode_cachep = kmem_cache_create("jailfs_inode",
						sizeof(struct jailfs_inode), 0,
						SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
						jailfs_inode_init_once);
	if (!jailfs_inode_cachep)
		return -ENOMEM;
	err = register_filesystem(&jailfs_fs_type);
	if (err)
		kmem_cache_destroy(jailfs_inode_cachep);
	return err;
}

static void __exit jailfs_exit(void)
{
	unregister_filesystem(&jailfs_fs_type);
	/* Inodes are freed after an RCU grace period. */
	rcu_barrier();
	kmem_cache_destroy(jailfs_inode_cachep);
}

module_init(jailfs_init);
module_exit(jailfs_exit);

MODULE_DESCRIPTION("jailfs: a filtered view of allow-listed host paths");
MODULE_AUTHOR("ujail maintainers");
MODULE_LICENSE("GPL");
