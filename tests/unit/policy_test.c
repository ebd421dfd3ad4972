/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy parser: both formats, every action and operator, 64-bit
 * values, JSON paths, unknown syscalls, architectures, files. Malformed
 * policies have their own corpus (policy_corpus_test). Policies are
 * compiled for x86_64 unless a test says otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include "policy.h"
#include "program.h"
#include "tap.h"
#include "test_util.h"

static char err[1024];

/* Parses @json as "t.json" for @target; prints the error on failure. */
static struct ujs_policy *parse_for(const char *json, const char *target,
				    bool strict, FILE *warn)
{
	struct ujs_parse_opts opts = {
		.target = arch(target),
		.strict = strict,
		.warn = warn,
	};
	struct ujs_policy *p = NULL;

	if (ujs_policy_parse(json, strlen(json), "t.json", &opts, &p, err,
			     sizeof(err))) {
		printf("# %s\n", err);
		return NULL;
	}
	return p;
}

static struct ujs_policy *parse(const char *json)
{
	return parse_for(json, "x86_64", false, NULL);
}

/* Must fail with exactly @want, parsed strictly. */
static void fails_for(const char *json, const char *target, const char *want)
{
	struct ujs_parse_opts opts = { .target = arch(target), .strict = true };
	struct ujs_policy *p = NULL;
	int ret;

	ret = ujs_policy_parse(json, strlen(json), "t.json", &opts, &p, err,
			       sizeof(err));
	if (!ok(ret == -1 && !p && !strcmp(err, want), "rejected: %s", want))
		printf("# got: %s\n", ret ? err : "success");
	ujs_policy_free(p);
}

static void fails(const char *json, const char *want)
{
	fails_for(json, "x86_64", want);
}

static bool action_is(struct ujs_action a, enum ujs_action_kind kind,
		      uint16_t data)
{
	return a.kind == kind && a.data == data;
}

static void test_minimal_oci(void)
{
	struct ujs_policy *p = parse("{ \"defaultAction\": \"SCMP_ACT_ERRNO\" }");

	if (!ok(p != NULL, "minimal OCI policy parses"))
		return;
	ok(action_is(p->default_action, UJS_ACT_ERRNO, EPERM),
	   "SCMP_ACT_ERRNO defaults to EPERM");
	ok(p->n_rules == 0 && p->n_archs == 0 && !p->flag_log &&
	   !p->flag_spec_allow, "no rules, archs or flags");
	ok(!strcmp(p->file, "t.json"), "file name kept: %s", p->file);
	ujs_policy_free(p);
}

static void test_actions(void)
{
	static const struct {
		const char *name;
		enum ujs_action_kind kind;
		uint16_t data;
	} cases[] = {
		{ "SCMP_ACT_ALLOW", UJS_ACT_ALLOW, 0 },
		{ "SCMP_ACT_ERRNO", UJS_ACT_ERRNO, EPERM },
		{ "SCMP_ACT_LOG_ERRNO", UJS_ACT_LOG_ERRNO, EPERM },
		{ "SCMP_ACT_KILL", UJS_ACT_KILL_THREAD, 0 },
		{ "SCMP_ACT_KILL_THREAD", UJS_ACT_KILL_THREAD, 0 },
		{ "SCMP_ACT_KILL_PROCESS", UJS_ACT_KILL_PROCESS, 0 },
		{ "SCMP_ACT_TRAP", UJS_ACT_TRAP, 0 },
		{ "SCMP_ACT_TRACE", UJS_ACT_TRACE, 0 },
		{ "SCMP_ACT_LOG", UJS_ACT_LOG, 0 },
	};
	char json[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ujs_policy *p;

		snprintf(json, sizeof(json),
			 "{ \"defaultAction\": \"%s\", \"syscalls\": [ { \"names\": [ \"read\" ], \"action\": \"%s\" } ] }",
			 cases[i].name, cases[i].name);
		p = parse(json);
		ok(p && p->n_rules == 1 &&
		   action_is(p->default_action, cases[i].kind, cases[i].data) &&
		   action_is(p->rules[0].action, cases[i].kind, cases[i].data),
		   "%s as default and rule action", cases[i].name);
		ujs_policy_free(p);
	}
}

