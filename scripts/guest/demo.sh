# SPDX-License-Identifier: GPL-2.0
# make demo, guest side: soft-RoCE up, rpcrdmax.ko loaded, its state shown.
. /share/lib.sh
set -u
echo "== guest kernel: $(uname -r)"
rxe_up && echo "== soft-RoCE device:" && rdma link show
echo "== modprobe rpcrdmax"
install_rpcrdmax && modprobe rpcrdmax || exit 1
echo "== /proc/modules:"; grep '^rpcrdmax ' /proc/modules
echo "== /sys/module/rpcrdmax:"; ls /sys/module/rpcrdmax
echo "== taint: $(cat /proc/sys/kernel/tainted)"
echo "== kernel messages:"; dmesg | tail -n 5
rmmod rpcrdmax && echo "== rmmod rpcrdmax: ok"
