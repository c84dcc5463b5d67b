# SPDX-License-Identifier: GPL-2.0
# e2e, client side of a case that runs the battery in its own boot (one
# boot per pairing of transports): the case's own client script, named in
# /share/first-client, then battery-client.sh against the same server
# (lib.sh, battery_after).  Each prints its own STEP lines; the guest
# fails when either failed.
. /share/lib.sh
set -u
first=$(cat /share/first-client 2>/dev/null)
[ -n "$first" ] && [ -r "/share/$first" ] || { step_fail "client: no first script '$first' on the share"; exit 1; }
sh "/share/$first"
a=$?
# The server's trace checks look at the first script's traffic only.
touch /share/part1.done
# rpcrdmax-client.sh points sunrpc's "rpcrdma" at rpcrdmax; the battery
# loads the module it is told to itself.
rm -f /etc/modprobe.d/rpcrdmax.conf
sh /share/battery-client.sh
b=$?
[ "$a" = 0 ] && [ "$b" = 0 ]
