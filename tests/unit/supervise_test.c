/* SPDX-License-Identifier: GPL-2.0 */
/*
 * supervise.c: the notify mode's denial line, whose COMM the task chose,
 * is written as the kernel's log_errno line writes it (as is, or in hex).
 */
#include <linux/audit.h>
#include <string.h>
#include <sys/syscall.h>

#include "supervise.h"
#include "tap.h"
#include "test_util.h"

static void comm_is(const char *comm, const char *want)
{
	char buf[2 * UJS_COMM_MAX + 1];

	ujs_log_comm(buf, sizeof(buf), comm);
	ok(strcmp(buf, want) == 0, "comm of %zu bytes is written '%s' (got '%s')",
	   strlen(comm), want, buf);
}

int main(void)
{
	char line[256];

	comm_is("dnsmasq", "dnsmasq");
	comm_is("a=b,c:d[1]", "a=b,c:d[1]");
	comm_is("", "");
	comm_is("a b", "612062");
	comm_is("q\"uote", "7122756F7465");
	comm_is("x\njail j: y", "780A6A61696C206A3A2079");
	comm_is("tab\t", "74616209");
	comm_is("del\x7f", "64656C7F");
	comm_is("\xc3\xa9t\xc3\xa9", "C3A974C3A9");
	comm_is("0123456789 abcd", "303132333435363738392061626364");

	ujs_denial_line(line, sizeof(line), "jtest", "sysprobe-musl", 42,
			AUDIT_ARCH_X86_64, 102);
	ok(strcmp(line, "jail jtest: sysprobe-musl[42] denied syscall getuid (102)") == 0,
	   "a plain name stays as it was: %s", line);
	ujs_denial_line(line, sizeof(line), "jtest", "x\njail j: y", 42,
			AUDIT_ARCH_X86_64, 102);
	ok(strcmp(line, "jail jtest: 780A6A61696C206A3A2079[42] denied syscall getuid (102)") == 0,
	   "a name with a newline cannot start a line: %s", line);
	ok(!strchr(line, '\n'), "the line holds no newline");
	return tap_done();
}
