/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OCI forms of Docker's and podman's profiles and procd's spellings:
 * archMap, includes/excludes (arches, caps against the caps the caller
 * gives, minKernel against the kernel release it gives), errno names,
 * SCMP_ACT_ERROR, "args": null; and the capability helpers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "tap.h"
#include "test_util.h"

#define CAP_BIT(n) (1ULL << (n))
#define SYS_ADMIN 21
#define NET_ADMIN 12

static char err[1024];

/* @json as "t.json" for @target, with @caps and the kernel @kernel. */
static struct ujs_policy *parse_env(const char *json, const char *target,
				    uint64_t caps, const char *kernel)
{
	struct ujs_parse_opts opts = {
		.target = arch(target), .strict = true, .caps = &caps,
		.kernel = kernel,
	};
	struct ujs_policy *p = NULL;

	if (ujs_policy_parse(json, strlen(json), "t.json", &opts, &p, err, sizeof(err)))
		printf("# %s\n", err);
	return p;
}

static struct ujs_policy *parse(const char *json)
{
	return parse_env(json, "x86_64", 0, "6.12.48");
}

/* Must fail with exactly @want (x86_64, no caps, kernel 6.12). */
static void fails(const char *json, const char *want)
{
	uint64_t caps = 0;
	struct ujs_parse_opts opts = {
		.target = arch("x86_64"), .strict = true, .caps = &caps, .kernel = "6.12",
	};
	struct ujs_policy *p = NULL;
	int ret = ujs_policy_parse(json, strlen(json), "t.json", &opts, &p, err, sizeof(err));

	if (!ok(ret == -1 && !p && !strcmp(err, want), "rejected: %s", want))
		printf("# got: %s\n", ret ? err : "success");
	ujs_policy_free(p);
}

/* The names of @p's rules, comma-separated (static buffer). */
static const char *rule_names(const struct ujs_policy *p)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; p && i < p->n_rules; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "," : "", p->rules[i].name);
	return p ? buf : "(parse failed)";
}

/* One entry naming getpid with the conditions @cond, one naming read. */
static const char *conditional(const char *cond)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
		 " { \"names\": [ \"getpid\" ], \"action\": \"SCMP_ACT_ALLOW\", %s },"
		 " { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }", cond);
	return buf;
}

/* Whether the getpid entry under @cond is kept. */
static bool kept_env(const char *cond, const char *target, uint64_t caps, const char *kernel)
{
	struct ujs_policy *p = parse_env(conditional(cond), target, caps, kernel);
	bool kept = p && !strcmp(rule_names(p), "getpid,read");

	if (p && !kept && strcmp(rule_names(p), "read"))
		printf("# unexpected rules: %s\n", rule_names(p));
	ujs_policy_free(p);
	return kept;
}

static bool kept(const char *cond)
{
	return kept_env(cond, "x86_64", 0, "6.12");
}

