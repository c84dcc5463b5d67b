# SPDX-License-Identifier: GPL-2.0
# Helpers for guest-side test scripts (sourced from /share/lib.sh).
# Every check prints "STEP ok NAME" or "STEP FAIL NAME: why"; the host
# counts those lines.

STEP_FAILS=0

# stall_due LOG: whether LOG has had no line added for STALL_SECS (240 s
# by default; no step here is meant to take that long on Debian's kernel).
# The debug kernel (it has kmemleak) is several times slower: 720 s, as
# scripts/e2e triples the guests' time-outs there (its storm's sha256 of
# 10 MiB took over 240 s).
if [ -z "${STALL_SECS:-}" ]; then
	STALL_SECS=240
	[ ! -e /sys/kernel/debug/kmemleak ] || STALL_SECS=720
fi
stall_due() {
	local m d
	m=$(stat -c %Y "$1" 2>/dev/null) || return 1
	# a pair's server: silent while its client runs, so counted from
	# the client's end too
	d=$(stat -c %Y "${STALL_CLIENT_DONE:-/share/client.done}" 2>/dev/null) &&
		[ "$d" -gt "$m" ] && m=$d
	[ $(($(date +%s) - m)) -ge "$STALL_SECS" ]
}

# stall_report LOG ROOT: where a guest whose script (ROOT, a PID) has left
# its LOG silent is:
# its last step, the newest commands still running (the step under way is
# among them), and each task in uninterruptible sleep, kernel threads
# too, with its kernel stack.  Its first line, which scripts/e2e quotes,
# ends with the first such task's innermost frames.  (Not sysrq w: its
# "Call Trace:" lines in the kernel log would fail a later "kernel log
# clean" step of a step that was only slow.)
stall_report() {
	local d top
	d=$(d_tasks)
	# the first such task's four innermost frames, for the summary
	top=$(printf '%s\n' "$d" | awk '
		/^--- D: / { if (n++) exit; c = $0; sub(/^--- D: [0-9]+ /, "", c); next }
		f < 4 { sub(/^\[<[^>]*>\] /, ""); sub(/\+0x.*/, ""); s = s (f++ ? "<" : "") $0 }
		END { if (n) print c " in " s }')
	echo "stuck: no output for $(($(date +%s) - $(stat -c %Y "$1"))) s after \"$(grep '^STEP' "$1" 2>/dev/null | tail -n1 | cut -c6-80)\"; running: $(stall_newest "$2")${top:+; D: $top}"
	echo "--- $(date -u +%T) newest commands:"
	ps -eo pid,ppid,stat,etimes,wchan:24,args --sort=etimes 2>/dev/null | head -n 15
	[ -z "$d" ] || printf '%s\n' "$d"
	conn_trace_report
}

# d_tasks: each task in uninterruptible sleep, kernel threads too, as
# "--- D: PID COMM" and its kernel stack.
d_tasks() {
	local p
	for p in $(ps -eo pid=,stat= 2>/dev/null | awk '$2 ~ /^D/ { print $1 }'); do
		echo "--- D: $p $(cat "/proc/$p/comm" 2>/dev/null)"
		cat "/proc/$p/stack" 2>/dev/null
	done
}

# conn_trace_report: the last connection events (trace_conn_on), when they
# are being recorded: whether the transport saw its peer go, and tried to
# connect again.  (Spelled out: the heartbeat below runs it in a subshell
# forked before trace_conn_dump is defined.)
conn_trace_report() {
	local l
	l=$(grep -v '^#' /sys/kernel/tracing/trace 2>/dev/null | tail -n 60)
	[ -n "$l" ] || return 0
	echo "--- $(date -u +%T) connection trace:"
	printf '%s\n' "$l"
}

# stuck_report CMD...: CMD's report to /share/NAME.stuck and the console.
stuck_report() {
	"$@" >/tmp/nconnect.report 2>&1
	cat /tmp/nconnect.report >>"/share/$RPCRDMAX_name.stuck"
	cat /tmp/nconnect.report >/dev/console 2>/dev/null
}

# peer_stall_report: the server's side of its client's stall (the client
# wrote /share/client.stuck): its own tasks in uninterruptible sleep, its
# connection trace and its kernel log's tail.
peer_stall_report() {
	echo "server: the client is stuck; the server at $(date -u +%T):"
	d_tasks
	conn_trace_report
	echo "--- kernel log, last 30 lines:"
	dmesg 2>/dev/null | tail -n 30
}

# stall_newest ROOT: the command line of ROOT's newest descendant that is
# not this shell's own (its ancestors, the subshells and pipelines it runs
# to ask) nor a sleep of a polling loop.
stall_newest() {
	local me anc= p
	read -r me _ </proc/self/stat
	p=$me
	while [ "${p:-0}" -gt 1 ]; do
		anc="$anc $p"
		p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)
	done
	ps -eo pid=,ppid=,etimes=,args= 2>/dev/null | awk -v root="$1" -v me="$me" -v anc="$anc " '
		{ P[NR] = $1; Q[NR] = $2; E[NR] = $3 + 0
		  sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ /, ""); A[NR] = $0
		  if ($2 == me) kid[P[NR]] = 1 }
		END {
			in_root[root] = 1
			do {
				grew = 0
				for (i = 1; i <= NR; i++)
					if ((Q[i] in in_root) && !(P[i] in in_root)) { in_root[P[i]] = 1; grew = 1 }
			} while (grew)
			for (i = 1; i <= NR; i++) {
				if (!(Q[i] in in_root) || index(anc, " " P[i] " ") || Q[i] == me ||
				    (Q[i] in kid) || A[i] ~ /^sleep /)
					continue
				if (!b || E[i] < E[b] || (E[i] == E[b] && P[i] + 0 > P[b] + 0))
					b = i
			}
			if (b) print substr(A[b], 1, 100)
		}'
}

# A heartbeat for scripts/vm: it tells a NIC stall (QEMU stops moving
# this guest's packets) from a hung guest kernel by whether this file
# keeps being touched.  Once per guest, detached from the script's output
# and not the script's child (a bare `wait` in a script would wait for it).
# The same loop watches the guest's log (stall_due): once per stall it
# says where the script is stuck (stall_report, to NAME.stuck and the
# console), since a guest that scripts/vm's time-out then kills leaves no
# dmesg behind.  A pair's server, whose script waits silently for its
# client, reports once its client has (peer_stall_report), or once its
# own log has been silent that long after its client ended (its nfsd
# stuck at shutdown, say).
if [ -n "${RPCRDMAX_name:-}" ] && [ -z "${RPCRDMAX_HEARTBEAT:-}" ]; then
	RPCRDMAX_HEARTBEAT=1
	export RPCRDMAX_HEARTBEAT
	( (cd / && log=/share/$RPCRDMAX_name.log script=$$ reported=; while :; do
		: >"/share/$RPCRDMAX_name.alive"
		if [ "$RPCRDMAX_name" = server ] && [ ! -e /share/client.done ]; then
			[ -n "$reported" ] || [ ! -e /share/client.stuck ] ||
				{ reported=1; stuck_report peer_stall_report; }
		elif ! stall_due "$log"; then
			reported=
		elif [ -z "$reported" ]; then
			reported=1
			stuck_report stall_report "$log" "$script"
		fi
		sleep 5
	done) </dev/null >/dev/null 2>&1 & )
fi

step_ok() { echo "STEP ok $*"; }
step_fail() { echo "STEP FAIL $*"; STEP_FAILS=$((STEP_FAILS + 1)); }

# step NAME CMD...: run CMD, record the outcome under NAME; fails as CMD
# did, so that a caller can skip what depends on it.
step() {
	local name=$1 out; shift
	if out=$("$@" 2>&1); then
		step_ok "$name"
	else
		step_fail "$name: $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ')"
		return 1
	fi
}

# deadline SECONDS: the clock's second SECONDS from now; before END is
# true until the clock reaches it. Every wait here is bounded by one (not
# by a count of polls: under TCG, and more on the debug kernel, a poll's
# fork and exec take much longer than its sleep).
deadline() { echo $(($(date +%s) + $1)); }
before() { [ "$(date +%s)" -lt "$1" ]; }

# wait_for FILE SECONDS: poll the share for a flag file.
wait_for() {
	local f=$1 end=$(deadline $2)
	while [ ! -e "$f" ] && before $end; do sleep 0.1; done
	[ -e "$f" ]
}

# trace_conn_on: record connection-level events in the kernel's trace
# buffer: the RDMA CM's (rdma_cma, ib_cma: requests, replies, rejects,
# disconnects, stale connections), sunrpc's transport lifetime and RPC
# time-outs, and stock rpcrdma's connects and disconnects (each when its
# module is loaded).  trace_conn_dump N prints the last N of them.
TRACEFS=/sys/kernel/tracing
tracefs_up() { [ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null; }
trace_conn_on() {
	local e
	tracefs_up || return 1
	echo 2048 >$TRACEFS/buffer_size_kb
	: >$TRACEFS/trace
	for e in rdma_cma ib_cma sunrpc/xprt_connect sunrpc/xprt_disconnect_auto \
		sunrpc/xprt_disconnect_force sunrpc/xprt_disconnect_done sunrpc/xprt_timer \
		rpcrdma/xprtrdma_connect rpcrdma/xprtrdma_disconnect rpcrdma/xprtrdma_op_connect \
		rpcrdma/xprtrdma_op_inject_dsc rpcrdma/xprtrdma_qp_event sunrpc/svc_xprt_accept \
		sunrpc/svc_xprt_close sunrpc/svc_xprt_detach sunrpc/svc_xprt_free \
		rpcrdma/svcrdma_accept_err rpcrdma/svcrdma_qp_err rpcrdma/svcrdma_pd_err; do
		[ -e $TRACEFS/events/$e/enable ] && echo 1 >$TRACEFS/events/$e/enable
	done
	echo 1 >$TRACEFS/tracing_on
}
trace_conn_dump() { grep -v '^#' $TRACEFS/trace 2>/dev/null | tail -n "$1"; }

# trace_events_on INSTANCE EVENT...: record the rpcrdma events named (the
# module that defines them must be loaded) in the tracefs instance
# INSTANCE, a buffer of its own, emptied first.  trace_events_off
# INSTANCE stops it; trace_lines INSTANCE EVENT prints EVENT's lines.
trace_events_on() {
	local i=$TRACEFS/instances/$1 e
	shift
	tracefs_up || return 1
	mkdir -p "$i" && : >"$i/trace" || return 1
	for e in "$@"; do
		echo 1 >"$i/events/rpcrdma/$e/enable" || { echo "no event rpcrdma:$e"; return 1; }
	done
}
trace_events_off() { echo 0 >"$TRACEFS/instances/$1/events/enable"; }
trace_lines() { grep " $2: " "$TRACEFS/instances/$1/trace"; }
# trace_expect INSTANCE EVENT ERE WHAT: a step, WHAT, that passes when one
# of EVENT's lines reads "EVENT: " and then matches ERE (anchor it with $).
trace_expect() {
	if trace_lines "$1" "$2" | grep -Eq " $2: $3"; then
		step_ok "$4"
	else
		step_fail "$4: none matches; the last: '$(trace_lines "$1" "$2" | tail -n 1)'"
	fi
}

# window_begin NAME, window_end NAME (client): a stretch of a client
# script whose traffic a server that watches for it (window_watch) leaves
# out of its counts.  Each waits for the server's acknowledgement, so that
# no Call before or after falls inside.  SHARE: the shared directory.
SHARE=${SHARE:-/share}
window_begin() { window_mark "$1" begin; }
window_end() { window_mark "$1" end; }
window_mark() {
	[ -e "$SHARE/$1.watch" ] || return 0
	touch "$SHARE/$1.$2"
	wait_for "$SHARE/$1.$2.ack" 120 || echo "client: the server did not acknowledge $1.$2"
}
# window_watch NAME CMD... (server): in the background, CMD's output when
# the client's window NAME begins and when it ends, in $WINDOWS/NAME.begin
# and NAME.end, each acknowledged.
WINDOWS=${WINDOWS:-/tmp}
window_watch() {
	local n=$1
	shift
	touch "$SHARE/$n.watch"
	( wait_for "$SHARE/$n.begin" 3600 && "$@" >"$WINDOWS/$n.begin" && touch "$SHARE/$n.begin.ack" &&
		wait_for "$SHARE/$n.end" 3600 && "$@" >"$WINDOWS/$n.end" && touch "$SHARE/$n.end.ack" ) &
}

# Every message rpcrdmax's server receives ends one way (svcrdma/
# svcrdma.h, Settle), so over a whole run: Calls (messages but backward
# Replies and RDMA2_CONNPROPs) = Replies and RDMA_ERRORs posted (Sends
# but backward Calls and RDMA2_CONNPROPs) + dropped by us + lost with
# their connection + released by nfsd without a Reply; and no connection
# ends with a message unsettled.  settle_counts prints the counters in
# that order: rdma_stat_recv, _bc_replies, _bc_dropped, _connprop_recv,
# _sq_prod, _bc_calls, _connprop_sent, _dropped, _lost, _svc_drop,
# _unsettled (from SVC_RDMA).  settled SECONDS waits up to SECONDS for
# them to add up (a connection's last messages settle when it is freed),
# prints "CALLS ANSWERED DROPPED LOST SVC_DROP UNSETTLED" and succeeds
# when they do.
SVC_RDMA=${SVC_RDMA:-/proc/sys/sunrpc/svc_rdma}
settle_counts() {
	local f
	for f in recv bc_replies bc_dropped connprop_recv sq_prod bc_calls connprop_sent dropped lost svc_drop unsettled; do
		printf '%s ' "$(cat "$SVC_RDMA/rdma_stat_$f")"
	done
	echo
}
settled() {
	local end c r
	end=$(deadline "$1")
	while :; do
		# shellcheck disable=SC2046
		set -- $(settle_counts)
		[ $# = 11 ] || { echo "settle counts: '$*'"; return 1; }
		c=$(($1 - $2 - $3 - $4)) r=$(($5 - $6 - $7))
		if [ "$c" = $((r + $8 + $9 + ${10})) ] || ! before "$end"; then
			echo "$c $r $8 $9 ${10} ${11}"
			[ "$c" = $((r + $8 + $9 + ${10})) ]
			return
		fi
		sleep 1
	done
}

# settled_step WHO LOSS: a step, once every connection has ended (after
# rpc.nfsd 0, or once the client is gone): every message rpcrdmax's
# server received settled (settled), rdma_stat_unsettled is 0, and no
# Call was lost with its connection unless LOSS is "yes" (the client
# made faults, or I/O was in flight when nfsd stopped).
settled_step() {
	local who=$1 loss=$2 got ok=1
	got=$(settled 30) || ok=0
	# shellcheck disable=SC2086
	set -- $got
	if [ $ok = 1 ] && [ "${6:-}" = 0 ] && { [ "$4" = 0 ] || [ "$loss" = yes ]; }; then
		step_ok "$who: every message settled when its connection ended ($1 Calls: $2 answered, $3 dropped, $4 lost with their connection, $5 dropped by nfsd; loss allowed: $loss)"
	else
		step_fail "$who: at the connections' end $got (Calls, answered, dropped, lost with their connection (allowed: $loss), dropped by nfsd, rdma_stat_unsettled)"
	fi
}

# credits_trace_on: record, in the tracefs instance "credits", each of
# rpcrdmax's client connections (xprtrdma_connect), Calls (xprtrdma_marshal)
# and Replies (xprtrdma_reply, with the grant; an RDMA_ERROR ends a Call
# too), on one clock across CPUs.  credits_trace_check then reads them:
# RFC 5666 Section 3.3 (RFC 8166 Section 3.3.1) lets a requester have no
# more Calls unanswered than the grant, one on a new connection until the
# first Reply.  It prints "CONNECTIONS CALLS EXCESS FIRST", EXCESS the
# Calls sent beyond it, FIRST the first such line.  Only what follows a
# connection's start counts: a Call or Reply of an earlier one is not
# known to it.  Overwritten events ("entries-in-buffer/entries-written"
# apart) print "lost".
credits_trace_on() {
	local i=$TRACEFS/instances/credits
	trace_events_on credits xprtrdma_connect xprtrdma_marshal xprtrdma_reply \
		xprtrdma_err_vers xprtrdma_err_chunk xprtrdma_err_unrecognized || return 1
	echo global >"$i/trace_clock" && echo 8192 >"$i/buffer_size_kb"
}
credits_trace_check() {
	local t=$TRACEFS/instances/credits/trace
	sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' "$t" |
		awk '$1 != $2 { print "lost"; exit 1 }' || return 0
	grep -v '^#' "$t" | awk '
	/ xprtrdma_connect: / { on = / rc=0 / ? 1 : 0; if (on) { conns++; out = 0; grant = 1 } next }
	!on { next }
	/ xprtrdma_marshal: / {
		calls++
		if (++out > grant) { excess++; if (first == "") first = $0 " (" out " out, grant " grant ")" }
		next
	}
	/ xprtrdma_reply: | xprtrdma_err_(vers|chunk|unrecognized): / {
		if (out > 0) out--
		if (match($0, / credits=[0-9]+/)) { grant = substr($0, RSTART + 9, RLENGTH - 9) + 0; if (grant < 1) grant = 1 }
	}
	END { print conns + 0, calls + 0, excess + 0, first }'
}

# The RDMA device is rxe0 whatever its driver: soft-RoCE (rdma_rxe), or
# soft-iWARP when the case's share has siw.ko (scripts/e2e --siw; Debian
# builds no siw.ko).  rdma_fabric prints which: rxe or siw.
rdma_fabric() { if [ -e /share/siw.ko ]; then echo siw; else echo rxe; fi; }
rxe_up() {
	if [ "$(rdma_fabric)" = siw ]; then
		# (its dependencies as modinfo names them: 7.x's siw has
		# no libcrc32c)
		grep -q '^siw ' /proc/modules ||
			{ modprobe -a $(modinfo -F depends /share/siw.ko | tr , ' ') &&
				insmod /share/siw.ko; } || return 1
	else
		modprobe rdma_rxe || return 1
	fi
	# already up: a second client script in the same boot (with-battery.sh)
	rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE' && return 0
	rxe_readd
}

# rxe_delete: rdma link delete rxe0, waiting at most 120 s (removal waits
# for every CM id on the device to be destroyed); if it still runs then,
# print each task in uninterruptible sleep with its stack and fail.
rxe_delete() {
	# (its output to a file: a caller's $(...) would wait for a stuck one)
	rdma link delete rxe0 >/tmp/rxe_delete.out 2>&1 </dev/null &
	pid_wait $! 120
	case $? in
	0) ;;
	124)
		echo "rdma link delete rxe0 still running after 120 s; tasks in D state:"
		d_tasks
		return 1
		;;
	*) cat /tmp/rxe_delete.out; return 1 ;;
	esac
}

