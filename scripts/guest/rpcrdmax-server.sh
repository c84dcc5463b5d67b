# SPDX-License-Identifier: GPL-2.0
# e2e, server side with rpcrdmax's server transport: nfsd serves a tmpfs
# over RDMA through rpcrdmax (server=1) to the stock client
# (baseline-client.sh); after the client is done, nfsd stops, the module
# unloads, and the kernel log stays clean.
. /share/lib.sh
set -u
step "server: rxe up" rxe_up
step "server: install rpcrdmax.ko" install_rpcrdmax
# The stock transport must not be loaded behind our back ("svcrdma").
echo 'install rpcrdma /bin/false' >/etc/modprobe.d/no-stock.conf
step "server: modprobe rpcrdmax server=1" modprobe rpcrdmax server=1
step "server: load nfsd" modprobe nfsd
grep -q '^rpcrdma ' /proc/modules && step_fail "server: stock rpcrdma is loaded" ||
	step_ok "server: stock rpcrdma not loaded"
grep -q '^rdma ' /proc/sys/sunrpc/transports &&
	step_ok "server: rdma in /proc/sys/sunrpc/transports" ||
	step_fail "server: no rdma class: $(cat /proc/sys/sunrpc/transports)"
mkdir -p /export /proc/fs/nfsd /var/lib/nfs/rpc_pipefs
mount -t tmpfs -o size=1g tmpfs /export
mount -t nfsd nfsd /proc/fs/nfsd
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
echo '/export 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=1) 2001:db8::/64(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports
rpcbind -w 2>/dev/null || rpcbind
step "server: exportfs" exportfs -ra
rpc.mountd
step "server: rpc.nfsd" rpc.nfsd 4
# Once only: a second write of the same listener panics the stock 6.1 kernel.
step "server: rdma listener" sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist'
grep -q rdma /proc/fs/nfsd/portlist && step_ok "server: portlist has rdma" || step_fail "server: portlist has no rdma"
touch /share/server.ready
wait_for /share/client.done 1800 || step_fail "server: client never finished"
step "server: rpc.nfsd 0" rpc.nfsd 0
step "server: rpcrdmax unloads" transport_unload rpcrdmax
dmesg | grep -i rpcrdmax | tail -n 20
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