static void test_errno_ret(void)
{
	struct ujs_policy *p;

	p = parse("{ \"defaultAction\": \"SCMP_ACT_LOG_ERRNO\", \"defaultErrnoRet\": 13,"
		  " \"syscalls\": ["
		  " { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 4095 },"
		  " { \"names\": [ \"write\" ], \"action\": \"SCMP_ACT_TRACE\", \"errnoRet\": 7 },"
		  " { \"names\": [ \"close\" ], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 0 },"
		  " { \"names\": [ \"open\" ], \"action\": \"SCMP_ACT_LOG_ERRNO\", \"errnoRet\": 38 } ] }");
	if (!ok(p && p->n_rules == 4, "errnoRet on ERRNO, TRACE, LOG_ERRNO"))
		goto out;
	ok(action_is(p->default_action, UJS_ACT_LOG_ERRNO, 13),
	   "defaultErrnoRet 13 with SCMP_ACT_LOG_ERRNO");
	ok(action_is(p->rules[0].action, UJS_ACT_ERRNO, 4095), "errnoRet 4095");
	ok(action_is(p->rules[1].action, UJS_ACT_TRACE, 7), "TRACE data 7");
	ok(action_is(p->rules[2].action, UJS_ACT_ERRNO, 0), "errnoRet 0");
	ok(action_is(p->rules[3].action, UJS_ACT_LOG_ERRNO, 38), "LOG_ERRNO 38");
out:
	ujs_policy_free(p);
	fails("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultErrnoRet\": 1 }",
	      "t.json: defaultErrnoRet: only valid with SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO or SCMP_ACT_TRACE, not SCMP_ACT_ALLOW");
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 1.0 }",
	      "t.json: defaultErrnoRet: expected an integer, found a number with a fraction or exponent");
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 18446744073709551615 }",
	      "t.json: defaultErrnoRet: 18446744073709551615 is out of range (0..4095)");
}

