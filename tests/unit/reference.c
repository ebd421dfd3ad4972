/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference evaluator (reference.h): what a policy decides, read
 * straight from its rules, with none of the compiler's layout.
 */
#include <linux/audit.h>
#include <string.h>

#include "reference.h"
#include "test_util.h"

static bool listed(const struct ujs_policy *p, const struct ujs_arch *target,
		   const struct ujs_arch *a)
{
	size_t i;

	if (!p->n_archs)
		return a == target;
	for (i = 0; i < p->n_archs; i++)
		if (p->archs[i] == a)
			return true;
	return false;
}

const struct ujs_arch *ref_arch(const struct ujs_policy *p,
				const struct ujs_arch *target,
				uint32_t audit, uint32_t nr)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n, i;

	if (audit == target->audit_arch) {
		/* On x86_64 every number from the x32 bit up is x32's. */
		if (!strcmp(target->name, "x86_64") && nr >= UJS_X32_SYSCALL_BIT)
			return listed(p, target, arch("x32")) ? arch("x32") : NULL;
		return target;
	}
	n = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n; i++)
		if (compat[i]->audit_arch == audit && listed(p, target, compat[i]))
			return compat[i];
	return NULL;
}

bool narrow_abi(uint32_t audit)
{
	return !(audit & __AUDIT_ARCH_64BIT);
}

/* On a 32-bit ABI the argument and the values are their low 32 bits. */
static bool ref_cmp32(const struct ujs_arg_cmp *c, const uint64_t *args)
{
	uint32_t a = (uint32_t)args[c->index], v = (uint32_t)c->value;

	switch (c->op) {
	case UJS_CMP_NE: return a != v;
	case UJS_CMP_LT: return a < v;
	case UJS_CMP_LE: return a <= v;
	case UJS_CMP_EQ: return a == v;
	case UJS_CMP_GE: return a >= v;
	case UJS_CMP_GT: return a > v;
	case UJS_CMP_MASKED_EQ: return (a & v) == (uint32_t)c->value_two;
	}
	return false;
}

static bool ref_cmp(const struct ujs_arg_cmp *c, const uint64_t *args, bool narrow)
{
	uint64_t a = args[c->index];

	if (narrow)
		return ref_cmp32(c, args);
	switch (c->op) {
	case UJS_CMP_NE: return a != c->value;
	case UJS_CMP_LT: return a < c->value;
	case UJS_CMP_LE: return a <= c->value;
	case UJS_CMP_EQ: return a == c->value;
	case UJS_CMP_GE: return a >= c->value;
	case UJS_CMP_GT: return a > c->value;
	case UJS_CMP_MASKED_EQ: return (a & c->value) == c->value_two;
	}
	return false;
}

uint32_t ref_decide(const struct ujs_policy *p, const struct ujs_arch *target,
		    uint32_t audit, uint32_t nr, const uint64_t *args)
{
	const struct ujs_arch *a = ref_arch(p, target, audit, nr);
	size_t i, j;

	if (!a)
		return SECCOMP_RET_KILL_PROCESS;
	for (i = 0; i < p->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[i];
		bool hold = true;

		if (ujs_syscall_nr(a, r->name) != (int64_t)nr)
			continue;
		for (j = 0; j < r->n_args; j++)
			hold = hold && ref_cmp(&r->args[j], args, narrow_abi(audit));
		if (hold)
			return ujs_action_ret(r->action);
	}
	return ujs_action_ret(p->default_action);
}

bool ref_allowed_by_number(const struct ujs_policy *p,
			   const struct ujs_arch *target,
			   uint32_t audit, uint32_t nr)
{
	const struct ujs_arch *a = ref_arch(p, target, audit, nr);
	size_t i;

	if (!a)
		return false;
	for (i = 0; i < p->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[i];

		if (ujs_syscall_nr(a, r->name) == (int64_t)nr)
			return r->n_args == 0 && r->action.kind == UJS_ACT_ALLOW;
	}
	return p->default_action.kind == UJS_ACT_ALLOW;
}

/*
 * The program runs on the target: a big-endian one stores the high word
 * of each argument first. The simulator reads words in host order, so
 * the words are laid out the way the target kernel would see them.
 */
struct seccomp_data ref_seccomp_data(uint32_t audit, uint32_t nr,
				     const uint64_t *args)
{
	struct seccomp_data d = { .nr = (int)nr, .arch = audit };
	bool little = audit & __AUDIT_ARCH_LE;
	size_t i;

	for (i = 0; i < 6; i++) {
		uint32_t lo = (uint32_t)args[i], hi = (uint32_t)(args[i] >> 32);
		uint32_t words[2] = { little ? lo : hi, little ? hi : lo };

		memcpy(&d.args[i], words, sizeof(words));
	}
	return d;
}

