#!/bin/bash
# Build the QEMU test kernel: Debian's linux-source-6.12 with kernel/seccomp/
# applied as a series, configured from tinyconfig plus kselftest config
# fragments.
#
#   scripts/kernel.sh src                 extract and patch the source only
#   scripts/kernel.sh build VARIANT       build the kernel image + Module.symvers
#   scripts/kernel.sh modprep VARIANT     a directory to build external modules
#                                         against VARIANT in (printed)
#   scripts/kernel.sh makevars VARIANT    the ARCH= CROSS_COMPILE= such a build
#                                         needs (printed; empty for x86_64)
#   scripts/kernel.sh warnings LOG        the W=1 gate alone, on a build log
#
# Variants: "patched" (the series and the test fragments), "audit" (the same
# with CONFIG_AUDIT=y), "nolog" (the series with CONFIG_SECCOMP_LOG_ERRNO=n),
# "debug" (the same with KASAN, lockdep and kmemleak) and "vanilla" (no
# patches, for benchmarks), all for x86_64 (bzImage); "aarch64" (the series
# for qemu-system-aarch64 -M virt: ARCH=arm64, Image) and "mipsel" (the
# series for qemu-system-mipsel -M malta: ARCH=mips, 32-bit little-endian,
# vmlinux), cross-compiled with Debian's gcc-TRIPLE. Each variant has its own
# object directory; the patched source tree is shared (O= builds).
#
# The configuration is tinyconfig plus tests/kselftest/config, every
# tests/kselftest/*/config, the machine's tests/kselftest/arch/ARCH.config
# and the variant's tests/kselftest/variants/*.config, in that order.
#
# The build runs with W=1; a warning in a C file the series touches fails it.
#
# Artifacts land in build/kernel/out-VARIANT/. A finished build is also
# stored in a cache outside the clone ($UJAIL_KERNEL_CACHE, default
# /var/cache/ujail-kernel) under a hash of source, patches and config, so a
# second clone on the same machine does not compile again.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
kdir=${UJAIL_KERNEL_DIR:-$top/build/kernel}
series_dir=${UJAIL_SERIES_DIR:-$top/kernel/seccomp}
cache=${UJAIL_KERNEL_CACHE:-/var/cache/ujail-kernel}
jobs=${JOBS:-$(nproc)}

die() { echo "kernel.sh: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing (apt-get install linux-source-6.12)"

series() { ls "$series_dir"/*.patch 2>/dev/null | sort; }

# The kernel's ARCH for a variant.
karch() {
	case $1 in
	patched | audit | nolog | debug | vanilla) echo x86 ;;
	aarch64) echo arm64 ;;
	mipsel) echo mips ;;
	*) die "unknown variant '$1' (patched, audit, nolog, debug, vanilla, aarch64, mipsel)" ;;
	esac
}

# make in the source tree for VARIANT's architecture (a cross compiler for
# the router targets).
kmake() {
	local variant=$1; shift
	case $(karch "$variant") in
	x86) make "$@" ;;
	arm64) make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "$@" ;;
	mips) make ARCH=mips CROSS_COMPILE=mipsel-linux-gnu- "$@" ;;
	esac
}

# The image QEMU boots, relative to the object directory.
image_path() {
	case $(karch "$1") in
	x86) echo arch/x86/boot/bzImage ;;
	arm64) echo arch/arm64/boot/Image ;;
	mips) echo vmlinux ;;
	esac
}

fragments() {
	local variant=$1
	echo "$top/tests/kselftest/config"
	ls "$top"/tests/kselftest/*/config 2>/dev/null | sort
	echo "$top/tests/kselftest/arch/$(karch "$variant").config"
	case $variant in
	patched | aarch64 | mipsel) ;;
	audit) echo "$top/tests/kselftest/variants/audit.config" ;;
	nolog) echo "$top/tests/kselftest/variants/nolog.config" ;;
	vanilla) echo "$top/tests/kselftest/variants/vanilla.config" ;;
	debug) echo "$top/tests/kselftest/variants/debug.config" ;;
	esac
}

