#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What each namespace and the cgroup add to a jail's start-up: start-to-exit
# time of /bin/true in ujail with one option more than its base jail (mnt,
# pid, ipc, uts), next to bubblewrap with the equivalent option over its
# own base (pid, ipc, uts, the same files bound) and bench/ns_floor (the
# kernel alone) with the same namespaces.
#
#   bench/ujail_ns_bench.sh           on the host
#   bench/ujail_ns_bench.sh --qemu    in QEMU on the patched kernel
#                                     (build/kernel/out-patched/bzImage),
#                                     with a cgroup2 that has the controllers
#   bench/ujail_ns_bench.sh --qemu TARGET   the same on a router target's
#                                     patched kernel (aarch64, mipsel): its
#                                     static ujail (musl), and Debian's bash,
#                                     bwrap and true for it (scripts/target-deb.sh)
#
# Under TCG the times are the emulator's: read the ratios to the kernel's
# floor (ns_floor) in the same run, not the milliseconds.
#
# The cgroup limits need a cgroup2 with the memory and pids controllers; a
# host without one (cgroup v1 hybrid) gets "n/a" there, and --qemu measures
# them. N (default 100) runs per case. UJAIL_BEFORE=PATH (host): another
# ujail (a build before a change) in the same rounds, its base jail and
# -p -N -f -F, for a paired before and after. Output: stdout and
# build/bench/ujail_ns_bench.txt (--qemu: ujail_ns_bench_qemu.txt).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
B=$top/build
N=${N:-100}
mode=host target=x86_64
case ${1:-} in
--qemu) mode=qemu target=${2:-x86_64} ;;
--guest) mode=guest ;;	# internal: the run inside QEMU
"") ;;
*) echo "usage: $0 [--qemu [aarch64|mipsel]]" >&2; exit 2 ;;
esac
case $target in
x86_64 | aarch64 | mipsel) ;;
*) echo "ujail_ns_bench: --qemu $target: x86_64, aarch64 or mipsel" >&2; exit 2 ;;
esac
# The guest has no build tree: it is given the programs' paths.
UJAIL=${UJAIL:-$B/bin/ujail}
UJAIL_INST=""
UJAIL_BEFORE=${UJAIL_BEFORE:-}
DEPS=${DEPS:-$B/bin/ujail-deps}
TIMER=${TIMER:-$B/bench/spawn_time}
FLOOR=${FLOOR:-$B/bench/ns_floor}
TRUE=${TRUE:-/bin/true}

die() { echo "ujail_ns_bench: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "must run as root (ujail needs it)"
command -v bwrap >/dev/null || die "bwrap missing: install the Debian package bubblewrap (scripts/deps.sh)"
if [ "$mode" = qemu ] && [ "$target" != x86_64 ]; then
	X=$B/$target
	UJAIL=$X/bin/ujail DEPS=$X/bin/ujail-deps TIMER=$X/bench/spawn_time FLOOR=$X/bench/ns_floor
	cd "$top"
	make -s "cross-$target" "kernel-$target" "$UJAIL" "$DEPS" "$TIMER" "$FLOOR" ||
		die "cannot build the $target programs or kernel"
elif [ "$mode" != guest ]; then
	cd "$top"
	{ [ -x "$UJAIL" ] && [ -x "$DEPS" ]; } || die "$UJAIL or $DEPS missing: run make ujail ujail-lib"
	# On the host, the installed form too (make install: dynamic).
	if [ "$mode" = host ]; then
		make -s bench-inst || die "cannot install ujail into $B/bench/inst"
		UJAIL_INST=$B/bench/inst/usr/bin/ujail
	fi
	for prog in "$TIMER" "$FLOOR"; do
		if [ ! -x "$prog" ] || [ "$prog" -ot "bench/$(basename "$prog").c" ]; then
			make -s "$prog" || die "cannot build $prog"
		fi
	done
	mkdir -p "$B/bench"
fi

# --qemu: boot the patched kernel with this script, the programs, bash,
# bwrap and /usr/bin/true (the host's, with their libraries), and run the
# script there with --guest.
# The guest's bash, bwrap and true for a router target: Debian's packages
# for its architecture, unpacked (not installed), their files given to the
# guest at their paths; bash and true go to /usr/bin, apart from busybox's
# /bin.
target_files() {
	local pkg dir f
	for pkg in libc6 libgcc-s1 bash libtinfo6 bubblewrap libcap2 libselinux1 libpcre2-8-0 \
		coreutils libacl1 libattr1 libgmp10; do
		dir=$(scripts/target-deb.sh "$target" "$pkg") || die "no $pkg for $target"
		while IFS= read -r f; do
			case $f in
			/bin/bash) echo "--guest-file"; echo "$dir$f=/usr/bin/bash" ;;
			/bin/true) echo "--guest-file"; echo "$dir$f=/usr/bin/true" ;;
			/lib/* | /usr/lib/* | /usr/bin/bwrap) echo "--guest-file"; echo "$dir$f=$f" ;;
			esac
		done < <(cd "$dir" && find . \( -type f -o -type l \) -name '*' | sed 's|^\.||' |
			grep -E '^/(bin/(bash|true)|usr/bin/bwrap|(usr/)?lib/[^/]*-linux-gnu[^/]*/.*\.so[.0-9]*|lib/ld\.so\.1|lib/ld-linux-aarch64\.so\.1)$')
	done
}

