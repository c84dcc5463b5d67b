# SPDX-License-Identifier: GPL-2.0
# e2e package, client side.  This guest boots a root into which the host
# installed the rpcrdmax-dkms .deb (dpkg -i in a chroot: DKMS built the
# module for this kernel's headers; scripts/lib/rootfs.sh pkgroot_install).
# A plain NFS mount over RDMA must load rpcrdmax through the package's
# modprobe.d redirect; after "dpkg -r", the same mount must load the stock
# rpcrdma and read back the files written through rpcrdmax.
# The server guest is the stock one (baseline-server.sh).
. /share/lib.sh
set -u
K=/lib/modules/$(uname -r)
OPTS=rdma,port=20049,vers=4.2
step "client: rxe up" rxe_up
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

dkms_ko=$K/updates/dkms/rpcrdmax.ko
[ "$(modinfo -n rpcrdmax 2>&1)" = "$dkms_ko" ] &&
	step_ok "package: modinfo finds DKMS's module ($dkms_ko)" ||
	step_fail "package: modinfo -n rpcrdmax says '$(modinfo -n rpcrdmax 2>&1)'"

# only_loaded MODULE OTHER: MODULE is loaded and OTHER is not.
only_loaded() {
	grep -q "^$1 " /proc/modules || { echo "$1 is not loaded: $(cut -d' ' -f1 /proc/modules | grep rdma | tr '\n' ' ')"; return 1; }
	! grep -q "^$2 " /proc/modules || { echo "$2 is loaded too"; return 1; }
}

mkdir -p /mnt/nfs /tmp/src
for s in 0 1 4097 65537 1048577; do head -c "$s" /dev/urandom >"/tmp/src/f$s"; done
(cd /tmp/src && sha256sum f*) >/tmp/src.sha256

# ---- installed: the kernel's request for the transport loads rpcrdmax ---
if step "installed: mount -o $OPTS" mount -t nfs -o "$OPTS" 192.0.2.1:/export /mnt/nfs; then
	step "installed: the mount loaded rpcrdmax, not rpcrdma" only_loaded rpcrdmax rpcrdma
	step "installed: write files" sh -c 'mkdir -p /mnt/nfs/pkg && cp /tmp/src/f* /mnt/nfs/pkg/ && sync'
	step "installed: umount" umount /mnt/nfs
	step "installed: remount" mount -t nfs -o "$OPTS" 192.0.2.1:/export /mnt/nfs
	step "installed: sha256 after remount" sh -c 'cd /mnt/nfs/pkg && sha256sum -c --quiet /tmp/src.sha256'
	step "installed: umount again" umount /mnt/nfs
fi
step "installed: rpcrdmax unloads after umount" transport_unload rpcrdmax

# ---- removed: DKMS takes its module away, the stock module is back -------
step "remove: dpkg -r rpcrdmax-dkms" dpkg -r rpcrdmax-dkms
# (no modprobe.d file may still name rpcrdmax: a conffile under /etc
# would stay after "dpkg -r" and keep redirecting rpcrdma to nothing)
left=$(grep -rls rpcrdmax /etc/modprobe.d /lib/modprobe.d /usr/lib/modprobe.d 2>/dev/null | tr '\n' ' ')
[ ! -e "$dkms_ko" ] && [ -z "$left" ] && ! modinfo rpcrdmax >/dev/null 2>&1 &&
	step_ok "remove: the module and the redirect are gone, modinfo finds no rpcrdmax" ||
	step_fail "remove: left $(ls "$dkms_ko" 2>/dev/null) $left"
[ -z "$(dkms status rpcrdmax 2>&1)" ] && step_ok "remove: dkms status lists no rpcrdmax" ||
	step_fail "remove: dkms status: $(dkms status rpcrdmax 2>&1)"
if step "removed: mount -o $OPTS" mount -t nfs -o "$OPTS" 192.0.2.1:/export /mnt/nfs; then
	step "removed: the mount loaded the stock rpcrdma" only_loaded rpcrdma rpcrdmax
	step "removed: sha256 of the files rpcrdmax wrote, read through stock" \
		sh -c 'cd /mnt/nfs/pkg && sha256sum -c --quiet /tmp/src.sha256'
	step "removed: umount" umount /mnt/nfs
fi
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
