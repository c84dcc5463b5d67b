# SPDX-License-Identifier: GPL-2.0
# e2e server-faults, server side: rpcrdmax's server (loaded by a plain
# modprobe, no parameters) torn down under load.  With the stock client
# (server-faults-client.sh) writing through a mount:
#   0. with nfsd listening and no connection, the rxe device is deleted
#      and re-added: the listener takes the client's mount afterwards
#      without nfsd being restarted;
#   1. the module refuses to unload while the rdma listener exists;
#   2. rpc.nfsd 0 with I/O in flight releases every RDMA resource
#      (connections' QPs, MRs, PDs back to the pre-nfsd counts), and the
#      module unloads; it is loaded again and nfsd restarted, and the
#      client's I/O resumes (hard mount) with its data intact;
#   3. the rxe device is deleted under the mount while I/O runs: the
#      server's connections go, the device is re-added, the client
#      reconnects and its data is intact;
#   4. with max_requests 16384 and max_req_size 65536 (1 GiB of Receive
#      buffers, over the budget of 1/8 of RAM) nfsd is restarted under
#      the writers: the client's reconnects are refused (rdma_stat_refused,
#      the log message, no QP/MR/PD left, nfsd still up, no OOM kill);
#      with the defaults back the client reconnects by itself;
#   5. rpc.nfsd 0 under a kill storm of the client's writers, and nfsd
#      started again with memory filled to about 64 MiB available: the
#      RDMA resources come back, the client reconnects under the
#      pressure, no OOM kill, killed writers exit, completed files intact;
#   6. 192.0.2.1 moves to 192.0.2.11 for 10 s under the writers and
#      comes back: the writers finish with their data intact;
#   7. (when asked) eth0 goes down for 10 s and up again under the
#      writers: the writers finish with their data intact; in every run,
#      no connection outlives its client;
#   8. the svc_rdma sysctls refuse out-of-range values, max_requests sizes
#      each new connection, and the counters count what the traffic did
#      and reset on write.
. /share/lib.sh
set -u
SVC=/proc/sys/sunrpc/svc_rdma
rc_qps() { rdma_res_count qp RC; }
# rc_qpns: the RC QPs' numbers, space-separated.
rc_qpns() { rdma res show qp 2>/dev/null | awk '/type RC/ { for (i = 1; i < NF; i++) if ($i == "lqpn") printf "%s ", $(i + 1) }'; }
# has_cq N: some CQ has exactly N entries.  A connection's Receive CQ is
# asked for max_requests + 1 entries (one per credit, one for the drain),
# and rxe rounds a CQ up to 2^k - 1: max_requests 16 gives 31, the
# default 64 gives 127, 200 gives 255.
has_cq() { rdma res show cq 2>/dev/null | grep -q "cqe $1 "; }

step "server: rxe up" rxe_up
step "server: install rpcrdmax.ko" install_rpcrdmax
echo 'install rpcrdma /bin/false' >/etc/modprobe.d/no-stock.conf
step "server: modprobe rpcrdmax" modprobe rpcrdmax
step "server: load nfsd" modprobe nfsd
grep -q '^rdma ' /proc/sys/sunrpc/transports &&
	step_ok "server: plain modprobe registers the rdma class" ||
	step_fail "server: no rdma class: $(cat /proc/sys/sunrpc/transports)"
# The RDMA core's PDs, CQs, QPs and MRs before nfsd: the device keeps its
# own (ib_core's PD, CQ and GSI QP); with no connection, the same again.
RES0=$(rdma_res_snapshot)
echo "server: RDMA resources before nfsd: $RES0"
for f in max_requests max_req_size max_outbound_read_requests rdma_stat_read \
	rdma_stat_recv rdma_stat_write rdma_stat_sq_starve rdma_stat_rq_starve \
	rdma_stat_rq_poll rdma_stat_rq_prod rdma_stat_sq_poll rdma_stat_sq_prod; do
	[ -r "$SVC/$f" ] || missing="${missing:-} $f"
done
[ -z "${missing:-}" ] && step_ok "sysctl: $SVC has the stock names" ||
	step_fail "sysctl: $SVC lacks the stock names:$missing"
