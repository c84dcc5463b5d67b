# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/kunit: bring up soft-RoCE on eth0, load the KUnit
# module (its suites run during the load), copy each suite's KTAP results
# from debugfs to the share.
set -u
echo "kunit guest: $(uname -r)"
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
exit 0
