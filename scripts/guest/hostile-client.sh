# SPDX-License-Identifier: GPL-2.0
# e2e hostile, client side: a legitimate NFSv3 mount over RDMA (stock
# rpcrdma client) carries a bounded write/read/verify loop while the
# hostile peer (/share/hostile, tools/hostile) sends malformed
# RPC-over-RDMA traffic to the same server.  The loop must see no error
# and keep making progress; the hostile tool's own STEP lines are
# counted by the host like ours.
. /share/lib.sh
set -u
SERVER=192.0.2.1
step "client: rxe up" rxe_up
step "client: load rpcrdma" modprobe rpcrdma
# the hostile tool uses user-space verbs and the RDMA CM
step "client: load ib_uverbs and rdma_ucm" modprobe -a ib_uverbs rdma_ucm
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

mkdir -p /mnt/nfs
opts="rdma,port=20049,vers=3,nolock"
if ! mount -t nfs -o "$opts" $SERVER:/export /mnt/nfs; then
	step_fail "client: mount -o $opts"
	exit 1
fi
step_ok "client: mount -o $opts"

# The I/O loop: 1 MiB + 4 KiB files written and read back with O_DIRECT
# (so every pass goes over RDMA, with Read and Write chunks), sha256
# compared.  Bounded by a stop flag, an iteration cap and a time cap.
head -c $((1024 * 1024 + 4096)) /dev/urandom >/tmp/io.src
src_sum=$(sha256sum </tmp/io.src | cut -d' ' -f1)
rm -f /tmp/io.err /tmp/io.stop /tmp/io.done
echo 0 >/tmp/io.count
io_loop() {
	i=0 t_end=$(($(date +%s) + 1200))
	while [ ! -e /tmp/io.stop ] && [ $i -lt 100000 ] && [ "$(date +%s)" -lt $t_end ]; do
		f=/mnt/nfs/hostile-io.$((i % 4))
		if ! dd if=/tmp/io.src of="$f" bs=4k oflag=direct status=none 2>>/tmp/io.err; then
			echo "pass $i: write failed" >>/tmp/io.err
			break
		fi
		if ! dd if="$f" of=/tmp/io.back bs=4k iflag=direct status=none 2>>/tmp/io.err; then
			echo "pass $i: read failed" >>/tmp/io.err
			break
		fi
		s=$(sha256sum </tmp/io.back | cut -d' ' -f1)
		if [ "$s" != "$src_sum" ]; then
			echo "pass $i: sha256 mismatch" >>/tmp/io.err
			break
		fi
		i=$((i + 1))
		echo $i >/tmp/io.count
	done
	touch /tmp/io.done
}
io_loop &
# let the loop get going before the hostile peer starts
n=0
while [ "$(cat /tmp/io.count)" -lt 1 ] && [ ! -e /tmp/io.done ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
before=$(cat /tmp/io.count)
[ "$before" -ge 1 ] && step_ok "client: I/O loop running ($before passes)" ||
	step_fail "client: I/O loop made no pass before the hostile run: $(cat /tmp/io.err 2>/dev/null | tail -n 2 | tr '\n' ' ')"

# The hostile peer.  Its exit status is its number of failed steps; a
# crash, a timeout or a status that disagrees with its STEP lines is a
# failure of its own.
rc=0
# Against rpcrdmax's server the stock deviations are not excused (--strict).
strict=
[ -e /share/hostile.strict ] && strict=--strict
# ddp-reads reads this file back through one NFSv4 COMPOUND with two
# READs, each into its own Write chunk, and compares it with the copy.
head -c 32768 /dev/urandom >/tmp/ddp.src
step "client: ddp-reads file written" cp /tmp/ddp.src /mnt/nfs/ddp.bin
# Against rpcrdmax's server the randomized corpus follows the fixed cases
# (tools/hostile/corpus.h): a fixed seed here, any seed and count from
# make fuzz-server (/share/corpus.args "SEED:COUNT", /share/hostile.deadline).
corpus=
[ -e /share/hostile.strict ] && corpus="--corpus $(cat /share/corpus.args 2>/dev/null || echo 1:2000)"
deadline=$(cat /share/hostile.deadline 2>/dev/null || echo 800)
timeout -k 5 $((deadline + 100)) /share/hostile --server $SERVER --port 20049 --deadline "$deadline" \
	$strict $corpus --ddp-path export/ddp.bin --ddp-expect /tmp/ddp.src >/tmp/hostile.out 2>&1 || rc=$?
hostile_tally /tmp/hostile.out $rc "client: hostile tool"

after=$(cat /tmp/io.count)
touch /tmp/io.stop
wait_for /tmp/io.done 300 || step_fail "client: I/O loop did not stop within 300 s"
if [ -s /tmp/io.err ]; then
	step_fail "client: I/O loop error: $(tail -n 3 /tmp/io.err | tr '\n' ' ')"
else
	step_ok "client: I/O loop saw no error ($(cat /tmp/io.count) passes)"
fi
[ "$after" -gt "$before" ] && step_ok "client: I/O progressed during the hostile run ($before -> $after passes)" ||
	step_fail "client: no I/O progress during the hostile run ($before -> $after passes)"
step "client: umount" umount /mnt/nfs
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