static void test_action_ret(void)
{
	static const struct {
		struct ujs_action a;
		uint32_t ret;
		const char *name;
	} cases[] = {
		{ { UJS_ACT_KILL_PROCESS, 0 }, SECCOMP_RET_KILL_PROCESS, "SCMP_ACT_KILL_PROCESS" },
		{ { UJS_ACT_KILL_THREAD, 0 }, SECCOMP_RET_KILL_THREAD, "SCMP_ACT_KILL_THREAD" },
		{ { UJS_ACT_TRAP, 0 }, SECCOMP_RET_TRAP, "SCMP_ACT_TRAP" },
		{ { UJS_ACT_ERRNO, 13 }, 0x0005000d, "SCMP_ACT_ERRNO" },
		{ { UJS_ACT_LOG_ERRNO, 4095 }, 0x00070fff, "SCMP_ACT_LOG_ERRNO" },
		{ { UJS_ACT_TRACE, 7 }, 0x7ff00007, "SCMP_ACT_TRACE" },
		{ { UJS_ACT_LOG, 0 }, SECCOMP_RET_LOG, "SCMP_ACT_LOG" },
		{ { UJS_ACT_ALLOW, 0 }, SECCOMP_RET_ALLOW, "SCMP_ACT_ALLOW" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t ret = ujs_action_ret(cases[i].a);
		const char *name = ujs_action_name(cases[i].a.kind);

		ok(ret == cases[i].ret && !strcmp(name, cases[i].name),
		   "%s: ret 0x%08x (want 0x%08x)", name, ret, cases[i].ret);
	}
	ok(SECCOMP_RET_LOG_ERRNO == 0x00070000, "SECCOMP_RET_LOG_ERRNO is 0x00070000");
}

static void test_ops(void)
{
	static const struct {
		const char *name;
		enum ujs_cmp_op op;
	} cases[] = {
		{ "SCMP_CMP_NE", UJS_CMP_NE },
		{ "SCMP_CMP_LT", UJS_CMP_LT },
		{ "SCMP_CMP_LE", UJS_CMP_LE },
		{ "SCMP_CMP_EQ", UJS_CMP_EQ },
		{ "SCMP_CMP_GE", UJS_CMP_GE },
		{ "SCMP_CMP_GT", UJS_CMP_GT },
		{ "SCMP_CMP_MASKED_EQ", UJS_CMP_MASKED_EQ },
	};
	char json[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ujs_policy *p;

		snprintf(json, sizeof(json),
			 "{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"socket\" ],"
			 " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": %zu, \"value\": 3,"
			 " \"valueTwo\": %d, \"op\": \"%s\" } ] } ] }",
			 i % 6, cases[i].op == UJS_CMP_MASKED_EQ ? 2 : 0,
			 cases[i].name);
		p = parse(json);
		ok(p && p->n_rules == 1 && p->rules[0].n_args == 1 &&
		   p->rules[0].args[0].op == cases[i].op &&
		   p->rules[0].args[0].index == i % 6 &&
		   p->rules[0].args[0].value == 3 &&
		   p->rules[0].args[0].value_two == (cases[i].op == UJS_CMP_MASKED_EQ ? 2 : 0),
		   "operator %s", cases[i].name);
		ujs_policy_free(p);
	}
}

/* The value of a single EQ comparison written as @value. */
static bool value_parses(const char *value, uint64_t want)
{
	char json[512];
	struct ujs_policy *p;
	bool good;

	snprintf(json, sizeof(json),
		 "{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"ioctl\" ],"
		 " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 1, \"value\": %s,"
		 " \"op\": \"SCMP_CMP_EQ\" } ] } ] }", value);
	p = parse(json);
	good = p && p->n_rules == 1 && p->rules[0].args[0].value == want;
	if (p && !good)
		printf("# %s parsed as 0x%llx\n", value,
		       (unsigned long long)p->rules[0].args[0].value);
	ujs_policy_free(p);
	return good;
}

static void test_values(void)
{
	ok(value_parses("0", 0), "value 0");
	ok(value_parses("4294967296", 0x100000000ULL), "value 2^32");
	ok(value_parses("9223372036854775807", 0x7fffffffffffffffULL), "value INT64_MAX");
	ok(value_parses("9223372036854775808", 0x8000000000000000ULL), "value INT64_MAX + 1");
	ok(value_parses("18446744073709551615", UINT64_MAX), "value UINT64_MAX");
	ok(value_parses("-100", 0xffffffffffffff9cULL), "value -100 (AT_FDCWD) as two's complement");
	ok(value_parses("-1", UINT64_MAX), "value -1");
	ok(value_parses("-9223372036854775808", 0x8000000000000000ULL), "value INT64_MIN");
	ok(value_parses("\"0xdeadBEEF\"", 0xdeadbeefULL), "value \"0xdeadBEEF\"");
	ok(value_parses("\"0XFFFFFFFFFFFFFFFF\"", UINT64_MAX), "value \"0XFFFFFFFFFFFFFFFF\"");
	ok(value_parses("\"0x00000000000000000001\"", 1), "hex leading zeros beyond 16 digits");

	fails("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"ioctl\" ],"
	      " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 1, \"value\": \"123\", \"op\": \"SCMP_CMP_EQ\" } ] } ] }",
	      "t.json: syscalls[0].args[0].value: \"123\" is not a 64-bit \"0x...\" hex number");
	fails("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"ioctl\" ],"
	      " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 1, \"value\": \"0x\", \"op\": \"SCMP_CMP_EQ\" } ] } ] }",
	      "t.json: syscalls[0].args[0].value: \"0x\" is not a 64-bit \"0x...\" hex number");
	fails("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"ioctl\" ],"
	      " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 1, \"value\": null, \"op\": \"SCMP_CMP_EQ\" } ] } ] }",
	      "t.json: syscalls[0].args[0].value: expected a 64-bit integer or a \"0x...\" hex string, found null");
	fails("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"ioctl\" ],"
	      " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 1, \"value\": 1e3, \"op\": \"SCMP_CMP_EQ\" } ] } ] }",
	      "t.json: syscalls[0].args[0].value: expected a 64-bit integer or a \"0x...\" hex string, found a number with a fraction or exponent");
	fails("{ \"defaultAction\": \"SCMP_ACT_KILL\",\n \"comment\": [ 99999999999999999999 ] }",
	      "t.json:2:15: integer out of range (more than 64 bits)");
	{
		/* Digits in strings are not numbers (range check skips them). */
		struct ujs_policy *p = parse("{ \"defaultAction\": \"SCMP_ACT_KILL\","
					     " \"comment\": \"\\\" 99999999999999999999\" }");

		ok(p != NULL, "huge digits inside a string with an escaped quote are fine");
		ujs_policy_free(p);
	}
}

static void test_value_two(void)
{
	struct ujs_policy *p;

	p = parse("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"clone\" ],"
		  " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 0, \"value\": \"0x10000000\","
		  " \"valueTwo\": \"0xffffffffffffffff\", \"op\": \"SCMP_CMP_MASKED_EQ\" } ] } ] }");
	ok(p && p->rules[0].args[0].value == 0x10000000 &&
	   p->rules[0].args[0].value_two == UINT64_MAX,
	   "MASKED_EQ: value and 64-bit valueTwo");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": [ { \"names\": [ \"socket\" ],"
		  " \"action\": \"SCMP_ACT_ALLOW\", \"args\": [ { \"index\": 0, \"value\": 1,"
		  " \"valueTwo\": 0, \"op\": \"SCMP_CMP_EQ\" } ] } ] }");
	ok(p && p->rules[0].args[0].value_two == 0,
	   "\"valueTwo\": 0 with SCMP_CMP_EQ accepted (runc writes it)");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [ { \"names\": [ \"socket\" ],"
		  " \"action\": \"SCMP_ACT_ERRNO\", \"args\": [ { \"index\": 0, \"value\": 3,"
		  " \"op\": \"SCMP_CMP_MASKED_EQ\" } ] } ] }");
	ok(p && p->rules[0].args[0].op == UJS_CMP_MASKED_EQ && p->rules[0].args[0].value == 3 &&
	   p->rules[0].args[0].value_two == 0,
	   "MASKED_EQ without valueTwo: 0, as runc and Docker read it");
	ujs_policy_free(p);
}

static void test_rules_and_paths(void)
{
	struct ujs_policy *p;

	p = parse("{\n"
		  "\t\"comment\": \"top\",\n"
		  "\t\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\",\n"
		  "\t\"syscalls\": [\n"
		  "\t\t{ \"names\": [ \"read\", \"write\" ], \"action\": \"SCMP_ACT_ALLOW\", \"comment\": \"io\" },\n"
		  "\t\t{ \"name\": \"socket\", \"action\": \"SCMP_ACT_ALLOW\",\n"
		  "\t\t  \"args\": [ { \"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\", \"comment\": \"AF_UNIX\" },\n"
		  "\t\t            { \"index\": 1, \"value\": 2, \"op\": \"SCMP_CMP_NE\" } ] },\n"
		  "\t\t{ \"names\": [ \"close\", \"read\", \"socket\" ], \"action\": \"SCMP_ACT_ERRNO\",\n"
		  "\t\t  \"args\": [ { \"index\": 2, \"value\": 3, \"op\": \"SCMP_CMP_GT\" } ] }\n"
		  "\t]\n"
		  "}\n");
	if (!ok(p && p->n_rules == 6, "one rule per name: 6 rules (got %zu)",
		p ? p->n_rules : 0))
		goto out;
	ok(!strcmp(p->rules[0].name, "read") && !strcmp(p->rules[0].where, "syscalls[0].names[0]") &&
	   !strcmp(p->rules[1].name, "write") && !strcmp(p->rules[1].where, "syscalls[0].names[1]"),
	   "names[]: file order and paths");
	ok(!strcmp(p->rules[2].name, "socket") && !strcmp(p->rules[2].where, "syscalls[1].name"),
	   "\"name\": path %s", p->rules[2].where);
	ok(p->rules[2].n_args == 2 && p->rules[2].args[0].index == 0 &&
	   p->rules[2].args[0].op == UJS_CMP_EQ && p->rules[2].args[1].index == 1 &&
	   p->rules[2].args[1].op == UJS_CMP_NE && p->rules[2].args[1].value == 2,
	   "args in order");
	ok(!strcmp(p->rules[5].where, "syscalls[2].names[2]") &&
	   p->rules[3].n_args == 1 && p->rules[4].n_args == 1 && p->rules[5].n_args == 1 &&
	   p->rules[3].args != p->rules[4].args && p->rules[5].args[0].value == 3,
	   "every name of an entry gets its own copy of the args");
	ok(p->rules[0].n_args == 0 && !p->rules[0].args, "no args: NULL, 0");
	ok(action_is(p->rules[4].action, UJS_ACT_ERRNO, EPERM) &&
	   !strcmp(p->rules[4].name, "read"), "a name may repeat in later entries");
out:
	ujs_policy_free(p);
}

static void test_2015(void)
{
	struct ujs_policy *p;

	p = parse("{ \"whitelist\": [ \"read\", \"write\", \"exit_group\" ], \"policy\": 0 }");
	ok(p && p->n_rules == 3 && action_is(p->default_action, UJS_ACT_KILL_PROCESS, 0) &&
	   action_is(p->rules[2].action, UJS_ACT_ALLOW, 0) &&
	   !strcmp(p->rules[2].name, "exit_group") && !strcmp(p->rules[2].where, "whitelist[2]"),
	   "2015: policy 0 kills, names allowed, paths whitelist[N]");
	ujs_policy_free(p);
	p = parse("{ \"policy\": 13, \"whitelist\": [ \"read\" ] }");
	ok(p && action_is(p->default_action, UJS_ACT_LOG_ERRNO, 13) && p->n_archs == 0,
	   "2015: policy 13 is LOG_ERRNO(13)");
	ujs_policy_free(p);
	p = parse("{ \"whitelist\": [ \"read\" ], \"comment\": \"no policy\" }");
	ok(p && action_is(p->default_action, UJS_ACT_KILL_PROCESS, 0),
	   "2015: no policy is policy 0");
	ujs_policy_free(p);
	fails("{ \"whitelist\": [ \"read\" ], \"policy\": \"1\" }",
	      "t.json: policy: expected an integer, found a string");
	fails("{ \"whitelist\": [ \"read\", [] ] }",
	      "t.json: whitelist[1]: expected a string, found an array");
	fails("{ \"whitelist\": null }",
	      "t.json: whitelist: expected an array of strings, found null");
}

static void test_unknown_syscalls(void)
{
	const char *json =
		"{ \"defaultAction\": \"SCMP_ACT_KILL\", \"syscalls\": ["
		" { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ALLOW\" },"
		" { \"names\": [ \"opne\", \"write\", \"clsoe\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }";
	struct ujs_policy *p;
	char *warnings = NULL;
	size_t len = 0;
	FILE *w;

	fails(json, "t.json: syscalls[1].names[0]: unknown syscall \"opne\" (no architecture has it)");

	w = open_memstream(&warnings, &len);
	if (!w) {
		ok(false, "open_memstream: %s", strerror(errno));
		return;
	}
	p = parse_for(json, "x86_64", false, w);
	fclose(w);
	ok(p && p->n_rules == 2 && !strcmp(p->rules[1].name, "write") &&
	   !strcmp(p->rules[1].where, "syscalls[1].names[1]"),
	   "not strict: names no architecture has dropped, the others kept");
	if (!ok(warnings && !strcmp(warnings,
		"t.json: syscalls[1].names[0]: unknown syscall \"opne\" (no architecture has it): skipped\n"
		"t.json: syscalls[1].names[2]: unknown syscall \"clsoe\" (no architecture has it): skipped\n"),
		"not strict: one warning line per dropped name, with the file and JSON path"))
		printf("# warnings: %s\n", warnings ? strtok(warnings, "\n") : "none");
	free(warnings);
	ujs_policy_free(p);

	p = parse_for(json, "x86_64", false, NULL);
	ok(p && p->n_rules == 2, "not strict, without a warning stream");
	ujs_policy_free(p);
}

/*
 * One policy serves every architecture (OpenWrt's do): names that only
 * other architectures have are dropped without a word, strict or not.
 * Returns the rules' names, comma-separated, and the warnings in @warned.
 */
static char *names_kept(const char *names, const char *target, bool strict, bool *warned)
{
	static char out[512];
	char json[1024], *warnings = NULL;
	size_t len = 0, used = 0;
	struct ujs_policy *p;
	FILE *w = open_memstream(&warnings, &len);

	snprintf(json, sizeof(json), "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": "
		 "[ { \"names\": [ %s ], \"action\": \"SCMP_ACT_ALLOW\" } ] }", names);
	p = w ? parse_for(json, target, strict, w) : NULL;
	if (w)
		fclose(w);
	*warned = warnings && *warnings;
	free(warnings);
	out[0] = '\0';
	for (size_t i = 0; p && i < p->n_rules && used < sizeof(out); i++)
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", i ? "," : "",
					 p->rules[i].name);
	if (!p)
		snprintf(out, sizeof(out), "(failed)");
	ujs_policy_free(p);
	return out;
}

