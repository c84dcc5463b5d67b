# SPDX-License-Identifier: GPL-2.0
# e2e credit-stock, client side (not in make check): the hostile peer's
# credit-overrun burst (tools/hostile, Documentation/hostile.rst "Credit
# overrun") sent to the stock server again and again while a stock-client
# NFSv3 mount over RDMA keeps writing and reading, to catch the stall seen
# once in a make check and to tell which side stopped: after each burst,
# the mount (its connection), a new RDMA connection (the burst's own
# check), rping to the server (RDMA CM and rxe, no svcrdma), and after a
# failure NFS over TCP (nfsd without RDMA) and the reverse rping, from the
# server.  /share/credit.bursts: how many (30); /share/credit.cmretry:
# the hostile peer's CM retry counts (RETRY:RNR, 7:7); /share/credit.log: one
# line per burst; /share/diag-client.txt and the server's
# /share/diag-server.txt: the state of both ends when a burst failed.
. /share/lib.sh
. /share/credit-lib.sh
set -u
SERVER=192.0.2.1
step "client: rxe up" rxe_up
step "client: load rpcrdma" modprobe rpcrdma
step "client: load ib_uverbs and rdma_ucm" modprobe -a ib_uverbs rdma_ucm
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }
# the server's rping asks the client back after a failure (the reverse path)
rping -s -P -a 0.0.0.0 -p 7175 >/tmp/rping-s.log 2>&1 &
rping_pid=$!

mkdir -p /mnt/nfs /mnt/tcp
# soft, with short time-outs: when the server stops serving, the I/O
# fails instead of hanging the guest (its end, and the checks below)
opts="rdma,port=20049,vers=3,nolock,soft,timeo=100,retrans=2"
step "client: mount -o $opts" timeout 120 mount -t nfs -o "$opts" $SERVER:/export /mnt/nfs ||
	exit $STEP_FAILS

# NFS traffic beside the bursts: 256 KiB written and read back with
# O_DIRECT per pass, until told to stop.
head -c $((256 * 1024)) /dev/urandom >/tmp/io.src
rm -f /tmp/io.stop /tmp/io.err
echo 0 >/tmp/io.count
(
	i=0
	while [ ! -e /tmp/io.stop ]; do
		f=/mnt/nfs/credit-io.$((i % 2))
		dd if=/tmp/io.src of="$f" bs=64k oflag=direct status=none 2>>/tmp/io.err &&
			dd if="$f" of=/tmp/io.back bs=64k iflag=direct status=none 2>>/tmp/io.err &&
			cmp -s /tmp/io.src /tmp/io.back || { echo "pass $i failed" >>/tmp/io.err; break; }
		i=$((i + 1))
		echo $i >/tmp/io.count
	done
	touch /tmp/io.done
) &

# served_rdma: the mount answers (its existing connection) within 30 s
served_rdma() { timeout 30 dd if=/mnt/nfs/credit-probe of=/dev/null iflag=direct status=none; }
rping_server() { timeout 30 rping -c -a $SERVER -p 7174 -C 3 -S 64; }
echo probe >/mnt/nfs/credit-probe

diagnose() {
	{
		echo "== burst $1 failed at $(date -u +%T)"
		echo "-- the mount's connection (30 s read):"
		served_rdma && echo "served" || echo "NOT served (status $?)"
		echo "-- rping to the server (RDMA CM and rxe, no svcrdma):"
		rping_server && echo "rping ok" || echo "rping FAILED (status $?)"
		echo "-- NFS over TCP from this guest (nfsd without RDMA):"
		if timeout 60 mount -t nfs -o tcp,vers=3,nolock $SERVER:/export /mnt/tcp; then
			timeout 30 cat /mnt/tcp/credit-probe && echo "tcp served"
			timeout 30 umount /mnt/tcp
		else
			echo "tcp mount FAILED"
		fi
		echo "-- the hostile run:"
		cat /tmp/burst.out
		credit_state
	} >/share/diag-client.txt 2>&1
	# the server dumps its side and tries rping back to us
	touch /share/diag.now
	wait_for /share/diag.done 120 || echo "server wrote no diagnosis" >>/share/diag-client.txt
}

bursts=$(cat /share/credit.bursts 2>/dev/null || echo 30)
cmretry=$(cat /share/credit.cmretry 2>/dev/null || echo 7:7)
: >/share/credit.log
i=1 failed=0
while [ $i -le "$bursts" ]; do
	rc=0
	timeout -k 5 150 /share/hostile --server $SERVER --port 20049 --deadline 120 \
		--only credit-overrun --credit-anyway --cm-retry "$cmretry" >/tmp/burst.out 2>&1 || rc=$?
	note=$(sed -n 's/^NOTE credit-overrun: //p' /tmp/burst.out | head -n 1)
	checks=ok
	served_rdma || checks="mount NOT served"
	[ "$checks" != ok ] || rping_server >/dev/null 2>&1 || checks="rping to the server FAILED"
	echo "burst $i: status $rc, $note; after: $checks; I/O passes $(cat /tmp/io.count)" |
		tee -a /share/credit.log
	if [ $rc -ne 0 ] || [ "$checks" != ok ]; then
		step_fail "client: burst $i of $bursts: status $rc ($(grep -m1 '^STEP FAIL' /tmp/burst.out)); after it: $checks"
		diagnose $i
		failed=1
		break
	fi
	i=$((i + 1))
done
[ $failed -eq 1 ] || step_ok "client: $bursts bursts, every one answered or ended as the RFC allows, the server served after each"
touch /tmp/io.stop
if ! wait_for /tmp/io.done 120; then
	step_fail "client: the NFS I/O beside the bursts did not end within 120 s"
elif [ -s /tmp/io.err ]; then
	step_fail "client: NFS I/O beside the bursts: $(tail -n 2 /tmp/io.err | tr '\n' ' ')"
else
	step_ok "client: NFS I/O beside the bursts saw no error ($(cat /tmp/io.count) passes)"
fi
if [ $failed -eq 0 ]; then
	step "client: umount" timeout 120 umount /mnt/nfs
else
	umount -f -l /mnt/nfs 2>/dev/null # a server that stopped must not hold the guest's end
fi
kill $rping_pid 2>/dev/null || true
exit $STEP_FAILS
