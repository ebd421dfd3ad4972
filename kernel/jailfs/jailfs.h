/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jailfs: one mount that shows only allow-listed host paths.
 *
 * The mount is a tree of nodes built once from the mount's entries. A node
 * is either a synthesized directory (a parent of entries, listing only the
 * children that lead to entries) or an entry: a host object, read-only or
 * read-write, whose whole subtree is passed through. Objects below an entry
 * are looked up in the lower filesystem on demand; their jailfs inodes keep
 * a reference to the lower inode and to the entry they belong to.
 */
#ifndef _JAILFS_H
#define _JAILFS_H

#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/mount.h>
#include <linux/path.h>

#include "compat.h"
#include "opts.h"

#define JAILFS_MAGIC 0x6a61696c		/* "jail" */

/* One parsed mount parameter, until the tree is built from them. */
struct jailfs_spec {
	struct list_head list;
	struct path src;		/* unset for JAILFS_DIR */
	enum jailfs_kind kind;
	unsigned int dst_len;
	char dst[];			/* normalised, starts with '/' */
};

/* What the mount's context collects. */
struct jailfs_fs_context {
	struct list_head specs;
	unsigned int nr_specs;
};

/* An allowed host object and everything below it. */
struct jailfs_entry {
	struct path src;
	bool writable;
};

struct jailfs_node {
	const char *name;
	unsigned int len;
	ino_t ino;			/* synthesized directories only */
	struct jailfs_entry *entry;	/* NULL: a synthesized directory */
	struct jailfs_node **children;	/* sorted by name */
	unsigned int nr_children;
	/* The children while the tree is being built, in sorted order. */
	struct jailfs_node *first_child, *last_child, *next_sibling;
};

struct jailfs_sb_info {
	struct jailfs_node *root;
	/* Everything the tree is made of, freed with the superblock. */
	struct jailfs_node *nodes;
	struct jailfs_entry *entries;
	struct jailfs_node **child_slots;
	char *names;
	unsigned int nr_nodes, nr_entries;
};

struct jailfs_inode {
	struct inode vfs_inode;
	struct inode *lower;		/* NULL for synthesized directories */
	struct jailfs_entry *entry;	/* NULL for synthesized directories */
	struct jailfs_node *node;	/* synthesized directories only */
};

static inline struct jailfs_inode *JAILFS_I(struct inode *inode)
{
	return container_of(inode, struct jailfs_inode, vfs_inode);
}

static inline struct jailfs_sb_info *JAILFS_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * A positive dentry of a passed-through object holds its lower dentry in
 * d_fsdata; synthesized directories and negative dentries hold NULL.
 */
static inline struct dentry *jailfs_lower_dentry(const struct dentry *dentry)
{
	return dentry->d_fsdata;
}

static inline struct vfsmount *jailfs_lower_mnt(struct inode *inode)
{
	return JAILFS_I(inode)->entry->src.mnt;
}

static inline jailfs_idmap_t *jailfs_lower_idmap(struct inode *inode)
{
	return jailfs_mnt_idmap(jailfs_lower_mnt(inode));
}

static inline void jailfs_lower_path(const struct dentry *dentry,
				     struct path *path)
{
	path->mnt = jailfs_lower_mnt(d_inode(dentry));
	path->dentry = jailfs_lower_dentry(dentry);
}

/* params.c */
int jailfs_init_fs_context(struct fs_context *fc);
bool jailfs_dentry_weird(const struct dentry *dentry);

/* super.c */
int jailfs_get_tree(struct fs_context *fc);

/* tree.c */
int jailfs_build_tree(struct fs_context *fc, struct jailfs_sb_info *sbi);
void jailfs_free_tree(struct jailfs_sb_info *sbi);
int jailfs_stack_depth(struct jailfs_sb_info *sbi);
struct jailfs_node *jailfs_find_child(const struct jailfs_node *dir,
				      const char *name, unsigned int len);

/* inode.c */
struct inode *jailfs_synth_inode(struct super_block *sb,
				 struct jailfs_node *node);
struct inode *jailfs_lower_inode(struct super_block *sb, struct inode *lower,
				 struct jailfs_entry *entry);
void jailfs_copy_attr(struct inode *inode);
int jailfs_permission(jailfs_idmap_t *idmap, struct inode *inode, int mask);
int jailfs_getattr(jailfs_idmap_t *idmap, const struct path *path,
		   struct kstat *stat, u32 request_mask, unsigned int flags);
int jailfs_setattr(jailfs_idmap_t *idmap, struct dentry *dentry,
		   struct iattr *attr);
extern const struct inode_operations jailfs_synth_dir_iops;
extern const struct inode_operations jailfs_dir_iops;
extern const struct inode_operations jailfs_file_iops;
extern const struct inode_operations jailfs_symlink_iops;
extern const struct inode_operations jailfs_special_iops;

/* namei.c */
extern const struct dentry_operations jailfs_entry_root_dops;
struct dentry *jailfs_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags);
int jailfs_want_write(struct inode *dir);
void jailfs_drop_write(struct inode *dir);

/* dir.c */
extern const struct file_operations jailfs_synth_dir_fops;
extern const struct file_operations jailfs_dir_fops;

/* file.c */
extern const struct file_operations jailfs_file_fops;
loff_t jailfs_llseek(struct file *file, loff_t offset, int whence);
int jailfs_fsync(struct file *file, loff_t start, loff_t end, int datasync);

#endif /* _JAILFS_H */