static void test_other_architectures_names(void)
{
	const char *umdns_like = "\"read\", \"fcntl64\", \"_llseek\", \"socketcall\", "
				 "\"cacheflush\", \"sysmips\", \"open\", \"fcntl\"";
	bool warned;
	char *kept;

	kept = names_kept(umdns_like, "x86_64", true, &warned);
	if (!ok(!strcmp(kept, "read,open,fcntl") && !warned,
		"x86_64, strict: fcntl64 _llseek socketcall cacheflush sysmips dropped quietly"))
		printf("# kept: %s\n", kept);
	kept = names_kept(umdns_like, "aarch64", true, &warned);
	if (!ok(!strcmp(kept, "read,fcntl") && !warned,
		"aarch64, strict: the same, and open (arm64 has only openat)"))
		printf("# kept: %s\n", kept);
	kept = names_kept(umdns_like, "mipsel", true, &warned);
	if (!ok(!strcmp(kept, "read,fcntl64,_llseek,socketcall,cacheflush,sysmips,open,fcntl") &&
		!warned, "mipsel: every name is its own"))
		printf("# kept: %s\n", kept);
	kept = names_kept("\"read\", \"frobnicateat\"", "x86_64", false, &warned);
	if (!ok(!strcmp(kept, "read") && warned,
		"a name no table has (frobnicateat): dropped with a warning"))
		printf("# kept: %s\n", kept);
	kept = names_kept("\"read\", \"getxattrat\", \"listns\"", "mips", true, &warned);
	if (!ok(!strcmp(kept, "read,getxattrat,listns") && !warned,
		"names of kernels after 6.12 (getxattrat 6.13, listns 6.19): kept, strict"))
		printf("# kept: %s\n", kept);
}

