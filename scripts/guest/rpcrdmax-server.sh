# SPDX-License-Identifier: GPL-2.0
# e2e, server side with rpcrdmax's server transport: nfsd serves a tmpfs
# over RDMA through rpcrdmax (a plain modprobe) to the stock client
# (baseline-client.sh); after the client is done, nfsd stops with no RDMA
# resource of it left once rpc.nfsd 0 returns, the module unloads, and
# the kernel log stays clean.
. /share/lib.sh
set -u
rpcrdmax_server_up
RES0=$(rdma_res_snapshot)
# Connection events, for the report if the client stalls (lib.sh).
trace_conn_on || echo "server: no tracefs: no connection trace"
# Tracepoints (the stock module's names, trace system rpcrdma): each
# Call's transport header and the completions of Receives, Sends and
# RDMA Reads; the headers that cannot be served and the error Replies in
# a buffer of their own.
step "server: rpcrdma:svcrdma_decode_rqst, _decode_rseg, _decode_wseg, _encode_wseg, _wc_recv, _wc_send, _wc_read enabled" \
	trace_events_on server svcrdma_decode_rqst svcrdma_decode_rseg svcrdma_decode_wseg \
	svcrdma_encode_wseg svcrdma_wc_recv svcrdma_wc_send svcrdma_wc_read
DECODE_ERRS="svcrdma_decode_short_err svcrdma_decode_badvers_err svcrdma_decode_drop_err svcrdma_decode_badproc_err svcrdma_decode_parse_err"
step "server: rpcrdma:svcrdma_err_vers, _err_chunk, the decode errors enabled" \
	trace_events_on server_err svcrdma_err_vers svcrdma_err_chunk $DECODE_ERRS
# Work posted (a buffer of its own: one line per Receive and per Send).
step "server: rpcrdma:svcrdma_post_recv, _post_send, _post_read_chunk, _post_write_chunk, _post_reply_chunk enabled" \
	trace_events_on server_post svcrdma_post_recv svcrdma_post_send svcrdma_post_read_chunk \
	svcrdma_post_write_chunk svcrdma_post_reply_chunk
# Send Queue waits: each one counts in rdma_stat_sq_starve too.
starve0=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_sq_starve)
step "server: rpcrdma:svcrdma_sq_full, _sq_retry enabled" \
	trace_events_on server_sq svcrdma_sq_full svcrdma_sq_retry
grep -q '^rpcrdma ' /proc/modules && step_fail "server: stock rpcrdma is loaded" ||
	step_ok "server: stock rpcrdma not loaded"
grep -q '^rdma ' /proc/sys/sunrpc/transports &&
	step_ok "server: rdma in /proc/sys/sunrpc/transports" ||
	step_fail "server: no rdma class: $(cat /proc/sys/sunrpc/transports)"
# Contexts are made at set-up, never while I/O runs in steady state
# (not with the hostile peer, nor in the lean smoke case: steady.skip).
[ -e /share/hostile.strict ] || [ -e /share/steady.skip ] || steady_server_watch
deleg_server_watch
# With the battery after the client's own script (lib.sh, battery_after),
# the Call and post events stop when that script ends: the checks below
# look for what its I/O did, which the battery's traffic would push out of
# the buffers.  The error and Send Queue events, rare, stay on.
if battery_after; then
	( wait_for /share/part1.done 3600 && trace_events_off server && trace_events_off server_post ) &
