// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs names: lookups in synthesized directories (the mount's tree) and
 * in passed-through directories (the lower fs), revalidation, and the
 * operations that change names inside read-write entries.
 *
 * A host-side rename can move a lower directory out of an entry's subtree.
 * Every lookup and revalidation therefore checks that the lower dentry is
 * still below the entry's root, so access does not follow the move; a
 * dentry something is mounted on stays valid (jailfs_d_revalidate()).
 */
#include <linux/namei.h>
#include <linux/dcache.h>

#include "jailfs.h"

static bool jailfs_in_entry(struct dentry *lower, struct jailfs_entry *entry)
{
	return is_subdir(lower, entry->src.dentry);
}

static bool jailfs_same_name(struct dentry *a, struct dentry *b)
{
	struct name_snapshot na, nb;
	bool same;

	take_dentry_name_snapshot(&na, a);
	take_dentry_name_snapshot(&nb, b);
	same = na.name.len == nb.name.len &&
	       !memcmp(na.name.name, nb.name.name, na.name.len);
	release_dentry_name_snapshot(&nb);
	release_dentry_name_snapshot(&na);
	return same;
}

/* Whether the lower dentry still is the object this dentry names. */
static int jailfs_lower_current(struct dentry *dentry, struct jailfs_entry *entry,
				struct dentry *lower)
{
	struct dentry *parent, *lower_parent;
	int valid;

	if (d_unhashed(lower) || d_is_negative(lower))
		return 0;
	parent = dget_parent(dentry);
	lower_parent = dget_parent(lower);
	valid = lower_parent == jailfs_lower_dentry(parent) &&
		jailfs_same_name(dentry, lower) && jailfs_in_entry(lower, entry);
	dput(lower_parent);
	dput(parent);
	return valid;
}

/*
 * Two names compared without locks, as in an RCU walk: either may be
 * renamed meanwhile (the caller's d_seq check catches that), but every
 * name ends in a NUL, so stopping at one never reads past a name.
 */
static bool jailfs_same_name_rcu(const struct dentry *a, const struct dentry *b)
{
	const unsigned char *na = READ_ONCE(a->d_name.name);
	const unsigned char *nb = READ_ONCE(b->d_name.name);
	unsigned int len = READ_ONCE(a->d_name.len), i;

	if (len != READ_ONCE(b->d_name.len))
		return false;
	for (i = 0; i < len; i++)
		if (!na[i] || na[i] != nb[i])
			return false;
	return true;
}

/*
 * jailfs_lower_current() for an RCU walk: no references, no sleeping.
 * The dentries read are freed only after a grace period; the lower
 * dentry's d_seq changes with each rename, unlink and unhash of it, so
 * the checks it brackets saw one state of it; the VFS checks this
 * dentry's own d_seq. It only confirms: anything else is -ECHILD, and
 * the walk retries in ref-walk mode, where the answer is final.
 */
static int jailfs_lower_current_rcu(struct dentry *dentry,
				    struct jailfs_entry *entry,
				    struct dentry *lower)
{
	struct dentry *parent = READ_ONCE(dentry->d_parent);
	unsigned int seq = raw_seqcount_begin(&lower->d_seq);
	bool valid;

	valid = !d_unhashed(lower) && d_is_positive(lower) &&
		READ_ONCE(lower->d_parent) == READ_ONCE(parent->d_fsdata) &&
		jailfs_same_name_rcu(dentry, lower) &&
		jailfs_in_entry(lower, entry);
	if (!valid || read_seqcount_retry(&lower->d_seq, seq))
		return -ECHILD;
	return 1;
}

/* A negative dentry is final only in a synthesized directory. */
static int jailfs_negative_valid(struct dentry *dentry, unsigned int flags)
{
	struct dentry *parent;
	struct inode *dir;
	int valid;

	if (flags & LOOKUP_RCU) {
		dir = d_inode_rcu(READ_ONCE(dentry->d_parent));
		return dir && !JAILFS_I(dir)->entry ? 1 : -ECHILD;
	}
	parent = dget_parent(dentry);
	valid = !JAILFS_I(d_inode(parent))->entry;
	dput(parent);
	return valid;
}

/*
 * The inode is read once and passed down: in an RCU walk an unlink can
 * make the dentry negative at any time, and a second read would see NULL.
 */