static void test_action_spellings(void)
{
	struct ujs_policy *p;

	p = parse("{ \"defaultAction\": \"SCMP_ACT_ERROR\", \"syscalls\": [ { \"names\": [ \"read\" ],"
		  " \"action\": \"SCMP_ACT_ERROR\", \"errnoRet\": 13 } ] }");
	ok(p && p->default_action.kind == UJS_ACT_ERRNO && p->default_action.data == EPERM &&
	   p->rules[0].action.kind == UJS_ACT_ERRNO && p->rules[0].action.data == 13,
	   "SCMP_ACT_ERROR (procd's): SCMP_ACT_ERRNO, EPERM by default, errnoRet taken");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [ { \"names\": [ \"read\" ],"
		  " \"action\": \"SCMP_ACT_ERRNO\", \"args\": null, \"comment\": \"\","
		  " \"includes\": {}, \"excludes\": {} } ] }");
	ok(p && p->n_rules == 1 && p->rules[0].n_args == 0,
	   "Docker's \"args\": null, empty comment, includes and excludes: one plain rule");
	ujs_policy_free(p);
}

static void test_errno_names(void)
{
	const char *def = "{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38,"
			  " \"defaultErrno\": \"ENOSYS\" }";
	struct ujs_policy *p;

	p = parse_env(def, "x86_64", 0, "6.12");
	ok(p && p->default_action.data == 38, "defaultErrno ENOSYS: 38 on x86_64");
	ujs_policy_free(p);
	p = parse_env(def, "mipsel", 0, "6.12");
	ok(p && p->default_action.data == 89,
	   "defaultErrno ENOSYS: 89 on mipsel (MIPS numbers), over defaultErrnoRet 38");
	ujs_policy_free(p);
	p = parse("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		  " { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EACCES\" },"
		  " { \"names\": [ \"write\" ], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1, \"errno\": \"EINVAL\" },"
		  " { \"names\": [ \"close\" ], \"action\": \"SCMP_ACT_LOG_ERRNO\", \"errno\": \"7\" } ] }");
	ok(p && p->rules[0].action.data == EACCES && p->rules[1].action.data == EINVAL &&
	   p->rules[2].action.data == 7,
	   "errno: a name, a name over errnoRet (podman's order), a number");
	ujs_policy_free(p);
	fails("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [ { \"names\": [ \"read\" ],"
	      " \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"ENOPE\" } ] }",
	      "t.json: syscalls[0].errno: \"ENOPE\" is neither an errno name (EPERM, ...) nor a number 0..4095");
	fails("{ \"defaultAction\": \"SCMP_ACT_ALLOW\", \"defaultErrno\": \"EPERM\" }",
	      "t.json: defaultErrno: only valid with SCMP_ACT_ERRNO, SCMP_ACT_LOG_ERRNO or SCMP_ACT_TRACE, not SCMP_ACT_ALLOW");
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": 1 }",
	      "t.json: defaultErrno: expected a string, found an integer");
}

static const char arch_map[] =
	"{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"archMap\": ["
	" { \"architecture\": \"SCMP_ARCH_X86_64\", \"subArchitectures\": [ \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\" ] },"
	" { \"architecture\": \"SCMP_ARCH_AARCH64\", \"subArchitectures\": [ \"SCMP_ARCH_ARM\" ] },"
	" { \"architecture\": \"SCMP_ARCH_S390X\", \"subArchitectures\": [ \"SCMP_ARCH_S390\" ] } ],"
	" \"syscalls\": [ { \"names\": [ \"socketcall\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }";

static void test_arch_map(void)
{
	struct ujs_policy *p;

	p = parse_env(arch_map, "x86_64", 0, "6.12");
	ok(p && p->n_archs == 3 && p->archs[0] == arch("x86_64") && p->archs[1] == arch("i386") &&
	   p->archs[2] == arch("x32") && p->n_rules == 1,
	   "archMap on x86_64: x86_64, i386, x32; socketcall (i386's) kept");
	ujs_policy_free(p);
	p = parse_env(arch_map, "aarch64", 0, "6.12");
	ok(p && p->n_archs == 2 && p->archs[0] == arch("aarch64") && p->archs[1] == arch("arm"),
	   "archMap on aarch64: aarch64, arm");
	ujs_policy_free(p);
	p = parse_env(arch_map, "mipsel", 0, "6.12");
	ok(p && p->n_archs == 0, "archMap without the target (mipsel): the target alone");
	ujs_policy_free(p);
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [ \"SCMP_ARCH_X86_64\" ],"
	      " \"archMap\": [ { \"architecture\": \"SCMP_ARCH_X86_64\" } ] }",
	      "t.json: archMap: give either \"architectures\" or \"archMap\", not both");
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"archMap\": [ { \"architecture\":"
	      " \"SCMP_ARCH_X86_64\", \"subArchitectures\": [ \"SCMP_ARCH_X86\", \"SCMP_ARCH_PDP11\" ] } ] }",
	      "t.json: archMap[0].subArchitectures[1]: unknown architecture \"SCMP_ARCH_PDP11\" (expected SCMP_ARCH_X86_64, SCMP_ARCH_X32, SCMP_ARCH_X86, SCMP_ARCH_AARCH64, SCMP_ARCH_ARM, SCMP_ARCH_MIPS or SCMP_ARCH_MIPSEL)");
	fails("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"archMap\": [ { \"arch\": \"SCMP_ARCH_X86_64\" } ] }",
	      "t.json: archMap[0]: unknown key \"arch\" (expected architecture, subArchitectures, comment)");
}