# The cross compiler a variant needs, or a clear error naming its package.
need_compiler() {
	local cc
	case $(karch "$1") in
	x86) return ;;
	arm64) cc=aarch64-linux-gnu-gcc ;;
	mips) cc=mipsel-linux-gnu-gcc ;;
	esac
	command -v "$cc" >/dev/null || die "$cc missing (apt-get install gcc-${cc%-gcc}; scripts/deps.sh)"
}

# Hash of everything a source tree depends on.
src_key() {
	local variant=$1
	{
		stat -c '%s %Y' "$tarball"
		[ "$variant" = vanilla ] || cat $(series) "$top/kernel/Kconfig"
	} | sha256sum | cut -c1-16
}

# Each patch is tried first, so a reject leaves the tree with exactly the
# patches recorded in .ujail-series applied, for the next run to reverse.
apply_series() {
	local src=$1 p
	for p in $(series); do
		echo "kernel.sh: applying $(basename "$p")" >&2
		if ! patch -d "$src" -p1 --forward --batch --fuzz=0 --dry-run <"$p" >"$src/.ujail-reject" 2>&1; then
			cat "$src/.ujail-reject" >&2
			die "$(basename "$p") does not apply to linux-source-6.12"
		fi
		patch -d "$src" -p1 --forward --batch --fuzz=0 --quiet <"$p" >&2
		cp "$p" "$src/.ujail-series/"
	done
	rm -f "$src/.ujail-reject"
}

