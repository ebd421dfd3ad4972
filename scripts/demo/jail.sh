# Runs inside the demo guest (busybox sh), chrooted in a bind mount of /
# (pivot_root refuses the initramfs): the same httpd, now in a whole jail.
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
U=/opt/tests/demo-ujail/bin/ujail
J="$U --join www"

step "insmod jailfs.ko      # the jail's root: one jailfs mount"
insmod /opt/tests/jailfs.ko && grep jailfs /proc/filesystems

printf '%s\n' '#!/bin/busybox sh' 'echo "Content-Type: text/plain"' 'echo' \
	'/bin/busybox cat /etc/shadow 2>&1' \
	'/bin/busybox mkdir /www/owned && echo "attacker: created /www/owned" || echo "attacker: mkdir refused"' \
	>/www/cgi-bin/pwn

step "ujail --trace /tmp/httpd.learnt.json -n learn -p -r /www -- /bin/busybox httpd -f -p 127.0.0.1:8081 -h /www &"
echo "(utrace's eBPF counter needs a kernel with BTF; this small one has none, so ptrace counts)"
$U --trace /tmp/httpd.learnt.json -n learn -p -r /www -- \
	/bin/busybox httpd -f -p 127.0.0.1:8081 -h /www &
learn=$!
sleep 2
step "wget -q -O - http://127.0.0.1:8081/ && kill -TERM %1      # one request, then stop it"
wget -q -O - http://127.0.0.1:8081/
kill -TERM $learn
wait $learn
step "cat /tmp/httpd.learnt.json      # the calls httpd made in its jail, most frequent first"
sed -n 's/^ *"\([a-z0-9_]*\)",\{0,1\}$/\1/p' /tmp/httpd.learnt.json | tr '\n' ' ' |
	fold -s -w 76 | sed 's/^/  /'
echo

step "ujail -n www -p -f --veth www0:eth0 --host-addr 10.0.9.1/30 --jail-addr 10.0.9.2/30 \\
      --memory-max 32M --pids-max 16 -S httpd.json -r /www -P /tmp/www.pid -- \\
      /bin/busybox httpd -f -p 10.0.9.2:8080 -h /www &"
$U -n www -p -f --veth www0:eth0 --host-addr 10.0.9.1/30 --jail-addr 10.0.9.2/30 \
	--memory-max 32M --pids-max 16 -S /opt/tests/httpd.json -r /www -P /tmp/www.pid -d 1 -- \
	/bin/busybox httpd -f -p 10.0.9.2:8080 -h /www &
jail=$!
sleep 2

step "wget -q -O - http://10.0.9.2:8080/      # from the router, over the veth pair"
wget -q -O - http://10.0.9.2:8080/
# Only the lines this request causes: earlier steps denied mkdir too.
logged=$(dmesg | grep -c 'seccomp: log_errno')
step "wget -q -O - http://10.0.9.2:8080/cgi-bin/pwn      # the attacker's code, in the jail"
wget -q -O - http://10.0.9.2:8080/cgi-bin/pwn
step "dmesg | grep log_errno      # the kernel's lines for that request"
dmesg | grep 'seccomp: log_errno' | tail -n "+$((logged + 1))" | grep . ||
	echo "(no new log_errno line)"

step "ujail --join www -- /bin/busybox ps      # a second service joins the running jail"
$J -- /bin/busybox ps
step "ujail --join www -- /bin/busybox cat /proc/self/mountinfo      # what the jail has mounted"
$J -- /bin/busybox cat /proc/self/mountinfo |
	awk '{ for (i = 7; $i != "-"; i++); printf "  %-20s %s\n", $5, $(i + 1) }'
step "ujail --join www -f -- /bin/busybox id      # a member with a user namespace of its own"
$J -f -- /bin/busybox id
httpd=$(cat /tmp/www.pid)      # -P: the service's host pid
step "cat /proc/$httpd/uid_map      # the service's uid 0 is 65534 outside"
cat "/proc/$httpd/uid_map"
cg=$(sed -n 2p "/var/run/ujail/www@$jail")      # the jail's record (NAME@PID): PID 1, cgroup
step "cat $cg/memory.max $cg/pids.max $cg/pids.current"
cat "$cg/memory.max" "$cg/pids.max" "$cg/pids.current"

step "kill -TERM %1      # the jail ends: its veth pair and cgroup go with it"
kill -TERM $jail
wait $jail
echo "(ujail's exit status $?: 128+15, the service's)"
ip link show www0 2>&1 | head -n 1
[ -d "$cg" ] && echo "cgroup $cg still there" || echo "cgroup $cg removed"