if [ "$mode" = qemu ]; then
	case $target in
	x86_64) kernel=$B/kernel/out-patched/bzImage keeper=$B/lib/ujail/ujail-keeper
		suffix=qemu ;;
	aarch64) kernel=$B/kernel/out-aarch64/Image keeper=$B/$target/lib/ujail/ujail-keeper
		suffix=qemu_$target ;;
	mipsel) kernel=$B/kernel/out-mipsel/vmlinux keeper=$B/$target/lib/ujail/ujail-keeper
		suffix=qemu_$target ;;
	esac
	[ -e "$kernel" ] || die "$kernel missing: run make kernel"
	vmdir=$B/bench/ujail_ns_vm
	out=$B/bench/ujail_ns_$suffix
	rm -rf "$vmdir" && mkdir -p "$vmdir/ujb/bin" "$vmdir/ujb/lib/ujail"
	# ujail looks for its keeper at ../lib/ujail from its binary.
	cp "$UJAIL" "$vmdir/ujb/bin/"
	cp "$keeper" "$vmdir/ujb/lib/ujail/"
	host_files=()
	guest_bash=/usr/bin/bash
	if [ "$target" = x86_64 ]; then
		guest_bash=/bin/bash
		for bin in /bin/bash "$(command -v bwrap)" /usr/bin/true "$DEPS" "$TIMER"; do
			case $bin in "$B"/*) ;; *) host_files+=(--host-file "$bin") ;; esac
			for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
				host_files+=(--host-file "$lib")
			done
		done
		# ujail and bwrap then stage the same files as on the host.
		[ ! -e /etc/ld.so.cache ] || host_files+=(--host-file /etc/ld.so.cache)
	else
		mapfile -t host_files < <(target_files)
		[ ${#host_files[@]} -gt 0 ] || die "no files for the $target guest"
	fi
	# As scripts/check.sh does for ujail's suite: pivot_root refuses the
	# initramfs, and a chrooted process gets no user namespace, so the
	# run is in a bind mount of / moved over /; cgroup2 on /sys/fs/cgroup.
	# bash's process substitution needs /dev/fd, which devtmpfs lacks.
	setup='ln -sf /proc/self/fd /dev/fd && mkdir -p /newroot && mount --bind / /newroot'
	setup+=' && mount --rbind /dev /newroot/dev'
	setup+=' && mount -t proc proc /newroot/proc && mount -t sysfs sys /newroot/sys'
	setup+=' && mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup && mount -t tmpfs tmp /newroot/tmp'
	env="N=$N UJAIL=/opt/tests/ujb/bin/ujail DEPS=/opt/tests/ujail-deps TIMER=/opt/tests/spawn_time"
	env+=" FLOOR=/opt/tests/ns_floor TRUE=/usr/bin/true PATH=/usr/bin:/bin"
	env+=" UJB_WHERE='QEMU/$(scripts/vm_accel "$kernel" "$target") $target, guest'"
	run="unshare -m sh -c \"cd /newroot && mount --move . / && exec chroot . env $env"
	run+=" $guest_bash /opt/tests/ujail_ns_bench.sh --guest\""
	echo "ujail_ns_bench: booting $kernel ($target) in QEMU (log: $out.log)"
	scripts/vm.sh --arch "$target" --kernel "$kernel" --out "$out" --timeout "${TIMEOUT:-3600}" --mem 1024 \
		--file "$top/bench/ujail_ns_bench.sh" --file "$top/bench/bwrap_stage.sh" \
		--file "$vmdir/ujb" --file "$DEPS" \
		--file "$TIMER" --file "$FLOOR" "${host_files[@]}" \
		--run "setup: $setup" --run "ujail_ns_bench: $run" >"$out.log" 2>&1 ||
		{ cat "$out.log"; cat "$out/ujail_ns_bench.tap" 2>/dev/null; die "the guest run failed"; }
	tee "$B/bench/ujail_ns_bench_$suffix.txt" <"$out/ujail_ns_bench.tap"
	exit 0
fi

# Unique names: a veth, a cgroup parent of our own, both removed at exit.
veth=ujb$$
vaddr=(--host-addr 10.231.77.1/30 --jail-addr 10.231.77.2/30)
cg_mount="" cg_parent="" cg_limits="" cg_why=""
cleanup() {
	local d
	# ujail removes its pair and cgroup before it returns; an interrupted
	# run may not have.
	[ ! -e "/sys/class/net/$veth" ] || ip link del "$veth" 2>/dev/null || true
	if [ -n "$cg_parent" ] && [ -d "$cg_parent" ]; then
		for d in "$cg_parent"/*/; do
			[ ! -d "$d" ] || rmdir "$d" 2>/dev/null || true
		done
		rmdir "$cg_parent" 2>/dev/null || echo "ujail_ns_bench: $cg_parent left behind" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ ! -e "/sys/class/net/$veth" ] || die "the host already has an interface $veth"