fi
# Every message received ends one way (svcrdma/svcrdma.h, Settle): the
# counts add up over the whole run, faults and all (lib.sh, settled).
# Whether the client ran fault steps (rpcrdmax-client.sh's kill storm,
# device removal and late: steps open the window "faults", lib.sh
# window_begin) or the battery (its device removal): only then may a
# Call be lost with its connection.
window_watch faults date
faults_watch=$!
nfs_server_serve
kill $faults_watch 2>/dev/null	# (a client that never opened the window)
[ -e /share/hostile.strict ] || [ -e /share/steady.skip ] || steady_server_check
deleg_server_check
# The listener of an nfsd in another network namespace (lib.sh).
netns_listener
# Malformed Calls are counted by what they got, Calls beyond the
# credits granted as overruns, and backward Replies no backward Call
# waits for (RFC 8167) as bc_dropped: under the hostile peer
# every kind must have happened, with well-behaved clients none, faults
# and all (a Call whose connection is lost under it is counted lost, not
# dropped).
for f in err_vers err_chunk dropped credit_overrun bc_dropped; do
	v=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_$f)
	if [ -e /share/hostile.strict ]; then
		[ "$v" -gt 0 ] 2>/dev/null && step_ok "server: rdma_stat_$f counted the hostile peer ($v)" ||
			step_fail "server: rdma_stat_$f is '$v' after the hostile peer"
	else
		[ "$v" = 0 ] && step_ok "server: rdma_stat_$f is 0 with a well-behaved client" ||
			step_fail "server: rdma_stat_$f is '$v' with a well-behaved client"
	fi
done
# RPC-over-RDMA Version Two (Documentation/v2.rst): the stock client
# speaks Version One, and the server answers in it; rpcrdmax's client
# (/share/v2.want) settles on Version Two, but for the connections it made
# with rdma_max_version 1 (their count in /share/v1-conns) and the one the
# hostile tool's big-io case makes on 7.x (/share/bigio.want), which
# speaks Version One.  The client sends its RDMA2_CONNPROP on each
# connection it settled on Version Two (/share/v2-conns): a connection
# that ended before its first Reply reached the client (a device that
# held the Send) has ours and not the client's.  The hostile peer sends
# Version Two messages of its own.
if [ ! -e /share/hostile.strict ]; then
	v1c=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_vers1_conns)
	v2c=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_vers2_conns)
	cps=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_connprop_sent)
	cpr=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_connprop_recv)
	if [ -e /share/v2.want ]; then
		want1=$(cat /share/v1-conns 2>/dev/null)
		want2=$(cat /share/v2-conns 2>/dev/null)
		[ ! -e /share/bigio.want ] || want1=$((want1 + 1))
		[ "$v2c" -gt 0 ] 2>/dev/null && [ "$v1c" = "$want1" ] && [ "$cps" = "$v2c" ] &&
			[ "$cpr" = "$want2" ] && [ "$cpr" -le "$v2c" ] &&
			step_ok "server: $v2c connections Version Two, each with our RDMA2_CONNPROP, the client's on the $cpr it settled; $v1c Version One (the client's capped ones)" ||
			step_fail "server: rdma_stat_vers2_conns '$v2c', vers1 '$v1c' (want '$want1'), connprop sent '$cps' received '$cpr' (the client settled '$want2')"
	else
		[ "$v1c" -gt 0 ] 2>/dev/null && [ "$v2c" = 0 ] && [ "$cps" = 0 ] &&
			step_ok "server: every connection stayed Version One ($v1c counted, none Version Two)" ||
			step_fail "server: rdma_stat_vers1_conns '$v1c', rdma_stat_vers2_conns '$v2c', connprop sent '$cps'"
	fi
fi
trace_events_off server
trace_events_off server_err
trace_events_off server_sq
trace_events_off server_post
# As many svcrdma_sq_full as Send Queue waits counted, each line with its
# fields (the client, the slots free of all), a retry after none more.
starve=$(($(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_sq_starve) - starve0))
full=$(trace_lines server_sq svcrdma_sq_full | grep -Ec ' svcrdma_sq_full: addr=192\.0\.2\.2:[0-9]+ sc_sq_avail=-?[0-9]+/[1-9][0-9]*$')
retry=$(trace_lines server_sq svcrdma_sq_retry | grep -Ec ' svcrdma_sq_retry: addr=192\.0\.2\.2:[0-9]+ sc_sq_avail=-?[0-9]+/[1-9][0-9]*$')
all=$(grep -vc '^#' $TRACEFS/instances/server_sq/trace)
[ "$full" = "$starve" ] && [ "$retry" -le "$full" ] && [ "$all" = $((full + retry)) ] &&
	step_ok "server: svcrdma_sq_full $full times (rdma_stat_sq_starve $starve), _sq_retry $retry, with their fields" ||
	step_fail "server: svcrdma_sq_full $full, _sq_retry $retry, of $all lines; rdma_stat_sq_starve $starve"
