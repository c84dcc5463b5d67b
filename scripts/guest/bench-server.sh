# SPDX-License-Identifier: GPL-2.0
# Benchmark, server side: the NFS/RDMA server on rxe exporting a tmpfs.
# The client asks for a server transport before each measurement by
# writing /share/bench/req.N (a word: stock|rpcrdmax); the server restarts
# nfsd on that transport if it is not the current one and answers in
# /share/bench/ack.N with "ok" or "fail: why".  Ends on client.done.
. /share/lib.sh
set -u
step "server: rxe up" rxe_up
step "server: load nfsd" modprobe nfsd
mkdir -p /export /proc/fs/nfsd /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery /share/bench
mount -t tmpfs -o size=1g tmpfs /export
mount -t nfsd nfsd /proc/fs/nfsd
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
echo '/export 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports
rpcbind -w 2>/dev/null || rpcbind
step "server: exportfs" exportfs -ra
rpc.mountd

cur=
# switch WORD: nfsd on transport WORD; sets WHY on failure.  Runs in the
# main shell: it changes $cur.  nfsd is stopped first, so max_block_size
# can be written and the rdma listener is created exactly once per start.
switch() {
	local word=$1 out
	WHY=
	rpc.nfsd 0
	if [ -n "$cur" ]; then
		out=$(transport_unload "$cur" 2>&1) || { WHY="unload $cur: $out"; return 1; }
		cur=
	fi
	out=$(transport_load server "$word" 2>&1) || { WHY="load $word: $out"; return 1; }
	cur=$word
	echo 1048576 >/proc/fs/nfsd/max_block_size
	echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
	echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	rpc.nfsd 8 || { WHY="rpc.nfsd failed"; return 1; }
	out=$(sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist' 2>&1) || { WHY="rdma listener on $word: $out"; return 1; }
	# v4 grace period (10 s) before the first OPEN
	sleep 11
}

touch /share/server.ready
n=1
while :; do
	while [ ! -e /share/bench/req.$n ] && [ ! -e /share/client.done ]; do sleep 0.2; done
	[ -e /share/bench/req.$n ] || break
	want=$(cat /share/bench/req.$n)
	if [ "$want" = "$cur" ]; then
		echo ok >/share/bench/ack.$n.tmp
	elif switch "$want"; then
		echo ok >/share/bench/ack.$n.tmp
	else
		echo "fail: $WHY" >/share/bench/ack.$n.tmp
	fi
	mv /share/bench/ack.$n.tmp /share/bench/ack.$n
	n=$((n + 1))
done
rpc.nfsd 0
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
