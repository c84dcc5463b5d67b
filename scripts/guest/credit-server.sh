# SPDX-License-Identifier: GPL-2.0
# e2e credit-stock, server side (scripts/guest/credit-client.sh): the
# stock Linux NFS/RDMA server on rxe (rpcrdmax's when /share/rpcrdmax.ko
# is there: credit-rpcrdmax, the control) with an rping server beside it
# (RDMA CM and rxe without svcrdma); when the client reports a failed
# burst, this end's state goes to /share/diag-server.txt, with an rping
# back to the client.
. /share/lib.sh
. /share/credit-lib.sh
set -u
CLIENT=192.0.2.2
if [ -e /share/rpcrdmax.ko ]; then
	rpcrdmax_server_up
else
	step "server: rxe up" rxe_up
	step "server: load rpcrdma and nfsd" modprobe -a rpcrdma nfsd
fi
rping -s -P -a 0.0.0.0 -p 7174 >/tmp/rping-s.log 2>&1 &
rping_pid=$!
(
	wait_for /share/diag.now 7200 || exit 0
	{
		echo "== server at $(date -u +%T)"
		echo "-- rping to the client (the reverse path):"
		timeout 30 rping -c -a $CLIENT -p 7175 -C 3 -S 64 && echo "rping ok" ||
			echo "rping FAILED (status $?)"
		echo "-- nfsd threads (state, wait channel, kernel stack):"
		for p in $(pgrep -x nfsd); do
			ps -o pid=,stat=,wchan:32= -p "$p"
			sed 's/^/    /' "/proc/$p/stack" 2>/dev/null
		done
		echo "-- svc_rdma counters:"
		grep -H . /proc/sys/sunrpc/svc_rdma/rdma_stat_* 2>/dev/null
		credit_state
	} >/share/diag-server.txt 2>&1
	touch /share/diag.done
) &
watch_pid=$!
nfs_server_serve
# the guest ends when every process holding the script's output has
kill $watch_pid $rping_pid 2>/dev/null || true
exit $STEP_FAILS