trace_expect server svcrdma_decode_rqst \
	'cq.id=[0-9]+ cid=-?[0-9]+ xid=0x[0-9a-f]{8} vers=1 credits=[1-9][0-9]* proc=RDMA_(MSG|NOMSG) hdrlen=[1-9][0-9]*$' \
	"server: svcrdma_decode_rqst fired with its fields"
# A completion names its CQ and its Receive buffer as the header's
# event does: the last Call decoded is among the Receives completed.
last=$(trace_lines server svcrdma_decode_rqst | tail -n 1 | grep -Eo 'cq.id=[0-9]+ cid=-?[0-9]+')
trace_expect server svcrdma_wc_recv "$last received=[1-9][0-9]*\$" \
	"server: svcrdma_wc_recv fired, its cq.id and cid those of svcrdma_decode_rqst ($last)"
# Each Send context has its own cid.
trace_expect server svcrdma_wc_send 'cq.id=[0-9]+ cid=[0-9]+$' \
	"server: svcrdma_wc_send fired with its fields, its Send context's cid"
# The client's WRITEs came with Read lists, its READs with Write lists.
if [ ! -e /share/hostile.strict ]; then
	trace_expect server svcrdma_wc_read 'cq.id=[0-9]+ cid=-?[0-9]+$' \
		"server: svcrdma_wc_read fired for the RDMA Reads"
	seg='[1-9][0-9]*@0x[0-9a-f]{16}:0x[0-9a-f]{8}$'
	trace_expect server svcrdma_decode_rseg "cq_id=[0-9]+ cid=-?[0-9]+ segno=[0-9]+ position=[1-9][0-9]* $seg" \
		"server: svcrdma_decode_rseg shows a WRITE's Read segment"
	trace_expect server svcrdma_decode_wseg "cq_id=[0-9]+ cid=-?[0-9]+ segno=[0-9]+ $seg" \
		"server: svcrdma_decode_wseg shows a READ's Write segment"
	# The Reply returns each Write chunk and Reply chunk segment with the
	# octets written, from the Send context that carries it.
	trace_expect server svcrdma_encode_wseg "cq_id=[0-9]+ cid=[0-9]+ segno=[0-9]+ $seg" \
		"server: svcrdma_encode_wseg shows a Reply's written segment"
fi
# Each Receive posted, each Reply's Send (its Send context's cid, its
# SGEs, the rkey it invalidates or 0), the RDMA Reads of a Call's Read
# chunks and the Writes of a Reply's Write chunks (the Send Queue slots
# they take); a Reply chunk's Writes, where there were any, as well.
trace_expect server_post svcrdma_post_recv 'cq.id=[0-9]+ cid=[0-9]+$' \
	"server: svcrdma_post_recv fired with its fields"
trace_expect server_post svcrdma_post_send 'cq_id=[0-9]+ cid=[0-9]+ num_sge=[1-9][0-9]* inv_rkey=0x[0-9a-f]{8}$' \
	"server: svcrdma_post_send fired with its fields"
if [ ! -e /share/hostile.strict ]; then
	chunk='cq.id=[0-9]+ cid=-?[0-9]+ sqecount=[1-9][0-9]*$'
	trace_expect server_post svcrdma_post_read_chunk "$chunk" \
		"server: svcrdma_post_read_chunk shows the WRITEs' RDMA Reads"
	trace_expect server_post svcrdma_post_write_chunk "$chunk" \
		"server: svcrdma_post_write_chunk shows the READs' RDMA Writes"
	# A Write chunk's Writes go in the chain of their Reply's Send.
	wcid=$(trace_lines server_post svcrdma_post_write_chunk | tail -n 1 | grep -Eo 'cid=[0-9]+')
	trace_expect server_post svcrdma_post_send "cq_id=[0-9]+ ${wcid:-no-write-chunk} num_sge" \
		"server: the last Write chunk's Writes ($wcid) are in a Reply's Send chain"
	bad=$(trace_lines server_post svcrdma_post_reply_chunk | grep -Evc " svcrdma_post_reply_chunk: $chunk")
	[ "$bad" = 0 ] && step_ok "server: svcrdma_post_reply_chunk lines, where any, have their fields" ||
		step_fail "server: $bad svcrdma_post_reply_chunk lines without their fields"