[ "$(cat $SVC/max_requests) $(cat $SVC/max_req_size) $(cat $SVC/max_outbound_read_requests)" = "64 4096 16" ] &&
	step_ok "sysctl: stock defaults 64 4096 16" ||
	step_fail "sysctl: defaults $(cat $SVC/max_requests) $(cat $SVC/max_req_size) $(cat $SVC/max_outbound_read_requests)"
for bad in "max_requests 3" "max_requests 16385" "max_req_size 4095" "max_req_size 65537" \
	"max_outbound_read_requests 0" "max_outbound_read_requests 256" "max_requests junk" \
	"rdma_stat_rq_poll 1"; do
	set -- $bad
	if echo "$2" >"$SVC/$1" 2>/dev/null; then
		step_fail "sysctl: $1 accepted $2"
	else
		step_ok "sysctl: $1 refuses $2"
	fi
done
[ "$(cat $SVC/max_requests)" = 64 ] && step_ok "sysctl: refused writes changed nothing" ||
	step_fail "sysctl: max_requests is $(cat $SVC/max_requests) after refused writes"
step "sysctl: max_requests 16 accepted" sh -c "echo 16 >$SVC/max_requests && [ \$(cat $SVC/max_requests) = 16 ]"
nfs_server_start
# ---- 0. the listener outlives its device ------------------------------------
# With nfsd listening and no connection, the device goes and comes back;
# the listener must still take the client's mount (its first step) and
# its first I/O (round 1 below) without nfsd being restarted.
step "listener: rdma link delete rxe0 with nfsd listening, no connection" \
	timeout 120 rdma link delete rxe0
step "listener: rdma link add rxe0" rxe_readd
grep -q '^rdma ' /proc/fs/nfsd/portlist && step_ok "listener: nfsd still lists its rdma listener" ||
	step_fail "listener: no rdma listener after the device came back: '$(tr '\n' ' ' </proc/fs/nfsd/portlist)'"
# With nfsd listening and no connection: RES0 and the listeners' CM IDs.
RESL=$(rdma_res_snapshot)
echo "server: RDMA resources with nfsd listening: $RESL"
touch /share/server.ready

# ---- 1-2. unload refused; rpc.nfsd 0 with I/O in flight --------------------
wait_for /share/io.1 300 || step_fail "server: the client's I/O never started"
sleep 2
[ "$(rc_qps)" -gt 0 ] && step_ok "nfsd0: the client is connected ($(rc_qps) RC QPs)" ||
	step_fail "nfsd0: no RC QP while the client writes"
has_cq 31 && ! has_cq 127 && step_ok "sysctl: max_requests 16 sized the connection (Receive CQ of 31)" ||
	step_fail "sysctl: no Receive CQ of 31 with max_requests 16: $(rdma res show cq | tr '\n' ' ')"
if modprobe -r rpcrdmax 2>/dev/null; then
	step_fail "nfsd0: rpcrdmax unloaded under a listener"
else
	step_ok "nfsd0: unload refused while the listener exists"
fi
step "nfsd0: rpc.nfsd 0 with I/O in flight" timeout 120 rpc.nfsd 0
step "nfsd0: RDMA resources back to $RES0 as rpc.nfsd 0 returns" rdma_res_back "$RES0" 0
settled_step nfsd0 yes
step "nfsd0: rpcrdmax unloads" transport_unload rpcrdmax
step "nfsd0: modprobe rpcrdmax again" modprobe rpcrdmax
step "sysctl: max_requests 200 accepted" sh -c "echo 200 >$SVC/max_requests"
nfsd_up
touch /share/server.back1

# ---- 3. device removal under the mount -----------------------------------
wait_for /share/io.2 600 || step_fail "server: the client's second I/O never started"
sleep 2
has_cq 255 && step_ok "sysctl: max_requests 200 sized the new connection (Receive CQ of 255)" ||
	step_fail "sysctl: no Receive CQ of 255 with max_requests 200: $(rdma res show cq | tr '\n' ' ')"
