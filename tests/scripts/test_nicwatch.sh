#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/lib/nicwatch.sh: nic_verdict on made-up tap
# samples of a healthy pair, a slow reader, and each kind of stall.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
set -u
. "$(dirname "$0")/../../scripts/lib/nicwatch.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fails=0

# samples TAP RX TX DROP...: quadruples from t=5 on, 5 s apart, for TAP;
# tap0 (the other guest) moves steadily throughout.
samples() {
	local tap=$1 t=5 i=0; shift
	: >"$log"
	while [ $# -ge 3 ]; do
		echo "$t tap0 $((100 + i * 50)) $((100 + i * 50)) 0" >>"$log"
		echo "$t $tap $1 $2 $3" >>"$log"
		shift 3; t=$((t + 5)); i=$((i + 1))
	done
}
# repeat N RX TX DROP [dRX dTX dDROP]: N samples moving by the deltas
repeat() {
	local n=$1 rx=$2 tx=$3 drop=$4 i=0
	while [ $i -lt "$n" ]; do
		printf '%s %s %s ' $((rx + i * ${5:-0})) $((tx + i * ${6:-0})) $((drop + i * ${7:-0}))
		i=$((i + 1))
	done
}
expect() {
	local name=$1 want=$2 got
	got=$(nic_verdict "$log" tap1) || got=none
	case $got in
	"$want"*) echo "ok $name${got:+: $got}" ;;
	*) echo "FAIL $name: wanted '$want', got '$got'"; fails=$((fails + 1)) ;;
	esac
}

samples tap1 $(repeat 20 10 10 0 40 40 0)
expect "traffic both ways" none
samples tap1 $(repeat 20 10 10 0 40 40 3)
expect "a slow reader (drops, but reads go on)" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 6 170 170 0 0 0 0)
expect "both ways idle for 30 s" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 6 170 170 0 5 0 9)
expect "no reads for 25 s, drops" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 7 170 170 0 5 0 9)
expect "no reads for 30 s, drops" "receive side"
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 30 170 170 0 5 0 0)
expect "no reads for 150 s, no drops" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 12 170 170 0 0 2 0)
expect "nothing sent for 55 s, 22 packets handed in" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 13 170 170 0 0 2 0)
expect "nothing sent for 60 s, 24 packets handed in" "transmit side"
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 13 170 170 0 0 1 0)
expect "nothing sent for 60 s, 12 packets handed in" none
samples tap1 $(repeat 4 10 10 0 40 40 0) $(repeat 13 170 170 0 0 2 0) 171 196 0
expect "sent again after 60 s" none
: >"$log"
echo "5 tap0 1 1 0" >"$log"
expect "no samples of the tap" none
[ "$fails" -eq 0 ]
