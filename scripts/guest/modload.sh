# SPDX-License-Identifier: GPL-2.0
# e2e: rpcrdmax.ko loads and unloads in the Debian guest kernel, and the
# only kernel messages it causes are the out-of-tree/unsigned taint lines.
# Its dependencies (ib_core, rdma_cm) are loaded before the log is cleared.
. /share/lib.sh
set -u
# Let boot-time messages (eth0 coming up) land before the log is cleared.
n=100
while [ $n -gt 0 ] && ! dmesg | grep -q 'eth0: link becomes ready'; do sleep 0.1; n=$((n - 1)); done
step "install rpcrdmax.ko (extra/, depmod)" install_rpcrdmax
step "load dependencies" modprobe -a ib_core rdma_cm
dmesg -C
step "modprobe rpcrdmax" modprobe rpcrdmax
grep -q '^rpcrdmax ' /proc/modules && step_ok "rpcrdmax listed in /proc/modules" ||
	step_fail "rpcrdmax not in /proc/modules"
step "modprobe -r rpcrdmax" modprobe -r rpcrdmax
grep -q '^rpcrdmax ' /proc/modules && step_fail "rpcrdmax still loaded" ||
	step_ok "rpcrdmax gone from /proc/modules"
step "modprobe again" modprobe rpcrdmax
step "rmmod again" rmmod rpcrdmax
extra=$(dmesg | grep -vE 'loading out-of-tree module taints kernel|module verification failed: signature and/or required key missing - tainting kernel')
if [ -z "$extra" ]; then
	step_ok "no kernel messages beyond the taint lines"
else
	step_fail "unexpected kernel messages: $extra"
fi
exit $STEP_FAILS
