#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-syscalls.sh KSRC > syscall_tables.c
# gen-syscalls.sh KSRC ARCH... > keeper_tables.c
#
# With ARCH names (x86_64 x32 i386 aarch64 arm mips mipsel), only those
# architectures' tables, and no errno, capability or Linux-wide names
# (syscall_names.c's): the keeper names the calls of its own machine's
# ABIs, not a policy's (mipsel shares mips's table: both or neither).
#
# Generates the syscall name tables of syscalls.h from the kernel source at
# KSRC, plus the calls of newer kernels that syscalls-newer.tbl (next to
# this script) lists. Each table holds exactly what the kernel's scripts/syscallhdr.sh
# emits as __NR_ names for that ABI (entries without an entry point, such
# as x86_64 "tuxcall", included: userspace can still issue them and a
# policy may name them), with the ABI's number offset applied.

set -euo pipefail
export LC_ALL=C		# byte order: the tables are searched with strcmp

die() {
	echo "gen-syscalls.sh: $*" >&2
	exit 1
}

[ $# -ge 1 ] || die "usage: gen-syscalls.sh KSRC [ARCH...] > syscall_tables.c"
ksrc=$1
shift
only=" $* "

for a in "$@"; do
	case $a in x86_64 | x32 | i386 | aarch64 | arm | mips) ;;
	mipsel) [[ $only == *" mips "* ]] || die "mipsel shares mips's table: name both" ;;
	*) die "$a: no such architecture" ;;
	esac
done

# wanted NAME: whether NAME's table goes out (all when no ARCH is given).
wanted() {
	[ "$only" = "  " ] || [[ $only == *" $1 "* ]]
}
newer_tbl=$(dirname "$0")/syscalls-newer.tbl
[ -f "$ksrc/Makefile" ] || die "$ksrc: not a kernel source tree"

