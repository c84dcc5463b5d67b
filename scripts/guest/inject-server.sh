# SPDX-License-Identifier: GPL-2.0
# e2e inject (debug kernel), server side: nfsd serves a tmpfs through
# rpcrdmax; while the client runs its rounds, this guest arms
# fail_function on its own end when asked (lib.sh: fei_serve).  Then no
# connection may be left, the module must unload with every RDMA resource
# released, and the kernel log (kmemleak included) must be clean.
. /share/lib.sh
set -u
rpcrdmax_server_up
nfs_server_start
touch /share/server.ready
fei_serve 4000
fei_disarm >/dev/null 2>&1
step "server: no QP left once the client unmounted" rdma_res_settle qp 0 60
step "server: rpc.nfsd 0" rpc.nfsd 0
step "server: rpcrdmax unloads" transport_unload rpcrdmax
for k in pd cq qp mr; do
	step "server: no $k left after unload" rdma_res_settle $k 0 30
done
dmesg | grep -c 'FAULT_INJECTION: forcing a failure' | sed 's/^/server: failures injected: /'
step "server: kernel log clean" kernel_log_clean_but_injector
exit $STEP_FAILS