static int jailfs_d_revalidate(struct dentry *dentry, unsigned int flags)
{
	struct inode *inode = d_inode_rcu(dentry);
	struct jailfs_entry *entry;
	struct dentry *lower;

	if (!inode)
		return jailfs_negative_valid(dentry, flags);
	entry = JAILFS_I(inode)->entry;
	/* Synthesized directories never change. */
	if (!entry)
		return 1;
	/*
	 * Invalidating a mountpoint detaches what is mounted on it: a -r cover
	 * over a -w entry would go when the host renames the covered directory,
	 * and the entry below it would be writable. Like a bind mount, the
	 * cover stays on the object it was put on; nothing is reached through
	 * the covered dentry while it is mounted on.
	 */
	if (d_mountpoint(dentry))
		return 1;
	lower = READ_ONCE(dentry->d_fsdata);
	/* An entry's root stays what it was when mounted (a bind mount). */
	if (lower == entry->src.dentry)
		return 1;
	if (flags & LOOKUP_RCU)
		return lower ? jailfs_lower_current_rcu(dentry, entry, lower) : -ECHILD;
	return jailfs_lower_current(dentry, entry, lower);
}

static void jailfs_d_release(struct dentry *dentry)
{
	dput(dentry->d_fsdata);
}

/* Names below an entry's root: the host may change them. */
static const struct dentry_operations jailfs_dops = {
	.d_revalidate = jailfs_d_revalidate,
	.d_release = jailfs_d_release,
};

/*
 * An entry's root stays what it was when mounted (a bind mount) and the
 * mount's tree never changes: names in synthesized directories need no
 * revalidation, which spares each path walk a call per component there.
 * Synthesized directories and their negative names hold no lower dentry.
 */
const struct dentry_operations jailfs_entry_root_dops = {
	.d_release = jailfs_d_release,
};

static struct dentry *jailfs_splice(struct dentry *dentry, struct dentry *lower,
				    struct jailfs_entry *entry)
{
	struct inode *inode;

	inode = jailfs_lower_inode(dentry->d_sb, d_inode(lower), entry);
	if (IS_ERR(inode)) {
		dput(lower);
		return ERR_CAST(inode);
	}
	dentry->d_fsdata = lower;
	return d_splice_alias(inode, dentry);
}

static struct dentry *jailfs_lookup_synth(struct inode *dir, struct dentry *dentry)
{
	struct jailfs_node *node;
	struct inode *inode;

	node = jailfs_find_child(JAILFS_I(dir)->node, dentry->d_name.name,
				 dentry->d_name.len);
	if (!node)
		return d_splice_alias(NULL, dentry);
	if (node->entry) {
		d_set_d_op(dentry, &jailfs_entry_root_dops);
		return jailfs_splice(dentry, dget(node->entry->src.dentry), node->entry);
	}
	inode = jailfs_synth_inode(dir->i_sb, node);
	if (IS_ERR(inode))
		return ERR_CAST(inode);
	return d_splice_alias(inode, dentry);
}

struct dentry *jailfs_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags)
{
	struct jailfs_entry *entry = JAILFS_I(dir)->entry;
	struct dentry *lower_dir, *lower;

	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	if (!entry)
		return jailfs_lookup_synth(dir, dentry);
	d_set_d_op(dentry, &jailfs_dops);

	lower_dir = jailfs_lower_dentry(dentry->d_parent);
	if (!jailfs_in_entry(lower_dir, entry))
		return ERR_PTR(-ENOENT);
	lower = lookup_one_positive_unlocked(jailfs_lower_idmap(dir),
					     dentry->d_name.name, lower_dir,
					     dentry->d_name.len);
	if (lower == ERR_PTR(-ENOENT))
		return d_splice_alias(NULL, dentry);
	if (IS_ERR(lower))
		return ERR_CAST(lower);
	if (jailfs_dentry_weird(lower)) {
		dput(lower);
		return ERR_PTR(-EREMOTE);
	}
	return jailfs_splice(dentry, lower, entry);
}

/* Changing names needs a read-write entry, and write access to its mount. */
int jailfs_want_write(struct inode *dir)
{
	struct jailfs_entry *entry = JAILFS_I(dir)->entry;

	if (!entry || !entry->writable)
		return -EROFS;
	return mnt_want_write(entry->src.mnt);
}

void jailfs_drop_write(struct inode *dir)
{
	mnt_drop_write(JAILFS_I(dir)->entry->src.mnt);
}

/*
 * The lower directory of DENTRY's parent, locked, and the lower dentry of
 * DENTRY's name in it, looked up afresh (the host may have changed it).
 */
static struct dentry *jailfs_lock_lower(struct inode *dir, struct dentry *dentry,
					struct dentry **lower_dir)
{
	struct dentry *lower;

	*lower_dir = jailfs_lower_dentry(dentry->d_parent);
	inode_lock_nested(d_inode(*lower_dir), I_MUTEX_PARENT);
	if (!jailfs_in_entry(*lower_dir, JAILFS_I(dir)->entry))
		lower = ERR_PTR(-ENOENT);
	else
		lower = lookup_one(jailfs_lower_idmap(dir), dentry->d_name.name,
				   *lower_dir, dentry->d_name.len);
	if (IS_ERR(lower))
		inode_unlock(d_inode(*lower_dir));
	return lower;
}