# Reverse the series recorded in the tree; false if it does not reverse.
unapply_series() {
	local src=$1 p
	for p in $(ls "$src"/.ujail-series/*.patch 2>/dev/null | sort -r); do
		patch -d "$src" -p1 -R --batch --quiet --dry-run <"$p" >/dev/null 2>&1 || return 1
		patch -d "$src" -p1 -R --batch --quiet <"$p" >/dev/null
	done
}

# The in-tree entries of kernel/Kconfig: the repo's kernel/ becomes ujail/,
# sourced from the top-level Kconfig and built from the top-level Kbuild.
link_kconfig() {
	local src=$1
	ln -sfn "$top/kernel" "$src/ujail"
	grep -qxF 'source "ujail/Kconfig"' "$src/Kconfig" ||
		printf '\nsource "ujail/Kconfig"\n' >>"$src/Kconfig"
	grep -qxF 'obj-y += ujail/' "$src/Kbuild" ||
		printf '\nobj-y += ujail/\n' >>"$src/Kbuild"
}

# A clean tree with the current series applied. A changed series is
# reversed and re-applied in place, so make only rebuilds what it touches.
prepare_src() {
	local variant=$1 src key
	key=$(src_key "$variant")
	if [ "$variant" = vanilla ]; then src=$kdir/src-vanilla; else src=$kdir/src; fi
	if [ -f "$src/.ujail-key" ] && [ "$(cat "$src/.ujail-key")" = "$key" ]; then
		echo "$src"
		return
	fi
	rm -f "$src/.ujail-key"
	if [ ! -d "$src" ] || ! unapply_series "$src"; then
		echo "kernel.sh: extracting $(basename "$tarball") into ${src#"$top"/}" >&2
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
		# Extracted files carry the tarball's old mtimes: objects built
		# from an earlier tree must go, see build().
		date +%s.%N >"$src.tmp/.ujail-extracted"
		mv "$src.tmp" "$src"
	fi
	rm -rf "$src/.ujail-series"
	mkdir -p "$src/.ujail-series"
	if [ "$variant" != vanilla ]; then
		apply_series "$src"
		link_kconfig "$src"
	fi
	echo "$key" >"$src/.ujail-key"
	echo "$src"
}

configure() {
	local src=$1 obj=$2 variant=$3
	mkdir -p "$obj"
	kmake "$variant" -s -C "$src" O="$obj" tinyconfig >/dev/null
	# merge_config.sh runs no make with -m; ARCH only names the Kconfig.
	# shellcheck disable=SC2046
	(cd "$src" && KCONFIG_CONFIG="$obj/.config" scripts/kconfig/merge_config.sh \
		-m -O "$obj" "$obj/.config" $(fragments "$variant")) >/dev/null
	kmake "$variant" -s -C "$src" O="$obj" olddefconfig >/dev/null
	# Every option the fragments ask for (the last one wins) must have
	# survived olddefconfig, or a dependency is missing.
	# shellcheck disable=SC2046
	awk '/^CONFIG_[A-Z0-9_]+=/ { split($0, kv, "="); want[kv[1]] = $0 }
	     /^# CONFIG_[A-Z0-9_]+ is not set/ { want[$2] = $0 }
	     END { for (k in want) print want[k] }' $(fragments "$variant") |
	while read -r line; do
		# The unpatched tree has no such option.
		[ "$variant" = vanilla ] && [[ $line == *SECCOMP_LOG_ERRNO* || $line == *CONFIG_UJAIL=* ||
			$line == *CONFIG_JAILFS_FS=* ]] && continue
		grep -qxF -- "$line" "$obj/.config" ||
			echo "kernel.sh: config fragments ask for '$line' but the final config differs (missing dependency?)" >&2
	done 2>&1 | tee "$obj/.ujail-config-errors" >&2
	[ ! -s "$obj/.ujail-config-errors" ] || die "fix the config fragments"
}

# W=1 warnings in the C files the series touches fail the build.
check_warnings() {
	local variant=$1 log=$2 files found
	[ "$variant" != vanilla ] || return 0
	files=$(sed -n 's|^+++ b/\(.*\.[ch]\)$|\1|p' $(series) | grep -v '^tools/' | sort -u)
	files+=" $(cd "$top/kernel" && ls jailfs/*.[ch] 2>/dev/null | sed 's|^|ujail/|')"
	found=$(for f in $files; do grep -F "$f:" "$log"; done | grep -E 'warning|error' || true)
	[ -z "$found" ] || { echo "$found" >&2; die "W=1 warnings in code the series touches"; }
}

# A variant's first build starts from the patched kernel's objects, when
# they are there: the variants differ from it in a few options, and Kbuild
# records which CONFIG_ symbols each object depends on, so only those
# objects are compiled again (audit and nolog take a minute or two instead
# of seven; debug, whose compiler flags all differ, is compiled whole).
seed_objects() {
	local variant=$1 src=$2 obj=$3 from=$kdir/obj-patched
	case $variant in patched | vanilla | aarch64 | mipsel) return ;; esac
	[ -f "$from/vmlinux" ] && cmp -s "$src/.ujail-extracted" "$from/.ujail-extracted" || return 0
	echo "kernel.sh: the $variant kernel starts from the patched kernel's objects" >&2
	cp -a "$from" "$obj.tmp" && mv "$obj.tmp" "$obj"
}

build() {
	local variant=$1 src obj out key image
	karch "$variant" >/dev/null	# dies here on an unknown variant
	need_compiler "$variant"
	src=$(prepare_src "$variant")
	obj=$kdir/obj-$variant
	out=$kdir/out-$variant
	image=$(image_path "$variant")
	# The architecture is in the key through its fragment's name and
	# contents (and the variant's name, for the cross variants).
	# shellcheck disable=SC2046
	key=$( { cat "$src/.ujail-key"; fragments "$variant" | sed "s|^$top/||"
		cat $(fragments "$variant"); cat "$0"; } | sha256sum | cut -c1-16)

	if [ -f "$out/.ujail-key" ] && [ "$(cat "$out/.ujail-key")" = "$key" ]; then
		return
	fi
	if [ -f "$cache/$key/$(basename "$image")" ]; then
		echo "kernel.sh: $variant kernel from cache $cache/$key" >&2
		rm -rf "$out"; mkdir -p "$out"
		cp -a "$cache/$key/." "$out/"
		return
	fi

	# Objects from a previous extraction cannot be trusted (see
	# prepare_src); a series re-applied in place is left to make.
	if ! cmp -s "$src/.ujail-extracted" "$obj/.ujail-extracted"; then
		rm -rf "$obj"
		seed_objects "$variant" "$src" "$obj"
	fi
	configure "$src" "$obj" "$variant"
	cp "$src/.ujail-extracted" "$obj/.ujail-extracted"
	echo "kernel.sh: building the $variant kernel (ARCH=$(karch "$variant"); about 7 minutes on 2 cores from scratch)" >&2
	kmake "$variant" -s -C "$src" O="$obj" -j"$jobs" W=1 "$(basename "$image")" modules \
		>/dev/null 2>"$obj/.ujail-build.log" || {
		tail -n 30 "$obj/.ujail-build.log" >&2
		die "kernel build failed (make -C ${src#"$top"/} O=${obj#"$top"/} ARCH=$(karch "$variant") W=1)"
	}
	check_warnings "$variant" "$obj/.ujail-build.log"

	rm -rf "$out"; mkdir -p "$out"
	cp "$obj/$image" "$obj/.config" "$obj/Module.symvers" "$obj/System.map" "$out/"
	echo "$key" >"$out/.ujail-key"
	if mkdir -p "$cache/$key.tmp" 2>/dev/null; then
		cp -a "$out/." "$cache/$key.tmp/" && rm -rf "$cache/$key" && mv "$cache/$key.tmp" "$cache/$key"
	fi
}

# A build directory for external modules (jailfs) against the VARIANT
# kernel: its config and Module.symvers, with modules_prepare done. A cached
# kernel comes without one, so it is made here (about a minute).
modprep() {
	local variant=$1 src obj out
	build "$variant"
	src=$(prepare_src "$variant")
	obj=$kdir/obj-$variant
	out=$kdir/out-$variant
	if ! cmp -s "$out/.ujail-key" "$obj/.ujail-modprep-key"; then
		if ! cmp -s "$src/.ujail-extracted" "$obj/.ujail-extracted"; then
			rm -rf "$obj"
		fi
		mkdir -p "$obj"
		cp "$src/.ujail-extracted" "$obj/.ujail-extracted"
		cp "$out/.config" "$obj/.config"
		kmake "$variant" -s -C "$src" O="$obj" olddefconfig >/dev/null
		kmake "$variant" -s -C "$src" O="$obj" -j"$jobs" modules_prepare >/dev/null \
			2>"$obj/.ujail-modprep.log" || {
			tail -n 30 "$obj/.ujail-modprep.log" >&2
			die "modules_prepare failed for the $variant kernel"
		}
		cp "$out/Module.symvers" "$obj/Module.symvers"
		cp "$out/.ujail-key" "$obj/.ujail-modprep-key"
	fi
	echo "$obj"
}

case ${1:-} in
src) prepare_src "${2:-patched}" >/dev/null ;;
build) build "${2:-patched}" ;;
modprep) modprep "${2:-patched}" ;;
# The make variables an external module build against VARIANT needs.
makevars) karch "${2:-patched}" >/dev/null
	case $(karch "${2:-patched}") in
	arm64) echo "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" ;;
	mips) echo "ARCH=mips CROSS_COMPILE=mipsel-linux-gnu-" ;;
	*) echo ;;
	esac ;;
warnings) check_warnings patched "${2:?usage: kernel.sh warnings BUILD_LOG}" ;;
*) die "usage: kernel.sh src [VARIANT] | build VARIANT | modprep VARIANT | makevars VARIANT | warnings BUILD_LOG" ;;
esac
