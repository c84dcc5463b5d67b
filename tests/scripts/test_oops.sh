#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of oops_digest (scripts/lib/oops.sh), what a failed e2e case
# prints from a guest's console: a page fault in interrupt context (the
# shape of 6.12's report: the unwinder's "? ..." guesses and <IRQ> left
# out, six frames at most), a KASAN report, a panic with no report
# before it, and a console with no crash (nothing printed); and of
# module_errors: reports in rpcrdmax and its unsettled-messages warning,
# but not another module's report, a guessed frame, or its other warnings.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
. "$(dirname "$0")/../../scripts/lib/oops.sh"

# expect NAME FILE WANT [FN]: FN FILE (oops_digest by default) prints
# exactly WANT
expect() {
	local got
	got=$("${4:-oops_digest}" "$2")
	if [ "$got" = "$3" ]; then
		check "$1" 0
	else
		check "$1: got '$got'" 1
	fi
}

printf '%s\r\n' \
	'[  120.000001] rpcrdmax: loaded' \
	'[  127.701234] BUG: kernel NULL pointer dereference, address: 0000000000000008' \
	'[  127.701500] #PF: supervisor read access in kernel mode' \
	'[  127.701800] Oops: Oops: 0000 [#1] PREEMPT SMP NOPTI' \
	'[  127.701900] CPU: 1 UID: 0 PID: 0 Comm: swapper/1 Not tainted 6.12.1-amd64 #1' \
	'[  127.702100] RIP: 0010:rxe_mr_copy+0x5a/0x1e0 [rdma_rxe]' \
	'[  127.702300] RSP: 0018:ffffa3c0c00f8c48 EFLAGS: 00010246' \
	'[  127.703000] Call Trace:' \
	'[  127.703100]  <IRQ>' \
	'[  127.703200]  ? __die+0x23/0x70' \
	'[  127.703300]  ? page_fault_oops+0x17d/0x4c0' \
	'[  127.703600]  ? rxe_mr_copy+0x5a/0x1e0 [rdma_rxe]' \
	'[  127.703700]  rxe_responder+0x123/0x456 [rdma_rxe]' \
	'[  127.703800]  do_task+0x60/0x1f0 [rdma_rxe]' \
	'[  127.703900]  rxe_rcv+0x2d1/0x8f0 [rdma_rxe]' \
	'[  127.704000]  rxe_udp_encap_recv+0x6b/0xd0 [rdma_rxe]' \
	'[  127.704100]  udp_queue_rcv_one_skb+0x1b4/0x4d0' \
	'[  127.704200]  udp_unicast_rcv_skb+0x76/0x90' \
	'[  127.704300]  __udp4_lib_rcv+0x4a2/0xbd0' \
	'[  127.709000]  </IRQ>' \
	'[  127.709500] Kernel panic - not syncing: Fatal exception in interrupt' \
	'[  127.709600] BUG: a later line' >"$tmp/irq.console"
expect "page fault in interrupt: its first line, RIP and six sure frames" "$tmp/irq.console" \
	"BUG: kernel NULL pointer dereference, address: 0000000000000008
RIP: 0010:rxe_mr_copy+0x5a/0x1e0 [rdma_rxe]
trace: rxe_responder+0x123/0x456 [rdma_rxe] < do_task+0x60/0x1f0 [rdma_rxe] < rxe_rcv+0x2d1/0x8f0 [rdma_rxe] < rxe_udp_encap_recv+0x6b/0xd0 [rdma_rxe] < udp_queue_rcv_one_skb+0x1b4/0x4d0 < udp_unicast_rcv_skb+0x76/0x90"

cat >"$tmp/kasan.console" <<'EOF'
[   88.100000] ==================================================================
[   88.100100] BUG: KASAN: slab-use-after-free in rpcrdmax_ib_done+0x41/0x90 [rpcrdmax]
[   88.100200] Read of size 8 at addr ffff888012345678 by task kworker/u4:2/77
[   88.100300] CPU: 0 PID: 77 Comm: kworker/u4:2 Not tainted 6.1.0-debug #1
[   88.100400] Call Trace:
[   88.100500]  <TASK>
[   88.100600]  dump_stack_lvl+0x44/0x5c
[   88.100700]  kasan_report+0xb0/0xe0
[   88.100800]  rpcrdmax_ib_done+0x41/0x90 [rpcrdmax]
[   88.100900]  __ib_process_cq+0x8a/0x150 [ib_core]
[   88.101000]  </TASK>
[   88.101100] Allocated by task 70:
EOF
expect "KASAN report: no RIP, the frames up to </TASK>" "$tmp/kasan.console" \
	"BUG: KASAN: slab-use-after-free in rpcrdmax_ib_done+0x41/0x90 [rpcrdmax]
trace: dump_stack_lvl+0x44/0x5c < kasan_report+0xb0/0xe0 < rpcrdmax_ib_done+0x41/0x90 [rpcrdmax] < __ib_process_cq+0x8a/0x150 [ib_core]"

