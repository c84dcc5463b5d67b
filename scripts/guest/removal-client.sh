# SPDX-License-Identifier: GPL-2.0
# e2e removal, client side (rpcrdmax on both ends): readers and writers
# keep a hard NFSv3 mount busy while the client's RDMA device is deleted
# and added back again and again, each deletion at another delay after
# the device returned, so that it lands in every phase of the client's
# reconnect (resolving, setting up, connecting, connected: the phase of
# each failed connect is in its "connect failed while ..." log line);
# then the server (removal-server.sh) does the same with its device.
# Device removal must wait for everything the transports made on the
# device: the kernel log stays free of restrack and driver warnings
# after every round, every read and written file is intact, and umount
# and unload leave no RDMA resource.  /share/removal.rounds: the most
# rounds at each end (default 24).
. /share/lib.sh
set -u
ROUNDS=$(cat /share/removal.rounds 2>/dev/null || echo 24)
step "client: $(rdma_fabric) up" rxe_up
step "client: install rpcrdmax.ko" install_rpcrdmax
echo "install rpcrdma /sbin/modprobe --ignore-install rpcrdmax" >/etc/modprobe.d/rpcrdmax.conf
RES0=$(rdma_res_snapshot)
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }
head -c 1048577 /dev/urandom >/tmp/src
want=$(sha256sum </tmp/src)
mkdir -p /mnt/nfs
step "removal: mount v3" timeout 120 mount -t nfs -o rdma,port=20049,vers=3,nolock,hard 192.0.2.1:/export /mnt/nfs ||
	{ touch /share/client.done; exit 1; }
step "removal: the file to read" cp /tmp/src /mnt/nfs/src
pids=
for i in 1 2 3; do
	(while [ ! -e /tmp/stop ]; do
		dd if=/mnt/nfs/src bs=64k iflag=direct status=none | sha256sum >>/tmp/read.$i
	done) &
	pids="$pids $!"
done
for i in 1 2; do
	(n=0; while [ ! -e /tmp/stop ]; do
		dd if=/tmp/src of=/mnt/nfs/w$i.$n bs=64k oflag=direct status=none
		n=$((n + 1))
	done) &
	pids="$pids $!"
done
running() { local p; for p in $pids; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
# the kernel log's driver and restrack reports (any WARNING counts)
log_bad() { dmesg | grep -E "$KERNEL_BAD|restrack" | head -n 3; }

sleep 3
# Delays (tenths of a second) between the device's return and its next
# deletion, cycled: the reconnect's phases last from a few ms to seconds
# under TCG.
DELAYS="0 2 5 10 1 20 3 40 7 60 15 0"
seen=
r=0
for d in $DELAYS $DELAYS; do
	[ $r -lt "$ROUNDS" ] || break
	r=$((r + 1))
	rdma link delete rxe0 || { step_fail "removal: round $r: rdma link delete rxe0"; break; }
	sleep 1
	rxe_readd || { step_fail "removal: round $r: the device did not come back"; break; }
	sleep "$((d / 10)).$((d % 10))"
	bad=$(log_bad)
	[ -z "$bad" ] || { step_fail "removal: round $r (delay ${d}00 ms): the kernel log: $bad"; break; }
	seen=$(dmesg | sed -n 's/.*connect failed while \([a-z ]*\):.*/\1/p' | sort -u | tr '\n' ,)
	[ "$seen" = "connecting,resolving,setting up," ] && [ $r -ge 6 ] && break
done
rdma link show rxe0/1 >/dev/null 2>&1 || rxe_readd
step_ok "removal: $r client-side rounds; connects failed while: ${seen%,}"
# the first deletion hit an established connection; the phases of the
# connects it failed are in the log lines counted above
for ph in resolving "setting up" connecting; do
	case ",$seen" in
	*",$ph,"*) step_ok "removal: a deletion failed a connect while $ph" ;;
	*) step_fail "removal: no deletion in $r rounds failed a connect while $ph" ;;
	esac
done
touch /share/client.removed
# the server's rounds (removal-server.sh), under the same I/O
wait_for /share/server.removed $((ROUNDS * 30 + 300)) || step_fail "removal: the server's rounds never ended"
sleep 3
touch /tmp/stop
end=$(deadline 600)
while running && before $end; do sleep 1; done
if running; then
	step_fail "removal: the I/O did not finish 600 s after the last round"
	kill -9 $pids 2>/dev/null
else
	step_ok "removal: the I/O finished"
fi
bad=$(for f in /tmp/read.?; do grep -qvx -- "$want" "$f" && echo "$f"; done)
[ -z "$bad" ] && step_ok "removal: every read of the file ($(cat /tmp/read.? | wc -l)) intact" ||
	step_fail "removal: sha256 differs in $(echo $bad)"
step "removal: the written files intact" sh -c 'for f in /mnt/nfs/w*.*; do cmp /tmp/src "$f" || exit 1; done'
step "removal: umount" timeout 120 umount /mnt/nfs
step "removal: the client's RDMA resources back to $RES0" rdma_res_back "$RES0" 30
step "removal: rpcrdmax unloads" transport_unload rpcrdmax
step "client: kernel log clean" kernel_log_clean
touch /share/client.done
exit $STEP_FAILS
