#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Docker's and podman's default profiles, unchanged (tests/seccomp/external),
# load strictly and compile for every target; --caps and --kernel decide
# their "includes"/"excludes"; then our filters against libseccomp's
# (build/tests/seccomp/libseccomp_compare) on them, the good corpus and
# tests/seccomp/compare. Prints TAP.
#
# Environment (defaults: the build tree):
#   UJAIL_SECCOMP   the ujail-seccomp command
#   COMPARE         the libseccomp_compare program
#   PROFILES        directory of the profiles (get-profiles.sh fills it)
# shellcheck disable=SC2016,SC2317,SC2154
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
U=${UJAIL_SECCOMP:-$top/build/bin/ujail-seccomp}
compare=${COMPARE:-$top/build/tests/seccomp/libseccomp_compare}
profiles=${PROFILES:-$top/build/external}

"$top/tests/seccomp/external/get-profiles.sh" "$profiles" || exit 1
sed 's/^/# /' "$profiles/VERSIONS"
docker=$profiles/docker-default.json
podman=$profiles/podman-seccomp.json

compiles() { "$U" check --strict -a "$1" --caps none --kernel 6.12 "$2" >/dev/null; }
for p in "$docker" "$podman"; do
	for a in x86_64 i386 aarch64 arm mips mipsel; do
		check "$(basename "$p") compiles for $a, strict" compiles "$a" "$p"
	done
done

# sim_is EXPECTED [OPTIONS...] POLICY SYSCALL [ARG...]
sim_is() {
	want=$1; shift
	got=$("$U" sim -a x86_64 "$@" 2>&1)
	[ "$got" = "$want" ] || { echo "# got: $got"; return 1; }
}
check "docker: mount without CAP_SYS_ADMIN: EPERM" \
	sim_is "mount: ERRNO(1)" --caps CAP_CHOWN "$docker" mount
check "docker: mount with --caps CAP_SYS_ADMIN: allowed" \
	sim_is "mount: ALLOW" --caps CAP_SYS_ADMIN "$docker" mount
check "docker: clone with namespace flags: refused without CAP_SYS_ADMIN" \
	sim_is "clone: ERRNO(1)" --caps none "$docker" clone 0x10000000
check "docker: clone of a thread: allowed without CAP_SYS_ADMIN" \
	sim_is "clone: ALLOW" --caps none "$docker" clone 0x3d0f00
check "podman: defaultErrno ENOSYS: a call it does not list fails with 38" \
	sim_is "afs_syscall: ERRNO(38)" --caps none "$podman" afs_syscall
check "podman: defaultErrno ENOSYS on mipsel: 89, MIPS's number" \
	sh -c '[ "$("$1" sim -a mipsel --caps none "$2" afs_syscall)" = "afs_syscall: ERRNO(89)" ]' \
	sh "$U" "$podman"
check "podman: errno EPERM: kexec_load fails with 1" \
	sim_is "kexec_load: ERRNO(1)" --caps none "$podman" kexec_load
check "--kernel: a bad release is an error naming it" \
	sh -c '"$1" check --kernel x "$2" 2>&1 | grep -q "kernel release \"x\""' sh "$U" "$docker"
check "--caps: an unknown capability is a usage error" \
	sh -c '"$1" check --caps CAP_NOPE "$2" >/dev/null 2>&1; [ $? = 2 ]' sh "$U" "$docker"

# The comparison prints its own TAP: renumbered after ours.
"$compare" "$top"/tests/seccomp/compare/*.json "$top"/tests/seccomp/good/*.json \
	"$docker" "$podman" >"${TMPDIR:-/tmp}/compare.$$" 2>&1
rc=$?
awk -v n="$tap_n" '
	/^(not )?ok [0-9]+/ { sub(/ok [0-9]+/, "ok " ++n); print; next }
	/^1\.\.[0-9]+$/ { next }
	{ print }
	END { print "1.." n }' "${TMPDIR:-/tmp}/compare.$$"
rm -f "${TMPDIR:-/tmp}/compare.$$"
[ $rc = 0 ] && tap_exit
exit 1
