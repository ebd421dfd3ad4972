# Shared by the shell test suites: TAP results from assertions.
#   check DESCRIPTION COMMAND...   one result: ok when COMMAND succeeds
#   tap_exit                       exit non-zero when any check failed
tap_n=0
tap_failed=0

check() {
	local desc=$1; shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n $desc"
	else
		echo "not ok $tap_n $desc"
		tap_failed=1
	fi
}

tap_exit() { exit "$tap_failed"; }