static void test_architectures(void)
{
	struct ujs_policy *p;

	p = parse("{ \"defaultAction\": \"SCMP_ACT_ERRNO\","
		  " \"architectures\": [ \"SCMP_ARCH_X86_64\", \"i386\", \"SCMP_ARCH_X32\" ],"
		  " \"syscalls\": [ { \"names\": [ \"socketcall\", \"arch_prctl\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }");
	ok(p && p->n_archs == 3 && p->archs[0] == arch("x86_64") &&
	   p->archs[1] == arch("i386") && p->archs[2] == arch("x32") && p->n_rules == 2,
	   "architectures (OCI and short names); an i386-only name is fine when i386 is listed");
	ujs_policy_free(p);

	/* i386's names count when i386 is listed; otherwise they are dropped. */
	p = parse_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ { \"names\": [ \"socketcall\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }",
		      "x86_64", true, NULL);
	ok(p && p->n_rules == 0, "socketcall without i386 listed: dropped");
	ujs_policy_free(p);
	p = parse_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [ \"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\" ],"
		      " \"syscalls\": [ { \"names\": [ \"cacheflush\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }",
		      "x86_64", true, NULL);
	ok(p && p->n_rules == 0, "cacheflush (arm, mips) on x86_64 and i386: dropped");
	ujs_policy_free(p);

	/* aarch64 target: arm names count only when arm is listed. */
	p = parse_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\","
		      " \"architectures\": [ \"SCMP_ARCH_ARM\", \"SCMP_ARCH_AARCH64\" ],"
		      " \"syscalls\": [ { \"names\": [ \"open\", \"openat\", \"cacheflush\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }",
		      "aarch64", false, NULL);
	ok(p && p->n_rules == 3, "aarch64 target with arm listed: arm-only names accepted");
	ujs_policy_free(p);
	p = parse_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [ { \"names\": [ \"open\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }",
		      "aarch64", true, NULL);
	ok(p && p->n_rules == 0, "aarch64 without arm listed: open dropped");
	ujs_policy_free(p);
	fails_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [ \"SCMP_ARCH_X86_64\" ] }",
		  "mipsel", "t.json: architectures: does not list SCMP_ARCH_MIPSEL, the architecture the policy is compiled for");
	/* Listed non-compat architectures do not widen the names. */
	p = parse_for("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [ \"SCMP_ARCH_X86_64\", \"SCMP_ARCH_MIPS\" ],"
		      " \"syscalls\": [ { \"names\": [ \"sysmips\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }",
		      "x86_64", true, NULL);
	ok(p && p->n_rules == 0, "mips listed for an x86_64 filter: sysmips still dropped");
	ujs_policy_free(p);

	p = parse("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [] }");
	ok(p && p->n_archs == 0, "empty architectures: the target only");
	ujs_policy_free(p);

	/* opts NULL: the native architecture. */
	{
		const char *json = "{ \"whitelist\": [ \"read\" ] }";

		p = NULL;
		ok(!ujs_policy_parse(json, strlen(json), "n.json", NULL, &p, err, sizeof(err)) &&
		   p && p->n_rules == 1, "opts NULL: native target");
		ujs_policy_free(p);
	}
}

