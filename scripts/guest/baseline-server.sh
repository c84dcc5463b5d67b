# SPDX-License-Identifier: GPL-2.0
# e2e baseline, server side: the stock Linux NFS/RDMA server (rpcrdma +
# nfsd) on rxe, exporting a tmpfs, until the client says it is done.
. /share/lib.sh
set -u
step "server: rxe up" rxe_up
step "server: load rpcrdma and nfsd" modprobe -a rpcrdma nfsd
deleg_server_watch
nfs_server_serve
deleg_server_check
# On 7.x: an nfsd in a namespace with its own rxe device, over RDMA (lib.sh).
netns_serve_rdma
rpc.nfsd 0
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
