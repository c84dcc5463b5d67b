# SPDX-License-Identifier: GPL-2.0
# Where each cached artefact lives.  Every key names the versions and
# content hashes it was built from, so a change of either builds anew.
# Source after common.sh; needs RPCRDMAX_ABI and RPCRDMAX_KVER.

: "${RPCRDMAX_ABI:=$(resolve_abi)}"
: "${RPCRDMAX_KVER:=$(resolve_kver "$RPCRDMAX_ABI")}"

# Packages the guest root filesystem is bootstrapped with.
GUEST_PACKAGES="kmod,iproute2,rdma-core,ibverbs-utils,ibverbs-providers,rdmacm-utils,perftest,nfs-kernel-server,nfs-common,krb5-kdc,krb5-admin-server,fio,procps,util-linux,coreutils"
# scripts/bench --perf: the same guests with perf (linux-perf, which
# brings perl and python), in root filesystems of their own (the cache
# keys hash the list); make check never builds them.
[ -z "${RPCRDMAX_GUEST_PERF:-}" ] || GUEST_PACKAGES="$GUEST_PACKAGES,linux-perf"

guest_kernel_dir() { echo "$RPCRDMAX_CACHE/guest-kernel/$RPCRDMAX_ABI-$RPCRDMAX_KVER"; }

rootfs_base_dir() {
	echo "$RPCRDMAX_CACHE/rootfs-base/bookworm-$(printf '%s' "$GUEST_PACKAGES" | sha256sum | cut -c1-12)"
}

# rootfs_key: the guest images' key: kernel, packages, how they are made.
rootfs_key() {
	echo "$RPCRDMAX_ABI-$RPCRDMAX_KVER-$(printf '%s' "$GUEST_PACKAGES" |
		cat - "$RPCRDMAX_TOP/scripts/lib/rootfs.sh" "$RPCRDMAX_TOP/scripts/guest/init" |
		sha256sum | cut -c1-12)"
}

rootfs_image_dir() { echo "$RPCRDMAX_CACHE/rootfs/$(rootfs_key)"; }

kunit_kernel_dir() {
	echo "$RPCRDMAX_CACHE/kunit-kernel/$RPCRDMAX_KVER-$(hash_of "$RPCRDMAX_TOP/kunit/kunit.config" "$RPCRDMAX_TOP/scripts/lib/kunit-kernel.sh")"
}

# The debug kernel (issue 14): the KUnit kernel's config plus kunit/debug.config.
debug_kernel_dir() {
	echo "$RPCRDMAX_CACHE/debug-kernel/$RPCRDMAX_KVER-$(hash_of "$RPCRDMAX_TOP/kunit/kunit.config" "$RPCRDMAX_TOP/kunit/debug.config" "$RPCRDMAX_TOP/scripts/lib/kunit-kernel.sh")"
}

# The package root (rootfs.sh: build_pkgroot), keyed like the image.
pkgroot_dir() { echo "$RPCRDMAX_CACHE/pkgroot/$(rootfs_key)"; }