# pid_wait PID SECONDS: wait at most SECONDS for the background job PID to
# end; its exit status, or 124 (as timeout's) if it still runs.
pid_wait() {
	local end=$(deadline $2)
	while kill -0 "$1" 2>/dev/null && before "$end"; do sleep 0.2; done
	! kill -0 "$1" 2>/dev/null || return 124
	wait "$1"
}

# writer_done PID FILE WHAT SINCE: a step for the background writer PID
# of FILE (from /tmp/src): it must end within 300 s of SINCE with FILE
# intact.
writer_done() {
	pid_wait "$1" 300
	case $? in
	0) step "$3: the writer's file intact" cmp "/tmp/src/${2##*/}" "$2" ;;
	124)
		step_fail "$3: the writer still runs 300 s after $4"
		kill -9 "$1"
		;;
	*) step_fail "$3: the writer failed" ;;
	esac
}

# removal_delete WHO ROUND: rxe_delete for the removal case's round ROUND
# of WHO (client or server); a failed or hung deletion fails the step.
removal_delete() {
	local out
	out=$(rxe_delete 2>&1) && return 0
	step_fail "removal: $1 round $2: $(printf '%s' "$out" | tr '\n' '|' | cut -c1-3000)"
	return 1
}

# addr_move FROM TO: eth0's IPv4 address FROM/24 replaced by TO/24; the
# RDMA connections made from FROM lose their source address with it.
addr_move() {
	ip addr del "$1/24" dev eth0 && ip addr add "$2/24" dev eth0
}

# rxe_readd [NETDEV]: add the soft-RoCE device (again, after `rdma link
# delete rxe0`) on NETDEV (eth0) and wait until its port is up.
rxe_readd() {
	rdma link add rxe0 type "$(rdma_fabric)" netdev "${1:-eth0}" || return 1
	local end=$(deadline 5)
	while before $end; do
		rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE' && return 0
		sleep 0.1
	done
	return 1
}

# ---- RDMA_CM_EVENT_ADDR_CHANGE (client) -----------------------------------
# rdma_cm sends the event to each CM id bound to a bond whose link-layer
# address changes in a failover (cma_netdev_callback), which
# fail_over_mac=active makes it do.  bond_up moves rxe0 and eth0's
# addresses onto bond0, active-backup over eth0 and dummy0 (which reaches
# nothing); bond_down puts them back on eth0.
BOND_SLAVE=/sys/class/net/bond0/bonding/active_slave
bond_up() {
	# (neither module makes a device of its own here)
	modprobe bonding max_bonds=0 && modprobe dummy numdummies=0 && rxe_delete || return 1
	ip link add bond0 type bond mode active-backup fail_over_mac active miimon 100 &&
		ip link add dummy0 type dummy && ip addr flush dev eth0 && ip link set eth0 down &&
		ip link set eth0 master bond0 && ip link set dummy0 master bond0 &&
		ip link set bond0 up && echo eth0 >$BOND_SLAVE &&
		ip addr add "$RPCRDMAX_ip" dev bond0 && rxe_readd bond0
}
bond_down() {
	rdma link show rxe0 >/dev/null 2>&1 && { rxe_delete || return 1; }
	ip link del bond0 2>/dev/null
	ip link del dummy0 2>/dev/null
	ip link set eth0 up && ip addr replace "$RPCRDMAX_ip" dev eth0 &&
		ip -6 addr replace "$RPCRDMAX_ip6" dev eth0 nodad && rxe_readd
}
# addr_changes: how many times rdma_cm has sent the event for bond0;
# connects_changed: how many connects rpcrdmax says it ended;
# server_cm_ids: the restrack numbers (cm-idn) of the CM ids to the
# server that are in rdma_cm's CONNECT state (connecting or
# established).  restrack numbers a new CM id past every earlier one,
# where rxe hands a new QP the number of one it freed.
addr_changes() { dmesg | grep -c 'RDMA CM addr change for ndev bond0' || true; }
connects_changed() { dmesg | grep -c 'rpcrdmax: connect failed while .*(address change)' || true; }
server_cm_ids() {
	rdma res show cm_id 2>/dev/null | grep 'dst-addr 192\.0\.2\.1:20049' |
		awk '{ s = c = ""
			for (i = 1; i < NF; i++) {
				if ($i == "state") s = $(i + 1)
				if ($i == "cm-idn") c = $(i + 1)
			}
			if (s == "CONNECT" && c != "") print c }'
}
# new_connect OLD: a CM id in server_cm_ids that is not in OLD (a list
# of such numbers, one per line).
new_connect() {
	server_cm_ids | grep -qvxF -e "${1:-none}"
}

# addr_event_round OPTS: with rxe0 on bond0, a mount with OPTS and an
# O_DIRECT writer that rewrites its file until told to stop (an RPC in
# flight whenever the connection goes, so that sunrpc connects again at
# once); a failover to dummy0 sends the event to the established
# connection; once the transport is connecting again (a new
# CM id to the server in the CONNECT state; nothing answers over dummy0),
# the failover back to eth0 sends it to that connect.  The writer must
# finish with its file intact and the mount's RDMA resources go with the
# umount.  dummy0 stays active at most 45 s: over it the guest sends
# nothing on its virtio NIC, which scripts/vm takes for a stalled NIC
# after 60 s.
addr_event_round() {
	local res n0 p end mac ids
	if ! step "addr-event: rxe0 on bond0 (active-backup: eth0, dummy0)" bond_up; then
		step "addr-event: rxe0 back on eth0" bond_down
		return
	fi
	res=$(rdma_res_snapshot) n0=$(addr_changes)
	if step "addr-event: mount over bond0" timeout 120 mount -t nfs -o "$1" 192.0.2.1:/export /mnt/nfs; then
		mkdir -p /mnt/nfs/addr-event
		rm -f /tmp/addr-event.stop
		while [ ! -e /tmp/addr-event.stop ]; do
			dd if=/tmp/src/f8388608 of=/mnt/nfs/addr-event/f8388608 bs=64k oflag=direct status=none || exit 1
		done &
		p=$!
		sleep 1
		mac=$(ip neigh show 192.0.2.1 dev bond0 | awk '{ print $3 }')
		ids=$(server_cm_ids)
		echo dummy0 >$BOND_SLAVE
		# The server's link-layer address kept (the new address of the
		# bond flushed it): over dummy0 a connect then resolves, binds
		# its CM id to rxe0 and waits for an answer.
		ip neigh replace 192.0.2.1 dev bond0 lladdr "$mac" nud permanent
		end=$(deadline 45)
		while [ "$(addr_changes)" = "$n0" ] && before $end; do sleep 0.2; done
		[ "$(addr_changes)" -gt "$n0" ] &&
			step_ok "addr-event: the failover to dummy0 sent RDMA_CM_EVENT_ADDR_CHANGE" ||
			step_fail "addr-event: no RDMA_CM_EVENT_ADDR_CHANGE after the failover to dummy0"
		n0=$(connects_changed)
		until new_connect "$ids" || ! before $end; do sleep 0.2; done
		if new_connect "$ids"; then
			step_ok "addr-event: a new connect under way over dummy0"
		else
			step_fail "addr-event: no new connect within 45 s of the failover to dummy0 (CM ids: $(rdma res show cm_id 2>&1 | tr '\n' '|'); transports: $(cat /sys/kernel/debug/sunrpc/rpc_xprt/*/info 2>&1 | tr '\n' ' '))"
		fi
		echo eth0 >$BOND_SLAVE
		end=$(deadline 60)
		while [ "$(connects_changed)" = "$n0" ] && before $end; do sleep 0.2; done
		[ "$(connects_changed)" -gt "$n0" ] &&
			step_ok "addr-event: the failover back ended the connect under way (RDMA_CM_EVENT_ADDR_CHANGE)" ||
			step_fail "addr-event: no connect under way ended by RDMA_CM_EVENT_ADDR_CHANGE"
		touch /tmp/addr-event.stop
		writer_done $p /mnt/nfs/addr-event/f8388608 addr-event "the failover back"
		step "addr-event: umount" timeout 120 umount /mnt/nfs
		step "addr-event: the mount's RDMA resources gone ($res)" rdma_res_back "$res" 30
	fi
	step "addr-event: rxe0 back on eth0" bond_down
}