step "removal: rdma link delete rxe0" timeout 120 rdma link delete rxe0
[ "$(rc_qps)" = 0 ] && step_ok "removal: no RC QP left" ||
	step_fail "removal: $(rc_qps) RC QPs left after the device went"
step "removal: no MR left with the device" rdma_res_settle mr 0 30
sleep 2
step "removal: rdma link add rxe0" rxe_readd
touch /share/server.back2

# ---- 4. a connection over the memory budget is refused ---------------------
wait_for /share/io.3 600 || step_fail "server: the client's third I/O never started"
sleep 2
[ "$(rc_qps)" -gt 0 ] && step_ok "refuse: the client is connected ($(rc_qps) RC QPs)" ||
	step_fail "refuse: no RC QP while the client writes"
REF0=$(cat $SVC/rdma_stat_refused)
step "refuse: max_requests 16384 and max_req_size 65536 accepted" \
	sh -c "echo 16384 >$SVC/max_requests && echo 65536 >$SVC/max_req_size"
step "refuse: rpc.nfsd 0 with I/O in flight" timeout 120 rpc.nfsd 0
step "refuse: RDMA resources back to $RES0 as rpc.nfsd 0 returns" rdma_res_back "$RES0" 0
settled_step refuse yes
nfsd_up
# The stock client retries with a growing delay; two refusals show that
# every attempt is refused and leaves nothing behind.
end=$(deadline 300)
while [ "$(cat $SVC/rdma_stat_refused)" -lt $((REF0 + 2)) ] && before $end; do sleep 0.1; done
ref=$(cat $SVC/rdma_stat_refused)
[ "$ref" -ge $((REF0 + 2)) ] && step_ok "refuse: the client's reconnects refused (rdma_stat_refused $REF0 -> $ref)" ||
	step_fail "refuse: rdma_stat_refused $REF0 -> $ref in 300 s over the budget"
msg='rpcrdmax: refusing connection from 192\.0\.2\.2: 16384 Receive buffers of 65536 octets exceed the budget of [0-9]+ MiB'
dmesg | grep -Eq "$msg" && step_ok "refuse: logged '$(dmesg | grep -Eo "$msg" | tail -n 1)'" ||
	step_fail "refuse: no refusal message; last rpcrdmax lines: $(dmesg | grep rpcrdmax | tail -n 3 | tr '\n' ' ')"
[ "$(rc_qps)" = 0 ] && step_ok "refuse: no RC QP while refusing" ||
	step_fail "refuse: $(rc_qps) RC QPs while refusing: $(rdma res show qp | grep 'type RC' | tr '\n' ' ')"
step "refuse: no RDMA resource left by the refusals" rdma_res_back "$RESL" 10
pgrep -x nfsd >/dev/null && grep -q rdma /proc/fs/nfsd/portlist &&
	step_ok "refuse: nfsd still runs with its rdma listener ($(cat /proc/fs/nfsd/threads) threads)" ||
	step_fail "refuse: nfsd gone or no listener: $(pgrep -xc nfsd) nfsd threads, portlist '$(tr '\n' ' ' </proc/fs/nfsd/portlist)'"
step "refuse: no OOM kill" kernel_log_no_oom
step "refuse: defaults 64 and 4096 restored" \
	sh -c "echo 64 >$SVC/max_requests && echo 4096 >$SVC/max_req_size"
touch /share/server.back3
# The client's writers finish only over a new connection; it waits for
# this check before its umount.
wait_for /share/client.round3 1200 || step_fail "server: the client's third round never finished"
[ "$(rc_qps)" -gt 0 ] && has_cq 127 &&
	step_ok "refuse: the client reconnected by itself with the defaults (Receive CQ of 127)" ||
	step_fail "refuse: $(rc_qps) RC QPs after the defaults came back; CQs: $(rdma res show cq | tr '\n' ' ')"
touch /share/server.checked3

