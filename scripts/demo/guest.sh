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
step "echo 'kill_process kill_thread trap errno user_notif trace log' > /proc/sys/kernel/seccomp/actions_logged"
echo 'kill_process kill_thread trap errno user_notif trace log' >/proc/sys/kernel/seccomp/actions_logged
step "deny mkdir mkdirat -- mkdir /tmp/quiet      # log_errno no longer logged"
./deny mkdir mkdirat -- mkdir /tmp/quiet
echo "(exit status $?; log_errno lines before: $before, after: $(dmesg | grep -c 'seccomp: log_errno'))"