# Kernel messages that mean something went wrong.
# rpcrdmax's server reports a connection that ended with messages it
# cannot account for (svcrdma/svcrdma.h, Settle): a defect of ours.
# On the debug kernel the checkers report too: KASAN (as BUG: KASAN:),
# lockdep, might_sleep and DEBUG_OBJECTS (as BUG: or WARNING:), DEBUG_LIST
# ("list_add corruption"), UBSAN, and kmemleak after a scan.
KERNEL_BAD='WARNING:|BUG:|Oops|general protection fault|Call Trace:|UBSAN:|refcount_t:|KASAN:|ODEBUG:|list_(add|del) corruption|kmemleak: [0-9]+ suspected memory leaks since|rpcrdmax: .*messages unsettled'
kernel_log_clean() {
	kmemleak_scan
	! dmesg | grep -E "$KERNEL_BAD"
}

# kernel_log_clean_but_injector: kernel_log_clean, less the one lockdep
# report that fail_function causes itself (fei_arm says why).  lockdep is
# off after it, KASAN, UBSAN and kmemleak are not; any other report still
# fails.
kernel_log_clean_but_injector() {
	kmemleak_scan
	! dmesg | drop_injector_report | grep -E "$KERNEL_BAD"
}

# drop_injector_report: the kernel log on stdin less fail_function's own
# lockdep report: an "inconsistent {INITIAL USE} -> {IN-NMI} usage" whose
# trace has should_fail_ex drawing its random number (get_random_u8; the
# lock named is the one that draw took: batched_entropy_u8.lock, or
# crngs.lock when the batch was refilled).  Tested on the host by
# tests/scripts/test_guest_log.sh.
drop_injector_report() {
	awk '
		/WARNING: inconsistent lock state/ { rep = 1; buf = "" }
		rep {
			buf = buf $0 "\n"
			if ($0 ~ /<\/TASK>/) {
				rep = 0
				if (buf !~ /\{INITIAL USE\} -> \{IN-NMI\} usage/ ||
				    buf !~ /should_fail_ex/ || buf !~ /get_random_u8/)
					printf "%s", buf
			}
			next
		}
		{ print }
		END { if (rep) printf "%s", buf }'
}

# No OOM kill happened: none of the OOM killer's messages.
kernel_log_no_oom() {
	! dmesg | grep -E 'invoked oom-killer|Out of memory|oom-kill:|Killed process'
}

# Install /share/rpcrdmax.ko as a user would (extra/ + depmod), so that
# modprobe pulls in ib_core and rdma_cm.  depmod's output comes from the
# share when scripts/e2e made it for this kernel (scripts/lib/modindex.sh:
# the same depmod, run on the host; a guest's takes about 20 s under TCG).
install_rpcrdmax() {
	local r=$(uname -r)
	local d=/lib/modules/$r
	mkdir -p "$d/extra" && cp /share/rpcrdmax.ko "$d/extra/" || return 1
	if [ "$(cat /share/modindex/abi 2>/dev/null)" = "$r" ] &&
		grep -q '^extra/rpcrdmax\.ko:' /share/modindex/modules.dep 2>/dev/null; then
		cp /share/modindex/modules.* "$d/"
	else
		depmod -a
	fi
}

# svc_rdma_defaults: the svc_rdma sysctls a transport module starts with
# (max_requests max_req_size max_outbound_read_requests).
svc_rdma_defaults() {
	local d=/proc/sys/sunrpc/svc_rdma
	echo "$(cat $d/max_requests) $(cat $d/max_req_size) $(cat $d/max_outbound_read_requests)"
}

# rpcrdmax_server_up: soft-RoCE, rpcrdmax installed and loaded by a plain
# modprobe (the stock transport must not be loaded behind our back as
# "svcrdma"), and nfsd loaded.  Before that, the stock module is loaded
# once for its svc_rdma defaults, which rpcrdmax's must equal: a
# connection gets the credits stock would grant on this kernel.
rpcrdmax_server_up() {
	local stock ours
	step "server: rxe up" rxe_up
	stock=$(modprobe rpcrdma && svc_rdma_defaults && rmmod rpcrdma)
	step "server: install rpcrdmax.ko" install_rpcrdmax
	echo 'install rpcrdma /bin/false' >/etc/modprobe.d/no-stock.conf
	step "server: modprobe rpcrdmax" modprobe rpcrdmax
	ours=$(svc_rdma_defaults)
	[ -n "$stock" ] && [ "$ours" = "$stock" ] &&
		step_ok "server: svc_rdma defaults are stock's on this kernel ($ours)" ||
		step_fail "server: svc_rdma defaults $ours, stock's on this kernel '$stock'"
	step "server: load nfsd" modprobe nfsd
}

# ---- transport selection (battery, bench) ----------------------------------
# The module on each end is named by a word: "stock" (the in-tree rpcrdma)
# or "rpcrdmax" (/share/rpcrdmax.ko).

# transport_kmod WORD: the kernel module that WORD stands for.
transport_kmod() {
	case $1 in
	stock) echo rpcrdma ;;
	rpcrdmax) echo rpcrdmax ;;
	*) return 1 ;;
	esac
}

# transport_load ROLE WORD: load the transport for ROLE (client|server).
# For rpcrdmax the stock module is made unloadable first, so that sunrpc's
# request_module("xprtrdma"/"svcrdma") cannot quietly fall back to it; the
# client then requires an "rdma" entry in /proc/sys/sunrpc/transports.
transport_load() {
	local role=$1 word=$2
	case $word in
	stock)
		rm -f /etc/modprobe.d/rpcrdmax-no-stock.conf
		modprobe rpcrdma || { echo "modprobe rpcrdma failed"; return 1; }
		;;
	rpcrdmax)
		[ -r /share/rpcrdmax.ko ] || { echo "no /share/rpcrdmax.ko"; return 1; }
		if lsmod | grep -q '^rpcrdma '; then
			modprobe -r rpcrdma || { echo "stock rpcrdma is loaded and will not unload"; return 1; }
		fi
		echo 'install rpcrdma /bin/false' >/etc/modprobe.d/rpcrdmax-no-stock.conf
		install_rpcrdmax || { echo "cannot install rpcrdmax.ko"; return 1; }
		modprobe rpcrdmax || { echo "modprobe rpcrdmax failed"; return 1; }
		;;
	*) echo "unknown transport '$word' (stock|rpcrdmax)"; return 1 ;;
	esac
	# (/proc/sys/sunrpc/transports lists server classes only; a client
	# transport shows no trace there.)
	if [ "$role" = client ] && [ "$word" = rpcrdmax ] &&
		[ "$(cat /sys/module/rpcrdmax/parameters/client 2>/dev/null)" != Y ]; then
		echo "rpcrdmax registered no client 'rdma' transport (parameter client is not Y)"
		return 1
	fi
	return 0
}

# transport_unload WORD: remove WORD's module; retries for up to 30 s while
# transports torn down by umount or nfsd shutdown drop their references.
transport_unload() {
	local m end=$(deadline 30)
	m=$(transport_kmod "$1") || return 1
	while lsmod | grep -q "^$m "; do
		modprobe -r "$m" 2>/dev/null && break
		before $end || { echo "$m still loaded after 30 s: $(lsmod | grep "^$m ")"; return 1; }
		sleep 0.5
	done
	! lsmod | grep -q "^$m "
}

# gid_index_v4 DEV [ADDR]: the index of DEV's port-1 RoCE v2 GID that
# carries an IPv4 address (::ffff:a.b.c.d), for tools that take -x
# (perftest); with ADDR, the one that carries ADDR (rxe adds a GID for
# each address of its netdev by itself, shortly after the address).
IB_SYSFS=${IB_SYSFS:-/sys/class/infiniband}	# (a host test sets it)
gid_index_v4() {
	local f i g v4=
	[ -z "${2:-}" ] || v4=$(echo "$2" | awk -F. '{ printf "%02x%02x:%02x%02x", $1, $2, $3, $4 }')
	for f in "$IB_SYSFS/$1"/ports/1/gids/*; do
		i=${f##*/}
		g=$(cat "$f" 2>/dev/null)
		case $g in 0000:0000:0000:0000:0000:ffff:*) ;; *) continue ;; esac
		[ -z "$v4" ] || [ "${g#0000:0000:0000:0000:0000:ffff:}" = "$v4" ] || continue
		[ "$(cat "$IB_SYSFS/$1/ports/1/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return 0; }
	done
	return 1
}

# perf_start DATA [PERIOD]: `perf record` of every CPU (cpu-clock: TCG has
# no PMU) into DATA, in the background; prints its pid, or why it could
# not.  499 samples a second, or one every PERIOD ns of the guest's clock
# (scripts/bench --cost: under -icount, one every PERIOD instructions
# while the vCPU runs).
perf_start() {
	local rate="-F 499"
	command -v perf >/dev/null || { echo "perf is not installed in this guest"; return 1; }
	[ -z "${2:-}" ] || rate="-c $2"
	# shellcheck disable=SC2086
	perf record -e cpu-clock $rate -a -q -o "$1" >/tmp/perf-record.log 2>&1 &
	sleep 1
	kill -0 $! 2>/dev/null || { echo "perf record ended: $(tail -n 1 /tmp/perf-record.log)"; return 1; }
	echo $!
}

# perf_stop PID DATA OUT: stop the recording PID and write `perf report`
# by symbol to OUT (every symbol, with its count of samples; kernel and
# modules' come from /proc/kallsyms) and the modules' symbols to OUT's
# .kallsyms, which tools/bench/perfsum.py and coststat.py read to add the
# samples up per module.
perf_stop() {
	local tries=0
	kill -INT "$1" 2>/dev/null
	while kill -0 "$1" 2>/dev/null && [ $tries -lt 300 ]; do sleep 0.2; tries=$((tries + 1)); done
	perf report -i "$2" --stdio --no-children -n --sort sym --percent-limit 0 >"$3" 2>&1 ||
		echo "perf report failed (see above)" >>"$3"
	awk 'NF == 4' /proc/kallsyms >"${3%.txt}.kallsyms"
}

# calls_start LIST: count, until calls_stop, the calls of every function
# of module rpcrdmax that this kernel can trace and that LIST names (a
# name first on each line: scripts/bench's boundary.list, the functions
# include/rpcrdmax_shim.h declares and the C functions that call C++
# through a function pointer), by caller: ftrace's function tracer
# filtered to them, its trace_pipe summed by a reader in the background.
# Echoes the readers' PIDs; on failure a reason and status 1.
calls_start() {
	local t=/sys/kernel/tracing n f
	[ -d $t/options ] || mount -t tracefs nodev $t 2>/dev/null
	[ -w $t/set_ftrace_filter ] || { echo "no ftrace function filter in this kernel"; return 1; }
	grep -q '^rpcrdmax ' /proc/modules || { echo "rpcrdmax is not loaded"; return 1; }
	echo 0 >$t/tracing_on
	echo nop >$t/current_tracer
	: >$t/trace
	# one write: each write of the filter patches the kernel's text
	awk 'NR == FNR { want[$1] = 1; next } $2 == "[rpcrdmax]" && ($1 in want) { print $1 }' \
		"$1" $t/available_filter_functions >/tmp/calls.filter
	n=$(wc -l </tmp/calls.filter)
	[ "$n" -gt 0 ] || { echo "none of the listed functions is traceable in rpcrdmax"; return 1; }
	f=$(cat /tmp/calls.filter)
	echo "$f" >$t/set_ftrace_filter || { echo "ftrace did not take the filter of $n functions"; return 1; }
	echo 16384 >$t/buffer_size_kb
	echo function >$t/current_tracer
	# "task-pid [cpu] flags stamp: function <-caller": counted by function
	# and caller once the reader (cat) is stopped and the counter meets
	# end of file
	rm -f /tmp/calls.fifo /tmp/calls.count
	mkfifo /tmp/calls.fifo
	awk 'match($0, /: [A-Za-z0-9_.]+ <-[A-Za-z0-9_.]+/) {
			split(substr($0, RSTART + 2, RLENGTH - 2), w, / <-/); c[w[1] " " w[2]]++ }
		END { for (f in c) print c[f], f }' </tmp/calls.fifo >/tmp/calls.count 2>&1 &
	f=$!
	cat $t/trace_pipe >/tmp/calls.fifo 2>/dev/null &
	echo 1 >$t/tracing_on
	echo "$! $f"
}

# calls_stop PIDS OUT: stop counting (PIDS: calls_start's) once the
# reader has taken every event left in the buffer; OUT gets "COUNT
# FUNCTION CALLER" lines, most called first, then "lost N" (events the
# buffer dropped or the reader never took: nonzero means the counts are
# short), then "module NAME" for every function of module rpcrdmax (so
# that a caller can be told from the kernel's).
calls_stop() {
	local t=/sys/kernel/tracing lost tries=0
	# shellcheck disable=SC2086
	set -- $1 "$2"	# the reader's PID, the counter's, OUT
	echo 0 >$t/tracing_on
	# the per-CPU "entries": events in the buffer not read yet
	while [ "$(awk '/^entries:/ { n += $2 } END { print n + 0 }' $t/per_cpu/cpu*/stats)" != 0 ] &&
		[ $tries -lt 600 ]; do
		sleep 0.5
		tries=$((tries + 1))
	done
	lost=$(awk '/^(overrun|entries|dropped events):/ { n += $NF } END { print n + 0 }' \
		$t/per_cpu/cpu*/stats 2>/dev/null)
	tries=0
	kill "$1" 2>/dev/null
	while kill -0 "$2" 2>/dev/null && [ $tries -lt 300 ]; do sleep 0.2; tries=$((tries + 1)); done
	echo nop >$t/current_tracer
	: >$t/set_ftrace_filter
	{
		sort -rn /tmp/calls.count
		echo "lost ${lost:-0}"
		awk '$4 == "[rpcrdmax]" && $2 ~ /^[tTwW]$/ { print "module", $3 }' /proc/kallsyms
	} >"$3"
}

