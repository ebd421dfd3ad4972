// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tree of a jailfs mount, built once from its entries and never
 * changed: sorting the destinations component by component lets one pass
 * build every directory with its children already in order, so that
 * thousands of entries cost a sort, not a search per entry.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "jailfs.h"

/* Path order in which "/a/..." sorts right after "/a": '/' comes first. */
static int jailfs_path_cmp(const char *a, unsigned int alen,
			   const char *b, unsigned int blen)
{
	unsigned int i, n = min(alen, blen);
	unsigned char ca, cb;

	for (i = 0; i < n; i++) {
		ca = a[i] == '/' ? 0 : a[i];
		cb = b[i] == '/' ? 0 : b[i];
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

static int jailfs_spec_cmp(const void *a, const void *b)
{
	const struct jailfs_spec *x = *(const struct jailfs_spec **)a;
	const struct jailfs_spec *y = *(const struct jailfs_spec **)b;

	return jailfs_path_cmp(x->dst, x->dst_len, y->dst, y->dst_len);
}

/* Whether PATH lies strictly below DIR ("/" is above everything). */
static bool jailfs_below(const struct jailfs_spec *path,
			 const struct jailfs_spec *dir)
{
	if (dir->dst_len == 1)
		return path->dst_len > 1;
	return path->dst_len > dir->dst_len &&
	       path->dst[dir->dst_len] == '/' &&
	       !memcmp(path->dst, dir->dst, dir->dst_len);
}

static bool jailfs_same_spec(const struct jailfs_spec *a,
			     const struct jailfs_spec *b)
{
	return a->kind == b->kind &&
	       (a->kind == JAILFS_DIR || path_equal(&a->src, &b->src));
}

static const char *jailfs_kind_key(enum jailfs_kind kind)
{
	return kind == JAILFS_RO ? "ro_path" : kind == JAILFS_RW ? "rw_path" : "dir";
}

/*
 * Sorted specs are valid when no destination is given twice differently
 * and nothing lies below an entry (its subtree is the host's). Exact
 * duplicates are dropped (set to NULL). Counts the components and entries.
 */
static int jailfs_check_specs(struct fs_context *fc, struct jailfs_spec **specs,
			      unsigned int n, unsigned int *nr_components,
			      unsigned int *nr_entries)
{
	struct jailfs_spec *prev = NULL, *entry = NULL, *spec;
	unsigned int i, j;

	*nr_components = 0;
	*nr_entries = 0;
	for (i = 0; i < n; i++) {
		spec = specs[i];
		if (prev && !jailfs_spec_cmp(&prev, &spec)) {
			if (!jailfs_same_spec(prev, spec))
				return invalf(fc, "jailfs: %s given twice, as %s and %s",
					      spec->dst, jailfs_kind_key(prev->kind),
					      jailfs_kind_key(spec->kind));
			specs[i] = NULL;
			continue;
		}
		if (entry && jailfs_below(spec, entry))
			return invalf(fc, "jailfs: %s=...:%s lies inside the entry %s",
				      jailfs_kind_key(spec->kind), spec->dst, entry->dst);
		if (spec->kind != JAILFS_DIR) {
			entry = spec;
			(*nr_entries)++;
			if (spec->dst_len == 1 && !d_is_dir(spec->src.dentry))
				return invalf(fc, "jailfs: the root (/) can only be a directory");
		}
		for (j = 0; j < spec->dst_len; j++)
			*nr_components += spec->dst[j] == '/';
		prev = spec;
	}
	return 0;
}

/* The next component of PATH at *POS: its start and length. */
static const char *jailfs_next_component(const char *path, unsigned int len,
					 unsigned int *pos, unsigned int *clen)
{
	unsigned int start;

	while (*pos < len && path[*pos] == '/')
		(*pos)++;
	start = *pos;
	while (*pos < len && path[*pos] != '/')
		(*pos)++;
	*clen = *pos - start;
	return *clen ? path + start : NULL;
}

struct jailfs_builder {
	struct jailfs_sb_info *sbi;
	struct jailfs_node **stack;	/* the previous spec's nodes by depth */
	unsigned int depth;		/* how many of them */
	char *names;			/* where the next name goes */
};

static struct jailfs_node *jailfs_add_child(struct jailfs_builder *b,
					    struct jailfs_node *parent,
					    const char *name, unsigned int len)
{
	struct jailfs_node *node = &b->sbi->nodes[b->sbi->nr_nodes++];

	memcpy(b->names, name, len);
	node->name = b->names;
	node->len = len;
	b->names += len + 1;
	if (parent->last_child)
		parent->last_child->next_sibling = node;
	else
		parent->first_child = node;
	parent->last_child = node;
	parent->nr_children++;
	return node;
}

/* Add SPEC's path below the nodes it shares with the previous spec. */
static void jailfs_add_spec_nodes(struct jailfs_builder *b,
				  struct jailfs_spec *spec)
{
	struct jailfs_node *node = b->stack[0];
	unsigned int pos = 0, depth = 0, len;
	const char *comp;

	while ((comp = jailfs_next_component(spec->dst, spec->dst_len, &pos, &len))) {
		depth++;
		if (depth < b->depth && b->stack[depth]->len == len &&
		    !memcmp(b->stack[depth]->name, comp, len)) {
			node = b->stack[depth];
			continue;
		}
		node = jailfs_add_child(b, node, comp, len);
		b->stack[depth] = node;
		b->depth = depth + 1;
	}
	b->depth = depth + 1;
	if (spec->kind != JAILFS_DIR) {
		struct jailfs_entry *entry = &b->sbi->entries[b->sbi->nr_entries++];

		entry->src = spec->src;
		entry->writable = spec->kind == JAILFS_RW;
		spec->src.mnt = NULL;
		spec->src.dentry = NULL;
		node->entry = entry;
	}
}

/* Turn the children lists into sorted arrays, for binary search. */
static int jailfs_index_children(struct jailfs_sb_info *sbi)
{
	struct jailfs_node **slots, *node, *child;
	unsigned int i, k;

	slots = kvmalloc_array(max(sbi->nr_nodes, 1U), sizeof(*slots), GFP_KERNEL);
	if (!slots)
		return -ENOMEM;
	sbi->child_slots = slots;
	for (i = 0; i < sbi->nr_nodes; i++) {
		node = &sbi->nodes[i];
		node->children = slots;
		for (k = 0, child = node->first_child; child; child = child->next_sibling)
			node->children[k++] = child;
		slots += k;
		if (!node->entry)
			node->ino = get_next_ino();
	}
	return 0;
}

static unsigned long jailfs_names_size(struct jailfs_spec **specs, unsigned int n)
{
	unsigned long size = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (specs[i])
			size += specs[i]->dst_len + 1;
	return size;
}

static int jailfs_build(struct fs_context *fc, struct jailfs_sb_info *sbi,
			struct jailfs_spec **specs, unsigned int n)
{
	unsigned int i, nr_components, nr_entries, max_depth = 1;
	struct jailfs_builder b = { .sbi = sbi };
	int err;

	err = jailfs_check_specs(fc, specs, n, &nr_components, &nr_entries);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		if (specs[i])
			max_depth = max(max_depth, (unsigned int)specs[i]->dst_len);

	sbi->nodes = kvcalloc(nr_components + 1, sizeof(*sbi->nodes), GFP_KERNEL);
	sbi->entries = kvcalloc(max(nr_entries, 1U), sizeof(*sbi->entries), GFP_KERNEL);
	sbi->names = kvmalloc(jailfs_names_size(specs, n) + 1, GFP_KERNEL);
	b.stack = kvmalloc_array(max_depth + 1, sizeof(*b.stack), GFP_KERNEL);
	if (!sbi->nodes || !sbi->entries || !sbi->names || !b.stack) {
		kvfree(b.stack);
		return -ENOMEM;
	}
	sbi->root = &sbi->nodes[sbi->nr_nodes++];
	b.stack[0] = sbi->root;
	b.depth = 1;
	b.names = sbi->names;
	for (i = 0; i < n; i++)
		if (specs[i])
			jailfs_add_spec_nodes(&b, specs[i]);
	kvfree(b.stack);
	return jailfs_index_children(sbi);
}

int jailfs_build_tree(struct fs_context *fc, struct jailfs_sb_info *sbi)
{
	struct jailfs_fs_context *ctx = fc->fs_private;
	struct jailfs_spec **specs, *spec;
	unsigned int n = 0;
	int err;

	specs = kvmalloc_array(max(ctx->nr_specs, 1U), sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	list_for_each_entry(spec, &ctx->specs, list)
		specs[n++] = spec;
	sort(specs, n, sizeof(*specs), jailfs_spec_cmp, NULL);
	err = jailfs_build(fc, sbi, specs, n);
	kvfree(specs);
	return err;
}

int jailfs_stack_depth(struct jailfs_sb_info *sbi)
{
	int depth = 0;
	unsigned int i;

	for (i = 0; i < sbi->nr_entries; i++)
		depth = max(depth, sbi->entries[i].src.dentry->d_sb->s_stack_depth);
	return depth + 1;
}

void jailfs_free_tree(struct jailfs_sb_info *sbi)
{
	unsigned int i;

	if (sbi->entries)
		for (i = 0; i < sbi->nr_entries; i++)
			path_put(&sbi->entries[i].src);
	kvfree(sbi->child_slots);
	kvfree(sbi->entries);
	kvfree(sbi->nodes);
	kvfree(sbi->names);
}

struct jailfs_node *jailfs_find_child(const struct jailfs_node *dir,
				      const char *name, unsigned int len)
{
	unsigned int lo = 0, hi = dir->nr_children, mid;
	struct jailfs_node *child;
	int cmp;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		child = dir->children[mid];
		cmp = memcmp(name, child->name, min(len, child->len));
		if (!cmp)
			cmp = len == child->len ? 0 : (len < child->len ? -1 : 1);
		if (!cmp)
			return child;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
