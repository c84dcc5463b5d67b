# SPDX-License-Identifier: GPL-2.0
# make demo, client side: NFS over RDMA with rpcrdmax's client transport
# against rpcrdmax's server transport in the other guest (demo-server.sh).
. /share/lib.sh
set -u
trap 'touch /share/client.done' EXIT
echo "== client guest: $(uname -r)"
rxe_up && rdma link show
install_rpcrdmax && modprobe rpcrdmax || exit 1
echo "== rpcrdmax loaded: $(grep '^rpcrdmax ' /proc/modules)"
wait_for /share/server.ready 300 || { echo "server never became ready"; exit 1; }
mkdir -p /mnt/nfs
mount -t nfs -o rdma,port=20049,vers=4.2 192.0.2.1:/export /mnt/nfs || exit 1
echo "== mounted: $(grep ' /mnt/nfs ' /proc/mounts)"
head -c 4194304 /dev/urandom >/tmp/demo.bin
cp /tmp/demo.bin /mnt/nfs/demo.bin && sync
umount /mnt/nfs && mount -t nfs -o rdma,port=20049,vers=4.2 192.0.2.1:/export /mnt/nfs || exit 1
echo "== 4 MiB written, remounted, read back: $(cmp /tmp/demo.bin /mnt/nfs/demo.bin && echo identical)"
echo "== mountstats --xprt:"
mountstats --xprt /mnt/nfs | sed -n '/Transport protocol/,$p' | head -20
umount /mnt/nfs && rmmod rpcrdmax && echo "== unmounted, rpcrdmax unloaded"