# text_symbols OUT: the kernel's and the modules' text symbols
# (/proc/kallsyms lines of type t or T, and w or W: C++'s inline
# functions and template instances are weak; with their addresses: root
# reads them) into OUT, for the exact count's symbols (scripts/bench
# --exact, tools/bench/coststat.py).
text_symbols() {
	awk '$2 ~ /^[tTwW]$/' /proc/kallsyms >"$1"
}

# busy_snap: one line, "SOURCE NCPU NOW IDLE": the guest's monotonic
# clock and the idle time summed over its CPUs, both in nanoseconds, so
# that NCPU * dNOW - dIDLE is the time the CPUs were busy between two
# snapshots (scripts/bench --cost checks its instruction counts against
# it: under -icount shift=0 a busy nanosecond is one instruction).
# SOURCE timer_list: the kernel's nohz idle time (tick_sched's
# idle_sleeptime + iowait_sleeptime, in ns, which stops at every interrupt
# taken in idle) and "now", from /proc/timer_list (Linux 6.1, 6.12;
# exact for a CPU that is not idle at the time, as the reader's own is:
# the guests have one vCPU).  SOURCE proc_stat where the kernel no longer
# shows them there (7.x): /proc/uptime and the idle + iowait of
# /proc/stat, both in hundredths of a second; 7.x also counts interrupts
# taken in idle as idle when IRQ time accounting is off, as in Debian's.
busy_snap() {
	if grep -q 'idle_sleeptime' /proc/timer_list 2>/dev/null; then
		awk '/^now at / { now = $3 }
			/^cpu: / { n++ }
			/\.(idle|iowait)_sleeptime/ { idle += $(NF - 1) }
			END { printf "timer_list %d %.0f %.0f\n", n, now, idle }' /proc/timer_list
	else
		awk 'FILENAME == "/proc/uptime" { now = $1 * 1e9; next }
			$1 == "cpu" { idle = ($5 + $6) * 1e7 }
			$1 ~ /^cpu[0-9]/ { n++ }
			END { printf "proc_stat %d %.0f %.0f\n", n, now, idle }' /proc/uptime /proc/stat
	fi
}

# rdma_res_count KIND [TYPE]: the number of KIND (mr, qp, pd, ...)
# resources the RDMA core tracks, summed over devices ("rdma res show"
# summary line); with TYPE, only KIND's resources of that type ("rdma res
# show KIND" lines: qp RC counts the RC QPs, one per RDMA connection,
# not rxe's own GSI QP).
rdma_res_count() {
	if [ -n "${2:-}" ]; then
		rdma res show "$1" 2>/dev/null | awk -v t="$2" '{ for (i = 1; i < NF; i++) if ($i == "type" && $(i + 1) == t) n++ } END { print n + 0 }'
		return
	fi
	rdma res show 2>/dev/null | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) n += $(i + 1) } END { print n + 0 }'
}

# battery_after: the case runs the battery (battery-client.sh) in the
# same boot, after its own client script (scripts/e2e puts battery.after
# on the share; with-battery.sh runs the two).  The server then serves
# what battery-server.sh serves as well: room for the 64 MiB file, 1 MiB
# I/O, short v4 lease and grace periods, 8 threads, and the battery's two
# delegation rounds.
battery_after() { [ -e /share/battery.after ]; }

# nfs_export SIZE: a tmpfs of SIZE on /export, exported to the test
# networks (and /krb5, when krb5.want asks for it), rpcbind and rpc.mountd
# up; no nfsd thread yet.
nfs_export() {
	mkdir -p /export /proc/fs/nfsd /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery
	mount -t tmpfs -o size=$1 tmpfs /export
	mount -t nfsd nfsd /proc/fs/nfsd
	mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
	echo '/export 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=1) 2001:db8::/64(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports
	krb5_server
	rpcbind -w 2>/dev/null || rpcbind
	step "server: exportfs" exportfs -ra
	rpc.mountd
}

# battery_nfsd_tunables: what the battery's server needs before any nfsd
# thread exists: 1 MiB I/O, and 10 s v4 lease and grace periods, so that
# v4 mounts made right after start-up are not held back.
battery_nfsd_tunables() {
	step "server: max_block_size 1 MiB" sh -c 'echo 1048576 >/proc/fs/nfsd/max_block_size && [ "$(cat /proc/fs/nfsd/max_block_size)" = 1048576 ]'
	echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
	echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
}

# bigio_nfsd_tunables: asked for by the test (e2e touches /share/bigio.want
# on 7.x), before any nfsd thread exists: nfsd takes 4 MiB READs and
# WRITEs (max_block_size; 7.x's NFSSVC_MAXBLKSIZE), and the export has
# the file the hostile tool's big-io case writes and reads (bigio_client).
bigio_nfsd_tunables() {
	[ -e /share/bigio.want ] || return 0
	step "server: max_block_size 4 MiB" sh -c 'echo 4194304 >/proc/fs/nfsd/max_block_size && [ "$(cat /proc/fs/nfsd/max_block_size)" = 4194304 ]'
	: >/export/bigio.bin
}

# nfs_server_start: nfs_export, then nfsd with one rdma listener on 20049
# (written once per nfsd start: a second write of the same listener
# panics the stock 6.1 kernel); with the battery after, its server's
# room (1.5 GiB for the 64 MiB file), tunables and 8 threads.
nfs_server_start() {
	if battery_after; then
		nfs_export 1536m
		battery_nfsd_tunables
		nfsd_up 8
	else
		nfs_export 1g
		bigio_nfsd_tunables
		nfsd_up 4
	fi
}

# nfsd_up [THREADS]: start nfsd's threads (default 4) and its rdma listener.
nfsd_up() {
	step "server: rpc.nfsd" rpc.nfsd "${1:-4}"
	step "server: rdma listener" sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist'
	grep -q rdma /proc/fs/nfsd/portlist && step_ok "server: portlist has rdma" ||
		step_fail "server: portlist has no rdma"
}

# nfs_server_serve: nfs_server_start, tell the client it may start, and
# wait until it is done (with the battery after: its delegation rounds
# as well, checked once the client is done).
nfs_server_serve() {
	nfs_server_start
	nconnect_server_watch
	if battery_after; then
		deleg_server_round cb1 cb/f1
		deleg_server_round cb2 cb/f2
	fi
	touch /share/server.ready
	wait_for /share/client.done 3600 || step_fail "server: client never finished"
	[ ! -e /share/krb5.want ] || cp /tmp/kdc.log /tmp/svcgssd.log /share/
	if battery_after; then
		deleg_server_round_check cb1
		deleg_server_round_check cb2
	fi
}

# rdma_res_settle KIND N SECONDS [TYPE]: wait until the RDMA core tracks
# N of KIND (of TYPE: rdma_res_count).
rdma_res_settle() {
	local end=$(deadline $3)
	while [ "$(rdma_res_count "$1" "${4:-}")" != "$2" ] && before $end; do sleep 0.2; done
	[ "$(rdma_res_count "$1" "${4:-}")" = "$2" ] || {
		echo "$1${4:+ $4}: $(rdma_res_count "$1" "${4:-}"), not $2:"
		rdma res show "$1" 2>&1 | sed 's/^/  /'
		return 1
	}
}

# rdma_res_snapshot: the counts of the RDMA core's PDs, CQs, QPs, MRs and
# CM IDs, as "pd=N cq=N qp=N mr=N cm_id=N" (a baseline for rdma_res_back).
rdma_res_snapshot() {
	echo "pd=$(rdma_res_count pd) cq=$(rdma_res_count cq) qp=$(rdma_res_count qp) mr=$(rdma_res_count mr) cm_id=$(rdma_res_count cm_id)"
}

# rdma_res_back SNAPSHOT SECONDS: wait until the counts are SNAPSHOT's
# again (SECONDS 0: they must be at once); if they are not by the
# deadline, print the resources of each kind that differs (so a leak
# names its owner) and, last (step keeps the last lines), the counts;
# and fail.
rdma_res_back() {
	local end=$(deadline $2) now kv
	while [ "$(rdma_res_snapshot)" != "$1" ] && before $end; do sleep 0.2; done
	now=$(rdma_res_snapshot)
	[ "$now" = "$1" ] && return 0
	for kv in $now; do
		case " $1 " in *" $kv "*) continue ;; esac
		rdma res show "${kv%%=*}" 2>&1 | sed 's/^/  /'
	done
	echo "RDMA resources $now, not $1 (the kinds that differ above)"
	return 1
}

# ---- network namespaces ----------------------------------------------------
# rpcrdmax makes each CM id in the namespace of the rpc_xprt or svc_xprt it
# is for, as stock does.  rxe on 6.1 carries RoCE only through the initial
# namespace (its UDP tunnel and route lookups are in init_net), so no
# guest here can serve or mount over RDMA from inside another namespace;
# what can be seen is that each id lives where its transport does.

# netns_kernel: whether this kernel has network namespaces; if not (the
# kernel built without CONFIG_NET_NS), a SKIP line, not counted.
netns_kernel() {
	[ -e /proc/self/ns/net ] && return 0
	echo "SKIP netns: not counted: this kernel ($(uname -r)) has no network namespaces"
	return 1
}

# netns_mount_isolated OPTS: a mount from a namespace that has only its
# loopback (no route to 192.0.2.1) fails, and promptly: the client's id
# resolves the address in the mount's namespace.  An id in init_net would
# reach the server through eth0 and the mount would succeed.
netns_mount_isolated() {
	local out rc
	netns_kernel || return 0
	ip netns add rpcrdmax-iso && ip -n rpcrdmax-iso link set lo up ||
		{ step_fail "netns: cannot make a namespace"; return 1; }
	out=$(timeout 120 ip netns exec rpcrdmax-iso sh -c "mkdir -p /mnt/iso &&
		mount -t nfs -o $1,retry=0 192.0.2.1:/export /mnt/iso && umount /mnt/iso" 2>&1)
	rc=$?
	ip netns del rpcrdmax-iso
	case $rc in
	0) step_fail "netns: a mount from a namespace with no route to the server succeeded: its CM id is not in the mount's namespace" ;;
	124) step_fail "netns: a mount from a namespace with no route to the server did not end in 120 s" ;;
	*) step_ok "netns: a mount from a namespace with no route to the server fails ($(printf '%s' "$out" | tail -n 1))" ;;
	esac
}

# netns_rxe_kernel: whether soft-RoCE carries RoCE inside a network
# namespace here: 7.x keeps its UDP tunnel sockets per namespace
# (drivers/infiniband/sw/rxe/rxe_ns.c, whose rxe_namespace_init the
# module then has); 6.1's and 6.12's live in the initial one.  If not, a
# SKIP line, not counted.
netns_rxe_kernel() {
	netns_kernel || return 1
	grep -qw rxe_namespace_init /proc/kallsyms && return 0
	echo "SKIP netns: not counted: this kernel's rxe ($(uname -r)) carries RoCE in the initial namespace only"
	return 1
}

# netns_ns_rxe NS IF ADDR: a container's namespace NS, reached as a
# routed host would reach it: a veth pair (IF-h here, IF-c in NS), ADDR/32
# on IF-c with its default route through it, and here a route to ADDR
# through IF-h, forwarding, and proxy ARP on eth0 and IF-h, so that the
# other guest reaches ADDR through this one; an rxe device, rxe-IF, is
# made on IF-c inside NS.  Not a macvlan of eth0: an upper device's
# addresses are GIDs of rxe0 as well, so rdma_cm took rxe0 for the
# namespace's connections, whose packets then came back to the
# namespace's rxe socket: every QP timed out (seen on 7.3.4).
# netns_ns_rxe_del NS IF undoes it (forwarding and proxy ARP stay on
# until netns_routing_off).
netns_ns_rxe() {
	ip netns add "$1" && ip link add "$2-h" type veth peer name "$2-c" &&
		ip link set "$2-c" netns "$1" && ip -n "$1" link set lo up &&
		ip -n "$1" addr add "$3/32" dev "$2-c" && ip -n "$1" link set "$2-c" up &&
		ip -n "$1" route add default dev "$2-c" && ip link set "$2-h" up &&
		ip route add "$3/32" dev "$2-h" &&
		sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.eth0.proxy_arp=1 "net.ipv4.conf.$2-h.proxy_arp=1" &&
		ip netns exec "$1" rdma link add "rxe-$2" type "$(rdma_fabric)" netdev "$2-c"
}
netns_ns_rxe_del() {
	ip netns exec "$1" rdma link delete "rxe-$2" 2>/dev/null
	ip netns del "$1" 2>/dev/null
	ip link del "$2-h" 2>/dev/null
}
netns_routing_off() {
	sysctl -qw net.ipv4.ip_forward=0 net.ipv4.conf.eth0.proxy_arp=0
}

# netns_rw NS SERVER OPTS: from namespace NS, mount SERVER:/export with
# OPTS, write 1 MiB + 1 octets (Read chunks), read them back with
# O_DIRECT after a remount (Write chunks) and compare; prints the mount's
# /proc/mounts line.  Exit 90: the mount failed; 91: the file differs or
# cannot be read; 124: not done in 300 s.  (ip netns exec gives the
# shell a mount namespace of its own too.)
netns_rw() {
	local rc
	head -c 1048577 /dev/urandom >/tmp/netns.src
	timeout 300 ip netns exec "$1" sh -c "mkdir -p /mnt/netns &&
		mount -t nfs -o $3 $2:/export /mnt/netns || exit 90
		grep ' /mnt/netns ' /proc/mounts
		cp /tmp/netns.src /mnt/netns/netns-file && umount /mnt/netns &&
		mount -t nfs -o $3 $2:/export /mnt/netns &&
		dd if=/mnt/netns/netns-file bs=1M iflag=direct status=none | cmp - /tmp/netns.src || exit 91
		rm -f /mnt/netns/netns-file; umount /mnt/netns" 2>&1
	rc=$?
	rm -f /tmp/netns.src
	return $rc
}

