# SPDX-License-Identifier: GPL-2.0
# e2e credit-stock and credit-rpcrdmax: what both guests write down about
# themselves when a burst failed (sourced by credit-client.sh and
# credit-server.sh after lib.sh, whose d_tasks it uses).

# credit_state: this guest's QPs, rxe counters, tasks in uninterruptible
# sleep (with their kernel stacks) and the kernel log's last lines.
credit_state() {
	echo "-- rdma res show qp:"
	rdma res show qp 2>&1
	echo "-- rxe counters:"
	grep -H . /sys/class/infiniband/*/ports/1/hw_counters/* 2>/dev/null
	echo "-- tasks in uninterruptible sleep, with their kernel stacks:"
	d_tasks
	echo "-- kernel log (last 60 lines):"
	dmesg | tail -n 60
}
