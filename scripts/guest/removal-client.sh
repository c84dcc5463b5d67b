# SPDX-License-Identifier: GPL-2.0
# e2e removal, client side (rpcrdmax on both ends): readers and writers
# keep a hard NFSv3 mount busy while the client's RDMA device is deleted
# and added back again and again, each deletion at another delay after a
# connect began, so that it lands in the phases of the client's
# reconnect (the CM id's state at each deletion, and the phase of each
# connect it failed, from its "connect failed while ..." log line, are
# printed: from user space, polling rdma's resource list, most deletions
# find the connection up, and the connects in progress are caught only
# now and then; KUnit's teardown cases test those deterministically);
# then the server (removal-server.sh) does the same with its device.
# Device removal must wait for everything the transports made on the
# device: the kernel log stays free of restrack and driver warnings
# after every round, every read and written file is intact, and umount
# and unload leave no RDMA resource.  /share/removal.rounds: the most
# rounds at each end (default 24); /share/removal.transport: stock puts
# the stock rpcrdma on both ends instead (the same rounds, to tell a
# fault of the fabric or of stock's transport from one of rpcrdmax's).
. /share/lib.sh
set -u
ROUNDS=$(cat /share/removal.rounds 2>/dev/null || echo 24)
T=$(cat /share/removal.transport 2>/dev/null || echo rpcrdmax)
step "client: $(rdma_fabric) up" rxe_up
if [ "$T" = stock ]; then
	step "client: load rpcrdma" transport_load client stock
else
	step "client: install rpcrdmax.ko" install_rpcrdmax
	echo "install rpcrdma /sbin/modprobe --ignore-install rpcrdmax" >/etc/modprobe.d/rpcrdmax.conf
fi
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
# The client's own CM ids on the device and their states (rdma_cm's:
# ADDR_QUERY .. CONNECT); an id is on the device once its address
# resolved, so one listed means a connect is under way or up.
cm_states() { rdma res show cm_id 2>/dev/null | grep -v 'state LISTEN' | sed -n 's/.* state \([A-Z_]*\).*/\1/p'; }
# Each round waits until a connect has begun (or the connection is up),
# then deletes the device after a delay (ms, cycled): sunrpc's reconnect
# wait decides when a connect starts, the delay where in it the deletion
# lands.
DELAYS="0 0 20 50 100 10 200 400 30 800 150 0"
found= r=0
for d in $DELAYS $DELAYS; do
	[ $r -lt "$ROUNDS" ] || break
	r=$((r + 1))
	end=$(deadline 120)
	while [ -z "$(cm_states)" ] && before $end; do sleep 0.05; done
	[ "$d" = 0 ] || sleep "0.$(printf %03d "$d")"
	st=$(cm_states | head -n1)
	found="$found ${st:-none}"
	removal_delete client "$r" || { stuck=1; break; }
	sleep 1
	rxe_readd || { step_fail "removal: round $r: the device did not come back"; break; }
	bad=$(log_bad)
	[ -z "$bad" ] || { step_fail "removal: round $r (delay $d ms, id $st): the kernel log: $bad"; break; }
	# connects a deletion failed, by phase
	seen=$(dmesg | sed -n 's/.*connect failed while \([a-z ]*\): -19 (device removal).*/\1/p' | sort | uniq -c |
		awk '{ c = $1; $1 = ""; printf "%s%s %d", (n++ ? ", " : ""), substr($0, 2), c }')
done
if [ -n "${stuck:-}" ]; then
	# the device cannot go: nothing after this can end
	touch /share/client.removed /share/client.done
	exit $STEP_FAILS
fi
rdma link show rxe0/1 >/dev/null 2>&1 || rxe_readd
step_ok "removal: $r client-side rounds; the id's state at each deletion:$found; connects they failed: ${seen:-none}"
# the first deletion found the mount's connection up (its I/O ran)
case "$found" in
" CONNECT"*) step_ok "removal: a deletion under an established connection" ;;
*) step_fail "removal: the first deletion found the id in state '${found# }', not CONNECT" ;;
esac
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
step "removal: $(transport_kmod "$T") unloads" transport_unload "$T"
step "client: kernel log clean" kernel_log_clean
touch /share/client.done
exit $STEP_FAILS