# netns_mount_rdma OPTS: on 7.x, a mount from a container's namespace
# (netns_ns_rxe: 192.0.2.12, its own rxe device) with OPTS writes a file
# of 1 MiB + 1 (Read chunks), reads it back after a remount (Write
# chunks) and compares.  /proc/mounts must say proto=rdma and, for
# NFSv4, clientaddr=192.0.2.12: the connection left from the namespace.
netns_mount_rdma() {
	local ns=rpcrdmax-ct out rc v4=
	netns_rxe_kernel || return 0
	if ! netns_ns_rxe $ns ct 192.0.2.12; then
		step_fail "netns: cannot make a namespace with a routed veth and an rxe device of its own"
		netns_ns_rxe_del $ns ct
		netns_routing_off
		return 1
	fi
	out=$(netns_rw $ns 192.0.2.1 "$1")
	rc=$?
	netns_ns_rxe_del $ns ct
	netns_routing_off
	case $1 in *vers=4*) v4=1 ;; esac
	case $rc in
	0)
		if ! printf '%s\n' "$out" | grep -q 'proto=rdma'; then
			step_fail "netns: the namespace's mount is not over RDMA: $(printf '%s' "$out" | head -n 1)"
		elif [ -n "$v4" ] && ! printf '%s\n' "$out" | grep -q 'clientaddr=192.0.2.12'; then
			step_fail "netns: the namespace's mount did not leave from 192.0.2.12: $(printf '%s' "$out" | head -n 1)"
		else
			step_ok "netns: a mount -o $1 from a namespace with its own rxe device wrote and read back 1 MiB + 1"
		fi
		;;
	90) step_fail "netns: mount -o $1 from a namespace with its own rxe device: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')" ;;
	91) step_fail "netns: the file written from the namespace differs or cannot be read: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')" ;;
	124) step_fail "netns: the namespace's mount and I/O did not end in 300 s" ;;
	*) step_fail "netns: the namespace's mount and I/O: exit $rc: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')" ;;
	esac
}

# netns_serve_rdma: on 7.x (netns_rxe_kernel), an nfsd of a container's
# namespace serves over RDMA: namespace rpcrdmax-sv (netns_ns_rxe:
# 192.0.2.11, its own rxe device) gets its own nfsd
# (NFSv4 only, 10 s grace, rdma 20049, 2 threads) and an rpc.mountd of
# its own for the export cache's upcalls (with NFSv2 and v3 off it
# registers nothing with rpcbind); namespace rpcrdmax-cl (192.0.2.13)
# mounts 192.0.2.11:/export with NFSv4.2 over RDMA, writes 1 MiB + 1,
# reads it back after a remount and compares.  This guest's modules serve
# and mount: rpcrdmax's in rpcrdmax-server.sh, stock's in
# baseline-server.sh.  Then that nfsd is shut down (0 threads) and its
# mountd ended.  Elsewhere a SKIP line, not counted.
netns_serve_rdma() {
	local out rc why=
	netns_rxe_kernel || return 0
	if ! netns_ns_rxe rpcrdmax-sv sv 192.0.2.11 || ! netns_ns_rxe rpcrdmax-cl cl 192.0.2.13; then
		step_fail "netns: cannot make two namespaces with a routed veth and an rxe device each"
		netns_ns_rxe_del rpcrdmax-sv sv
		netns_ns_rxe_del rpcrdmax-cl cl
		netns_routing_off
		return 1
	fi
	out=$(timeout 120 ip netns exec rpcrdmax-sv sh -c 'mkdir -p /run/nfsd-sv &&
		mount -t nfsd nfsd /run/nfsd-sv || exit 90
		echo -2 -3 +4 >/run/nfsd-sv/versions &&
		echo 10 >/run/nfsd-sv/nfsv4leasetime && echo 10 >/run/nfsd-sv/nfsv4gracetime &&
		echo "rdma 20049" >/run/nfsd-sv/portlist && echo 2 >/run/nfsd-sv/threads || exit 91
		rpc.mountd -N 2 -N 3 </dev/null >/dev/null 2>&1 || exit 92' 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		out=$(netns_rw rpcrdmax-cl 192.0.2.11 rdma,port=20049,vers=4.2)
		rc=$?
		case $rc in 90) rc=93 ;; 91) rc=94 ;; esac
	fi
	case $rc in
	0) printf '%s\n' "$out" | grep -q 'proto=rdma.*clientaddr=192.0.2.13\|clientaddr=192.0.2.13.*proto=rdma' ||
		why="the mount is not over RDMA from 192.0.2.13: $(printf '%s' "$out" | head -n 1)" ;;
	90 | 91) why="cannot start its nfsd (exit $rc)" ;;
	92) why="cannot start its rpc.mountd" ;;
	93) why="the mount from rpcrdmax-cl failed" ;;
	94) why="the file read back differs or cannot be read" ;;
	124) why="did not end in time" ;;
	*) why="exit $rc" ;;
	esac
	[ -z "$why" ] && step_ok "netns: an nfsd in a namespace with its own rxe device served a mount from another namespace over RDMA (1 MiB + 1 written, read back)" ||
		step_fail "netns: an nfsd in a namespace over RDMA: $why: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')"
	# its shutdown: 0 threads, its mountd ended, the namespaces gone
	timeout 60 ip netns exec rpcrdmax-sv sh -c 'mount -t nfsd nfsd /run/nfsd-sv 2>/dev/null
		echo 0 >/run/nfsd-sv/threads' ||
		step_fail "netns: writing 0 threads to the namespace's nfsd failed"
	for p in $(ip netns pids rpcrdmax-sv); do kill "$p" 2>/dev/null; done
	netns_ns_rxe_del rpcrdmax-cl cl
	netns_ns_rxe_del rpcrdmax-sv sv
	netns_routing_off
}

# listen_ids: how many CM ids rdma res shows listening.
listen_ids() { rdma res show cm_id 2>/dev/null | grep -c 'state LISTEN'; }

# netns_listener: with nfsd's rdma listener on 20049 in the initial
# namespace, an nfsd of another namespace (its own nfsd filesystem) gets
# its own rdma listener on 20049: the two ids bind in two port spaces.
# Its shutdown must take the listener away: the listening CM ids are as
# before.  It is shut down as rpc.nfsd 0 does (0 threads), then its nfsd
# filesystem is unmounted: unmounting alone leaks nfsd 6.1's svc_serv,
# whose reference for a listener added without threads (keep_active,
# fs/nfsd/nfsctl.c) only a write to threads drops (Documentation/
# testing.rst, "nfsd's own leak").  NFSv2 and v3 are off there so that
# the write starts no lockd, which would register with rpcbind (with no
# rpcbind reachable the write fails with EIO).
netns_listener() {
	local listening out rc why=
	netns_kernel || return 0
	listening=$(listen_ids)
	ip netns add rpcrdmax-srv && ip -n rpcrdmax-srv link set lo up ||
		{ step_fail "netns: cannot make a namespace"; return 1; }
	out=$(timeout 120 ip netns exec rpcrdmax-srv sh -c 'mkdir -p /run/nfsd-ns &&
		mount -t nfsd nfsd /run/nfsd-ns || exit 90
		echo -2 -3 +4 >/run/nfsd-ns/versions || { umount /run/nfsd-ns; exit 91; }
		echo "rdma 20049" >/run/nfsd-ns/portlist; rc=$?
		cat /run/nfsd-ns/portlist
		echo 0 >/run/nfsd-ns/threads || { [ $rc -ne 0 ] || rc=92; }
		umount /run/nfsd-ns; exit $rc' 2>&1)
	rc=$?
	ip netns del rpcrdmax-srv
	case $rc in
	0) printf '%s\n' "$out" | grep -qx 'rdma 20049' || why="its portlist does not list it" ;;
	91) why="cannot turn its NFSv2 and v3 off" ;;
	92) why="writing 0 threads (its shutdown) failed" ;;
	*) why="exit $rc" ;;
	esac
	if [ -z "$why" ]; then
		step_ok "netns: an nfsd in another namespace listens on rdma 20049 beside init_net's"
	else
		step_fail "netns: rdma 20049 in another namespace: $why: $(printf '%s' "$out" | tail -n 2 | tr '\n' ' ')"
	fi
	local end=$(deadline 10)
	while [ "$(listen_ids)" != "$listening" ] && before $end; do sleep 0.2; done
	[ "$(listen_ids)" = "$listening" ] &&
		step_ok "netns: its nfsd's shutdown took the listener away ($listening listening ids, as before)" ||
		step_fail "netns: listening CM ids: $(listen_ids), $listening before"
	grep -q 'rdma 20049' /proc/fs/nfsd/portlist && step_ok "netns: init_net's nfsd still lists rdma 20049" ||
		step_fail "netns: init_net's portlist lost rdma 20049: $(cat /proc/fs/nfsd/portlist | tr '\n' ' ')"
}

# ---- steady state: no context allocation while I/O runs -----------------
# A server that wants the check (rpcrdmax's) calls steady_server_watch
# before it says it is ready; the client runs steady_client_io after its
# other cases.  The client runs the same fio job twice on one mount: the
# first run warms the connection (its contexts are made then, at most),
# and around the second the server reads rdma_stat_ctxt_alloc and
# rdma_stat_recv.  steady_server_check then requires the allocation
# counter not to move while the Receives counter did.
STEADY_TMP=${STEADY_TMP:-/tmp}	# the counters' snapshots (a host test sets it)
STEADY_JOB="--directory=/mnt/nfs/steady --size=8m --direct=1 --ioengine=libaio --time_based --runtime=8 --group_reporting"

steady_server_watch() {
	local svc=/proc/sys/sunrpc/svc_rdma
	touch /share/steady.want
	(
		wait_for /share/steady.start 1800 || exit 0
		echo "$(cat $svc/rdma_stat_ctxt_alloc) $(cat $svc/rdma_stat_recv)" >$STEADY_TMP/steady.before
		touch /share/steady.start.ok
		wait_for /share/steady.stop 600 || exit 0
		echo "$(cat $svc/rdma_stat_ctxt_alloc) $(cat $svc/rdma_stat_recv)" >$STEADY_TMP/steady.after
		touch /share/steady.stop.ok
	) &
}

steady_server_check() {
	local a0 r0 a1 r1
	if [ ! -s $STEADY_TMP/steady.before ] || [ ! -s $STEADY_TMP/steady.after ]; then
		step_fail "steady: the client's steady-state run never happened"
		return
	fi
	read -r a0 r0 <$STEADY_TMP/steady.before
	read -r a1 r1 <$STEADY_TMP/steady.after
	echo "steady: rdma_stat_ctxt_alloc $a0 -> $a1, rdma_stat_recv $r0 -> $r1"
	[ "$a0" -gt 0 ] 2>/dev/null && step_ok "steady: contexts were made at connection set-up ($a0)" ||
		step_fail "steady: rdma_stat_ctxt_alloc is '$a0' with a connection up"
	[ "$r1" -gt "$r0" ] 2>/dev/null && step_ok "steady: $((r1 - r0)) Calls received during the run" ||
		step_fail "steady: rdma_stat_recv did not move ($r0 -> $r1)"
	# Zero is the aim.  A context grows once when it first meets a chunk
	# of more segments or pages than any before it (the stock client
	# splits chunks more than ours; Documentation/svcrdma.rst), and with
	# 1 MiB I/O (the battery's server) not every context met its largest
	# chunk in the warm-up.  That growth is bounded by the contexts, not
	# by the Calls: at most one per context the connection keeps (those
	# made at set-up, and those the warm-up's concurrency added: 80).  A
	# per-RPC allocation grows with the Calls instead, so in a run of more
	# Calls than that it goes past the bound.
	local grew=$((a1 - a0)) calls=$((r1 - r0)) pool=80
	if [ "$grew" = 0 ]; then
		step_ok "steady: no context allocated during the run"
	elif [ "$grew" -le "$pool" ] && [ "$calls" -gt "$pool" ] 2>/dev/null; then
		step_ok "steady: $grew contexts grew during $calls Calls (at most one per context)"
	else
		step_fail "steady: $grew contexts allocated during $calls Calls (more than the bound of one per context kept, $pool, or too few Calls to tell)"
	fi
}

# steady_client_io MOUNT-OPTS: only when the server asked for it.
steady_client_io() {
	local opts=$1 j
	[ -e /share/steady.want ] || return 0
	mkdir -p /mnt/nfs
	step "steady: mount -o $opts" timeout 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs
	grep -q ' /mnt/nfs ' /proc/mounts || return 0
	mkdir -p /mnt/nfs/steady
	# Small random I/O (inline Calls and Replies) and 1 MiB sequential
	# I/O (Read chunks, Write chunks), at once.
	j="$STEADY_JOB --name=rand --rw=randrw --bs=4k --iodepth=16 --name=seq --rw=rw --bs=1m --iodepth=4"
	step "steady: warm-up run" sh -c "fio $j >/tmp/steady.warm 2>&1 || { tail -n 3 /tmp/steady.warm; exit 1; }"
	touch /share/steady.start
	wait_for /share/steady.start.ok 120 || step_fail "steady: server never read its counters"
	step "steady: measured run" sh -c "fio $j >/tmp/steady.run 2>&1 || { tail -n 3 /tmp/steady.run; exit 1; }"
	touch /share/steady.stop
	wait_for /share/steady.stop.ok 120 || step_fail "steady: server never read its counters"
	step "steady: umount" timeout 120 umount /mnt/nfs
}

