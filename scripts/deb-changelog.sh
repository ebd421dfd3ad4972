#!/bin/sh
# debian/changelog from VERSION, the one place the release is written:
#   scripts/deb-changelog.sh [--check]
# --check: exit 1 if debian/changelog's version is not VERSION's.
# The package is native: its version is VERSION's, no Debian revision.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(cat "$top/VERSION")
log=$top/debian/changelog
if [ "${1:-}" = --check ]; then
	got=$(dpkg-parsechangelog -l "$log" -S Version)
	[ "$got" = "$version" ] && exit 0
	echo "deb-changelog.sh: debian/changelog says $got, VERSION $version: run scripts/deb-changelog.sh" >&2
	exit 1
fi
cat >"$log" <<END
ujail ($version) unstable; urgency=medium

  * Release $version: ujail, its keeper, ujail-seccomp, seccomp-trace,
    utrace and the preload shims; the jailfs module as DKMS source.

 -- ujail maintainers <maintainers@users.noreply.a-seed-13286d1d.example>  Sun, 01 Mar 2026 12:00:00 +0000
END
