# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/vm: whether a guest's tap counters show a NIC stall.
# Plain data in, a verdict out, so tests/scripts/test_nicwatch.sh can feed
# it recorded and made-up samples.

# nic_verdict LOG TAP: LOG has one sample per line, "T TAP RX TX TXDROP"
# (T seconds into the run; RX packets QEMU wrote from the guest, TX
# packets QEMU read for it, TXDROP packets for it the tap dropped, all
# as the host's tap device counts them).  Prints what shows a stall of
# TAP's guest at the last sample and succeeds, or fails:
#  - receive side: TX has not moved for 30 s or more while TXDROP grew
#    in that time (the tap's queue is full: QEMU stopped reading, it is
#    not merely slow);
#  - transmit side: RX has not moved for 60 s or more while TX grew by
#    20 or more in that time (the guest was handed packets and sent
#    nothing back, not even an ACK or an ARP reply).
nic_verdict() {
	awk -v tap="$2" '
	$2 == tap {
		if ($3 != rx) { rx = $3; rx_t = $1; rx_tx = $4 }
		if ($4 != tx) { tx = $4; tx_t = $1; tx_drop = $5 }
		t = $1; drop = $5; n++
	}
	END {
		if (!n) exit 1
		if (t - tx_t >= 30 && drop > tx_drop) {
			printf "receive side: QEMU read nothing for the guest from %s in %d s while the tap dropped %d packets for it\n", tap, t - tx_t, drop - tx_drop
			exit 0
		}
		if (t - rx_t >= 60 && tx - rx_tx >= 20) {
			printf "transmit side: QEMU wrote nothing from the guest to %s in %d s while it read %d packets for it\n", tap, t - rx_t, tx - rx_tx
			exit 0
		}
		exit 1
	}' "$1"
}