fi
# Each error event, with its fields (a header's CQ and buffer, or an
# error Reply's XID): under the hostile peer every one fired, with a
# well-behaved client none.
for e in $DECODE_ERRS svcrdma_err_vers svcrdma_err_chunk; do
	n=$(trace_lines server_err $e | grep -Ec " $e: (cq.id=[0-9]+ cid=-?[0-9]+ |xid=0x[0-9a-f]{8}\$)")
	if [ -e /share/hostile.strict ]; then
		[ "$n" -gt 0 ] && step_ok "server: $e fired for the hostile peer ($n)" ||
			step_fail "server: no $e line after the hostile peer"
	else
		[ "$n" = 0 ] && step_ok "server: no $e with a well-behaved client" ||
			step_fail "server: $n $e lines with a well-behaved client"
	fi
done
# Receives go back eight at a time, one chained post each: at least one
# post, and at most one per eight messages received.
recv=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_recv)
prod=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_rq_prod)
[ "$prod" -gt 0 ] 2>/dev/null && [ $((prod * 8)) -le "$recv" ] &&
	step_ok "server: Receives reposted in batches ($prod posts for $recv messages)" ||
	step_fail "server: rdma_stat_rq_prod '$prod' for rdma_stat_recv '$recv'"
# Only some Sends are signaled (one in 16, more when Replies with many
# RDMA Writes fill the tail room): at most one completion per two Sends.
sprod=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_sq_prod)
spoll=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_sq_poll)
[ "$spoll" -gt 0 ] 2>/dev/null && [ $((spoll * 2)) -le "$sprod" ] &&
	step_ok "server: Sends signaled selectively ($spoll completions for $sprod Sends)" ||
	step_fail "server: rdma_stat_sq_poll '$spoll' for rdma_stat_sq_prod '$sprod'"
# Every Call settled while nfsd still runs and the client is done: none
# waits on a live connection.  When not, nfsd's threads' stacks show
# where the rest wait: CI once saw a 6.12 client wait out its time-out
# with 13 more messages received than sent.
if got=$(settled 20); then
	set -- $got
	step_ok "server: every Call settled ($1 Calls: $2 answered, $3 dropped, $4 lost with their connection, $5 dropped by nfsd)"
else
	set -- $got
	for p in $(pgrep -x nfsd); do echo "nfsd $p:"; cat /proc/$p/stack; done
	step_fail "server: $1 Calls, $2 answered, $3 dropped, $4 lost with their connection, $5 dropped by nfsd: $(($1 - $2 - $3 - $4 - $5)) unsettled (nfsd's stacks in server.log)"
fi
# Inline READ Replies (the client read with rsize=1024) go from the
# pages: page pieces sent as SGEs of their own.
sges=$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_page_sges)
echo "server: rdma_stat_page_sges $sges rdma_stat_pull_up $(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_pull_up)"
if [ -e /share/inline-reads ]; then
	[ "$sges" -gt 0 ] 2>/dev/null && step_ok "server: inline Replies sent from their pages ($sges page SGEs)" ||
		step_fail "server: rdma_stat_page_sges is '$sges' after 1 KiB READs"
fi
# On 7.x, an nfsd of a container's namespace serving a mount from another
# one over RDMA, rpcrdmax on both ends (lib.sh); after the checks above,
# which its traffic would add to (the settled check below counts it).
netns_serve_rdma
step "server: rpc.nfsd 0" rpc.nfsd 0
step "server: RDMA resources back to $RES0 as rpc.nfsd 0 returns" rdma_res_back "$RES0" 0
# Every connection ended with each of its messages settled, and the
# whole run's counts add up (lib.sh, settled_step); Calls are lost with
# their connection only where the client made faults.
faults=no
{ [ -s "$WINDOWS/faults.begin" ] || battery_after || [ -e /share/hostile.strict ]; } && faults=yes
settled_step server $faults
step "server: rpcrdmax unloads" transport_unload rpcrdmax
dmesg | grep -i rpcrdmax | tail -n 20
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