static void test_flags(void)
{
	struct ujs_policy *p;

	p = parse("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"flags\": [ \"SECCOMP_FILTER_FLAG_SPEC_ALLOW\" ] }");
	ok(p && !p->flag_log && p->flag_spec_allow, "flag SPEC_ALLOW");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"flags\": [ \"SECCOMP_FILTER_FLAG_LOG\", \"SECCOMP_FILTER_FLAG_SPEC_ALLOW\" ] }");
	ok(p && p->flag_log && p->flag_spec_allow, "flags LOG and SPEC_ALLOW");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"flags\": [ \"SECCOMP_FILTER_FLAG_TSYNC\","
		  " \"SECCOMP_FILTER_FLAG_TSYNC_ESRCH\", \"SECCOMP_FILTER_FLAG_NEW_LISTENER\","
		  " \"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV\" ] }");
	ok(p && !p->flag_log && !p->flag_spec_allow,
	   "flags TSYNC, TSYNC_ESRCH, NEW_LISTENER, WAIT_KILLABLE_RECV: accepted, the loader's own");
	ujs_policy_free(p);
	fails("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"flags\": [ \"SECCOMP_FILTER_FLAG_NOPE\" ] }",
	      "t.json: flags[0]: unknown flag \"SECCOMP_FILTER_FLAG_NOPE\" (expected SECCOMP_FILTER_FLAG_ and one of LOG, SPEC_ALLOW, TSYNC, TSYNC_ESRCH, NEW_LISTENER, WAIT_KILLABLE_RECV)");
	fails("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"flags\": [ 1 ] }",
	      "t.json: flags[0]: expected a string, found an integer");
}

