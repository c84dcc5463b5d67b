# SPDX-License-Identifier: GPL-2.0
# e2e baseline, server side: the stock Linux NFS/RDMA server (rpcrdma +
# nfsd) on rxe, exporting a tmpfs, until the client says it is done.
. /share/lib.sh
set -u
step "server: rxe up" rxe_up
step "server: load rpcrdma and nfsd" modprobe -a rpcrdma nfsd
mkdir -p /export /proc/fs/nfsd /var/lib/nfs/rpc_pipefs
mount -t tmpfs -o size=1g tmpfs /export
mount -t nfsd nfsd /proc/fs/nfsd
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
echo '/export 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=1) 2001:db8::/64(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports
rpcbind -w 2>/dev/null || rpcbind
step "server: exportfs" exportfs -ra
rpc.mountd
step "server: rpc.nfsd" rpc.nfsd 4
step "server: rdma listener" sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist'
grep -q rdma /proc/fs/nfsd/portlist && step_ok "server: portlist has rdma" || step_fail "server: portlist has no rdma"
touch /share/server.ready
wait_for /share/client.done 1800 || step_fail "server: client never finished"
rpc.nfsd 0
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
