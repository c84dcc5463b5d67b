# SPDX-License-Identifier: GPL-2.0
# e2e inject (debug kernel), client side: rpcrdmax on both ends, NFSv3.
# Each round fails one call of one rpcrdmax shim function (fail_function,
# lib.sh) on one end, either while the mount connects or while I/O with
# every chunk type runs: a Read chunk (a 1 MiB WRITE), a Write chunk (an
# O_DIRECT READ), a Reply chunk (a 300-entry READDIR, a 4000-byte
# READLINK), a Long Call (a 4000-byte SYMLINK), inline small I/O.
# Every round must:
#   - inject its failure (the function was called);
#   - fire the stock module's event for that failure, where it has one
#     (lib.sh: fei_event);
#   - end every operation, with success or an error, within its timeout
#     (a clean error or a reconnect, never a hang);
#   - after umount and a fresh mount, read back the data written before
#     and every file whose write reported success, by sha256;
#   - leave the client's RDMA resources as they were before the round,
#     and the server with no QP.
# The server guest checks its own end once the client is done.
. /share/lib.sh
set -u
M=/mnt/nfs
OPTS=rdma,port=20049,vers=3,nolock
SRV=192.0.2.1:/export
LONG=$(head -c 4000 /dev/zero | tr '\0' l)

# Rounds: END FUNCTION PHASE (/share/inject.rounds replaces the list).
# Each function is failed where this workload calls it on that end (a
# round whose function is never called fails).  Not called here, so not
# listed: the client's dma_map_page; the server's dma_map_page.  The
# server's Replies go out through rw_post behind RDMA Writes, else
# through post_send.
ROUNDS="
client rpcrdmax_kmalloc mount
client rpcrdmax_cm_create_id mount
client rpcrdmax_ib_alloc_pd mount
client rpcrdmax_ib_alloc_cq mount
client rpcrdmax_cm_create_qp mount
client rpcrdmax_cm_connect mount
client rpcrdmax_ib_alloc_mr mount
client rpcrdmax_ib_dma_map_single mount
client rpcrdmax_ib_post_recv mount
client rpcrdmax_kmalloc io
client rpcrdmax_ib_post_send io
client rpcrdmax_ib_post_recv io
client rpcrdmax_ib_mr_map io
server rpcrdmax_kmalloc mount
server rpcrdmax_ib_alloc_pd mount
server rpcrdmax_ib_alloc_cq mount
server rpcrdmax_cm_create_qp mount
server rpcrdmax_cm_accept mount
server rpcrdmax_ib_dma_map_single mount
server rpcrdmax_ib_post_recv mount
server rpcrdmax_ib_post_recv io
server rpcrdmax_rw_init io
server rpcrdmax_rw_post io
server rpcrdmax_ib_post_send io
"
[ -r /share/inject.rounds ] && ROUNDS=$(cat /share/inject.rounds)

step "client: rxe up" rxe_up
step "client: install rpcrdmax.ko" install_rpcrdmax
echo "install rpcrdma /sbin/modprobe --ignore-install rpcrdmax" >/etc/modprobe.d/rpcrdmax.conf
# loaded before any mount, so that its functions can be armed
step "client: modprobe rpcrdmax" modprobe rpcrdmax
wait_for /share/server.ready 600 || { step_fail "client: server never became ready"; exit 1; }

mkdir -p $M /tmp/src
head -c 1048577 /dev/urandom >/tmp/src/big
head -c 4097 /dev/urandom >/tmp/src/small
(cd /tmp/src && sha256sum big small) >/tmp/src.sha256
BASE=$(rdma_res_snapshot)
echo "client: RDMA resources with no mount: $BASE"

# The data every round reads back after its recovery.
step "client: mount" timeout -s KILL 120 mount -t nfs -o $OPTS $SRV $M
step "client: write the base data" timeout -s KILL 300 sh -c "mkdir -p $M/base/dir && cp /tmp/src/big /tmp/src/small $M/base/ &&
	cd $M/base/dir && for i in \$(seq 1 300); do : >entry-with-a-rather-long-name-\$i; done && ln -s $LONG $M/base/link && sync"
step "client: umount" timeout -s KILL 120 umount $M