# ---- 5. a kill storm during a reconnect, under memory pressure --------------
# The client kills its writers at random moments (its round 5) while nfsd
# stops and starts again, so the connection goes with RPCs in flight and
# the client makes a new one while writers die under it.  nfsd starts
# again with the guest's memory filled (tmpfs) down to about 64 MiB
# available, so the new connection is set up under memory pressure.
# Required here: every RDMA resource of the old connection comes back,
# the client reconnects under the pressure, no OOM kill; the client
# requires its killed writers to exit and what completed to read back
# intact.
FILL=/tmp/fill
mem_avail() { awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo; }
pressure_on() {
	local a
	mkdir -p $FILL && mount -t tmpfs -o size=100% none $FILL || return 1
	a=$(mem_avail)
	[ "$a" -le 96 ] || fallocate -l $((a - 64))M $FILL/fill ||
		dd if=/dev/zero of=$FILL/fill bs=1M count=$((a - 64)) status=none
}
pressure_off() { rm -f $FILL/fill && umount $FILL; }
storm() {
	local t0
	wait_for /share/io.5 600 || step_fail "server: the client's storm never started"
	sleep 2
	[ "$(rc_qps)" -gt 0 ] && step_ok "storm: the client is connected under its kill storm" ||
		step_fail "storm: no RC QP under the client's kill storm"
	step "storm: rpc.nfsd 0 under the kill storm" timeout 120 rpc.nfsd 0
	step "storm: RDMA resources back to $RES0 as rpc.nfsd 0 returns" rdma_res_back "$RES0" 0
	settled_step storm yes
	step "storm: memory filled" pressure_on
	echo "server: storm: MemAvailable $(mem_avail) MiB with the fill"
	nfsd_up
	t0=$(date +%s)
	while [ "$(rc_qps)" = 0 ] && [ $(($(date +%s) - t0)) -lt 120 ]; do sleep 0.5; done
	[ "$(rc_qps)" -gt 0 ] &&
		step_ok "storm: the client reconnected under memory pressure ($(($(date +%s) - t0)) s, MemAvailable $(mem_avail) MiB)" ||
		step_fail "storm: no reconnection within 120 s under memory pressure"
	sleep 3
	step "storm: memory released" pressure_off
	step "storm: no OOM kill" kernel_log_no_oom
	touch /share/server.back5
}
storm

# ---- 6. the server's address changed under the writers ----------------------
# 192.0.2.1 becomes 192.0.2.11 for 10 s and comes back.  The client's
# packets find no GID of 192.0.2.1 here any more, so the connection
# fails, and its reconnects find no one until the address is back; its
# round 6 requires its writers to finish with their files intact, and
# below (once it unmounted) nothing of the connections that went may be
# left (Documentation/stock-fixes.rst, "Address changes").
# new_qp BEFORE NOW: some RC QP number in NOW is not in BEFORE.
new_qp() {
	local q
	for q in $2; do
		case " $1 " in *" $q "*) ;; *) return 0 ;; esac
	done
	return 1
}
addr_round() {
	local before now end
	wait_for /share/io.6 600 || step_fail "server: the client's sixth I/O never started"
	sleep 2
	before=$(echo $(rc_qpns))
	[ -n "$before" ] && step_ok "addr: the client is connected (RC QP $before)" ||
		step_fail "addr: no RC QP while the client writes"
	step "addr: 192.0.2.1 replaced by 192.0.2.11 under the writers" addr_move 192.0.2.1 192.0.2.11
	sleep 10
	step "addr: 192.0.2.1 back" addr_move 192.0.2.11 192.0.2.1
	end=$(deadline 300)
	now=$(echo $(rc_qpns))
	while ! { [ -n "$now" ] && new_qp "$before" "$now"; } && before $end; do
		sleep 0.5
		now=$(echo $(rc_qpns))
	done
	[ -n "$now" ] && new_qp "$before" "$now" &&
		step_ok "addr: the client connected again (RC QP $before, then $now)" ||
		step_fail "addr: no new connection 300 s after the address came back (RC QP $before, now '$now')"
	touch /share/server.back6
}
addr_round

