# SPDX-License-Identifier: GPL-2.0
# Helpers for guest-side test scripts (sourced from /share/lib.sh).
# Every check prints "STEP ok NAME" or "STEP FAIL NAME: why"; the host
# counts those lines.

STEP_FAILS=0

step_ok() { echo "STEP ok $*"; }
step_fail() { echo "STEP FAIL $*"; STEP_FAILS=$((STEP_FAILS + 1)); }

# step NAME CMD...: run CMD, record the outcome under NAME.
step() {
	local name=$1 out; shift
	if out=$("$@" 2>&1); then
		step_ok "$name"
	else
		step_fail "$name: $(printf '%s' "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# wait_for FILE SECONDS: poll the share for a flag file.
wait_for() {
	local f=$1 n=$(($2 * 10))
	while [ ! -e "$f" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	[ -e "$f" ]
}

rxe_up() {
	modprobe rdma_rxe || return 1
	rdma link add rxe0 type rxe netdev eth0 || return 1
	local n=50
	while [ $n -gt 0 ]; do
		rdma link show rxe0/1 2>/dev/null | grep -q 'state ACTIVE' && return 0
		sleep 0.1; n=$((n - 1))
	done
	return 1
}

# Kernel messages that mean something went wrong.
kernel_log_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection fault|Call Trace:|UBSAN:|refcount_t:'
}

# Install /share/rpcrdmax.ko as a user would (extra/ + depmod), so that
# modprobe pulls in ib_core and rdma_cm.
install_rpcrdmax() {
	mkdir -p "/lib/modules/$(uname -r)/extra" &&
		cp /share/rpcrdmax.ko "/lib/modules/$(uname -r)/extra/" &&
		depmod -a
}