static void test_json_errors(void)
{
	fails("{ \"defaultAction\": \"SCMP_ACT_LOG\",\n  \"syscalls\": [ { \"names\": [ \"read\" ], \"action\": SCMP_ACT_ALLOW } ] }",
	      "t.json:2:50: JSON syntax error: unexpected character");
	fails("{ \"defaultAction\": \"SCMP_ACT_LOG\" } x",
	      "t.json:1:37: JSON syntax error: unexpected character");
	fails("42", "t.json: (top level): expected a JSON object, found an integer");
	fails("{ \"defaultAction\": \"SCMP_ACT_LOG\", \"syscalls\": [ { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ALLOW\", } ] }",
	      "t.json:1:101: JSON syntax error: unexpected character");
	fails("", "t.json: empty file (expected a JSON object)");
	fails("{ \"whitelist\": [ \"read\" ], \"Policy\": 1 }",
	      "t.json: (top level): unknown key \"Policy\" (expected whitelist, policy, comment)");
}

/* A scratch file under /tmp; returns its path in @path. */
static bool scratch_file(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/ujs_policy_test.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	if (text && write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return false;
	}
	close(fd);
	return true;
}

static void test_files(void)
{
	struct ujs_policy *p = NULL;
	char path[64], want[256];

	ok(ujs_policy_load("/nonexistent/p.json", NULL, &p, err, sizeof(err)) == -1 && !p &&
	   !strcmp(err, "/nonexistent/p.json: cannot open: No such file or directory"),
	   "missing file: %s", err);
	ok(ujs_policy_load("/", NULL, &p, err, sizeof(err)) == -1 && !p &&
	   !strcmp(err, "/: cannot read: Is a directory"), "directory: %s", err);

	if (scratch_file(path, sizeof(path), "{ \"whitelist\": [ \"read\" ], \"policy\": 1 }\n")) {
		ok(!ujs_policy_load(path, NULL, &p, err, sizeof(err)) && p &&
		   p->n_rules == 1 && !strcmp(p->file, path), "loads a file");
		ujs_policy_free(p);
		p = NULL;
		unlink(path);
	} else {
		ok(false, "mkstemp: %s", strerror(errno));
	}

	/* 16 MiB of spaces, then a policy: one byte too many. */
	if (scratch_file(path, sizeof(path), NULL)) {
		int fd = open(path, O_WRONLY);
		static char spaces[1 << 16];
		size_t i;
		bool written = fd >= 0;

		memset(spaces, ' ', sizeof(spaces));
		for (i = 0; written && i < (16U << 20) / sizeof(spaces); i++)
			written = write(fd, spaces, sizeof(spaces)) == sizeof(spaces);
		written = written && write(fd, "{}", 2) == 2;
		if (fd >= 0)
			close(fd);
		snprintf(want, sizeof(want), "%s: file too large (more than 16 MiB)", path);
		ok(written && ujs_policy_load(path, NULL, &p, err, sizeof(err)) == -1 &&
		   !p && !strcmp(err, want), "too large: %s", err);
		unlink(path);
	} else {
		ok(false, "mkstemp: %s", strerror(errno));
	}

	/* A tiny error buffer truncates, never overflows. */
	ok(ujs_policy_parse("[]", 2, "t.json", NULL, &p, err, 8) == -1 &&
	   !strcmp(err, "t.json:"), "message truncated to the buffer: \"%s\"", err);
	ok(ujs_policy_parse("[]", 2, "t.json", NULL, &p, NULL, 0) == -1 && !p,
	   "no error buffer");
	ujs_policy_free(NULL);
}