# timed NAME CMD...: run CMD with a 120 s bound; a timeout is a hang (a
# failed step), any other outcome is the operation's answer; sets RC.
timed() {
	local name=$1; shift
	timeout -s KILL 120 "$@" >/dev/null 2>&1
	RC=$?
	if [ $RC -eq 124 ] || [ $RC -eq 137 ]; then
		step_fail "$name: hung (killed after 120 s)"
	fi
	echo "  $name: exit $RC"
}

# workload R: every chunk type once; W_OK=1 when the new file's write
# and sync reported success.
workload() {
	W_OK=0
	timed "$1: write 1 MiB (Read chunk)" sh -c "cp /tmp/src/big $M/r$2.big && sync $M/r$2.big"
	[ $RC -eq 0 ] && W_OK=1
	timed "$1: O_DIRECT read 1 MiB (Write chunk)" dd if=$M/base/big of=/dev/null bs=1M iflag=direct
	timed "$1: 300-entry READDIR (Reply chunk)" ls -l $M/base/dir
	timed "$1: 4000-byte READLINK (Reply chunk)" readlink $M/base/link
	timed "$1: 4000-byte SYMLINK (Long Call)" ln -s $LONG $M/r$2.link
	timed "$1: small write and read (inline)" sh -c "cp /tmp/src/small $M/r$2.small && cat $M/r$2.small >/dev/null"
}

n=0
set -- $ROUNDS
while [ $# -ge 3 ]; do
	end=$1 fn=$2 phase=$3
	shift 3
	n=$((n + 1))
	name="$end $fn at $phase"
	echo "round $n: $name"
	if [ "$end" = client ]; then arm=fei_arm disarm=fei_disarm; else arm=fei_remote_arm disarm=fei_remote_disarm; fi
	mounted=0
	if [ "$phase" = mount ]; then
		if ! out=$($arm "$fn" 1 2>&1); then step_fail "$name: arm: $out"; continue; fi
		timed "$name: mount" mount -t nfs -o $OPTS $SRV $M
		[ $RC -eq 0 ] && mounted=1
	else
		if ! timeout -s KILL 120 mount -t nfs -o $OPTS $SRV $M; then step_fail "$name: mount"; continue; fi
		mounted=1
		if ! out=$($arm "$fn" 1 2>&1); then step_fail "$name: arm: $out"; fi
	fi
	[ $mounted -eq 1 ] && workload "$name" $n
	left=$($disarm 2>&1)
	[ "$left" = 0 ] && step_ok "$name: the failure was injected" ||
		step_fail "$name: not injected ($fn not called; unused: $left)"
	# Where the stock module has an event for this failure, it fired.
	if [ "$end" = client ]; then ev=$(fei_traced client "$fn"); else ev=$(fei_ask trace "$fn"); fi
	case $ev in
	none) ;;
	ok\ *) step_ok "$name: rpcrdma:${ev#ok } fired with its fields" ;;
	*) step_fail "$name: no stock-named event: $ev" ;;
	esac
	if [ $mounted -eq 1 ] && ! timeout -s KILL 120 umount $M; then
		step_fail "$name: umount"
		umount -f $M 2>/dev/null || umount -l $M
	fi
	# Recovery: a fresh mount sees every byte written before, and every
	# write that reported success.
	step "$name: mount after the fault" timeout -s KILL 120 mount -t nfs -o $OPTS $SRV $M
	step "$name: base data intact (sha256)" timeout -s KILL 120 sh -c "cd $M/base && sha256sum -c --quiet /tmp/src.sha256"
	[ $mounted -eq 1 ] && [ $W_OK -eq 1 ] &&
		step "$name: the write that succeeded reads back" timeout -s KILL 120 cmp /tmp/src/big $M/r$n.big
	step "$name: READDIR and READLINK" timeout -s KILL 120 sh -c "test \$(ls $M/base/dir | wc -l) = 300 && test \$(readlink $M/base/link | wc -c) = 4001"
	rm -f $M/r$n.*
	step "$name: umount" timeout -s KILL 120 umount $M
	# sunrpc closes the transport when the last user goes
	step "$name: RDMA resources as before ($BASE)" rdma_res_back "$BASE" 30
	step "$name: the server closed its end (its QPs as before)" fei_remote_qp_gone
done
step "client: rmmod rpcrdmax" transport_unload rpcrdmax
dmesg | grep -c 'FAULT_INJECTION: forcing a failure' | sed 's/^/client: failures injected: /'
step "client: kernel log clean" kernel_log_clean_but_injector
exit $STEP_FAILS
