# SPDX-License-Identifier: GPL-2.0
# e2e, client side with rpcrdmax's client transport (inline-only so far)
# against the stock server: NFS v3 and v4.2 mounts, small files written,
# read back after a remount and compared; mountstats shows the rdma line;
# the module unloads after umount; the kernel log stays clean.
. /share/lib.sh
set -u
SIZES="0 1 1023 1024 1025 4095 4096 4097 65535 65536 65537"
step "client: rxe up" rxe_up
step "client: install rpcrdmax.ko" install_rpcrdmax
# The stock transport must not claim "rdma" first.
echo "blacklist rpcrdma" >/etc/modprobe.d/no-stock-rpcrdma.conf
step "client: modprobe rpcrdmax client=1" modprobe rpcrdmax client=1
grep -q '^rpcrdma ' /proc/modules && step_fail "client: stock rpcrdma is loaded" ||
	step_ok "client: stock rpcrdma not loaded"
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

mkdir -p /mnt/nfs /tmp/src
for s in $SIZES; do head -c "$s" /dev/urandom >"/tmp/src/f$s"; done
(cd /tmp/src && sha256sum f*) >/tmp/src.sha256

for v in 3 4.0 4.1 4.2; do
	opts="rdma,port=20049,vers=$v"
	[ "$v" = 3 ] && opts="$opts,nolock"
	if ! timeout 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs; then
		step_fail "v$v: mount -o $opts (rpcrdmax)"
		dmesg | tail -n 20
		continue
	fi
	step_ok "v$v: mount -o $opts (rpcrdmax)"
	grep -q "xprt:	rdma" /proc/self/mountstats &&
		step_ok "v$v: mountstats has the xprt: rdma line" ||
		step_fail "v$v: no xprt: rdma line in mountstats"
	grep "xprt:	rdma" /proc/self/mountstats | head -n1
	d=/mnt/nfs/x$v
	step "v$v: write files" timeout 300 sh -c "mkdir -p $d && cp /tmp/src/f* $d/ && sync"
	step "v$v: umount" timeout 120 umount /mnt/nfs
	step "v$v: remount" timeout 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs
	step "v$v: sha256 after remount" timeout 300 sh -c "cd $d && sha256sum -c --quiet /tmp/src.sha256"
	step "v$v: directory listing" sh -c "ls $d | wc -l | grep -qx $(echo $SIZES | wc -w)"
	step "v$v: final umount" timeout 120 umount /mnt/nfs
done
step "client: rmmod rpcrdmax after umount" rmmod rpcrdmax
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
