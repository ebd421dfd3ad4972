#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ujail's cost next to bubblewrap and unshare(1): start-to-exit time of
# /bin/true in a jail, resident memory (PSS) of the supervisor while the
# service sleeps, and root setup time for many staged files.
# N (default 200) runs per start-up case; SETUP_N (default 10) runs per
# root-setup case. Output: stdout and build/bench/ujail_bench.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
cd "$top"
B=$top/build
out=$B/bench/ujail_bench.txt
N=${N:-200}
SETUP_N=${SETUP_N:-10}
UJAIL=$B/bin/ujail
# The installed form (make bench-inst: make install into build/bench/inst).
UJAIL_INST=$B/bench/inst/usr/bin/ujail
DEPS=$B/bin/ujail-deps
TIMER=$B/bench/spawn_time
FLOOR=$B/bench/ns_floor

die() { echo "ujail_bench: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "must run as root (ujail needs it)"
command -v bwrap >/dev/null || die "bwrap missing: install the Debian package bubblewrap (scripts/deps.sh)"
command -v unshare >/dev/null || die "unshare missing: install util-linux"
{ [ -x "$UJAIL" ] && [ -x "$DEPS" ]; } || die "$UJAIL or $DEPS missing: run make ujail"
for prog in "$TIMER" "$FLOOR"; do
	if [ ! -x "$prog" ] || [ "$prog" -ot "bench/$(basename "$prog").c" ]; then
		make -s "$prog" || die "cannot build $prog"
	fi
done

tmp=$(mktemp -d /tmp/ujail_bench.XXXXXX)
bgpids=()	# every process the PSS part starts, to kill at the end
cleanup() {
	local p
	for p in "${bgpids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	for p in "${bgpids[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$B/bench"
exec > >(tee "$out")

# shellcheck source=bench/bwrap_stage.sh
. "$here/bwrap_stage.sh"
mapfile -t BW_TRUE < <(bwrap_stage /bin/true)
mapfile -t BW_SLEEP < <(bwrap_stage /bin/sleep)
mapfile -t BW_CAT < <(bwrap_stage /bin/cat)
make -s bench-inst || die "cannot install ujail into $B/bench/inst"
BW=(bwrap --unshare-pid --unshare-ipc --unshare-uts --dev /dev)

# row LABEL CMD...: prints the row, keeps the medians in med[LABEL] and
# cpu[LABEL] (user + system of the whole process tree, per start)
declare -A med cpu
row() {
	local label=$1 r m p c
	shift
	r=$("$TIMER" -c -n "$N" -w 5 -- "$@") || die "$label: the command failed: $*"
	read -r m p c <<<"$r"
	med[$label]=$m cpu[$label]=$c
	printf '%-34s %9s %9s %9s\n' "$label" "$m" "$p" "$c"
}
ratio() { awk -v a="${med[$1]}" -v b="${med[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
cpu_ratio() { awk -v a="${cpu[$1]}" -v b="${cpu[$2]}" 'BEGIN { printf "%.2f", a / b }'; }

echo "ujail benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, $(bwrap --version), unshare $(unshare --version | awk '{print $NF}')"
echo
echo "Start-to-exit time of /bin/true, $N runs (ms); cpu: median CPU time per start (user+sys, whole tree)"
printf '%-34s %9s %9s %9s\n' case median p90 cpu
row "native"                 /bin/true
row "floor: ns_floor (mnt,pid,ipc,uts)" "$FLOOR" -- /bin/true
row "unshare -mpfiu --mount-proc"    unshare -mpfiu --mount-proc /bin/true
row "bwrap pid,ipc,uts + /proc"      "${BW[@]}" "${BW_TRUE[@]}" --proc /proc /bin/true
row "ujail (mnt,pid,ipc,uts)"        "$UJAIL" -n bench -- /bin/true
row "ujail -p"                       "$UJAIL" -n bench -p -- /bin/true
row "ujail -p, installed"            "$UJAIL_INST" -n bench -p -- /bin/true
row "unshare -mpfiun --mount-proc"   unshare -mpfiun --mount-proc /bin/true
row "floor: ns_floor -N (+net)"      "$FLOOR" -N -- /bin/true
row "bwrap ... + --unshare-net"      "${BW[@]}" "${BW_TRUE[@]}" --proc /proc --unshare-net /bin/true
row "ujail -N"                       "$UJAIL" -n bench -N -- /bin/true
row "ujail -p -N"                    "$UJAIL" -n bench -p -N -- /bin/true
row "ujail -p -N, installed"         "$UJAIL_INST" -n bench -p -N -- /bin/true
row "bwrap --unshare-all"            "${BW[@]}" "${BW_TRUE[@]}" --proc /proc --unshare-all /bin/true
echo
echo "Ratios (higher: ujail faster)"
printf '  bwrap pid,ipc,uts+/proc / ujail -p    %s\n' "$(ratio "bwrap pid,ipc,uts + /proc" "ujail -p")"
printf '  bwrap +net / ujail -p -N              %s\n' "$(ratio "bwrap ... + --unshare-net" "ujail -p -N")"
printf '  bwrap --unshare-all / ujail -p -N     %s   (target >= 3)\n' "$(ratio "bwrap --unshare-all" "ujail -p -N")"
printf '  bwrap --unshare-all / ujail           %s\n' "$(ratio "bwrap --unshare-all" "ujail (mnt,pid,ipc,uts)")"
printf '  unshare -mpfiu / ujail -p             %s\n' "$(ratio "unshare -mpfiu --mount-proc" "ujail -p")"
# The best any runner could do: the kernel's own cost for the namespaces
# and one exec of /bin/true, with nothing staged and no supervisor.
printf '  bwrap --unshare-all / floor -N        %s   (the most a runner could reach)\n' "$(ratio "bwrap --unshare-all" "floor: ns_floor -N (+net)")"
echo
echo "Against the floor and bubblewrap's CPU time (lower: ujail better)"
printf '  ujail / floor                         %s   (target <= 1.15)\n' "$(ratio "ujail (mnt,pid,ipc,uts)" "floor: ns_floor (mnt,pid,ipc,uts)")"
printf '  ujail -p -N / floor -N                %s   (target <= 1.15; the floor has no /proc)\n' "$(ratio "ujail -p -N" "floor: ns_floor -N (+net)")"
printf '  cpu: ujail -p / bwrap pid,ipc,uts+/proc %s (target <= 1)\n' "$(cpu_ratio "ujail -p" "bwrap pid,ipc,uts + /proc")"
printf '  cpu: ujail -p -N / bwrap +net         %s   (target <= 1)\n' "$(cpu_ratio "ujail -p -N" "bwrap ... + --unshare-net")"
printf '  cpu: the same, installed ujail        %s, %s\n' \
	"$(cpu_ratio "ujail -p, installed" "bwrap pid,ipc,uts + /proc")" \
	"$(cpu_ratio "ujail -p -N, installed" "bwrap ... + --unshare-net")"

# PSS, in KB, of a process, and of all descendants of $1 but not $2
pss() { awk '/^Pss:/ { print $2 }' "/proc/$1/smaps_rollup"; }
# wait until the pid $1 has a descendant running $2, print the tree's pids
tree_of() {
	local root=$1 leaf=$2 i p kids all
	for i in $(seq 1 100); do
		all=$root; kids=$root
		while [ -n "$kids" ]; do
			kids=$(for p in $kids; do pgrep -P "$p" || true; done)
			all="$all $kids"
		done
		for p in $all; do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$leaf" ] && { echo "$all"; return 0; }
		done
		sleep 0.05
	done
	die "no $leaf under $root"
}
pss_sum() { # ROOTPID: sum of the tree's PSS excluding the sleep; prints "sum detail"
	local p sum=0 detail="" comm v
	# shellcheck disable=SC2046
	for p in $(tree_of "$1" sleep); do
		comm=$(cat "/proc/$p/comm")
		[ "$comm" = sleep ] && continue
		v=$(pss "$p")
		sum=$((sum + v)); detail="$detail $comm:$v"
	done
	echo "$sum ($detail )"
}
echo
echo "Resident memory while the service sleeps (PSS, KB, the sleep excluded)"
"$UJAIL" -n pss -- /bin/sleep 30 </dev/null >/dev/null 2>&1 & up=$!; bgpids+=("$up")
"${BW[@]}" "${BW_SLEEP[@]}" --proc /proc /bin/sleep 30 </dev/null >/dev/null 2>&1 & bp=$!; bgpids+=("$bp")
# shellcheck disable=SC2207
bgpids+=($(tree_of "$up" sleep) $(tree_of "$bp" sleep))
u=$(pss_sum "$up"); b=$(pss_sum "$bp")
printf '  %-10s %6s   %s   (target < 150)\n' ujail "${u%% *}" "${u#* }"
printf '  %-10s %6s   %s\n' bwrap "${b%% *}" "${b#* }"
# Kill the sleeps only: each supervisor then ends as it would in real use
# (killing bwrap's outer process instead would orphan its pid 1).
pkill -KILL -x -P "$(echo "${bgpids[@]}" | tr ' ' ,)" sleep || true
for i in $(seq 1 50); do
	kill -0 "$up" 2>/dev/null || kill -0 "$bp" 2>/dev/null || break
	sleep 0.1
done
wait "$up" "$bp" 2>/dev/null || true
bgpids=()

echo
echo "Root setup with staged files, median of $SETUP_N runs (ms), and mounts inside"
printf '%6s %11s %11s %7s %14s %14s\n' files ujail bwrap ratio ujail-mounts bwrap-mounts
for n in 10 100 1000; do
	d=$tmp/f$n
	mkdir -p "$d"
	ua=(); ba=()
	for i in $(seq 1 "$n"); do
		: > "$d/$i"
		ua+=(-r "$d/$i"); ba+=(--ro-bind "$d/$i" "$d/$i")
	done
	ut=$("$TIMER" -n "$SETUP_N" -w 1 -- "$UJAIL" -n s "${ua[@]}" -- /bin/true) || die "ujail with $n files failed"
	bt=$("$TIMER" -n "$SETUP_N" -w 1 -- "${BW[@]}" "${BW_TRUE[@]}" "${ba[@]}" /bin/true) || die "bwrap with $n files failed"
	um=$("$UJAIL" -n s -p "${ua[@]}" -- /bin/cat /proc/self/mountinfo | wc -l)
	bm=$("${BW[@]}" "${BW_CAT[@]}" --proc /proc "${ba[@]}" /bin/cat /proc/self/mountinfo | wc -l)
	printf '%6s %11s %11s %7s %14s %14s\n' "$n" "${ut% *}" "${bt% *}" \
		"$(awk -v a="${bt% *}" -v b="${ut% *}" 'BEGIN { printf "%.2f", a / b }')" "$um" "$bm"
done