printf '%s\n' '[    5.0] rpcrdmax: loaded' '[    9.5] Kernel panic - not syncing: VFS: Unable to mount root fs' >"$tmp/panic.console"
expect "a panic alone: its line" "$tmp/panic.console" "Kernel panic - not syncing: VFS: Unable to mount root fs"

printf '%s\n' '[    5.0] rpcrdmax: loaded' '[    6.0] rpcrdmax-test: STEP ok' >"$tmp/clean.console"
expect "a clean console: nothing" "$tmp/clean.console" ""
expect "no console file: nothing" "$tmp/missing.console" ""

# emulator_fault: the EFLAGS of the two 6.12 guests that QEMU 7.2 ran into
# states no CPU can hold (servers of scripts/vm pairs with the stock
# rpcrdma, and with rpcrdmax and -cpu Nehalem); none in a real report.
D=$(dirname "$0")/data
# fault NAME FILE WANT: emulator_fault FILE prints WANT (or fails, for "")
fault() {
	local got rc=0
	got=$(emulator_fault "$2") || rc=$?
	local want_rc=0
	[ -n "$3" ] || want_rc=1
	if [ "$got" = "$3" ] && [ $((rc != 0)) = $want_rc ]; then
		check "$1" 0
	else
		check "$1: got '$got' (exit $rc)" 1
	fi
}
fault "emulator fault: TF and reserved bits on in the kernel (#DB, stock rpcrdma)" "$D/qemu-eflags-db.console" 7e401002
fault "emulator fault: a double fault with reserved bits on" "$D/qemu-eflags-df.console" 04e60202
printf '%s\n' '[ 1.0] RSP: 0018:ffffa3c0c00f8c48 EFLAGS: 00010246' '[ 1.1] RSP: 0018:ffffa3c0c00f8c48 EFLAGS: 00000282' >"$tmp/real.console"
fault "no emulator fault: the EFLAGS of real reports" "$tmp/real.console" ""
printf '%s\n' '[ 1.0] RSP: 0018:ffffa3c0c00f8c48 EFLAGS: 00000244' >"$tmp/bit1.console"
fault "emulator fault: bit 1 clear" "$tmp/bit1.console" 00000244
fault "no emulator fault: the page fault above" "$tmp/irq.console" ""
fault "no emulator fault: no console" "$tmp/missing.console" ""
# ---- module_errors ----
printf '%s\r\n' \
	'[   10.000001] rpcrdmax: Send failed: transport retry counter exceeded (vendor 0)' \
	'[   11.000001] WARNING: CPU: 0 PID: 9 at drivers/infiniband/sw/rxe/rxe_comp.c:100 rxe_completer+0x10/0x20 [rdma_rxe]' \
	'[   11.000002] Modules linked in: rpcrdmax(OE) rdma_rxe' \
	'[   11.000003] RIP: 0010:rxe_completer+0x10/0x20 [rdma_rxe]' \
	'[   11.000004] Call Trace:' \
	'[   11.000005]  ? rpcrdmax_ib_done+0x1/0x2 [rpcrdmax]' \
	'[   11.000006]  do_task+0x60/0x1f0 [rdma_rxe]' \
	'[   11.000007] ---[ end trace 0000000000000000 ]---' \
	'[   12.000001] WARNING: CPU: 1 PID: 7 at svcrdma/transport.cpp:1 rpcrdmax_svcc_destroy+0x1/0x2 [rpcrdmax]' \
	'[   12.000002] Call Trace:' \
	'[   12.000003]  process_one_work+0x1/0x2' \
	'[   12.000004] ---[ end trace 0000000000000000 ]---' \
	'[   13.000001] rpcrdmax: 192.0.2.2:40000: connection ended with 2 messages unsettled' \
	'[   14.000001] BUG: unable to handle page fault for address: 0000000000001234' \
	'[   14.000002] RIP: 0010:kmem_cache_alloc+0x1/0x2' \
	'[   14.000003] Call Trace:' \
	'[   14.000004]  rxe_alloc+0x1/0x2 [rdma_rxe]' \
	'[   14.000005]  rpcrdmax_post_send+0x1/0x2 [rpcrdmax]' >"$tmp/mod.console"
expect "module_errors: reports in rpcrdmax (not another's, not a guessed frame), unsettled messages" "$tmp/mod.console" \
"WARNING: CPU: 1 PID: 7 at svcrdma/transport.cpp:1 rpcrdmax_svcc_destroy+0x1/0x2 [rpcrdmax]
rpcrdmax: 192.0.2.2:40000: connection ended with 2 messages unsettled
BUG: unable to handle page fault for address: 0000000000001234" module_errors
printf '%s\r\n' '[    1.0] rpcrdmax: Receive failed: WR flushed' '[    2.0] Kernel panic - not syncing: Fatal exception' >"$tmp/quiet.console"
expect "module_errors: rpcrdmax's other warnings and another's panic are not its errors" "$tmp/quiet.console" "" module_errors
expect "module_errors: no console, nothing" "$tmp/none.console" "" module_errors

finish
