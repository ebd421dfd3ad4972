/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup options' values (options/cgroup_value.c): each row a value
 * and what its cgroup file gets, or the message it is refused with.
 * Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "options/cgroup_value.h"
#include "tap.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef const char *(*convert_fn)(const char *value, char *out);

struct row {
	const char *in;
	const char *out;	/* what the file gets; NULL: refused */
	const char *why;	/* the message when refused */
};

#define MEMORY_WHY "expected BYTES with an optional K, M, G or T suffix, or max"
#define CPU_WHY "expected QUOTA[/PERIOD] in microseconds (QUOTA at least 1000, " \
		"PERIOD 1000 to 1000000), N% of one CPU, or max"
#define PIDS_WHY "expected a number of processes from 1 to 4194304, or max"
#define IO_WHY "expected a weight from 1 to 10000"

static const struct row memory_rows[] = {
	{ "max", "max", NULL },
	{ "1", "1", NULL },
	{ "16M", "16777216", NULL },
	{ "16m", "16777216", NULL },		/* the suffix in either case */
	{ "2G", "2147483648", NULL },
	{ "1T", "1099511627776", NULL },
	{ "8388607T", "9223370937343148032", NULL },	/* the largest in T */
	{ "8388608T", NULL, "too large" },
	{ "0", NULL, "must be more than 0" },
	{ "0K", NULL, "must be more than 0" },
	{ "", NULL, MEMORY_WHY },
	{ "M", NULL, MEMORY_WHY },
	{ "16MB", NULL, MEMORY_WHY },
	{ "16X", NULL, MEMORY_WHY },
	{ "-1", NULL, MEMORY_WHY },
	{ " 1", NULL, MEMORY_WHY },
	{ "18446744073709551615", NULL, MEMORY_WHY },	/* more digits than fit */
};

static const struct row cpu_rows[] = {
	{ "max", "max 100000", NULL },
	{ "max/50000", "max 50000", NULL },
	{ "50000", "50000 100000", NULL },
	{ "50000/200000", "50000 200000", NULL },
	{ "1000", "1000 100000", NULL },	/* the least quota */
	{ "1000/1000", "1000 1000", NULL },
	{ "1000/1000000", "1000 1000000", NULL },
	{ "150%", "150000 100000", NULL },	/* one and a half CPUs */
	{ "1%", "1000 100000", NULL },
	{ "999", NULL, CPU_WHY },
	{ "1000/999", NULL, CPU_WHY },
	{ "1000/1000001", NULL, CPU_WHY },
	{ "1000/", NULL, CPU_WHY },
	{ "0%", NULL, CPU_WHY },
	{ "max%", NULL, CPU_WHY },
	{ "1000x", NULL, CPU_WHY },
	{ "", NULL, CPU_WHY },
	{ "abc", NULL, CPU_WHY },
};

static const struct row pids_rows[] = {
	{ "max", "max", NULL },
	{ "1", "1", NULL },
	{ "4194304", "4194304", NULL },
	{ "4194305", NULL, PIDS_WHY },
	{ "0", NULL, PIDS_WHY },
	{ "", NULL, PIDS_WHY },
	{ "+5", NULL, PIDS_WHY },
	{ "5 ", NULL, PIDS_WHY },
};

static const struct row io_rows[] = {
	{ "1", "default 1", NULL },
	{ "100", "default 100", NULL },
	{ "10000", "default 10000", NULL },
	{ "10001", NULL, IO_WHY },
	{ "0", NULL, IO_WHY },
	{ "max", NULL, IO_WHY },
	{ "", NULL, IO_WHY },
};

static void check_rows(const char *option, convert_fn fn, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char out[CGROUP_VALUE_MAX] = "";
		const char *why = fn(r->in, out);

		if (r->out)
			ok(!why && !strcmp(out, r->out), "%s '%s' -> '%s' (got '%s'%s%s)", option,
			   r->in, r->out, out, why ? ", refused: " : "", why ? why : "");
		else
			ok(why && !strcmp(why, r->why), "%s '%s' refused: %s (got %s)", option,
			   r->in, r->why, why ? why : "accepted");
	}
}

/* --cgroup-parent: a check only, NULL when accepted. */
static const struct {
	const char *in;
	const char *why;
} parent_rows[] = {
	{ "/sys/fs/cgroup/services", NULL },
	{ "/", NULL },
	{ "/a/.hidden", NULL },
	{ "/a/..b", NULL },
	{ "relative", "expected an absolute path" },
	{ "", "expected an absolute path" },
	{ "/a/./b", "must not contain . or .. components" },
	{ "/a/..", "must not contain . or .. components" },
	{ "/../a", "must not contain . or .. components" },
	{ "/a/.", "must not contain . or .. components" },
	{ "/a\tb", "must not contain control characters" },
	{ "/a\x7f", "must not contain control characters" },
};

static void check_parent(void)
{
	for (size_t i = 0; i < N_OF(parent_rows); i++) {
		const char *why = cgroup_check_parent(parent_rows[i].in);
		const char *want = parent_rows[i].why;

		ok(want ? why && !strcmp(why, want) : !why, "--cgroup-parent row %zu: %s (got %s)",
		   i, want ? want : "accepted", why ? why : "accepted");
	}
}

int main(void)
{
	check_rows("--memory-max", cgroup_value_memory, memory_rows, N_OF(memory_rows));
	check_rows("--cpu-max", cgroup_value_cpu, cpu_rows, N_OF(cpu_rows));
	check_rows("--pids-max", cgroup_value_pids, pids_rows, N_OF(pids_rows));
	check_rows("--io-weight", cgroup_value_io_weight, io_rows, N_OF(io_rows));
	check_parent();
	return tap_done();
}