# ---- delegation recall: NFSv4.1+ callbacks over RDMA (RFC 8167) ----------
# Asked for by the test (e2e touches /share/deleg.want; server, client and
# both: each end is stock or rpcrdmax, the stock server has no backchannel
# counters to check).  The client runs
# deleg_client after its other cases: on a v4.2 mount it writes a file,
# opens it for reading and keeps it open.  The server (deleg_server_watch
# before it says it is ready, deleg_server_check at the end) finds the
# read delegation nfsd granted for that file in /proc/locks (a DELEG
# lease on its inode), then
# opens the file for writing itself: the open breaks the delegation, nfsd
# sends CB_RECALL on the backchannel and the open returns once the client
# gave the delegation back.  Without a working backchannel the open waits
# out the whole lease-break time (/proc/sys/fs/lease-break-time, 45 s),
# so it must return in well under a third of that; the delegation must be
# gone, the backward Calls and Replies counted, and the client must read
# what the server wrote.
#
# Each such recall is a round with a TAG (its /share/TAG.* files and its
# lines) and a file: deleg_server_round and deleg_client_round; the
# battery runs two on one mount, one before and one after a reconnect.
DELEG_TRIES=30
# deleg_server_round TAG FILE: the server's side of a round, in the
# background, for /export/FILE (FILE is DIR/NAME: how states names it).
deleg_server_round() {
	(
		T=$1 F=$2
		svc=/proc/sys/sunrpc/svc_rdma res=/tmp/$T.result
		ok() { echo "ok $T: $*" >>$res; }
		fail() { echo "fail $T: $*" >>$res; }
		# nfsd's delegations are VFS leases: /proc/locks lists each as
		# "N: DELEG  ACTIVE|BREAKING  READ  PID MAJ:MIN:INODE 0 EOF".
		# Not /proc/fs/nfsd/clients/*/states: a lookup there racing
		# the laundromat's removal of an expired client's directory
		# trips a WARN in nfsd itself (6.1, nfsdfs_remove_files), and
		# the battery's earlier v4.0 clients can expire while this polls.
		held() {
			ino=$(stat -c %i /export/$F 2>/dev/null) &&
				grep -Eq "^[0-9]+: DELEG .* [0-9a-f]+:[0-9a-f]+:$ino " /proc/locks
		}
		# Each open the client makes is answered: did nfsd grant a
		# delegation?  (None while nfsd is in its grace period.)
		i=0 granted=
		while [ $i -lt $DELEG_TRIES ] && [ -z "$granted" ]; do
			i=$((i + 1))
			wait_for /share/$T.open.$i 1800 || exit 0
			end=$(deadline 3)
			while ! held && before $end; do sleep 0.1; done
			held && granted=yes
			echo "${granted:-no}" >/share/$T.ack.tmp
			mv /share/$T.ack.tmp /share/$T.ack.$i
		done
		if [ -z "$granted" ]; then
			fail "no delegation of $F (inode $(stat -c %i /export/$F)) after $i opens: /proc/locks has $(grep -c DELEG /proc/locks) DELEG lines"
			touch /share/$T.recalled
			exit 0
		fi
		ok "nfsd granted the client a delegation of $F (open $i)"
		# rpcrdmax's server counts backward Calls and Replies; stock's does not.
		c0= r0=
		if [ -r $svc/rdma_stat_bc_calls ]; then
			c0=$(cat $svc/rdma_stat_bc_calls) r0=$(cat $svc/rdma_stat_bc_replies)
		fi
		lbt=$(cat /proc/sys/fs/lease-break-time)
		t0=$(date +%s%N)
		timeout $((lbt * 2)) sh -c "echo after >/export/$F"
		rc=$?
		ms=$((($(date +%s%N) - t0) / 1000000))
		if [ $rc = 0 ] && [ $ms -lt $((lbt * 1000 / 3)) ]; then
			ok "the conflicting open returned in $ms ms (lease-break-time $lbt s)"
		else
			fail "the conflicting open took $ms ms, exit $rc (lease-break-time $lbt s)"
		fi
		if held; then
			fail "a delegation of $F is still in /proc/locks after the recall"
		else
			ok "the delegation is gone from /proc/locks"
		fi
		if [ -n "$c0" ]; then
			c1=$(cat $svc/rdma_stat_bc_calls) r1=$(cat $svc/rdma_stat_bc_replies)
			echo "$T: rdma_stat_bc_calls $c0 -> $c1, rdma_stat_bc_replies $r0 -> $r1" >>/tmp/$T.log
			if [ "$c1" -gt "$c0" ] && [ "$r1" -gt "$r0" ]; then
				ok "the recall went over the backchannel ($((c1 - c0)) Calls, $((r1 - r0)) Replies)"
			else
				fail "backchannel counters did not move (Calls $c0 -> $c1, Replies $r0 -> $r1)"
			fi
		else
			echo "$T: the stock server counts no backward Calls" >>/tmp/$T.log
		fi
		touch /share/$T.recalled
	) &
}

# deleg_server_round_check TAG: the round's results as STEP lines.
deleg_server_round_check() {
	local verdict msg
	[ -s /tmp/$1.result ] || { step_fail "$1: the recall test never ran"; return; }
	cat /tmp/$1.log 2>/dev/null
	while read -r verdict msg; do
		if [ "$verdict" = ok ]; then step_ok "server: $msg"; else step_fail "server: $msg"; fi
	done </tmp/$1.result
}

# rdma_stat_bc_dropped stays 0 with well-behaved clients (rpcrdmax's server).
bc_dropped_zero() {
	[ -r /proc/sys/sunrpc/svc_rdma/rdma_stat_bc_dropped ] || return 0
	v=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_bc_dropped)
	[ "$v" = 0 ] && step_ok "server: rdma_stat_bc_dropped is 0 with a well-behaved client" ||
		step_fail "server: rdma_stat_bc_dropped is '$v' with a well-behaved client"
}

deleg_server_watch() {
	[ -e /share/deleg.want ] || return 0
	deleg_server_round deleg deleg/f
}

deleg_server_check() {
	[ -e /share/deleg.want ] || return 0
	deleg_server_round_check deleg
	bc_dropped_zero
}

# key_value KEY FILE: the value on FILE's "KEY VALUE" line.
key_value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

# clnt_counters KEY: "FILE VALUE" for each of rpcrdmax's client transports
# (shim/sunrpc/debugfs.c's counters file); nothing with the stock client.
clnt_counters() {
	local f
	for f in /sys/kernel/debug/sunrpc/rpc_xprt/*/rpcrdmax; do
		[ -e "$f" ] && echo "$f $(key_value "$1" "$f")"
	done
}

# clnt_counter_delta KEY BEFORE: how much KEY grew on the transports listed
# in BEFORE (from clnt_counters) that still exist.
clnt_counter_delta() {
	local f v now d=0
	while read -r f v; do
		[ -e "$f" ] || continue
		now=$(key_value "$1" "$f")
		d=$((d + now - v))
	done <"$2"
	echo $d
}

# ---- stalls under nconnect ---------------------------------------------
# nconnect_server_watch (server, in the background): while the client's
# nconnect rounds run (/share/nconnect.want holds a grant), connections
# accepted get that many credits (max_requests), then the default again.
# It ends with the client (client.done) if the client never asks, and
# writes to no pipe of the script's (the guest's init waits for its log's
# end).
nconnect_server_watch() {
	local f=/proc/sys/sunrpc/svc_rdma/max_requests
	(
		until [ -e /share/nconnect.want ] || [ -e /share/client.done ]; do sleep 0.2; done
		[ -e /share/nconnect.want ] || exit 0
		old=$(cat $f) && cat /share/nconnect.want >$f && touch /share/nconnect.set
		until [ -e /share/nconnect.done ] || [ -e /share/client.done ]; do sleep 0.2; done
		echo "$old" >$f && touch /share/nconnect.back
	) </dev/null >/dev/null 2>&1 &
}

# nconnect_round NCONNECT: a mount with NCONNECT connections, each with the
# few credits and slots nconnect_rounds set, and 2 * NCONNECT writers of
# 32 MiB in all (16 KiB WRITEs with Read chunks), then as many O_DIRECT
# readers that compare.  sunrpc's waits are traced: a transmission put
# off with rpc_delay (the delayq, 250 ms for -ENOBUFS) fails the round;
# the waits for a slot (xprt_backlog) and to transmit (xprt_sending: the
# credit window, or a Send buffer or MR) are reported with the longest,
# and the writers and readers must finish.
nconnect_round() {
	local nc=$1 n=$(($1 * 2)) t=$TRACEFS/instances/nconnect e q waits
	local opts="rdma,port=20049,vers=3,nolock,nconnect=$1,wsize=16384,rsize=16384"
	head -c $((32 / n))M /tmp/nconnect.src >/tmp/nconnect.f
	step "nconnect=$nc: mount, 4 credits and 4 slots a transport" timeout 120 mount -t nfs -o "$opts" 192.0.2.1:/export /mnt/nfs ||
		return
	mkdir -p $t && echo 8192 >$t/buffer_size_kb && : >$t/trace
	for e in rpc_task_sleep rpc_task_wakeup; do
		echo 'q_name == "delayq" || q_name == "xprt_backlog" || q_name == "xprt_sending"' \
			>$t/events/sunrpc/$e/filter && echo 1 >$t/events/sunrpc/$e/enable
	done
	step "nconnect=$nc: $n writers, written back" timeout 600 sh -c \
		"mkdir -p /mnt/nfs/st$nc && for i in \$(seq $n); do cp /tmp/nconnect.f /mnt/nfs/st$nc/f\$i & done; wait; sync"
	step "nconnect=$nc: $n O_DIRECT readers compare" timeout 600 sh -c \
		"for i in \$(seq $n); do (dd if=/mnt/nfs/st$nc/f\$i bs=16k iflag=direct status=none | cmp -s - /tmp/nconnect.f || echo f\$i) & done >/tmp/nconnect.bad; wait; [ ! -s /tmp/nconnect.bad ] || { echo differ: \$(cat /tmp/nconnect.bad); exit 1; }"
	echo 0 >$t/events/enable
	e=$(grep -c "xprt:	rdma" /proc/self/mountstats)
	[ "$e" = "$nc" ] && step_ok "nconnect=$nc: $e rdma transports" ||
		step_fail "nconnect=$nc: $e rdma transports"
	waits=$(nconnect_waits <$t/trace)
	echo "client: nconnect=$nc: waits (queue count longest-ms): $(echo $waits)"
	echo "client: nconnect=$nc: empty_sendctx_q $(clnt_counters empty_sendctx_q |
		awk '{ s += $2 } END { print s + 0 }')"
	q=$(echo "$waits" | awk '$1 == "delayq" { print $2 }')
	[ -z "$q" ] && step_ok "nconnect=$nc: no transmission put off (delayq)" ||
		step_fail "nconnect=$nc: $q waits on the delayq"
	q=$(echo "$waits" | awk '$1 == "asleep" { print $2 }')
	[ -z "$q" ] && step_ok "nconnect=$nc: every wait ended" ||
		step_fail "nconnect=$nc: $q tasks still asleep"
	step "nconnect=$nc: umount" timeout 120 umount /mnt/nfs
}

# nconnect_waits <TRACE: from rpc_task_sleep and rpc_task_wakeup lines, per
# queue "QUEUE WAITS LONGEST-MS", and "asleep N" for sleeps not woken.
nconnect_waits() {
	awk '{
		ev = ""; id = ""; q = ""
		for (i = 1; i <= NF; i++) {
			if (ev == "" && $i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); ev = $(i + 1) }
			if ($i ~ /^task:/) id = $i
			if ($i ~ /^queue=/) q = substr($i, 7)
		}
		if (ev == "rpc_task_sleep:") { n[q]++; at[id] = ts; on[id] = q }
		else if (ev == "rpc_task_wakeup:" && (id in at)) {
			d = ts - at[id]
			if (d > max[on[id]]) max[on[id]] = d
			delete at[id]
		}
	} END {
		for (q in n) printf "%s %d %.0f\n", q, n[q], max[q] * 1000
		for (id in at) left++
		if (left) print "asleep", left
	}'
}

# nconnect_rounds: the server grants 4 credits and the client has 4 slots
# per transport; nconnect_round with nconnect=8 and 16, each slot and credit
# used some 32 times over.  The empty_sendctx_q counts (a transmission
# that found no Send buffer or MR and waited) are reported.
nconnect_rounds() {
	local f=/proc/sys/sunrpc/rdma_slot_table_entries slots nc
	echo 4 >/share/nconnect.want
	if ! wait_for /share/nconnect.set 60; then
		step_fail "nconnect: the server did not set max_requests"
		return
	fi
	slots=$(cat $f)
	echo 4 >$f
	head -c 4M /dev/urandom >/tmp/nconnect.src
	mkdir -p /mnt/nfs
	for nc in 8 16; do nconnect_round $nc; done
	echo "$slots" >$f
	touch /share/nconnect.done
	wait_for /share/nconnect.back 60 || step_fail "nconnect: the server did not set max_requests back"
}

# deleg_client_round TAG PATH: the client's side of a round: hold PATH
# open for reading until the server saw the delegation, then wait for
# its recall and read what the server wrote.  rpcrdmax's client must
# count the backward Calls it took and the Replies it sent, and drop none.
deleg_client_round() {
	local t=/share/$1 i=0 c r d v
	clnt_counters bcall_count >/tmp/$1.bc0
	clnt_counters bcall_reply_count >/tmp/$1.br0
	clnt_counters bcall_v2_count >/tmp/$1.bv0
	# Opened until the server says nfsd granted a delegation: it grants
	# none while in its grace period (up to 90 s after it started), nor
	# until the callback path is up.
	while [ $i -lt $DELEG_TRIES ]; do
		i=$((i + 1))
		exec 7<"$2"
		touch $t.open.$i
		wait_for $t.ack.$i 60 || break
		[ "$(cat $t.ack.$i)" = yes ] && break
		exec 7<&-
		sleep 4
	done
	wait_for $t.recalled 300 || step_fail "$1: the server never finished the recall"
	exec 7<&-
	step "$1: the client reads what the server wrote" grep -qx after "$2"
	if [ ! -s /tmp/$1.bc0 ]; then
		# rpcrdmax's client transport must have its counters file.
		grep -q '^rpcrdmax ' /proc/modules &&
			step_fail "$1: no /sys/kernel/debug/sunrpc/rpc_xprt/*/rpcrdmax with rpcrdmax loaded"
		return 0
	fi
	c=$(clnt_counter_delta bcall_count /tmp/$1.bc0)
	r=$(clnt_counter_delta bcall_reply_count /tmp/$1.br0)
	[ "$c" -gt 0 ] && [ "$r" -gt 0 ] &&
		step_ok "$1: the client took backward Calls ($c) and sent their Replies ($r)" ||
		step_fail "$1: the client's bcall_count grew by $c, bcall_reply_count by $r"
	# Between rpcrdmax peers (/share/v2.want) the connection is Version
	# Two, and so are the server's backward Calls (Documentation/v2.rst).
	if [ -e /share/v2.want ]; then
		v=$(clnt_counter_delta bcall_v2_count /tmp/$1.bv0)
		[ "$v" = "$c" ] && step_ok "$1: the backward Calls came in Version Two ($v)" ||
			step_fail "$1: $v of $c backward Calls came in Version Two"
	fi
	d=$(clnt_counters bcall_dropped_count | awk '{ n += $2 } END { print n + 0 }')
	[ "$d" = 0 ] && step_ok "$1: the client dropped no backward Call" ||
		step_fail "$1: the client's bcall_dropped_count is $d"
}