# ---- 7. a link flap under the mount -----------------------------------------
# When asked (/share/flap.want: RPCRDMAX_FLAP=1 scripts/e2e server-faults),
# eth0 goes down for 10 s under the writers (rxe's port goes with it).
# Either RC retransmission outlasts the outage and the connection
# survives, or work requests in flight exhaust their retries, this end
# closes the connection and the client makes a new one; the client's
# round 4 requires its writers to finish with their files intact, and
# below no connection may outlive the client.  This end reports which
# way it went.  (Past 30 s, scripts/vm would call a guest reading nothing
# while its tap drops packets a NIC stall.)

flap() {
	local before now t0 seen=
	wait_for /share/io.4 600 || step_fail "server: the client's fourth I/O never started"
	sleep 2
	before=$(echo $(rc_qpns))
	[ -n "$before" ] && step_ok "flap: the client is connected (RC QP $before)" ||
		step_fail "flap: no RC QP while the client writes"
	trace_conn_on || echo "server: no tracefs: the flap round runs without a trace"
	step "flap: eth0 down under the writers" ip link set eth0 down
	sleep 10
	step "flap: eth0 up" ip link set eth0 up
	t0=$(date +%s)
	sleep 3
	# rxe 6.1: a CM MAD (here the DREQ of a connection whose RDMA Reads
	# failed) sent while the port is down completes with LOC_QP_OP_ERR and
	# puts the GSI QP in error; ib_mad moves it back to RTS, which in rxe
	# restores its send side only, so this node's CM never hears a
	# connection request again (the client's REQs time out, one every
	# ~100 s).  The stock server disconnects the same way.  Told apart by
	# the trace; the device is re-added, and the writers must still finish
	# with their data intact.
	if trace_conn_dump 100000 | grep -q 'icm_mad_send_err: .*LOC_QP_OP_ERR'; then
		echo "server: flap: a CM MAD failed with the port down: rxe's GSI QP is deaf, re-adding rxe0"
		step "flap: rdma link delete rxe0 (rxe's deaf GSI QP)" timeout 120 rdma link delete rxe0
		step "flap: rdma link add rxe0" rxe_readd
	fi
	touch /share/server.back4
	# The client's round says whether its writers recovered; here, only
	# how: the connection survived (RC retransmission outlasted the
	# outage) or the client made a new one.
	while [ ! -e /share/client.round4 ] && [ "$(date +%s)" -lt $((t0 + 900)) ]; do
		now=$(echo $(rc_qpns))
		[ -z "$seen" ] && new_qp "$before" "$now" && seen="RC QP $now, $(($(date +%s) - t0)) s after the link came back"
		sleep 0.5
	done
	echo "server: flap: RC QP $before before; ${seen:-no new connection while the client wrote}"
	dmesg | grep -E 'rpcrdmax|rxe' | tail -n 12 | sed 's/^/server: flap: dmesg: /'
	trace_conn_dump 60 | sed 's/^/server: flap: trace: /'
}
[ -e /share/flap.want ] && flap
wait_for /share/client.done 1800 || step_fail "server: client never finished"
# No connection outlives its client (one the flap broke included).
step "server: RDMA resources back to $RESL 60 s after the client unmounted" rdma_res_back "$RESL" 60
settled_step server yes

# ---- 8. counters ------------------------------------------------------------
for f in rdma_stat_recv rdma_stat_read rdma_stat_write; do
	v=$(cat "$SVC/$f")
	[ "$v" -gt 0 ] 2>/dev/null && step_ok "sysctl: $f counted ($v)" ||
		step_fail "sysctl: $f is '$v' after the traffic"
done
echo "sysctl: rdma_stat_sq_starve $(cat $SVC/rdma_stat_sq_starve)"
step "sysctl: a write resets rdma_stat_recv" sh -c "echo 1 >$SVC/rdma_stat_recv && [ \$(cat $SVC/rdma_stat_recv) = 0 ]"
step "sysctl: a write resets rdma_stat_refused" sh -c "echo 1 >$SVC/rdma_stat_refused && [ \$(cat $SVC/rdma_stat_refused) = 0 ]"
step "server: rpc.nfsd 0" rpc.nfsd 0
step "server: rpcrdmax unloads" transport_unload rpcrdmax
[ -e "$SVC" ] && step_fail "sysctl: $SVC outlives the module" || step_ok "sysctl: $SVC gone with the module"
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