static void test_arches(void)
{
	ok(kept("\"includes\": { \"arches\": [ \"amd64\", \"x32\" ] }"),
	   "includes arches amd64: kept on x86_64");
	ok(!kept("\"includes\": { \"arches\": [ \"arm64\", \"s390x\" ] }"),
	   "includes arches arm64: dropped on x86_64");
	ok(kept_env("\"includes\": { \"arches\": [ \"arm64\" ] }", "aarch64", 0, "6.12"),
	   "includes arches arm64: kept on aarch64");
	ok(kept_env("\"includes\": { \"arches\": [ \"x86\" ] }", "i386", 0, "6.12") &&
	   kept_env("\"includes\": { \"arches\": [ \"mipsel\" ] }", "mipsel", 0, "6.12"),
	   "Docker's names x86 (i386) and mipsel");
	ok(!kept("\"excludes\": { \"arches\": [ \"amd64\" ] }") &&
	   kept("\"excludes\": { \"arches\": [ \"ppc64le\" ] }"),
	   "excludes arches: amd64 drops on x86_64, ppc64le does not");
	ok(kept("\"includes\": { \"arches\": [] }"), "includes arches []: no condition");
}

static void test_caps(void)
{
	const char *one = "\"includes\": { \"caps\": [ \"CAP_SYS_ADMIN\" ] }";
	const char *two = "\"includes\": { \"caps\": [ \"CAP_SYS_ADMIN\", \"CAP_NET_ADMIN\" ] }";
	const char *ex = "\"excludes\": { \"caps\": [ \"CAP_SYS_ADMIN\", \"CAP_NET_ADMIN\" ] }";

	ok(kept_env(one, "x86_64", CAP_BIT(SYS_ADMIN), "6.12") &&
	   !kept_env(one, "x86_64", CAP_BIT(NET_ADMIN), "6.12"),
	   "includes caps: kept with CAP_SYS_ADMIN, dropped without");
	ok(!kept_env(two, "x86_64", CAP_BIT(SYS_ADMIN), "6.12") &&
	   kept_env(two, "x86_64", CAP_BIT(SYS_ADMIN) | CAP_BIT(NET_ADMIN), "6.12"),
	   "includes caps: every one needed");
	ok(!kept_env(ex, "x86_64", CAP_BIT(NET_ADMIN), "6.12") &&
	   kept_env(ex, "x86_64", CAP_BIT(0), "6.12"),
	   "excludes caps: any one drops");
	fails(conditional("\"includes\": { \"caps\": [ \"CAP_SYS_ADMN\" ] }"),
	      "t.json: syscalls[0].includes.caps[0]: unknown capability \"CAP_SYS_ADMN\" (expected a CAP_* name)");
	fails(conditional("\"includes\": { \"cap\": [] }"),
	      "t.json: syscalls[0].includes: unknown key \"cap\" (expected arches, caps, minKernel, comment)");
	fails(conditional("\"excludes\": [ ]"),
	      "t.json: syscalls[0].excludes: expected an object, found an array");
}

/* With no caps given, the entry sees the caller's effective set. */
static void test_default_caps(void)
{
	const char *json = conditional("\"includes\": { \"caps\": [ \"CAP_SYS_ADMIN\" ] }");
	struct ujs_parse_opts opts = { .target = arch("x86_64"), .kernel = "6.12" };
	struct ujs_policy *p = NULL;
	uint64_t eff = 0;

	ok(!ujs_caps_effective(&eff, err, sizeof(err)), "ujs_caps_effective: 0x%llx",
	   (unsigned long long)eff);
	ujs_policy_parse(json, strlen(json), "t.json", &opts, &p, err, sizeof(err));
	ok(p && !strcmp(rule_names(p), (eff >> SYS_ADMIN & 1) ? "getpid,read" : "read"),
	   "caps NULL: the effective set decides (%s CAP_SYS_ADMIN)",
	   (eff >> SYS_ADMIN & 1) ? "with" : "without");
	ujs_policy_free(p);
}

