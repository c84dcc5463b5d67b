# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/kunit: bring up soft-RoCE on eth0, load the KUnit
# module (its suites run during the load), copy each suite's KTAP results
# from debugfs to the share.  On the debug kernel (scripts/kunit --debug)
# lib.sh installs the kernel's modules first, and kmemleak scans once the
# module is gone (scripts/lib/ktap.py fails the run on its report).
set -u
. /share/lib.sh
echo "kunit guest: $(uname -r)"
# The debug kernel has modules (soft-RoCE, sunrpc...): modprobe brings in
# what the KUnit module needs; the KUnit kernel has them built in.
mods=
[ -d "/lib/modules/$(uname -r)" ] && mods=y
# On the debug kernel, soft-RoCE and what the KUnit module depends on
# (modinfo reads the file), then the module itself from the share: no
# copy into /lib/modules and no depmod -a, which took seconds there
# under TCG.
if [ -n "$mods" ]; then
	deps=$(modinfo -F depends /share/rpcrdmax_kunit.ko) || { echo "modinfo rpcrdmax_kunit.ko failed"; exit 1; }
	modprobe -a rdma_rxe $(echo "$deps" | tr , ' ') ||
		{ echo "cannot load rdma_rxe and what rpcrdmax_kunit.ko depends on ($deps)"; exit 1; }
fi
rdma link add rxe0 type rxe netdev eth0 || { echo "cannot create rxe0"; exit 1; }
rdma link show
mkdir -p /share/ktap
insmod /share/rpcrdmax_kunit.ko || { echo "insmod rpcrdmax_kunit.ko failed"; exit 1; }
for d in /sys/kernel/debug/kunit/*/; do
	s=$(basename "$d")
	cp "$d/results" "/share/ktap/$s.ktap"
done
rmmod rpcrdmax_kunit || { echo "rmmod rpcrdmax_kunit failed"; exit 1; }
rdma link delete rxe0
kmemleak_scan
exit 0
