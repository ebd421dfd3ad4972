#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# get-profiles.sh OUTDIR: Docker's and podman's default seccomp profiles,
# unchanged, from Debian's packages of their sources (see README.md):
#   OUTDIR/docker-default.json   golang-github-docker-docker-dev
#   OUTDIR/podman-seccomp.json   golang-github-containers-common-dev
#   OUTDIR/VERSIONS              the package versions they came from
# The packages are downloaded (apt-get download), not installed: only the
# two files are taken. Does nothing when OUTDIR has them already.
set -eu

[ $# -eq 1 ] || { echo "usage: get-profiles.sh OUTDIR" >&2; exit 2; }
out=$1
[ -s "$out/docker-default.json" ] && [ -s "$out/podman-seccomp.json" ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# take PACKAGE PATH-IN-PACKAGE NAME
take() {
	(cd "$tmp" && apt-get download -q "$1" >/dev/null 2>"$tmp/apt.err") || {
		cat "$tmp/apt.err" >&2
		echo "get-profiles.sh: apt-get download $1 failed" >&2
		exit 1
	}
	deb=$(ls "$tmp/$1"_*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O "./$2" >"$out/$3.tmp"
	mv "$out/$3.tmp" "$out/$3"
	dpkg-deb -f "$deb" Package Version | tr '\n' ' ' >>"$out/VERSIONS.tmp"
	echo "-> $3" >>"$out/VERSIONS.tmp"
}

: >"$out/VERSIONS.tmp"
take golang-github-docker-docker-dev \
	usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json \
	docker-default.json
take golang-github-containers-common-dev \
	usr/share/gocode/src/github.com/containers/common/pkg/seccomp/seccomp.json \
	podman-seccomp.json
mv "$out/VERSIONS.tmp" "$out/VERSIONS"