static void test_min_kernel(void)
{
	const char *inc = "\"includes\": { \"minKernel\": \"6.13\" }";
	const char *exc = "\"excludes\": { \"minKernel\": \"5.8\" }";

	ok(kept_env(inc, "x86_64", 0, "6.13.0-rc1") && kept_env(inc, "x86_64", 0, "7.0") &&
	   !kept_env(inc, "x86_64", 0, "6.12.48+deb13-amd64") && !kept_env(inc, "x86_64", 0, "5.19"),
	   "includes minKernel 6.13: kept on 6.13 and 7.0, dropped on 6.12 and 5.19");
	ok(!kept_env(exc, "x86_64", 0, "5.8") && kept_env(exc, "x86_64", 0, "5.7"),
	   "excludes minKernel 5.8: dropped on 5.8, kept on 5.7");
	ok(kept("\"includes\": { \"minKernel\": \"\" }"), "minKernel \"\": no condition (Docker)");
	fails(conditional("\"includes\": { \"minKernel\": \"6\" }"),
	      "t.json: syscalls[0].includes.minKernel: \"6\" is not a kernel version \"MAJOR.MINOR\"");
	fails(conditional("\"includes\": { \"minKernel\": \"6.1.2\" }"),
	      "t.json: syscalls[0].includes.minKernel: \"6.1.2\" is not a kernel version \"MAJOR.MINOR\"");
	fails(conditional("\"includes\": { \"minKernel\": \"0.0\" }"),
	      "t.json: syscalls[0].includes.minKernel: \"0.0\" is not a kernel version \"MAJOR.MINOR\"");
	ok(!parse_env(conditional("\"includes\": {}"), "x86_64", 0, "linux") &&
	   !strcmp(err, "t.json: kernel release \"linux\": not MAJOR.MINOR[...]"),
	   "a kernel release that is not MAJOR.MINOR: an error");
}

/* An entry ruled out is not compiled: its names are not even looked up. */
static void test_ruled_out_names(void)
{
	struct ujs_policy *p = parse("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
				     " { \"names\": [ \"frobnicate\" ], \"action\": \"SCMP_ACT_ALLOW\","
				     " \"includes\": { \"arches\": [ \"s390x\" ] } },"
				     " { \"names\": [ \"read\" ], \"action\": \"SCMP_ACT_ALLOW\" } ] }");

	ok(p && !strcmp(rule_names(p), "read"),
	   "an entry for s390x only, with a name no table has: dropped without an error, strict");
	ujs_policy_free(p);
}

/* Profiles for every Linux architecture name s390's and riscv's calls. */
static void test_other_linux_names(void)
{
	struct ujs_policy *p = parse("{ \"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
				     " { \"names\": [ \"read\", \"s390_pci_mmio_read\", \"riscv_hwprobe\" ],"
				     " \"action\": \"SCMP_ACT_ALLOW\" } ] }");

	ok(p && !strcmp(rule_names(p), "read"),
	   "names of architectures without a table here (s390, riscv): dropped quietly, strict");
	ujs_policy_free(p);
}

static void test_caps_parse(void)
{
	uint64_t caps;

	ok(!ujs_caps_parse("CAP_SYS_ADMIN,chown,Net_Admin", &caps, err, sizeof(err)) &&
	   caps == (CAP_BIT(SYS_ADMIN) | CAP_BIT(0) | CAP_BIT(NET_ADMIN)),
	   "ujs_caps_parse: names with and without CAP_, any case");
	ok(!ujs_caps_parse("all", &caps, err, sizeof(err)) && caps == CAP_BIT(ujs_cap_count()) - 1 &&
	   ujs_cap_count() >= 41, "ujs_caps_parse all: %u capabilities", ujs_cap_count());
	ok(!ujs_caps_parse("none", &caps, err, sizeof(err)) && caps == 0 &&
	   !ujs_caps_parse("", &caps, err, sizeof(err)) && caps == 0,
	   "ujs_caps_parse none and \"\": the empty set");
	ok(ujs_caps_parse("CAP_CHOWN,CAP_NOPE", &caps, err, sizeof(err)) == -1 &&
	   !strcmp(err, "unknown capability \"CAP_NOPE\""), "ujs_caps_parse: %s", err);
}

int main(void)
{
	test_action_spellings();
	test_errno_names();
	test_arch_map();
	test_arches();
	test_caps();
	test_default_caps();
	test_min_kernel();
	test_ruled_out_names();
	test_other_linux_names();
	test_caps_parse();
	return tap_done();
}