# The first cgroup2 mount: pure v2 at /sys/fs/cgroup, or the hybrid
# layout's /sys/fs/cgroup/unified (often without any controller).
for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ -e "$d/cgroup.controllers" ] && { cg_mount=$d; break; }
done
if [ -z "$cg_mount" ]; then
	cg_why="no cgroup v2 on this host"
elif ! mkdir "$cg_mount/ujail-ns-bench.$$" 2>/dev/null; then
	cg_why="$cg_mount is not writable"
else
	cg_parent=$cg_mount/ujail-ns-bench.$$
	offered=" $(cat "$cg_mount/cgroup.controllers") "
	case $offered in *" memory "*) case $offered in *" pids "*) cg_limits=1 ;; esac ;; esac
	[ -n "$cg_limits" ] || cg_why="no memory and pids controllers in $cg_mount"
fi

[ "$mode" = guest ] || exec > >(tee "$B/bench/ujail_ns_bench.txt")

# shellcheck source=bench/bwrap_stage.sh
. "$here/bwrap_stage.sh"
mapfile -t BW_TRUE < <(bwrap_stage "$TRUE")
BW=(bwrap --unshare-pid --unshare-ipc --unshare-uts --dev /dev "${BW_TRUE[@]}")
UJ=("$UJAIL" -n bench)

