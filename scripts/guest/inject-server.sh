# SPDX-License-Identifier: GPL-2.0
# e2e inject (debug kernel), server side: nfsd serves a tmpfs through
# rpcrdmax; while the client runs its rounds, this guest arms
# fail_function on its own end when asked (lib.sh: fei_serve).  Then no
# connection may be left, the module must unload with every RDMA resource
# released, and the kernel log (kmemleak included) must be clean.  The
# counts are compared with those before nfsd started: the device keeps
# its own (ib_core's PD, CQ and GSI QP) whoever else uses it.
. /share/lib.sh
set -u
rpcrdmax_server_up
RES0=$(rdma_res_snapshot) QP0=$(rdma_res_count qp)
echo "server: RDMA resources before nfsd: $RES0"
nfs_server_start
touch /share/server.ready
fei_serve 4000 "$QP0"
fei_disarm >/dev/null 2>&1
step "server: QPs back to $QP0 once the client unmounted" rdma_res_settle qp "$QP0" 60
step "server: rpc.nfsd 0" rpc.nfsd 0
# Injected failures drop Calls and lose connections; each is counted.
settled_step server yes
step "server: rpcrdmax unloads" transport_unload rpcrdmax
step "server: RDMA resources back to $RES0 after unload" rdma_res_back "$RES0" 30
dmesg | grep -c 'FAULT_INJECTION: forcing a failure' | sed 's/^/server: failures injected: /'
step "server: kernel log clean" kernel_log_clean_but_injector
exit $STEP_FAILS
