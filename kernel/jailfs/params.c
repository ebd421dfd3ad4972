// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs mount parameters: one key per entry, checked when it is given.
 *
 * The VFS takes the keys "ro" and "rw" as superblock flags before a
 * filesystem sees them, so fsconfig() keys are "ro_path", "rw_path" and
 * "dir"; mount(2) data, which jailfs splits itself, also accepts "ro=" and
 * "rw=" with a value.
 */
#include <linux/magic.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "jailfs.h"

/*
 * Lower filesystems whose objects are not plain files: stacking over them
 * passes through state the kernel computes per open or per task.
 */
static bool jailfs_special_fs(const struct super_block *sb)
{
	switch (sb->s_magic) {
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEVPTS_SUPER_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
	case SELINUX_MAGIC:
	case SMACK_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case BPF_FS_MAGIC:
	case NSFS_MAGIC:
	case PSTOREFS_MAGIC:
	case EFIVARFS_MAGIC:
	case BINFMTFS_MAGIC:
	case ANON_INODE_FS_MAGIC:
	case SOCKFS_MAGIC:
	case PIPEFS_MAGIC:
		return true;
	}
	return false;
}

/* Dentries whose names the VFS cannot compare byte by byte, or automounts. */
bool jailfs_dentry_weird(const struct dentry *dentry)
{
	return dentry->d_flags & (DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT |
				  DCACHE_OP_HASH | DCACHE_OP_COMPARE);
}

/*
 * Resolve SRC without following any symlink in it: a symlink planted in a
 * writable host directory cannot redirect an entry. A final symlink is the
 * entry itself; it resolves inside the jail.
 */
static int jailfs_resolve(struct fs_context *fc, const char *key,
			  const char *src, struct path *path)
{
	struct super_block *sb;
	umode_t mode;
	int err;

	err = kern_path(src, LOOKUP_NO_SYMLINKS, path);
	if (err == -ELOOP)
		return errorf(fc, "jailfs: %s=%s: a symlink in the source path (resolve it)",
			      key, src), -ELOOP;
	if (err)
		return errorf(fc, "jailfs: %s=%s: cannot resolve the source (error %d)",
			      key, src, err), err;

	sb = path->dentry->d_sb;
	mode = d_inode(path->dentry)->i_mode;
	if (jailfs_special_fs(sb)) {
		err = invalf(fc, "jailfs: %s=%s: %s cannot be passed through",
			     key, src, sb->s_type->name);
	} else if (sb->s_stack_depth >= FILESYSTEM_MAX_STACK_DEPTH) {
		errorf(fc, "jailfs: %s=%s: the source is on %s, stacked too deep already",
		       key, src, sb->s_type->name);
		err = -ELOOP;
	} else if (jailfs_dentry_weird(path->dentry)) {
		err = invalf(fc, "jailfs: %s=%s: an automount point or case-folding",
			     key, src);
	} else if (S_ISSOCK(mode) || S_ISFIFO(mode)) {
		err = invalf(fc, "jailfs: %s=%s: a socket or FIFO (bind-mount it)",
			     key, src);
	}
	if (err)
		path_put(path);
	return err;
}

static int jailfs_add_spec(struct fs_context *fc, enum jailfs_kind kind,
			   const char *value)
{
	struct jailfs_fs_context *ctx = fc->fs_private;
	const char *key = jailfs_key_name(kind);
	struct jailfs_spec *spec;
	struct jailfs_value v;
	size_t len;
	char *buf;
	int err;

	if (fc->purpose == FS_CONTEXT_FOR_RECONFIGURE)
		return invalf(fc, "jailfs: %s: entries cannot change after mounting", key);
	if (!value || !*value)
		return invalf(fc, "jailfs: %s needs a value", key);
	len = strlen(value);
	if (len >= PATH_MAX * 2)
		return invalf(fc, "jailfs: %s: value too long", key);

	buf = kmalloc(len + 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = jailfs_parse_value(kind, value, buf, &v);
	if (err && v.what)
		err = invalf(fc, "jailfs: %s=%s: the %s %s", key, value, v.what, v.why);
	else if (err)
		err = invalf(fc, "jailfs: %s=%s: %s", key, value, v.why);
	if (err)
		goto out;

	len = strlen(v.dst);
	spec = kzalloc(struct_size(spec, dst, len + 1), GFP_KERNEL);
	if (!spec) {
		err = -ENOMEM;
		goto out;
	}
	spec->kind = kind;
	spec->dst_len = len;
	memcpy(spec->dst, v.dst, len + 1);
	if (kind != JAILFS_DIR) {
		err = jailfs_resolve(fc, key, v.src, &spec->src);
		if (err) {
			kfree(spec);
			goto out;
		}
	}
	list_add_tail(&spec->list, &ctx->specs);
	ctx->nr_specs++;
out:
	kfree(buf);
	return err;
}

static int jailfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	int kind = jailfs_key_kind(param->key);
	char *value;
	int err;

	/* The mount source ("none"): the VFS records it. */
	if (kind < 0 && !strcmp(param->key, "source"))
		return -ENOPARAM;
	if (kind < 0)
		return invalf(fc, "jailfs: unknown key '%s' (ro_path, rw_path, dir)",
			      param->key);
	switch (param->type) {
	case fs_value_is_string:
		return jailfs_add_spec(fc, kind, param->string);
	case fs_value_is_blob:
		/* FSCONFIG_SET_BINARY: for values over 255 bytes. */
		if (memchr(param->blob, '\0', param->size))
			return invalf(fc, "jailfs: %s: value holds a NUL byte", param->key);
		value = kmemdup_nul(param->blob, param->size, GFP_KERNEL);
		if (!value)
			return -ENOMEM;
		err = jailfs_add_spec(fc, kind, value);
		kfree(value);
		return err;
	case fs_value_is_flag:
		return invalf(fc, "jailfs: %s needs a value", param->key);
	default:
		return invalf(fc, "jailfs: %s takes a string value", param->key);
	}
}

/*
 * mount(2) data: "KEY=VALUE,..." split at ','. "ro=" and "rw=" with a
 * value are entries; every other option goes the usual way.
 */
static int jailfs_parse_monolithic(struct fs_context *fc, void *data)
{
	char *options = data, *key, *value;
	int kind, err;

	while ((key = jailfs_next_option(&options, &value, &kind)) != NULL) {
		if (kind >= 0)
			err = jailfs_add_spec(fc, kind, value);
		else
			err = vfs_parse_fs_string(fc, key, value,
						  value ? strlen(value) : 0);
		if (err)
			return err;
	}
	return 0;
}

static void jailfs_free_fc(struct fs_context *fc)
{
	struct jailfs_fs_context *ctx = fc->fs_private;
	struct jailfs_spec *spec, *next;

	if (!ctx)
		return;
	list_for_each_entry_safe(spec, next, &ctx->specs, list) {
		path_put(&spec->src);
		kfree(spec);
	}
	kfree(ctx);
}

static int jailfs_reconfigure(struct fs_context *fc)
{
	return 0;
}

static const struct fs_context_operations jailfs_context_ops = {
	.free = jailfs_free_fc,
	.parse_param = jailfs_parse_param,
	.parse_monolithic = jailfs_parse_monolithic,
	.get_tree = jailfs_get_tree,
	.reconfigure = jailfs_reconfigure,
};

int jailfs_init_fs_context(struct fs_context *fc)
{
	struct jailfs_fs_context *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	INIT_LIST_HEAD(&ctx->specs);
	fc->fs_private = ctx;
	fc->ops = &jailfs_context_ops;
	return 0;
}
