# SPDX-License-Identifier: GPL-2.0
# e2e removal, server side (rpcrdmax's server): serves the client's I/O
# while the client deletes and re-adds its device (removal-client.sh),
# then deletes and re-adds its own, round after round at varied delays,
# so that a deletion lands on connections being accepted, established
# and closing; the kernel log stays free of restrack and driver warnings,
# the listener accepts the client again each time without nfsd being
# restarted, and rpc.nfsd 0 leaves no RDMA resource.
. /share/lib.sh
set -u
ROUNDS=$(cat /share/removal.rounds 2>/dev/null || echo 24)
# /share/removal.transport: stock, the stock rpcrdma (removal-client.sh)
T=$(cat /share/removal.transport 2>/dev/null || echo rpcrdmax)
if [ "$T" = stock ]; then
	step "server: $(rdma_fabric) up" rxe_up
	step "server: load rpcrdma and nfsd" modprobe -a rpcrdma nfsd
else
	rpcrdmax_server_up
fi
RES0=$(rdma_res_snapshot)
nfs_server_start
touch /share/server.ready
log_bad() { dmesg | grep -E "$KERNEL_BAD|restrack" | head -n 3; }
wait_for /share/client.removed $((ROUNDS * 30 + 300)) || step_fail "server: the client's rounds never ended"
DELAYS="0 2 5 10 1 20 3 40 7 60 15 0"
r=0
for d in $DELAYS $DELAYS; do
	[ $r -lt "$ROUNDS" ] || break
	r=$((r + 1))
	removal_delete server "$r" || { stuck=1; break; }
	sleep 1
	rxe_readd || { step_fail "removal: server round $r: the device did not come back"; break; }
	sleep "$((d / 10)).$((d % 10))"
	bad=$(log_bad)
	[ -z "$bad" ] || { step_fail "removal: server round $r (delay ${d}00 ms): the kernel log: $bad"; break; }
done
if [ -n "${stuck:-}" ]; then
	# the device cannot go: nothing after this can end
	touch /share/server.removed
	exit $STEP_FAILS
fi
rdma link show rxe0/1 >/dev/null 2>&1 || rxe_readd
step_ok "removal: $r server-side rounds"
# the client is served again on the device as it came back
end=$(deadline 300)
while [ "$(rdma_res_count qp RC)" = 0 ] && before $end; do sleep 0.5; done
[ "$(rdma_res_count qp RC)" != 0 ] && step_ok "removal: the client connected again without an nfsd restart" ||
	step_fail "removal: no connection 300 s after the last server round"
touch /share/server.removed
wait_for /share/client.done 1200 || step_fail "server: client never finished"
step "server: rpc.nfsd 0" timeout 120 rpc.nfsd 0
step "server: RDMA resources back to $RES0 as rpc.nfsd 0 returns" rdma_res_back "$RES0" 0
step "server: $(transport_kmod "$T") unloads" transport_unload "$T"
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
