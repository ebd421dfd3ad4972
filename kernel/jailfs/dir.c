// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs directories. A synthesized directory lists its children from the
 * mount's tree, at offsets that are their indexes (stable: the tree never
 * changes). A passed-through directory is read through an open lower
 * directory, at the lower filesystem's own offsets.
 */
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs_types.h>

#include "jailfs.h"

static void jailfs_child_id(const struct jailfs_node *child, u64 *ino,
			    unsigned int *type)
{
	struct inode *lower;

	if (!child->entry) {
		*ino = child->ino;
		*type = DT_DIR;
		return;
	}
	lower = d_inode(child->entry->src.dentry);
	*ino = lower->i_ino;
	*type = fs_umode_to_dtype(lower->i_mode);
}

static int jailfs_synth_readdir(struct file *file, struct dir_context *ctx)
{
	const struct jailfs_node *node = JAILFS_I(file_inode(file))->node;
	unsigned int type;
	u64 ino;

	if (!dir_emit_dots(file, ctx))
		return 0;
	for (; ctx->pos - 2 < node->nr_children; ctx->pos++) {
		const struct jailfs_node *child = node->children[ctx->pos - 2];

		jailfs_child_id(child, &ino, &type);
		if (!dir_emit(ctx, child->name, child->len, ino, type))
			break;
	}
	return 0;
}

static loff_t jailfs_synth_llseek(struct file *file, loff_t offset, int whence)
{
	const struct jailfs_node *node = JAILFS_I(file_inode(file))->node;

	return generic_file_llseek_size(file, offset, whence,
					node->nr_children + 2, node->nr_children + 2);
}

const struct file_operations jailfs_synth_dir_fops = {
	.read = generic_read_dir,
	.iterate_shared = jailfs_synth_readdir,
	.llseek = jailfs_synth_llseek,
};

static int jailfs_dir_open(struct inode *inode, struct file *file)
{
	struct path lower;
	struct file *realfile;

	jailfs_lower_path(file->f_path.dentry, &lower);
	realfile = dentry_open(&lower, file->f_flags, current_cred());
	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	file->private_data = realfile;
	return 0;
}

static int jailfs_dir_release(struct inode *inode, struct file *file)
{
	fput(file->private_data);
	return 0;
}

struct jailfs_readdir {
	struct dir_context ctx;
	struct dir_context *caller;
};

static bool jailfs_filldir(struct dir_context *ctx, const char *name, int len,
			   loff_t offset, u64 ino, unsigned int type)
{
	struct jailfs_readdir *rd = container_of(ctx, struct jailfs_readdir, ctx);

	/* If the caller's buffer is full, it resumes at this entry. */
	rd->caller->pos = rd->ctx.pos;
	return dir_emit(rd->caller, name, len, ino, type);
}

static int jailfs_dir_readdir(struct file *file, struct dir_context *ctx)
{
	struct file *realfile = file->private_data;
	struct jailfs_readdir rd = {
		.ctx.actor = jailfs_filldir,
		.caller = ctx,
	};
	int err;

	realfile->f_pos = ctx->pos;
	err = iterate_dir(realfile, &rd.ctx);
	ctx->pos = rd.ctx.pos;
	jailfs_copy_attr(file_inode(file));
	return err;
}

const struct file_operations jailfs_dir_fops = {
	.open = jailfs_dir_open,
	.release = jailfs_dir_release,
	.read = generic_read_dir,
	.iterate_shared = jailfs_dir_readdir,
	.llseek = jailfs_llseek,
	.fsync = jailfs_fsync,
};
