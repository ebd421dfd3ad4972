# Sourced by scripts/check-target.sh and scripts/check-debug.sh:
# build_step NAME COMMAND... runs a build as one TAP result in
# $results/build-NAME.tap, its log kept in build-NAME.log and its tail
# shown when it fails. $build_label names the run in the progress line.
# shellcheck shell=bash
build_step() {
	local name=$1; shift
	echo "== ${build_label:?} build: $name"
	if "$@" >"$results/build-$name.log" 2>&1; then
		echo "ok 1 build $name" >"$results/build-$name.tap"
		return 0
	fi
	tail -n 40 "$results/build-$name.log"
	echo "not ok 1 build $name" >"$results/build-$name.tap"
	return 1
}