# deleg_client MOUNT-OPTS: only when the test asked for it.  The client
# module (stock's rpcrdma or rpcrdmax, loaded already) has the
# backchannel's events, and they fire: its slots made at the mount, the
# recall taken and answered.
deleg_client() {
	local cb=0
	[ -e /share/deleg.want ] || return 0
	mkdir -p /mnt/deleg
	step "deleg: rpcrdma:xprtrdma_cb_setup, _cb_call, _cb_reply enabled" \
		trace_events_on deleg xprtrdma_cb_setup xprtrdma_cb_call xprtrdma_cb_reply && cb=1
	step "deleg: mount -o $1" timeout 120 mount -t nfs -o "$1" 192.0.2.1:/export /mnt/deleg
	grep -q ' /mnt/deleg ' /proc/mounts || return 0
	step "deleg: write the file" sh -c 'mkdir -p /mnt/deleg/deleg && echo before >/mnt/deleg/deleg/f'
	deleg_client_round deleg /mnt/deleg/deleg/f
	step "deleg: umount" timeout 120 umount /mnt/deleg
	[ $cb = 0 ] || deleg_client_trace
}

# deleg_client_trace: the backchannel's events of deleg_client's mount.
deleg_client_trace() {
	local peer='peer=\[192\.0\.2\.1\]:20049' xid
	trace_events_off deleg
	trace_expect deleg xprtrdma_cb_setup "$peer [1-9][0-9]* reqs\$" \
		"deleg: xprtrdma_cb_setup: backchannel slots made at the mount"
	trace_expect deleg xprtrdma_cb_call "$peer xid=0x[0-9a-f]{8}\$" \
		"deleg: xprtrdma_cb_call: the recall taken"
	xid=$(trace_lines deleg xprtrdma_cb_call | tail -n 1 | grep -Eo 'xid=0x[0-9a-f]{8}')
	trace_expect deleg xprtrdma_cb_reply "$peer ${xid:-no-cb_call}\$" \
		"deleg: xprtrdma_cb_reply: the last backward Call ($xid) answered"
}

# ---- Kerberos: sec=krb5, krb5i, krb5p (when /share/krb5.want exists) -----
# The server guest is the KDC of realm RPCRDMAX.TEST and runs rpc.svcgssd;
# it exports a tmpfs on /krb5 with only the three Kerberos flavors, every
# user mapped to root (the client's machine credential, nfs/client..., has
# no local account).  It leaves the client's keytab on the share; the
# client runs rpc.gssd with it.  Test-only keys: the password is public.
KRB5_REALM=RPCRDMAX.TEST
KRB5_SERVER=server.rpcrdmax.test

# krb5_names: both guests' names (gssd names principals by the canonical
# host name) and the realm.
krb5_names() {
	grep -q "$KRB5_SERVER" /etc/hosts 2>/dev/null ||
		printf '192.0.2.1 %s server\n192.0.2.2 client.rpcrdmax.test client\n' \
			"$KRB5_SERVER" >>/etc/hosts
	printf '%s\n' '[libdefaults]' "	default_realm = $KRB5_REALM" \
		'	dns_lookup_kdc = false' '	dns_lookup_realm = false' \
		'[realms]' "	$KRB5_REALM = {" "		kdc = $KRB5_SERVER" \
		"		admin_server = $KRB5_SERVER" '	}' \
		'[domain_realm]' "	.rpcrdmax.test = $KRB5_REALM" \
		'[logging]' '	kdc = STDERR' >/etc/krb5.conf
}

# krb5_kdc_up: a realm, the two NFS service principals, the server's
# keytab, the client's on the share, and the KDC and rpc.svcgssd running.
krb5_kdc_up() {
	local p
	krb5_names
	rm -f /etc/krb5.keytab /share/krb5-client.keytab
	kdb5_util create -s -r $KRB5_REALM -P rpcrdmax-test-only >/tmp/kdb5.log 2>&1 ||
		{ cat /tmp/kdb5.log; return 1; }
	for p in nfs/$KRB5_SERVER nfs/client.rpcrdmax.test; do
		kadmin.local -q "addprinc -randkey $p" >/dev/null || return 1
	done
	kadmin.local -q "ktadd -k /etc/krb5.keytab nfs/$KRB5_SERVER" >/dev/null &&
		kadmin.local -q "ktadd -k /share/krb5-client.keytab nfs/client.rpcrdmax.test" >/dev/null ||
		return 1
	krb5_daemon kdc krb5kdc -n && krb5_daemon svcgssd rpc.svcgssd -f -vvv
}

# krb5_daemon NAME CMD...: CMD in the foreground of a background job,
# its output in /tmp/NAME.log; fails, with that log, if it is gone 1 s
# later.
krb5_daemon() {
	local n=$1
	shift
	"$@" </dev/null >/tmp/$n.log 2>&1 &
	sleep 1
	kill -0 $! 2>/dev/null || { echo "$n ended: $(tail -n 3 /tmp/$n.log)"; return 1; }
}

# krb5_export: /krb5, a tmpfs, exported with the Kerberos flavors only.
krb5_export() {
	mkdir -p /krb5
	mount -t tmpfs -o size=256m tmpfs /krb5 &&
		echo '/krb5 192.0.2.0/24(rw,sec=krb5:krb5i:krb5p,all_squash,anonuid=0,anongid=0,insecure,no_subtree_check,fsid=2)' >>/etc/exports
}

# krb5_server: the server's part, before it tells the client it is ready.
krb5_server() {
	[ -e /share/krb5.want ] || return 0
	step "server: krb5: KDC and rpc.svcgssd up" krb5_kdc_up
	step "server: krb5: /krb5 exported with sec=krb5:krb5i:krb5p" krb5_export
}

# krb5_gssd_up: the client's keytab and rpc.gssd.
krb5_gssd_up() {
	krb5_names
	install -m 0600 /share/krb5-client.keytab /etc/krb5.keytab || return 1
	mkdir -p /var/lib/nfs/rpc_pipefs
	mountpoint -q /var/lib/nfs/rpc_pipefs ||
		mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs || return 1
	modprobe rpcsec_gss_krb5 || return 1
	krb5_daemon gssd rpc.gssd -f -vvv -p /var/lib/nfs/rpc_pipefs
}

# xprt_chunks MNT: "READ WRITE REPLY", the chunk counts of MNT's rdma
# transport line in /proc/self/mountstats (the 11th to 13th numbers after
# "xprt: rdma", as stock prints them).
xprt_chunks() {
	awk -v m=" $1 " '/^device / { on = index($0, m) > 0 }
		on && $1 == "xprt:" && $2 == "rdma" { print $13, $14, $15; exit }' /proc/self/mountstats
}

# krb5_over_tcp FLAVOR: a sec=FLAVOR mount over TCP works (the control:
# Debian's 6.1.0-56 fails every krb5p mount, stock to stock, over TCP too).
krb5_over_tcp() {
	timeout 120 mount -t nfs -o proto=tcp,vers=4.2,sec=$1 $KRB5_SERVER:/krb5 /mnt/krb5 2>/dev/null ||
		return 1
	timeout 120 umount /mnt/krb5
}

# hostile_tally FILE RC WHAT: the hostile tool's output FILE (its STEP
# lines are counted like ours) and its exit status RC, which must be its
# number of failed steps (at most 255): a crash, a timeout or a status
# that disagrees with its STEP lines is a failure of its own.
hostile_tally() {
	local nfail nok
	cat "$1"
	nfail=$(grep -c '^STEP FAIL' "$1" || true)
	nok=$(grep -c '^STEP ok' "$1" || true)
	if [ "$2" -ne "$nfail" ] && ! { [ "$2" -eq 255 ] && [ "$nfail" -ge 255 ]; }; then
		step_fail "$3 exited $2 with $nfail failed and $nok passed steps"
	else
		step_ok "$3 ran ($nok passed, $nfail failed)"
	fi
}

# bigio_client: asked for by the test (/share/bigio.want, on 7.x): the
# hostile tool's big-io case (tools/hostile) writes 4 MiB to the server's
# /export/bigio.bin from a Read chunk and reads it back into a Write
# chunk, which no Linux client can (it sends at most 1 MiB).
bigio_client() {
	local rc=0
	[ -e /share/bigio.want ] || return 0
	step "bigio: load ib_uverbs and rdma_ucm" modprobe -a ib_uverbs rdma_ucm || return 1
	timeout -k 5 300 /share/hostile --server 192.0.2.1 --port 20049 --deadline 240 \
		--only big-io --big-path export/bigio.bin >/tmp/bigio.out 2>&1 || rc=$?
	hostile_tally /tmp/bigio.out $rc "bigio: hostile tool"
}

# krb5_client MOUNT-OPTS: with each flavor, a file written and read back
# with O_DIRECT after a remount, its sha256 compared.  krb5 lets data go
# by direct placement (Read and Write chunks); krb5i and krb5p protect
# it, so both ends must carry it inside the RPC message (a Long Call, a
# Reply chunk), as stock does: no Write chunk.
krb5_client() {
	local opts=$1 f m chunks t0=$(date +%s)
	[ -e /share/krb5.want ] || return 0
	step "krb5: keytab and rpc.gssd" krb5_gssd_up || return 0
	# rpc.gssd's first upcall after rpcsec_gss_krb5 loads can come by the
	# legacy krb5 pipe, without the kernel's enctypes, and fail with
	# EACCES ("access denied by server"; seen once in e2e server with the
	# stock client, gssd's "handle_krb5_upcall ... err -13"): one mount
	# over TCP first, not counted, whatever the transport under test.
	# (Its mount point must exist first, else the warm-up fails and the
	# first counted mount takes the failed upcall.)
	mkdir -p /mnt/krb5
	krb5_over_tcp krb5 || echo "krb5: the warm-up mount over TCP failed (not counted)"
	head -c 2097155 /dev/urandom >/tmp/krb5.src
	# RPCSEC_GSS's failures on this end, for a failed read's report (a
	# krb5i read from rpcrdmax's 7.3 server once ended in EIO with every
	# Call answered): a reply's sequence number, unwrap, MIC.
	local gss=$TRACEFS/instances/gss e
	if tracefs_up && mkdir -p "$gss" && : >"$gss/trace"; then
		for e in rpcgss_bad_seqno rpcgss_unwrap_failed rpcgss_verify_mic rpcgss_unwrap; do
			echo 1 >"$gss/events/rpcgss/$e/enable" 2>/dev/null
		done
	fi
	for f in krb5 krb5i krb5p; do
		# krb5 and krb5i must work; krb5p only where it works over TCP.
		if [ $f = krb5p ] && ! krb5_over_tcp $f; then
			echo "SKIP $f: not counted: a sec=$f mount over TCP fails as well on this kernel ($(uname -r)), whatever the RDMA transport"
			continue
		fi
		m="timeout 120 mount -t nfs -o $opts,sec=$f $KRB5_SERVER:/krb5 /mnt/krb5"
		step "$f: mount -o $opts,sec=$f" $m || continue
		grep -Eq " /mnt/krb5 nfs.*sec=$f(,| )" /proc/mounts &&
			step_ok "$f: /proc/mounts says sec=$f" ||
			step_fail "$f: $(grep ' /mnt/krb5 ' /proc/mounts)"
		step "$f: write 2 MiB" timeout 300 sh -c "cp /tmp/krb5.src /mnt/krb5/$f.f && sync"
		step "$f: umount" timeout 120 umount /mnt/krb5
		step "$f: remount" $m || continue
		step "$f: O_DIRECT read, sha256 equal" timeout 300 sh -c \
			"test \"\$(dd if=/mnt/krb5/$f.f bs=1M iflag=direct status=none | sha256sum)\" = \"\$(sha256sum </tmp/krb5.src)\"" || {
			echo "$f: the last rpcgss events:"
			grep -v '^#' "$gss/trace" 2>/dev/null | tail -n 8
			grep -h 'xprt:' /proc/self/mountstats
		}
		chunks=$(xprt_chunks /mnt/krb5)
		set -- $chunks
		if [ "$f" = krb5 ]; then
			[ "${2:-0}" -gt 0 ] && step_ok "$f: READ data placed by Write chunks ($chunks)" ||
				step_fail "$f: no Write chunk with sec=krb5 (read write reply: '$chunks')"
		else
			[ "${2:-x}" = 0 ] && [ "${3:-0}" -gt 0 ] &&
				step_ok "$f: no direct placement: no Write chunk, Reply chunks ($chunks)" ||
				step_fail "$f: read write reply chunks '$chunks' (a Write chunk, or no Reply chunk)"
		fi
		step "$f: umount" timeout 120 umount /mnt/krb5
	done
	echo 0 >"$gss/events/enable" 2>/dev/null
	echo "krb5: the round took $(($(date +%s) - t0)) s"
	cp /tmp/gssd.log /share/client-gssd.log
	# The client leaves Kerberos as it found it: with rpc.gssd and a
	# keytab left behind, a later sec=sys NFSv4.0 mount (the battery's,
	# in the same boot) tried the machine's credential and failed.
	pkill -x rpc.gssd
	rm -f /etc/krb5.keytab /tmp/krb5cc*
}

