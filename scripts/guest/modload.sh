# SPDX-License-Identifier: GPL-2.0
# e2e: rpcrdmax.ko loads and unloads in the Debian guest kernel, and the
# only kernel messages it causes are the out-of-tree/unsigned taint lines
# and sunrpc's own notes that a transport was (un)registered.
# Its dependencies (ib_core, rdma_cm) are loaded before the log is cleared.
# It is installed by scripts/install (make install) first and uninstalled
# last; in between, the names the kernel asks for must load it.
. /share/lib.sh
set -u
# Let boot-time messages (eth0 coming up) land before the log is cleared.
end=$(deadline 10)
while before $end && ! dmesg | grep -q 'eth0: link becomes ready'; do sleep 0.1; done
# Installed by make install's script, as an administrator would
# (/share/install is scripts/install): updates/, the modprobe.d redirect,
# depmod.  Uninstalled at the end.
K=/lib/modules/$(uname -r)
step "install: scripts/install" sh /share/install --module /share/rpcrdmax.ko
[ -f $K/updates/rpcrdmax.ko ] && grep -q '^install rpcrdma .*rpcrdmax' /etc/modprobe.d/rpcrdmax.conf &&
	step_ok "install: updates/rpcrdmax.ko and the modprobe.d redirect are in place" ||
	step_fail "install: $(ls $K/updates /etc/modprobe.d 2>&1 | tr '\n' ' ')"
step "load dependencies" modprobe -a sunrpc ib_core rdma_cm
dmesg -C
step "modprobe rpcrdmax" modprobe rpcrdmax
dmesg | grep -q 'RPC: Registered rdma transport module' &&
	step_ok "the rdma client transport is registered" ||
	step_fail "sunrpc reported no rdma transport registration"
grep -q '^rpcrdmax ' /proc/modules && step_ok "rpcrdmax listed in /proc/modules" ||
	step_fail "rpcrdmax not in /proc/modules"
grep -q '^rdma ' /proc/sys/sunrpc/transports && [ -d /proc/sys/sunrpc/svc_rdma ] &&
	step_ok "the rdma server class and /proc/sys/sunrpc/svc_rdma are registered" ||
	step_fail "no server class or svc_rdma sysctls: $(cat /proc/sys/sunrpc/transports)"
# The server's backchannel (nfsd's NFSv4.1+ callback client) is a client
# transport class of its own.
dmesg | grep -q 'RPC: Registered rdma backchannel transport module' &&
	step_ok "the rdma backchannel class is registered" ||
	step_fail "sunrpc reported no rdma backchannel registration"
step "rmmod rpcrdmax" rmmod rpcrdmax
grep -q '^rpcrdmax ' /proc/modules && step_fail "rpcrdmax still loaded" ||
	step_ok "rpcrdmax gone from /proc/modules"
n=$(dmesg | grep -c 'RPC: Registered rdma transport module')
step "modprobe again with client=0" modprobe rpcrdmax client=0
[ "$(dmesg | grep -c 'RPC: Registered rdma transport module')" = "$n" ] &&
	step_ok "client=0 registers no transport" ||
	step_fail "client=0 still registered the rdma transport"
step "rmmod again" rmmod rpcrdmax
nb=$(dmesg | grep -c 'RPC: Registered rdma backchannel transport module')
step "modprobe with server=0" modprobe rpcrdmax server=0
[ "$(dmesg | grep -c 'RPC: Registered rdma backchannel transport module')" = "$nb" ] &&
	step_ok "server=0 registers no backchannel class" ||
	step_fail "server=0 still registered the rdma backchannel class"
! grep -q '^rdma ' /proc/sys/sunrpc/transports && [ ! -e /proc/sys/sunrpc/svc_rdma ] &&
	[ -d /proc/sys/sunrpc ] && [ -e /proc/sys/sunrpc/rdma_max_inline_read ] &&
	step_ok "server=0 registers no server class, the client's sysctls stay" ||
	step_fail "server=0: transports '$(cat /proc/sys/sunrpc/transports)'"
