/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules whose decision the kernel cannot cache (ujs_report_uncacheable(),
 * see compile.h): they cost a filter run on every call.
 */
#include <string.h>

#include "compile.h"
#include "compile_ir.h"

/* True when @name is a syscall on an architecture the filter covers. */
static bool covered(const struct ujs_policy *p, const struct ujs_arch *target,
		    const char *name)
{
	const struct ujs_arch *compat[UJS_MAX_ARCHS];
	size_t n, i;

	if (ujs_syscall_nr(target, name) >= 0)
		return true;
	n = ujs_arch_compat(target, compat, UJS_MAX_ARCHS);
	for (i = 0; i < n; i++)
		if (compat[i] && ujs_policy_lists(p, compat[i]) &&
		    ujs_syscall_nr(compat[i], name) >= 0)
			return true;
	return false;
}

/*
 * Whether a rule before @i of the same syscall decides unconditionally
 * (@decided: rule @i is never reached) or checks arguments (@checked).
 */
static void earlier_rules(const struct ujs_policy *p, size_t i,
			  bool *decided, bool *checked)
{
	size_t j;

	*decided = *checked = false;
	for (j = 0; j < i; j++) {
		if (strcmp(p->rules[j].name, p->rules[i].name))
			continue;
		if (p->rules[j].n_args)
			*checked = true;
		else
			*decided = true;
	}
}

/* Why the kernel cannot cache rule @i, or NULL when it can. */
static const char *uncacheable_why(const struct ujs_policy *p, size_t i,
				   char *buf, size_t len)
{
	const struct ujs_rule *r = &p->rules[i];
	bool decided, checked;

	earlier_rules(p, i, &decided, &checked);
	if (decided)
		return NULL;	/* never reached */
	if (r->n_args)
		return "argument check";
	if (r->action.kind != UJS_ACT_ALLOW) {
		snprintf(buf, len, "action %s", ujs_action_name(r->action.kind));
		return buf;
	}
	return checked ? "reached after argument checks" : NULL;
}

size_t ujs_report_uncacheable(const struct ujs_policy *p,
			      const struct ujs_arch *target, FILE *out)
{
	size_t i, count = 0;
	char buf[64];

	if (!target)
		target = ujs_arch_native();
	for (i = 0; i < p->n_rules; i++) {
		const struct ujs_rule *r = &p->rules[i];
		const char *why;

		if (target && !covered(p, target, r->name))
			continue;
		why = uncacheable_why(p, i, buf, sizeof(buf));
		if (!why)
			continue;
		fprintf(out, "%s %s: %s\n", r->where ? r->where : "rule",
			r->name, why);
		count++;
	}
	return count;
}