# table FILE ABIS OFFSET: "name number" per syscall.
# ABIS is a comma-separated list matched exactly against the ABI column,
# as syscallhdr.sh --abis does.
table() {
	local file=$1 abis=$2 offset=$3

	[ -r "$file" ] || die "$file: cannot read"
	awk -v abis="$abis" -v offset="$offset" -v file="$file" '
		BEGIN {
			n = split(abis, list, ",")
			for (i = 1; i <= n; i++)
				want[list[i]] = 1
		}
		/^[ \t]*(#|$)/ { next }
		$1 !~ /^[0-9]+$/ {
			printf "%s:%d: bad line: %s\n", file, NR, $0 > "/dev/stderr"
			bad = 1
			exit 1
		}
		!($2 in want) { next }
		{
			if ($3 in seen) {
				printf "%s:%d: duplicate name %s\n", file, NR, $3 > "/dev/stderr"
				bad = 1
				exit 1
			}
			seen[$3] = 1
			printf "%s %.0f\n", $3, $1 + offset
			count++
		}
		END {
			if (!bad && !count) {
				printf "%s: no syscalls for ABIs %s\n", file, abis > "/dev/stderr"
				exit 1
			}
		}' "$file"
}

# newer COLUMN OFFSET: "name number" of syscalls-newer.tbl's column for one
# architecture (3: x86_64 ... 8: mips), "-" entries left out.
newer() {
	local col=$1 offset=$2

	[ -r "$newer_tbl" ] || die "$newer_tbl: cannot read"
	awk -v col="$col" -v offset="$offset" -v file="$newer_tbl" '
		/^[ \t]*(#|$)/ { next }
		NF != 8 || $2 !~ /^[0-9]+\.[0-9]+$/ {
			printf "%s:%d: bad line: %s\n", file, NR, $0 > "/dev/stderr"
			exit 1
		}
		$col != "-" { printf "%s %.0f\n", $1, $col + offset }' "$newer_tbl"
}

# merged: the kernel'"'"'s "name number" lines first, then newer() ones; a
# name the kernel has keeps the kernel'"'"'s number, and a newer name on a
# number the kernel gives another call is an error (stale data file).
merged() {
	awk '
		$1 in nr { next }
		$2 in name {
			printf "syscalls-newer.tbl: %s %s: the kernel has %s there\n",
				$1, $2, name[$2] > "/dev/stderr"
			exit 1
		}
		{ nr[$1] = $2; name[$2] = $1; print }'
}

# The ARM-private calls (__ARM_NR_cacheflush, ...), which are outside
# syscall.tbl; EABI: __NR_SYSCALL_BASE is 0, __ARM_NR_BASE is 0x0f0000.
arm_private() {
	local file=$ksrc/arch/arm/include/uapi/asm/unistd.h

	[ -r "$file" ] || die "$file: cannot read"
	sed -n 's/^#define[[:space:]]*__ARM_NR_\([a-z0-9_]*\)[[:space:]]*(__ARM_NR_BASE *+ *\([0-9]*\))$/\1 \2/p' \
		"$file" | awk -v base=$((0x0f0000)) '{ printf "%s %d\n", $1, base + $2 }'
}

# emit VAR NAME OCI_NAME AUDIT_ARCH [NR_PREFIX]: the C table of the
# "name number" lines on stdin; NR_PREFIX is C put before each number.
emit() {
	local var=$1 name=$2 oci=$3 audit=$4 prefix=${5:-} lines

	lines=$(sort -k1,1 | awk -v prefix="$prefix" '
		$1 == last { print "duplicate " $1 > "/dev/stderr"; exit 1 }
		{ last = $1; printf "\t{ \"%s\", %s%uU },\n", $1, prefix, $2 }') ||
		die "$name: duplicate syscall name"
	[ -n "$lines" ] || die "$name: empty table"
	cat <<EOF

static const struct ujs_syscall ${var}_calls[] = {
$lines
};

static const struct ujs_arch ${var}_arch = {
	.name = "$name",
	.oci_name = "$oci",
	.audit_arch = $audit,
	.calls = ${var}_calls,
	.n_calls = sizeof(${var}_calls) / sizeof(${var}_calls[0]),
};
EOF
}

# emit_alias VAR NAME OCI_NAME AUDIT_ARCH OTHER: an architecture that shares the
# table of OTHER (mips and mipsel differ only in byte order).
emit_alias() {
	cat <<EOF

static const struct ujs_arch ${1}_arch = {
	.name = "$2",
	.oci_name = "$3",
	.audit_arch = $4,
	.calls = ${5}_calls,
	.n_calls = sizeof(${5}_calls) / sizeof(${5}_calls[0]),
};
EOF
}

# defines PATTERN FILE...: "NAME VALUE" of each "#define NAME VALUE" whose
# NAME matches PATTERN, VALUE a number or an earlier NAME (EWOULDBLOCK).
defines() {
	local pattern=$1

	shift
	for f in "$@"; do
		[ -r "$f" ] || die "$f: cannot read"
	done
	awk -v pat="^$pattern\$" '
		$1 == "#define" && $2 ~ pat {
			if ($3 ~ /^[0-9]+$/)
				v[$2] = $3
			else if ($3 in v)
				v[$2] = v[$3]
			else
				next
			print $2, v[$2]
		}' "$@"
}

# emit_names VAR: a table of "name number" lines (errno or capability names).
emit_names() {
	local lines

	lines=$(sort -k1,1 -u | awk '{ printf "\t{ \"%s\", %d },\n", $1, $2 }')
	[ -n "$lines" ] || die "$1: empty table"
	cat <<EOF

const struct ujs_named_value $1[] = {
$lines
};
const size_t $1_n = sizeof($1) / sizeof($1[0]);
EOF
}

version=$(awk -F' *= *' '
	$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$ksrc/Makefile")

x86=$ksrc/arch/x86/entry/syscalls
generic=$ksrc/scripts/syscall.tbl
armtbl=$ksrc/arch/arm/tools/syscall.tbl
o32=$ksrc/arch/mips/kernel/syscalls/syscall_o32.tbl

# Build every table before printing anything, so a failure leaves no
# half-written output behind a zero exit status.
x86_64=
if wanted x86_64; then
	x86_64=$( { table "$x86/syscall_64.tbl" common,64 0; newer 3 0; } | merged |
		emit x86_64 x86_64 SCMP_ARCH_X86_64 0xc000003eU)
fi
x32=
if wanted x32; then
	x32=$( { table "$x86/syscall_64.tbl" common,x32 0; newer 4 0; } | merged |
		emit x32 x32 SCMP_ARCH_X32 0xc000003eU "UJS_X32_SYSCALL_BIT | ")
fi
i386=
if wanted i386; then
	i386=$( { table "$x86/syscall_32.tbl" i386 0; newer 5 0; } | merged |
		emit i386 i386 SCMP_ARCH_X86 0x40000003U)
fi
# arm64: scripts/Makefile.asm-headers (common,64) plus
# arch/arm64/kernel/Makefile.syscalls (renameat rlimit memfd_secret).
aarch64=
if wanted aarch64; then
	aarch64=$( { table "$generic" common,64,renameat,rlimit,memfd_secret 0; newer 6 0; } |
		merged | emit aarch64 aarch64 SCMP_ARCH_AARCH64 0xc00000b7U)
fi
arm=
if wanted arm; then
	arm=$( { table "$armtbl" common,eabi 0; arm_private; newer 7 0; } | merged |
		emit arm arm SCMP_ARCH_ARM 0x40000028U)
fi
# o32 numbers start at __NR_Linux = 4000.
mips=
if wanted mips; then
	mips=$( { table "$o32" o32 4000; newer 8 4000; } | merged |
		emit mips mips SCMP_ARCH_MIPS 0x00000008U)
fi
mipsel=
if wanted mipsel; then
	mipsel=$(emit_alias mipsel mipsel SCMP_ARCH_MIPSEL 0x40000008U mips)
fi
# errno names: MIPS numbers most of them its own way.
errno_generic= errno_mips= caps= linux_names=
if [ "$only" = "  " ]; then
	errbase=$ksrc/include/uapi/asm-generic/errno-base.h
	errno_generic=$(defines 'E[A-Z0-9]+' "$errbase" "$ksrc/include/uapi/asm-generic/errno.h" |
		emit_names ujs_gen_errnos_generic)
	errno_mips=$(defines 'E[A-Z0-9]+' "$errbase" "$ksrc/arch/mips/include/uapi/asm/errno.h" |
		emit_names ujs_gen_errnos_mips)
	caps=$(defines 'CAP_[A-Z_]+' "$ksrc/include/uapi/linux/capability.h" | emit_names ujs_gen_caps)
	# Every name of every architecture's table, the targets' and the others'
	# (s390, powerpc, riscv in scripts/syscall.tbl, ...): a policy written for
	# all of them names s390_pci_mmio_read or riscv_hwprobe, which is no typo.
	linux_names=$(find "$ksrc/arch" -name 'syscall*.tbl' | sort |
		xargs awk '$1 ~ /^[0-9]+$/ { print $3, 0 }' "$generic" |
		emit_names ujs_gen_linux_names)
fi

# pool: every table's names go into one string, ujs_gen_names, and the
# entries hold 16-bit offsets into it instead of pointers: a pointer per
# entry costs a relocation in a PIE or shared object, and the tables have
# thousands of entries (see syscalls.h).
pool() {
	awk '
		{ line[NR] = $0 }
		match($0, /^\t\{ "[^"]*",/) {
			n = substr($0, 5, RLENGTH - 6)
			names[n] = 1
		}
		END {
			k = 0
			for (n in names)
				sorted[++k] = n
			# insertion sort (awk has none): a few thousand names
			for (i = 2; i <= k; i++) {
				v = sorted[i]
				for (j = i - 1; j > 0 && sorted[j] > v; j--)
					sorted[j + 1] = sorted[j]
				sorted[j + 1] = v
			}
			off = 0
			for (i = 1; i <= k; i++) {
				at[sorted[i]] = off
				off += length(sorted[i]) + 1
			}
			if (off > 65535) {
				print "gen-syscalls.sh: the name pool exceeds 64 KiB" > "/dev/stderr"
				exit 1
			}
			for (i = 1; i <= NR; i++) {
				l = line[i]
				if (match(l, /^\t\{ "[^"]*",/)) {
					n = substr(l, 5, RLENGTH - 6)
					l = "\t{ " at[n] "," substr(l, RLENGTH + 1)
				}
				print l
				if (l == "#include \"syscalls.h\"") {
					print ""
					print "/* Every name of the tables below, NUL-separated. */"
					print "const char ujs_gen_names[] ="
					for (j = 1; j <= k; j++)
						printf "\t\"%s\\0\"%s\n", sorted[j], j == k ? ";" : ""
				}
			}
		}'
}

cat <<EOF | pool
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated by userspace/seccomp/gen-syscalls.sh from Linux $version
 * and userspace/seccomp/syscalls-newer.tbl.
 * Do not edit.
 */
#include "syscalls.h"

/* Read by syscalls.c. */
extern const struct ujs_arch *const ujs_gen_archs[];
extern const size_t ujs_gen_n_archs;
$errno_generic
$errno_mips
$caps
$linux_names
$x86_64
$x32
$i386
$aarch64
$arm
$mips
$mipsel

const struct ujs_arch *const ujs_gen_archs[] = {
$(for a in x86_64 x32 i386 aarch64 arm mips mipsel; do
	if wanted $a; then printf '\t&%s_arch,\n' $a; fi
done)
};

const size_t ujs_gen_n_archs = sizeof(ujs_gen_archs) / sizeof(ujs_gen_archs[0]);
EOF
