# Runs inside the demo guest (busybox sh).
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

echo "Kernel $(uname -r): seccomp actions available:"
echo "  $(cat /proc/sys/kernel/seccomp/actions_avail)"

step "deny mkdir mkdirat -- mkdir /tmp/jail-test"
./deny mkdir mkdirat -- mkdir /tmp/jail-test
echo "(exit status $?)"

step "dmesg | grep log_errno"
dmesg | grep 'seccomp: log_errno'

step "deny socket -- nc 10.0.0.1 80      # a network call the policy forbids"
./deny -e 13 socket -- nc 10.0.0.1 80
echo "(exit status $?)"
dmesg | grep 'seccomp: log_errno' | tail -n 1

before=$(dmesg | grep -c 'seccomp: log_errno')
logged=$(cat /proc/sys/kernel/seccomp/actions_logged)
step "echo 'kill_process kill_thread trap errno user_notif trace log' > /proc/sys/kernel/seccomp/actions_logged"
echo 'kill_process kill_thread trap errno user_notif trace log' >/proc/sys/kernel/seccomp/actions_logged
step "deny mkdir mkdirat -- mkdir /tmp/quiet      # log_errno no longer logged"
./deny mkdir mkdirat -- mkdir /tmp/quiet
echo "(exit status $?; log_errno lines before: $before, after: $(dmesg | grep -c 'seccomp: log_errno'))"

step "echo '$logged' > /proc/sys/kernel/seccomp/actions_logged      # log_errno logged again"
echo "$logged" >/proc/sys/kernel/seccomp/actions_logged

# Part 2: a real service (busybox httpd) under a seccomp policy file.
ifconfig lo 127.0.0.1 up
mkdir -p /www/cgi-bin /tmp/demo
echo "hello from the jailed httpd" >/www/index.html
# A CGI script standing in for an attacker who got code execution.
printf '%s\n' '#!/bin/busybox sh' 'echo "Content-Type: text/plain"' 'echo' \
	'mkdir /tmp/demo/owned && echo "attacker: created /tmp/demo/owned" || echo "attacker: mkdir refused"' \
	>/www/cgi-bin/pwn
chmod +x /www/cgi-bin/pwn

step "ujail-seccomp check httpd.json      # the policy: what it allows, what the kernel cannot cache"
./ujail-seccomp check httpd.json

step "ujail-seccomp run -n httpd httpd.json -- busybox httpd -f -p 127.0.0.1:80 -h /www &"
./ujail-seccomp run -n httpd httpd.json -- busybox httpd -f -p 127.0.0.1:80 -h /www &
sleep 1
step "wget -q -O - http://127.0.0.1/                 # the service works under its filter"
wget -q -O - http://127.0.0.1/
step "wget -q -O - http://127.0.0.1/cgi-bin/pwn      # code run by the service tries something else"
wget -q -O - http://127.0.0.1/cgi-bin/pwn
step "dmesg | grep 'log_errno comm=\"mkdir\"' | tail -n 1"
dmesg | grep 'seccomp: log_errno comm="mkdir"' | tail -n 1
kill %1 2>/dev/null
wait
