// SPDX-License-Identifier: GPL-2.0-only
/*
 * jailfs regular files: every open opens the lower file too, and I/O goes
 * to it. Where the kernel has backing files (CONFIG_FS_STACK), the lower
 * file is one: mmap then maps the lower pages while /proc/PID/maps shows
 * the jail's path, and I/O runs with the opener's credentials.
 */
#include <linux/cred.h>
#include <linux/fadvise.h>
#include <linux/file.h>
#include <linux/fs_stack.h>
#include <linux/mm.h>
#include <linux/splice.h>
#include <linux/uio.h>

#ifdef JAILFS_HAVE_BACKING_FILE
#include <linux/backing-file.h>
#endif

#include "jailfs.h"

/* fcntl(F_SETFL) flags that change how the lower file does I/O. */
#define JAILFS_SETFL_MASK (O_APPEND | O_NONBLOCK | O_NDELAY | O_DIRECT)

static struct file *jailfs_open_lower(struct file *file, const struct path *lower)
{
	int flags = file->f_flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC);

#if defined(JAILFS_HAVE_BACKING_FILE) && defined(JAILFS_BACKING_OPEN_FILE)
	return backing_file_open(file, flags, lower, current_cred());
#elif defined(JAILFS_HAVE_BACKING_FILE)
	return backing_file_open(&file->f_path, flags, lower, current_cred());
#elif defined(JAILFS_HAVE_FAKE_PATH)
	return open_with_fake_path(&file->f_path, flags, d_inode(lower->dentry),
				   current_cred());
#else
	return dentry_open(lower, flags, current_cred());
#endif
}

static int jailfs_open(struct inode *inode, struct file *file)
{
	struct file *realfile;
	struct path lower;

	jailfs_lower_path(file->f_path.dentry, &lower);
	realfile = jailfs_open_lower(file, &lower);
	if (IS_ERR(realfile))
		return PTR_ERR(realfile);
	if (realfile->f_mode & FMODE_CAN_ODIRECT)
		file->f_mode |= FMODE_CAN_ODIRECT;
	file->private_data = realfile;
	/*
	 * exec takes the set-id bits and the owner from this inode once the
	 * file is open: a host chmod or chown since the last lookup or stat
	 * must reach it, a set-uid bit the host removed above all.
	 */
	jailfs_copy_attr(inode);
	return 0;
}

/*
 * ->release runs where a file's last reference is put: in close(2), which
 * puts it synchronously itself, in task work, or in the delayed-fput
 * worker, never in atomic context and with no lock held. The lower file
 * is put right here too (where the kernel allows it): fput() would queue
 * it as task work, one more round per close for nothing.
 */
static int jailfs_release(struct inode *inode, struct file *file)
{
	jailfs_fput_now(file->private_data);
	return 0;
}

/* The lower file, with the flags fcntl() may have changed since open. */
static struct file *jailfs_real(struct file *file)
{
	struct file *realfile = file->private_data;
	unsigned int flags = READ_ONCE(file->f_flags) & JAILFS_SETFL_MASK;

	if ((READ_ONCE(realfile->f_flags) & JAILFS_SETFL_MASK) != flags) {
		spin_lock(&realfile->f_lock);
		realfile->f_flags = (realfile->f_flags & ~JAILFS_SETFL_MASK) | flags;
		spin_unlock(&realfile->f_lock);
	}
	return realfile;
}

static void jailfs_file_accessed(struct file *file)
{
	struct inode *inode = file_inode(file);

	fsstack_copy_attr_atime(inode, JAILFS_I(inode)->lower);
}

static void jailfs_file_written(struct file *file)
{
	struct inode *inode = file_inode(file);

	fsstack_copy_inode_size(inode, JAILFS_I(inode)->lower);
	fsstack_copy_attr_times(inode, JAILFS_I(inode)->lower);
}

#ifdef JAILFS_HAVE_BACKING_FILE

static void jailfs_end_write(struct file *file, loff_t pos, ssize_t ret)
{
	jailfs_file_written(file);
}

/* I/O on the lower file runs with the opener's credentials. */
static struct backing_file_ctx jailfs_backing_ctx(struct file *file)
{
	return (struct backing_file_ctx) {
		.cred = file->f_cred,
		.user_file = file,
		.accessed = jailfs_file_accessed,
		.end_write = jailfs_end_write,
	};
}

static ssize_t jailfs_read_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	struct backing_file_ctx ctx = jailfs_backing_ctx(file);

	return backing_file_read_iter(jailfs_real(file), iter, iocb,
				      iocb->ki_flags, &ctx);
}

static ssize_t jailfs_write_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file_inode(file);
	struct backing_file_ctx ctx = jailfs_backing_ctx(file);
	ssize_t ret;

	inode_lock(inode);
	ret = backing_file_write_iter(jailfs_real(file), iter, iocb,
				      iocb->ki_flags, &ctx);
	inode_unlock(inode);
	return ret;
}

