# SPDX-License-Identifier: GPL-2.0
# Sourced by the ujail benchmarks. bwrap_stage PROGRAM: bwrap arguments,
# one per line, staging what ujail stages for PROGRAM ($DEPS is
# ujail-deps): the program, its ELF interpreter, its libraries and
# ld.so.cache, as read-only binds of the same files. Symlinks (/bin ->
# usr/bin on a merged /usr) become symlinks; paths reached through a
# symlinked directory come with that directory.
bwrap_stage() {
	local f d
	for f in $("$DEPS" "$1"); do
		d=$(realpath "$(dirname "$f")")
		[ "${d%/}/$(basename "$f")" = "$f" ] || continue
		if [ -L "$f" ]; then
			printf '%s\n' --symlink "$(readlink "$f")" "$f"
		else
			printf '%s\n' --ro-bind "$f" "$f"
		fi
	done
}