/* The good policies that other tests and tools use. */
static void test_good_policies(void)
{
	static const struct {
		const char *file;
		size_t n_rules;
	} good[] = {
		{ "args-oci.json", 14 },
		{ "dnsmasq-oci.json", 78 },
		{ "log-errno-oci.json", 17 },
		{ "procd-2015.json", 46 },
		/* 15 names, 5 of other architectures only. */
		{ "multiarch-oci.json", 10 },
		/* No capabilities, Linux 6.12: mount and getxattrat left out. */
		{ "docker-forms-oci.json", 8 },
	};
	const char *slash = strrchr(__FILE__, '/');
	const uint64_t no_caps = 0;
	struct ujs_parse_opts opts = {
		.target = arch("x86_64"), .strict = true, .caps = &no_caps, .kernel = "6.12",
	};
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct ujs_policy *p = NULL;

		snprintf(path, sizeof(path), "%.*s/../seccomp/good/%s",
			 slash ? (int)(slash - __FILE__) : 1,
			 slash ? __FILE__ : ".", good[i].file);
		if (ujs_policy_load(path, &opts, &p, err, sizeof(err)))
			printf("# %s\n", err);
		ok(p && p->n_rules == good[i].n_rules, "good/%s: %zu rules",
		   good[i].file, p ? p->n_rules : 0);
		ujs_policy_free(p);
	}
}

int main(void)
{
	test_minimal_oci();
	test_actions();
	test_errno_ret();
	test_action_ret();
	test_ops();
	test_values();
	test_value_two();
	test_rules_and_paths();
	test_2015();
	test_unknown_syscalls();
	test_other_architectures_names();
	test_architectures();
	test_flags();
	test_json_errors();
	test_files();
	test_good_policies();
	return tap_done();
}