step "rmmod after server=0" rmmod rpcrdmax
! grep -q '^rdma ' /proc/sys/sunrpc/transports && [ ! -e /proc/sys/sunrpc/svc_rdma ] &&
	step_ok "unload withdraws the server class and sysctls" ||
	step_fail "after unload: transports '$(cat /proc/sys/sunrpc/transports)'"
extra=$(dmesg | grep -vE 'loading out-of-tree module taints kernel|module verification failed: signature and/or required key missing - tainting kernel|RPC: (Registered|Unregistered) rdma (backchannel )?transport module\.')
if [ -z "$extra" ]; then
	step_ok "no kernel messages beyond the taint lines"
else
	step_fail "unexpected kernel messages: $extra"
fi
# With the stock module loaded, rpcrdmax refuses to load and says why;
# the stock module keeps its registrations.
step "modprobe the stock rpcrdma (past the redirect)" modprobe --ignore-install rpcrdma
dmesg -C
if modprobe rpcrdmax 2>/dev/null; then
	step_fail "rpcrdmax loaded beside the stock rpcrdma"
else
	step_ok "rpcrdmax refuses to load beside the stock rpcrdma"
fi
dmesg | grep -q 'rpcrdmax: cannot register .*is rpcrdma loaded?' &&
	step_ok "the refusal names the stock module" ||
	step_fail "no 'is rpcrdma loaded?' message: $(dmesg | tail -n 3 | tr '\n' ' ')"
step "the refusal logs no trace" kernel_log_clean
grep -q '^rdma ' /proc/sys/sunrpc/transports && [ -d /proc/sys/sunrpc/svc_rdma ] &&
	step_ok "the stock module's server class and sysctls stay" ||
	step_fail "the stock registrations are gone: $(cat /proc/sys/sunrpc/transports)"
step "rmmod the stock rpcrdma" rmmod rpcrdma

# ---- the names the kernel asks for, installed and uninstalled ----------
# "rpcrdma" and "xprtrdma" (sunrpc, for a mount) and "svcrdma" (nfsd, for
# an rdma listener) load rpcrdmax while it is installed, and the stock
# module once it is uninstalled.
# loads NAME MODULE OTHER: modprobe NAME loads MODULE and not OTHER
loads() {
	modprobe "$1" || return 1
	grep -q "^$2 " /proc/modules || { echo "$2 not loaded"; return 1; }
	! grep -q "^$3 " /proc/modules || { echo "$3 loaded too"; return 1; }
	modprobe -r "$2"
}
for name in rpcrdma xprtrdma svcrdma; do
	step "install: modprobe $name loads rpcrdmax" loads $name rpcrdmax rpcrdma
done
if sh /share/install --kver ../x --module /share/rpcrdmax.ko 2>/tmp/install.err; then
	step_fail "install: --kver ../x accepted"
else
	step_ok "install: refuses --kver ../x ($(cat /tmp/install.err))"
fi
step "uninstall: scripts/install --uninstall" sh /share/install --uninstall
[ ! -e $K/updates/rpcrdmax.ko ] && [ ! -e /etc/modprobe.d/rpcrdmax.conf ] && ! modinfo rpcrdmax >/dev/null 2>&1 &&
	step_ok "uninstall: the module and the redirect are gone, modinfo finds no rpcrdmax" ||
	step_fail "uninstall: left $(ls $K/updates /etc/modprobe.d/rpcrdmax.conf 2>/dev/null | tr '\n' ' ')"
for name in rpcrdma svcrdma; do
	step "uninstall: modprobe $name loads the stock module again" loads $name rpcrdma rpcrdmax
done
if sh /share/install --uninstall 2>/tmp/install.err; then
	step_fail "uninstall: a second uninstall claimed success"
else
	step_ok "uninstall: a second one says so ($(cat /tmp/install.err))"
fi
step "install and uninstall log no trace" kernel_log_clean
exit $STEP_FAILS