static void jailfs_unlock_lower(struct inode *dir, struct dentry *lower_dir,
				struct dentry *lower)
{
	dput(lower);
	inode_unlock(d_inode(lower_dir));
	jailfs_copy_attr(dir);
}

/* Make DENTRY positive, naming the object LOWER just became. */
static int jailfs_instantiate(struct inode *dir, struct dentry *dentry,
			      struct dentry *lower_dir, struct dentry *lower)
{
	struct dentry *old = dentry->d_fsdata;
	struct inode *inode;

	/* Some filesystems leave the dentry of a new directory unused. */
	if (d_unhashed(lower) || d_is_negative(lower)) {
		lower = lookup_one(jailfs_lower_idmap(dir), dentry->d_name.name,
				   lower_dir, dentry->d_name.len);
		if (IS_ERR(lower))
			return PTR_ERR(lower);
		if (d_is_negative(lower)) {
			dput(lower);
			return -ENOENT;
		}
	} else {
		dget(lower);
	}
	inode = jailfs_lower_inode(dir->i_sb, d_inode(lower), JAILFS_I(dir)->entry);
	if (IS_ERR(inode)) {
		dput(lower);
		return PTR_ERR(inode);
	}
	dentry->d_fsdata = lower;
	dput(old);
	d_instantiate(dentry, inode);
	return 0;
}

/* What a new name in a read-write directory is made as. */
struct jailfs_new {
	umode_t mode;
	dev_t rdev;
	const char *target;		/* symlinks */
	struct dentry *link_from;	/* hard links: the existing name */
	bool excl;
};

static int jailfs_make_lower(struct inode *dir, struct inode *ldir,
			     struct dentry *lower, const struct jailfs_new *new)
{
	jailfs_idmap_t *idmap = jailfs_lower_idmap(dir);

	if (d_is_positive(lower))
		return -EEXIST;
	if (new->link_from)
		return vfs_link(jailfs_lower_dentry(new->link_from), idmap, ldir,
				lower, NULL);
	if (S_ISREG(new->mode))
		return vfs_create(idmap, ldir, lower, new->mode, new->excl);
	if (S_ISDIR(new->mode))
		return vfs_mkdir(idmap, ldir, lower, new->mode);
	if (S_ISLNK(new->mode))
		return vfs_symlink(idmap, ldir, lower, new->target);
	return vfs_mknod(idmap, ldir, lower, new->mode, new->rdev);
}

static int jailfs_make(struct inode *dir, struct dentry *dentry,
		       const struct jailfs_new *new)
{
	struct dentry *lower_dir, *lower;
	int err;

	err = jailfs_want_write(dir);
	if (err)
		return err;
	lower = jailfs_lock_lower(dir, dentry, &lower_dir);
	if (IS_ERR(lower)) {
		err = PTR_ERR(lower);
		goto out;
	}
	err = jailfs_make_lower(dir, d_inode(lower_dir), lower, new);
	if (!err)
		err = jailfs_instantiate(dir, dentry, lower_dir, lower);
	jailfs_unlock_lower(dir, lower_dir, lower);
out:
	jailfs_drop_write(dir);
	return err;
}

static int jailfs_create(jailfs_idmap_t *idmap, struct inode *dir,
			 struct dentry *dentry, umode_t mode, bool excl)
{
	struct jailfs_new new = { .mode = (mode & ~S_IFMT) | S_IFREG, .excl = excl };

	return jailfs_make(dir, dentry, &new);
}

static int jailfs_mkdir(jailfs_idmap_t *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode)
{
	struct jailfs_new new = { .mode = (mode & ~S_IFMT) | S_IFDIR };

	return jailfs_make(dir, dentry, &new);
}

static int jailfs_mknod(jailfs_idmap_t *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct jailfs_new new = { .mode = mode, .rdev = rdev };

	return jailfs_make(dir, dentry, &new);
}

static int jailfs_symlink(jailfs_idmap_t *idmap, struct inode *dir,
			  struct dentry *dentry, const char *target)
{
	struct jailfs_new new = { .mode = S_IFLNK, .target = target };

	return jailfs_make(dir, dentry, &new);
}

/* Objects of different entries may live on different lower mounts. */
static bool jailfs_same_entry(struct inode *a, struct inode *b)
{
	return JAILFS_I(a)->entry == JAILFS_I(b)->entry;
}

static int jailfs_link(struct dentry *old_dentry, struct inode *dir,
		       struct dentry *new_dentry)
{
	struct jailfs_new new = { .link_from = old_dentry };
	int err;

	if (!jailfs_same_entry(d_inode(old_dentry), dir))
		return -EXDEV;
	err = jailfs_make(dir, new_dentry, &new);
	jailfs_copy_attr(d_inode(old_dentry));
	return err;
}

