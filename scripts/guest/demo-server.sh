# SPDX-License-Identifier: GPL-2.0
# make demo, server side: nfsd serves a tmpfs over RDMA through rpcrdmax's
# server transport (a plain modprobe, with the stock rpcrdma kept out) to
# the client guest, which runs rpcrdmax's client transport.
. /share/lib.sh
set -u
echo "== server guest: $(uname -r)"
rxe_up || exit 1
echo 'install rpcrdma /bin/false' >/etc/modprobe.d/no-stock.conf
install_rpcrdmax && modprobe rpcrdmax && modprobe nfsd || exit 1
echo "== rpcrdmax loaded: $(grep '^rpcrdmax ' /proc/modules)"
echo "== server transports: $(tr '\n' ' ' </proc/sys/sunrpc/transports)"
nfs_server_serve
echo "== portlist: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
echo "== /proc/sys/sunrpc/svc_rdma after the client's I/O:"
for f in max_requests max_req_size max_outbound_read_requests rdma_stat_recv rdma_stat_read \
	rdma_stat_write rdma_stat_sq_starve; do
	printf '   %-28s %s\n' "$f" "$(cat /proc/sys/sunrpc/svc_rdma/$f)"
done
rpc.nfsd 0 && transport_unload rpcrdmax && echo "== nfsd stopped, rpcrdmax unloaded"
exit $STEP_FAILS