# ---- the debug kernel (scripts/e2e --debug, scripts/kunit --debug) ---------
# Booted on the debug kernel (kunit/debug.config), a guest finds no modules
# of its own in the root filesystem: they come from the read-only share
# "modroot" (the kernel's modules_install as one tar file, scripts/vm
# --kernel debug), before anything runs modprobe.
KMEMLEAK=/sys/kernel/debug/kmemleak
# The kernel's jiffies when the test began (this boot's first lib.sh):
# kmemleak reports each object with the jiffies of its allocation.
KMEMLEAK_SINCE=/run/kmemleak.since

# kmemleak_new REPORT SINCE: how many objects of a kmemleak report (the
# debugfs file's text: "unreferenced object ...", then "  comm ..., pid
# N, jiffies J") were allocated at jiffies SINCE or later.
kmemleak_new() {
	awk -v since="$2" '
		/^unreferenced object / { obj = 1; next }
		obj && / jiffies [0-9]+/ {
			for (i = 1; i < NF; i++)
				if ($i == "jiffies") { j = $(i + 1); sub(/[^0-9].*/, "", j); if (j + 0 >= since + 0) n++ }
			obj = 0
		}
		END { print n + 0 }' "$1"
}

# kmemleak_scan_twice WAIT: wait WAIT seconds (kmemleak reports nothing
# younger than 5 s), then scan twice (see kmemleak_scan).
kmemleak_scan_twice() {
	sleep "$1"
	echo scan >$KMEMLEAK
	echo scan >$KMEMLEAK
}

# kmemleak_scan: with kmemleak, scan twice (leaks are only reported once
# at least 5 s old, and not by the first scan that finds them: it only
# records their checksum, and the next one reports them if unchanged;
# mm/kmemleak.c, kmemleak_scan and update_checksum) and report the
# objects leaked since the test began as "kmemleak: N suspected memory
# leaks since the test began" in the kernel log (KERNEL_BAD); the full
# report goes to the share as NAME.kmemleak.  What the kernel leaked
# while it booted is in the report, but not counted.
kmemleak_scan() {
	[ -w $KMEMLEAK ] || return 0
	local f=/share/${RPCRDMAX_name:-guest}.kmemleak n
	kmemleak_scan_twice 6
	cat $KMEMLEAK >"$f" 2>/dev/null
	[ -s "$f" ] || { rm -f "$f"; return 0; }
	n=$(kmemleak_new "$f" "$(cat $KMEMLEAK_SINCE 2>/dev/null || echo 0)")
	[ "$n" -eq 0 ] ||
		echo "rpcrdmax-test: kmemleak: $n suspected memory leaks since the test began (${f#/share/})" >/dev/kmsg
	return 0
}

# The tar holds modules_install's tree, depmod's index included (made on
# the host at native speed; a guest's own depmod -a would take seconds).
if [ ! -d "/lib/modules/$(uname -r)" ] && mkdir -p /tmp/modroot &&
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro modroot /tmp/modroot 2>/dev/null; then
	mkdir -p /lib/modules && tar -C /lib/modules -xf /tmp/modroot/modules.tar
	umount /tmp/modroot
	# What leaked while the kernel booted is not the test's: the test
	# counts only objects allocated from now on (the scheduler's debug
	# file has the kernel's jiffies; a scan and clear here instead took
	# 45-55 s under TCG).  Without that file: scan twice, forget.
	if [ -w $KMEMLEAK ]; then
		awk '$1 == "jiffies" && $3 ~ /^[0-9]+$/ { print $3 }' /sys/kernel/debug/sched/debug \
			>$KMEMLEAK_SINCE 2>/dev/null
		if [ ! -s $KMEMLEAK_SINCE ]; then
			echo 0 >$KMEMLEAK_SINCE
			kmemleak_scan_twice 5
			echo clear >$KMEMLEAK
		fi
	fi
fi

# ---- fault injection into rpcrdmax's shims (the debug kernel) --------------
# fail_function (CONFIG_FAIL_FUNCTION) fails the shim functions marked
# ALLOW_ERROR_INJECTION (shim/kernel/: allocation, verbs, rw, CM): only
# rpcrdmax's code, never the kernel's own callers of the same services.
# One fault attribute for all of them: TIMES failures, then none.
FEI=/sys/kernel/debug/fail_function

# fail_function decides in its kprobe handler, which lockdep counts as
# NMI context, and the random draw of should_fail_ex() (6.1) takes a
# local lock there: at the first failure injected, lockdep reports the
# injector itself ("inconsistent {INITIAL USE} -> {IN-NMI} usage" of the
# lock the draw took) and turns itself off for the rest of the boot
# (kernel.prove_locking does not prevent it: the NMI check ignores it).
# The inject case's guests therefore judge their logs with
# kernel_log_clean_but_injector.

# fei_arm FUNC TIMES: the next TIMES calls of FUNC fail (every caller).
fei_arm() {
	[ -d $FEI ] || { echo "no $FEI: not a kernel with FAIL_FUNCTION"; return 1; }
	fei_trace_on "$RPCRDMAX_name" "$1" || return 1
	echo >$FEI/inject
	echo "$1" >$FEI/inject || { echo "fail_function refuses $1 (not loaded, or not marked)"; return 1; }
	echo 100 >$FEI/probability && echo 1 >$FEI/interval && echo 0 >$FEI/space &&
		echo 1 >$FEI/verbose && echo "$2" >$FEI/times
}

# fei_event END FUNC: the stock-named tracepoints with which the callers
# of FUNC on END (client or server) report its failure, one "EVENT ERE"
# per line (ERE: what follows "EVENT: ", its fields): one of those must
# fire, and each line "& EVENT ERE" as well; none when that failure has
# no stock event.  The client's Sends and LOCAL_INVs both go through
# rpcrdmax_ib_post_send; its MRs are mapped only while a Call is
# marshaled.
fei_event() {
	local a='addr=192\.0\.2\.2:[0-9]+' st='status=-[0-9]+$'
	case $1:$2 in
	client:rpcrdmax_ib_alloc_mr) echo "xprtrdma_frwr_alloc mr.id=[0-9]+: rc=-[0-9]+\$" ;;
	client:rpcrdmax_ib_post_send)
		echo "xprtrdma_post_send_err task:[0-9]+@[0-9]+ cq.id=[0-9]+ rc=-[0-9]+\$"
		echo "xprtrdma_post_linv_err task:[0-9]+@[0-9]+ $st" ;;
	client:rpcrdmax_ib_post_recv)
		echo "xprtrdma_post_recvs_err peer=\[192\.0\.2\.1\]:20049 cq.id=[0-9]+ rc=-[0-9]+\$" ;;
	client:rpcrdmax_ib_dma_map_single) echo "xprtrdma_dma_maperr dma addr=0x[0-9a-f]+\$" ;;
	client:rpcrdmax_ib_mr_map)
		echo "xprtrdma_frwr_maperr mr.id=[0-9]+ DMA addr=0x[0-9a-f]+ \((BIDIR|TO_DEVICE|FROM_DEVICE)\) nents=-[0-9]+ of [1-9][0-9]*\$"
		echo "& xprtrdma_marshal_failed task:[0-9]+@[0-9]+ xid=0x[0-9a-f]{8} ret=-[0-9]+\$" ;;
	server:rpcrdmax_ib_dma_map_single | server:rpcrdmax_ib_dma_map_page)
		echo "svcrdma_dma_map_err $a device=rxe0 dma_addr=[0-9]+ length=[1-9][0-9]*\$" ;;
	server:rpcrdmax_rw_init) echo "svcrdma_dma_map_rw_err $a device=rxe0 nents=[1-9][0-9]* $st" ;;
	server:rpcrdmax_ib_alloc_pd) echo "svcrdma_pd_err $a $st" ;;
	server:rpcrdmax_cm_create_qp) echo "svcrdma_qp_err $a $st" ;;
	server:rpcrdmax_cm_accept) echo "svcrdma_accept_err $a $st" ;;
	server:rpcrdmax_ib_post_recv) echo "svcrdma_rq_post_err $a $st" ;;
	server:rpcrdmax_rw_post | server:rpcrdmax_ib_post_send) echo "svcrdma_sq_post_err $a sc_sq_avail=-?[0-9]+/[0-9]+ $st" ;;
	esac
}

# fei_trace_on END FUNC: record fei_event's events in the tracefs
# instance "fei", emptied first.
fei_trace_on() {
	local ev
	ev=$(fei_event "$1" "$2" | sed 's/^& //' | cut -d' ' -f1)
	[ -z "$ev" ] || trace_events_on fei $ev
}

# fei_traced END FUNC: "none" when a failure of FUNC on END has no stock
# event; "ok EVENT[ EVENT...]" when one of its events and each one it
# requires ("&") fired with its fields; otherwise what is missing and
# what the instance recorded.
fei_traced() {
	local ev ere evs any= need= fired=
	evs=$(fei_event "$1" "$2")
	[ -n "$evs" ] || { echo none; return 0; }
	trace_events_off fei
	while read -r ev ere; do
		if [ "$ev" = "&" ]; then
			ev=${ere%% *} ere=${ere#* }
			trace_lines fei "$ev" | grep -Eq " $ev: $ere" && need="$need $ev" ||
				{ echo "no $ev with its fields; recorded: '$(grep -v '^#' $TRACEFS/instances/fei/trace | tail -n 2 | tr '\n' ' ')'"; return 0; }
		else
			any="$any$ev "
			[ -z "$fired" ] && trace_lines fei "$ev" | grep -Eq " $ev: $ere" && fired=$ev
		fi
	done <<-EOF
	$evs
	EOF
	[ -n "$fired" ] && { echo "ok $fired$need"; return 0; }
	echo "none of ${any}with its fields; recorded: '$(grep -v '^#' $TRACEFS/instances/fei/trace | tail -n 2 | tr '\n' ' ')'"
}

# fei_disarm: prints how many of the armed failures were not used, and
# removes every injection point.
fei_disarm() {
	cat $FEI/times
	echo >$FEI/inject
}

# The server guest arms its own end when the client asks over the share:
# the client writes /share/fei.KIND.req (KIND arm: "FUNC TIMES"; stop:
# disarm, answer the unused count; qp: answer whether the server's QPs
# are back to QP0 within 30 s; trace: "FUNC", answer fei_traced) and
# waits for /share/fei.KIND.ans.
# fei_serve SECONDS QP0 answers until the client is done, for at most
# SECONDS; QP0 is the server's QP count before any connection (the
# device's own GSI QP, owned by ib_core, is always there).
fei_serve() {
	local k args out end=$(deadline $1) qp0=$2
	while [ ! -e /share/client.done ]; do
		before $end || { step_fail "server: the client never finished ($1 s)"; return 1; }
		for k in arm stop qp trace; do
			[ -e /share/fei.$k.req ] || continue
			args=$(cat /share/fei.$k.req)
			rm -f /share/fei.$k.req
			case $k in
			arm) out=$(fei_arm $args 2>&1) && out=ok ;;
			stop) out=$(fei_disarm) ;;
			qp) out=$(rdma_res_settle qp "$qp0" 30 2>&1) && out=ok ;;
			trace) out=$(fei_traced server $args 2>&1) ;;
			esac
			echo "server: $k $args: $out"
			echo "$out" >/share/fei.$k.tmp && mv /share/fei.$k.tmp /share/fei.$k.ans
		done
		sleep 0.5
	done
	echo "server: the client is done"
}

# fei_ask KIND [ARGS...]: the client's side; prints the server's answer.
fei_ask() {
	local k=$1
	shift
	rm -f /share/fei.$k.ans
	echo "$*" >/share/fei.$k.tmpreq && mv /share/fei.$k.tmpreq /share/fei.$k.req
	wait_for /share/fei.$k.ans 90 || { echo "the server never answered"; return 1; }
	cat /share/fei.$k.ans
	rm -f /share/fei.$k.ans
}

# fei_remote_arm FUNC TIMES, fei_remote_qp_gone: succeed on "ok";
# fei_remote_disarm: the unused count, as fei_disarm.
fei_remote_arm() { fei_ok arm "$@"; }
fei_remote_qp_gone() { fei_ok qp; }
fei_remote_disarm() { fei_ask stop; }
fei_ok() {
	local a
	a=$(fei_ask "$@") || { echo "$a"; return 1; }
	[ "$a" = ok ] || { echo "server: $a"; return 1; }
}
