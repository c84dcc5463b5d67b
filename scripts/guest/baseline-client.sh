# SPDX-License-Identifier: GPL-2.0
# e2e baseline, client side: the stock rpcrdma client mounts the stock
# server over RDMA with NFS v3 and v4.2; files of edge-case sizes are
# written, read back after a remount (and again with rsize=1024), and
# their sha256 compared.
. /share/lib.sh
set -u
SIZES="0 1 1023 1024 1025 4095 4096 4097 65535 65536 65537 1048577"
step "client: rxe up" rxe_up
step "client: load rpcrdma" modprobe rpcrdma
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

mkdir -p /mnt/nfs /tmp/src
for s in $SIZES; do head -c "$s" /dev/urandom >"/tmp/src/f$s"; done
(cd /tmp/src && sha256sum f*) >/tmp/src.sha256

# Each step is bounded, so an RPC that never completes fails the step
# that waited for it (with the transport's counters), not the whole guest.
T=timeout
for v in 3 4.2; do
	opts="rdma,port=20049,vers=$v"
	[ "$v" = 3 ] && opts="$opts,nolock"
	if ! $T 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs; then
		step_fail "v$v: mount -o $opts"
		continue
	fi
	step_ok "v$v: mount -o $opts"
	grep -q ' /mnt/nfs nfs.*proto=rdma' /proc/mounts &&
		step_ok "v$v: /proc/mounts says proto=rdma" ||
		step_fail "v$v: not an RDMA mount: $(grep /mnt/nfs /proc/mounts)"
	d=/mnt/nfs/v$v
	step "v$v: write files" $T 300 sh -c "mkdir -p $d && cp /tmp/src/f* $d/ && sync" ||
		grep -h 'xprt:' /proc/self/mountstats
	step "v$v: umount" $T 120 umount /mnt/nfs
	step "v$v: remount" $T 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs
	step "v$v: sha256 after remount" $T 300 sh -c "cd $d && sha256sum -c --quiet /tmp/src.sha256" ||
		grep -h 'xprt:' /proc/self/mountstats
	step "v$v: umount" $T 120 umount /mnt/nfs
	# READs of at most 1 KiB: Replies inline, their data in the server's
	# pages (rpcrdmax's server sends it from them: rdma_stat_page_sges).
	step "v$v: remount rsize=1024" $T 120 mount -t nfs -o "$opts,rsize=1024" 192.0.2.1:/export /mnt/nfs
	step "v$v: sha256 read with rsize=1024" $T 300 sh -c "cd $d && sha256sum -c --quiet /tmp/src.sha256" ||
		grep -h 'xprt:' /proc/self/mountstats
	step "v$v: final umount" $T 120 umount /mnt/nfs
done
# On 7.x: a mount from a namespace with its own rxe device (lib.sh).
netns_mount_rdma rdma,port=20049,vers=4.2
# rpcrdmax's server: no context allocated while I/O runs (lib.sh).
steady_client_io "rdma,port=20049,vers=4.2"
# A delegation recalled over the backchannel (lib.sh), when asked for.
deleg_client "rdma,port=20049,vers=4.2"
# sec=krb5, krb5i, krb5p (lib.sh), when asked for.
krb5_client "rdma,port=20049,vers=4.2"
# On 7.x: a 4 MiB WRITE and READ through chunks (lib.sh), when asked for.
bigio_client
touch /share/inline-reads
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
