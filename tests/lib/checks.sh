# Shared by the ujail shell suites, after tap.sh: assertions on a command's
# output, each one check. They keep the command's stdout and stderr in
# $tmp/out and $tmp/err (the suite sets $tmp), for a later err_has.
# `local` is not POSIX but dash and busybox ash have it.
# shellcheck disable=SC3043

# out_is WANT CMD...: CMD's stdout is WANT.
out_is() {
	local want="$1" got
	shift
	got=$("$@" 2>"$tmp/err")
	[ "$got" = "$want" ] && return 0
	echo "# want '$want', got '$got' ($(head -c 300 "$tmp/err"))"
	return 1
}

# rc_is WANT CMD...: CMD exits with WANT.
rc_is() {
	local want="$1" rc
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] && return 0
	echo "# exit status $rc, want $want ($(head -c 300 "$tmp/err"))"
	return 1
}

# err_has TEXT: the last command's stderr names TEXT.
err_has() {
	grep -qF -- "$1" "$tmp/err" && return 0
	echo "# stderr lacks '$1': $(head -c 300 "$tmp/err")"
	return 1
}