# The cases, measured in interleaved rounds: the machine's load drifts
# (builds run beside), and each case should see the same drift, or the
# differences between cases are the load's. One run of each case per
# round; the first round only warms up.
# case KEY LABEL CMD...: a case; "case KEY LABEL" alone is not measured
# (the reason is $na).
declare -A label cmd why samples cpu_samples med p90 cpu
keys=()
na=""
case_() {
	local key=$1
	keys+=("$key"); label[$key]=$2
	shift 2
	if [ $# -eq 0 ]; then why[$key]=$na; else cmd[$key]=$(printf '%q ' "$@"); fi
}
measure() {
	local round k r
	for round in $(seq 0 "$N"); do
		[ ! -t 2 ] || [ $((round % 10)) != 0 ] || printf '\rround %s/%s ' "$round" "$N" >&2
		for k in "${keys[@]}"; do
			[ -n "${cmd[$k]:-}" ] || continue
			r=$(eval "\"\$TIMER\" -c -n 1 -w 0 -- ${cmd[$k]}") || {
				# Once more, for its message.
				eval "${cmd[$k]}" >/dev/null || true
				die "${label[$k]}: the command failed: ${cmd[$k]}"
			}
			[ "$round" = 0 ] || { samples[$k]+="${r%% *} "; cpu_samples[$k]+="${r##* } "; }
		done
	done
	[ ! -t 2 ] || printf '\r' >&2
	# Median and 90th percentile as bench/spawn_time computes them.
	for k in "${keys[@]}"; do
		[ -n "${samples[$k]:-}" ] || continue
		r=$(tr ' ' '\n' <<<"${samples[$k]}" | sort -g | awk 'NF { t[n++] = $1 } END {
			printf "%.3f %.3f", n % 2 ? t[int(n / 2)] : (t[n / 2 - 1] + t[n / 2]) / 2,
				t[int(0.9 * (n - 1) + 0.5)] }')
		med[$k]=${r% *}; p90[$k]=${r#* }
		cpu[$k]=$(tr ' ' '\n' <<<"${cpu_samples[$k]}" | sort -g | awk 'NF { t[n++] = $1 } END {
			printf "%.3f", n % 2 ? t[int(n / 2)] : (t[n / 2 - 1] + t[n / 2]) / 2 }')
	done
}

case_ u.base  "ujail (mnt,pid,ipc,uts)"      "${UJ[@]}" -- "$TRUE"
case_ u.net   "ujail -N"                     "${UJ[@]}" -N -- "$TRUE"
case_ u.user  "ujail -f"                     "${UJ[@]}" -f -- "$TRUE"
case_ u.cgns  "ujail -F"                     "${UJ[@]}" -F -- "$TRUE"
case_ u.veth  "ujail --veth, 2 addresses"    "${UJ[@]}" --veth "$veth" "${vaddr[@]}" -- "$TRUE"
case_ u.proc  "ujail -p"                     "${UJ[@]}" -p -- "$TRUE"
# Its own cgroup without limits needs no controller: made, joined, killed
# and removed all the same.
cg=(--cgroup-parent "$cg_parent")
lim=("${cg[@]}" --pids-max 64 --memory-max 64M)
na=$cg_why
if [ -n "$cg_parent" ]; then
	case_ u.cg "ujail --cgroup-parent (no limit)" "${UJ[@]}" "${cg[@]}" -- "$TRUE"
else
	case_ u.cg "ujail --cgroup-parent (no limit)"
fi
if [ -n "$cg_limits" ]; then
	case_ u.lim "ujail --pids-max 64 --memory-max 64M" "${UJ[@]}" "${lim[@]}" -- "$TRUE"
else
	case_ u.lim "ujail --pids-max 64 --memory-max 64M"
fi
case_ u.all   "ujail -p -N -f -F"            "${UJ[@]}" -p -N -f -F -- "$TRUE"
if [ -n "$UJAIL_BEFORE" ]; then
	[ -x "$UJAIL_BEFORE" ] || die "UJAIL_BEFORE=$UJAIL_BEFORE: not a program"
	case_ o.base "UJAIL_BEFORE (mnt,pid,ipc,uts)" "$UJAIL_BEFORE" -n bench -- "$TRUE"
	case_ o.all  "UJAIL_BEFORE -p -N -f -F"       "$UJAIL_BEFORE" -n bench -p -N -f -F -- "$TRUE"
fi
na="the static build only here"
if [ -n "$UJAIL_INST" ]; then
	case_ i.base "ujail installed (mnt,pid,ipc,uts)" "$UJAIL_INST" -n bench -- "$TRUE"
	case_ i.all  "ujail installed -p -N -f -F"    "$UJAIL_INST" -n bench -p -N -f -F -- "$TRUE"
else
	case_ i.base "ujail installed (mnt,pid,ipc,uts)"
	case_ i.all  "ujail installed -p -N -f -F"
fi
# Everything: the veth, and the limits where there are controllers.
every=(-p -f -F --veth "$veth" "${vaddr[@]}")
if [ -n "$cg_limits" ]; then
	every+=("${lim[@]}")
elif [ -n "$cg_parent" ]; then
	every+=("${cg[@]}")
fi
case_ u.every "ujail -p -f -F --veth, cgroup" "${UJ[@]}" "${every[@]}" -- "$TRUE"
case_ b.base  "bwrap pid,ipc,uts"            "${BW[@]}" "$TRUE"
case_ b.net   "bwrap ... --unshare-net"      "${BW[@]}" --unshare-net "$TRUE"
case_ b.user  "bwrap ... --unshare-user"     "${BW[@]}" --unshare-user "$TRUE"
case_ b.cgns  "bwrap ... --unshare-cgroup"   "${BW[@]}" --unshare-cgroup "$TRUE"
case_ b.proc  "bwrap ... --proc /proc"       "${BW[@]}" --proc /proc "$TRUE"
case_ b.all   "bwrap ... --unshare-all --proc /proc" "${BW[@]}" --unshare-all --proc /proc "$TRUE"
case_ f.base  "floor: ns_floor (mnt,pid,ipc,uts)" "$FLOOR" -- "$TRUE"
case_ f.net   "floor: ns_floor -N"           "$FLOOR" -N -- "$TRUE"
case_ f.user  "floor: ns_floor -U"           "$FLOOR" -U -- "$TRUE"
case_ f.cgns  "floor: ns_floor -C"           "$FLOOR" -C -- "$TRUE"
case_ f.all   "floor: ns_floor -N -U -C"     "$FLOOR" -N -U -C -- "$TRUE"
measure

echo "ujail: the start-up cost of each namespace and of the cgroup, $(date -u '+%Y-%m-%d %H:%M UTC'),"
echo "${UJB_WHERE:-host} kernel $(uname -r), $(nproc) CPUs, $(bwrap --version)"
echo "cgroup2: ${cg_mount:-none}, controllers: $( [ -z "$cg_mount" ] || cat "$cg_mount/cgroup.controllers")"
echo
echo "Start-to-exit time of $TRUE, $N rounds, the cases interleaved (ms);"
echo "cpu: median CPU time per start, user + system of the whole process tree (ms)"
printf '%-44s %9s %9s %9s\n' case median p90 cpu
for k in "${keys[@]}"; do
	if [ -n "${med[$k]:-}" ]; then
		printf '%-44s %9s %9s %9s\n' "${label[$k]}" "${med[$k]}" "${p90[$k]}" "${cpu[$k]}"
	else
		printf '%-44s %9s\n' "${label[$k]}" "n/a (${why[$k]})"
	fi
done

# Median of KEY; "+" the median minus its runner's base ("-" if either is
# missing).
ms() { [ -n "$1" ] && [ -n "${med[$1]:-}" ] && printf '%s' "${med[$1]}" || printf -- -; }
plus() {
	local k=$1 base=${1%%.*}.base
	if [ -n "$k" ] && [ -n "${med[$k]:-}" ] && [ -n "${med[$base]:-}" ]; then
		awk -v a="${med[$k]}" -v b="${med[$base]}" 'BEGIN { printf "%+.3f", a - b }'
	else
		printf -- -
	fi
}
# line OPTION UJAIL-KEY BWRAP-OPTION BWRAP-KEY FLOOR-KEY
line() {
	printf '%-32s %8s %8s   %-22s %8s %8s %8s %8s\n' "$1" "$(ms "$2")" "$(plus "$2")" \
		"$3" "$(ms "$4")" "$(plus "$4")" "$(ms "$5")" "$(plus "$5")"
}
base() {	# a base row: its median, no "+"
	printf '%-32s %8s %8s   %-22s %8s %8s %8s %8s\n' "$1" "$(ms "$2")" "" \
		"$3" "$(ms "$4")" "" "$(ms "$5")" ""
}
echo
echo "Added start-up cost of each option: median, and median minus the runner's base (ms)"
printf '%-32s %8s %8s   %-22s %8s %8s %8s %8s\n' "ujail option" ujail +ujail "bwrap option" bwrap +bwrap floor +floor
base "base (mnt,pid,ipc,uts)"         u.base  "pid,ipc,uts"          b.base f.base
line "-N (net, lo up)"                u.net   "--unshare-net"        b.net  f.net
line "-f (user)"                      u.user  "--unshare-user"       b.user f.user
line "-F (cgroup ns)"                 u.cgns  "--unshare-cgroup"     b.cgns f.cgns
line "--veth + 2 addresses"           u.veth  "n/a"                  "" ""
line "-p (/proc)"                     u.proc  "--proc /proc"         b.proc ""
line "own cgroup, no limit"           u.cg    "n/a"                  "" ""
line "--pids-max 64 --memory-max 64M" u.lim   "n/a"                  "" ""
line "-p -N -f -F"                    u.all   "--unshare-all --proc" b.all  f.all
line "-p -f -F --veth + cgroup"       u.every "n/a"                  "" ""
# vs U-KEY OTHER-KEY: ujail's median time and CPU time over another runner's
vs() {
	awk -v a="${med[$1]}" -v b="${med[$2]}" -v c="${cpu[$1]}" -v d="${cpu[$2]}" \
		'BEGIN { printf "%8.2f %8.2f", a / b, c / d }'
}
echo
# Only the rows where all three make the same namespaces: -N, -f or -F
# alone make no mount namespace in ujail (procd's rules: ns.c), while
# bubblewrap and the floor always have one.
echo "ujail over the floor and over bubblewrap, the same namespaces: time and CPU time ratios"
echo "(goal: time <= 1.15x the floor's, CPU time <= 1x bubblewrap's)"
printf '%-24s %8s %8s   %8s %8s\n' namespaces "t/floor" "cpu/flr" "t/bwrap" "cpu/bwrp"
printf '%-24s %s   %s\n' "mnt,pid,ipc,uts"  "$(vs u.base f.base)" "$(vs u.base b.base)"
printf '%-24s %s   %s   (floor: no /proc)\n' "+net,user,cgroup,/proc" "$(vs u.all f.all)" "$(vs u.all b.all)"
if [ -n "$UJAIL_BEFORE" ]; then
	echo "the same, UJAIL_BEFORE ($UJAIL_BEFORE)"
	printf '%-24s %s   %s\n' "mnt,pid,ipc,uts"  "$(vs o.base f.base)" "$(vs o.base b.base)"
	printf '%-24s %s   %s   (floor: no /proc)\n' "+net,user,cgroup,/proc" "$(vs o.all f.all)" "$(vs o.all b.all)"
fi
if [ -n "$UJAIL_INST" ]; then
	echo "the same, ujail installed (make install: dynamic; above: the static test build)"
	printf '%-24s %s   %s\n' "mnt,pid,ipc,uts"  "$(vs i.base f.base)" "$(vs i.base b.base)"
	printf '%-24s %s   %s   (floor: no /proc)\n' "+net,user,cgroup,/proc" "$(vs i.all f.all)" "$(vs i.all b.all)"
fi
[ -n "$cg_limits" ] || echo "cgroup limits: n/a ($cg_why); bench/ujail_ns_bench.sh --qemu measures them"
[ -n "$cg_limits" ] || [ -z "$cg_parent" ] || echo "\"-p -f -F --veth + cgroup\": its own cgroup, without limits"