static ssize_t jailfs_splice_read(struct file *in, loff_t *ppos,
				  struct pipe_inode_info *pipe, size_t len,
				  unsigned int flags)
{
	struct backing_file_ctx ctx = jailfs_backing_ctx(in);

	return backing_file_splice_read(jailfs_real(in), ppos, pipe, len, flags,
					&ctx);
}

static ssize_t jailfs_splice_write(struct pipe_inode_info *pipe,
				   struct file *out, loff_t *ppos, size_t len,
				   unsigned int flags)
{
	struct inode *inode = file_inode(out);
	struct backing_file_ctx ctx = jailfs_backing_ctx(out);
	ssize_t ret;

	inode_lock(inode);
	ret = backing_file_splice_write(pipe, jailfs_real(out), ppos, len, flags,
					&ctx);
	inode_unlock(inode);
	return ret;
}

static int jailfs_mmap_real(struct file *file, struct vm_area_struct *vma)
{
	struct backing_file_ctx ctx = jailfs_backing_ctx(file);

	return backing_file_mmap(jailfs_real(file), vma, &ctx);
}

#else /* !JAILFS_HAVE_BACKING_FILE */

/* The kiocb flags that are also RWF_* flags (they share their values). */
#define JAILFS_IOCB_RWF (IOCB_NOWAIT | IOCB_HIPRI | IOCB_DSYNC | IOCB_SYNC | IOCB_APPEND)

static ssize_t jailfs_read_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	const struct cred *old;
	ssize_t ret;

	if (!iov_iter_count(iter))
		return 0;
	old = override_creds(file->f_cred);
	ret = vfs_iter_read(jailfs_real(file), iter, &iocb->ki_pos,
			    (__force rwf_t)(iocb->ki_flags & JAILFS_IOCB_RWF));
	revert_creds(old);
	jailfs_file_accessed(file);
	return ret;
}

static ssize_t jailfs_write_iter(struct kiocb *iocb, struct iov_iter *iter)
{
	struct file *file = iocb->ki_filp;
	struct inode *inode = file_inode(file);
	const struct cred *old;
	ssize_t ret;

	if (!iov_iter_count(iter))
		return 0;
	inode_lock(inode);
	ret = file_remove_privs(file);
	if (!ret) {
		old = override_creds(file->f_cred);
		ret = vfs_iter_write(jailfs_real(file), iter, &iocb->ki_pos,
				     (__force rwf_t)(iocb->ki_flags & JAILFS_IOCB_RWF));
		revert_creds(old);
		jailfs_file_written(file);
	}
	inode_unlock(inode);
	return ret;
}

#define jailfs_splice_read generic_file_splice_read
#define jailfs_splice_write iter_file_splice_write

static int jailfs_mmap_real(struct file *file, struct vm_area_struct *vma)
{
	struct file *realfile = jailfs_real(file);
	const struct cred *old;
	int ret;

	if (!realfile->f_op->mmap)
		return -ENODEV;
	vma_set_file(vma, realfile);
	old = override_creds(file->f_cred);
	ret = call_mmap(realfile, vma);
	revert_creds(old);
	jailfs_file_accessed(file);
	return ret;
}

#endif /* JAILFS_HAVE_BACKING_FILE */

static int jailfs_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct vfsmount *mnt = jailfs_lower_mnt(file_inode(file));

	/* The VFS checked noexec on the jailfs mount; this is the lower one. */
	if ((mnt->mnt_flags & MNT_NOEXEC) || (mnt->mnt_sb->s_iflags & SB_I_NOEXEC)) {
		if (vma->vm_flags & VM_EXEC)
			return -EPERM;
		jailfs_vma_forbid_exec(vma);
	}
	return jailfs_mmap_real(file, vma);
}

/* Seeks go to the lower file, which knows its size and its holes. */
loff_t jailfs_llseek(struct file *file, loff_t offset, int whence)
{
	struct file *realfile = file->private_data;
	loff_t pos;

	realfile->f_pos = file->f_pos;
	pos = vfs_llseek(realfile, offset, whence);
	if (pos >= 0)
		file->f_pos = pos;
	return pos;
}

int jailfs_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	return vfs_fsync_range(file->private_data, start, end, datasync);
}

static long jailfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	long ret = vfs_fallocate(file->private_data, mode, offset, len);

	jailfs_file_written(file);
	return ret;
}

static int jailfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return vfs_fadvise(file->private_data, offset, len, advice);
}

const struct file_operations jailfs_file_fops = {
	.open = jailfs_open,
	.release = jailfs_release,
	.llseek = jailfs_llseek,
	.read_iter = jailfs_read_iter,
	.write_iter = jailfs_write_iter,
	.splice_read = jailfs_splice_read,
	.splice_write = jailfs_splice_write,
	.mmap = jailfs_mmap,
	.fsync = jailfs_fsync,
	.fallocate = jailfs_fallocate,
	.fadvise = jailfs_fadvise,
};
