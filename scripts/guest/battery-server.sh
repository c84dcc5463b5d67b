# SPDX-License-Identifier: GPL-2.0
# e2e battery, server side: the NFS/RDMA server with the transport named in
# /share/battery.env (BATTERY_SERVER_MODULE=stock|rpcrdmax), exporting a
# tmpfs with a 1 MiB maximum block size, until the client says it is done.
# Then nfsd stops, the transport module must unload and the kernel log
# must be clean.
. /share/lib.sh
set -u
BATTERY_SERVER_MODULE=stock
[ -r /share/battery.env ] && . /share/battery.env
MOD=$BATTERY_SERVER_MODULE
fail_out() { touch /share/server.failed; wait_for /share/client.done 1800; step "server: kernel log clean" kernel_log_clean; exit 1; }

step "server: rxe up" rxe_up
if ! out=$(transport_load server "$MOD" 2>&1); then
	step_fail "server: load transport $MOD: $out"
	fail_out
fi
step_ok "server: load transport $MOD"
step "server: load nfsd" modprobe nfsd
nfs_export 1536m
battery_nfsd_tunables
step "server: rpc.nfsd" rpc.nfsd 8
if ! out=$(sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist' 2>&1); then
	step_fail "server: rdma listener ($MOD): $out"
	fail_out
fi
step_ok "server: rdma listener ($MOD)"
grep -q rdma /proc/fs/nfsd/portlist && step_ok "server: portlist has rdma" || step_fail "server: portlist has no rdma"
# The client's callbacks stage: a delegation recalled before and after a
# reconnect (lib.sh).
deleg_server_round cb1 cb/f1
deleg_server_round cb2 cb/f2
touch /share/server.ready
wait_for /share/client.done 3600 || step_fail "server: client never finished"
deleg_server_round_check cb1
deleg_server_round_check cb2
bc_dropped_zero
rpc.nfsd 0
exportfs -ua 2>/dev/null
# rpcrdmax: every message settled (lib.sh); the battery removes the
# client's device under a mount, so Calls may be lost with it.
[ "$MOD" != rpcrdmax ] || settled_step server yes
step "server: $(transport_kmod "$MOD") unloads after nfsd stops" transport_unload "$MOD"
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