static int jailfs_remove(struct inode *dir, struct dentry *dentry, bool is_dir)
{
	struct dentry *lower_dir, *lower;
	int err;

	err = jailfs_want_write(dir);
	if (err)
		return err;
	lower = jailfs_lock_lower(dir, dentry, &lower_dir);
	if (IS_ERR(lower)) {
		err = PTR_ERR(lower);
		goto out;
	}
	/* The host replaced or removed it since the jail looked it up. */
	if (lower != jailfs_lower_dentry(dentry))
		err = -ENOENT;
	else if (is_dir)
		err = vfs_rmdir(jailfs_lower_idmap(dir), d_inode(lower_dir), lower);
	else
		err = vfs_unlink(jailfs_lower_idmap(dir), d_inode(lower_dir), lower, NULL);
	jailfs_unlock_lower(dir, lower_dir, lower);
	jailfs_copy_attr(d_inode(dentry));
out:
	jailfs_drop_write(dir);
	return err;
}

static int jailfs_unlink(struct inode *dir, struct dentry *dentry)
{
	return jailfs_remove(dir, dentry, false);
}

static int jailfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	return jailfs_remove(dir, dentry, true);
}

/* rename(2) between two passed-through directories of one entry. */
static int jailfs_rename_lower(struct inode *dir, struct dentry *old_dentry,
			       struct dentry *new_dentry, unsigned int flags)
{
	jailfs_idmap_t *idmap = jailfs_lower_idmap(dir);
	struct dentry *old_dir = jailfs_lower_dentry(old_dentry->d_parent);
	struct dentry *new_dir = jailfs_lower_dentry(new_dentry->d_parent);
	struct dentry *trap, *lower_old, *lower_new;
	struct jailfs_entry *entry = JAILFS_I(dir)->entry;
	int err;

	trap = lock_rename(old_dir, new_dir);
	if (IS_ERR(trap))
		return PTR_ERR(trap);
	err = -ENOENT;
	if (!jailfs_in_entry(old_dir, entry) || !jailfs_in_entry(new_dir, entry))
		goto unlock;
	lower_old = lookup_one(idmap, old_dentry->d_name.name, old_dir,
			       old_dentry->d_name.len);
	err = PTR_ERR(lower_old);
	if (IS_ERR(lower_old))
		goto unlock;
	lower_new = lookup_one(idmap, new_dentry->d_name.name, new_dir,
			       new_dentry->d_name.len);
	err = PTR_ERR(lower_new);
	if (IS_ERR(lower_new))
		goto put_old;

	err = -ENOENT;
	if (lower_old != jailfs_lower_dentry(old_dentry))
		goto put_new;
	if (d_really_is_positive(new_dentry) &&
	    lower_new != jailfs_lower_dentry(new_dentry))
		goto put_new;
	err = -EINVAL;
	if (lower_old == trap)
		goto put_new;
	err = (flags & RENAME_EXCHANGE) ? -EINVAL : -ENOTEMPTY;
	if (lower_new == trap)
		goto put_new;
	{
		struct renamedata rd = {
			JAILFS_RENAMEDATA(idmap, idmap),
			.old_dir = d_inode(old_dir),
			.old_dentry = lower_old,
			.new_dir = d_inode(new_dir),
			.new_dentry = lower_new,
			.flags = flags,
		};

		err = vfs_rename(&rd);
	}
put_new:
	dput(lower_new);
put_old:
	dput(lower_old);
unlock:
	unlock_rename(old_dir, new_dir);
	return err;
}

static int jailfs_rename(jailfs_idmap_t *idmap, struct inode *old_dir,
			 struct dentry *old_dentry, struct inode *new_dir,
			 struct dentry *new_dentry, unsigned int flags)
{
	int err;

	if (flags & RENAME_WHITEOUT)
		return -EINVAL;
	if (!jailfs_same_entry(old_dir, new_dir) ||
	    !jailfs_same_entry(old_dir, d_inode(old_dentry)))
		return -EXDEV;
	err = jailfs_want_write(old_dir);
	if (err)
		return err;
	err = jailfs_rename_lower(old_dir, old_dentry, new_dentry, flags);
	jailfs_copy_attr(old_dir);
	if (new_dir != old_dir)
		jailfs_copy_attr(new_dir);
	jailfs_drop_write(old_dir);
	return err;
}

const struct inode_operations jailfs_dir_iops = {
	.lookup = jailfs_lookup,
	.create = jailfs_create,
	.mkdir = jailfs_mkdir,
	.mknod = jailfs_mknod,
	.symlink = jailfs_symlink,
	.link = jailfs_link,
	.unlink = jailfs_unlink,
	.rmdir = jailfs_rmdir,
	.rename = jailfs_rename,
	.permission = jailfs_permission,
	.getattr = jailfs_getattr,
	.setattr = jailfs_setattr,
};
