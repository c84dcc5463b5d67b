# SPDX-License-Identifier: GPL-2.0
# Where each cached artefact lives.  Every key names the versions and
# content hashes it was built from, so a change of either builds anew.
# Source after common.sh.
#
# RPCRDMAX_SUITE picks the Debian release of the guests and their kernel:
# bookworm (the default: Debian 12's current kernel, resolved from the
# host's apt lists), trixie (Debian 13's current kernel, 6.12, resolved
# from the trixie build root's apt lists: scripts/lib/trixie-root.sh; that
# root must exist, scripts/setup trixie-root) or trixie-backports (Debian
# 13 with the newest kernel of trixie-backports, 7.x, whose headers that
# root holds).  RPCRDMAX_ABI and RPCRDMAX_KVER are the kernel's ABI and
# its package version; RPCRDMAX_DIST is the guests' Debian release.

: "${RPCRDMAX_SUITE:=bookworm}"
# RPCRDMAX_GUEST_ARCH picks the guests' CPU: amd64 (the default), or
# arm64, emulated by qemu-system-aarch64, with Debian 12's arm64 kernel
# (resolved from the private apt state of scripts/lib/cross.sh).
: "${RPCRDMAX_GUEST_ARCH:=amd64}"
case $RPCRDMAX_GUEST_ARCH in
amd64) ;;
arm64) [ "$RPCRDMAX_SUITE" = bookworm ] || die "arm64 guests run Debian 12: not with RPCRDMAX_SUITE=$RPCRDMAX_SUITE" ;;
*) die "RPCRDMAX_GUEST_ARCH='$RPCRDMAX_GUEST_ARCH': amd64 or arm64" ;;
esac
case $RPCRDMAX_SUITE in
bookworm)
	RPCRDMAX_DIST=bookworm
	if [ "$RPCRDMAX_GUEST_ARCH" = arm64 ]; then
		. "$RPCRDMAX_TOP/scripts/lib/cross.sh"
		cross_apt_update arm64
		: "${RPCRDMAX_ABI:=$(cross_abi arm64)}"
		: "${RPCRDMAX_KVER:=$(cross_kver arm64 "$RPCRDMAX_ABI")}"
	fi
	: "${RPCRDMAX_ABI:=$(resolve_abi)}"
	: "${RPCRDMAX_KVER:=$(resolve_kver "$RPCRDMAX_ABI")}"
	;;
trixie | trixie-backports)
	# 6.12 is the root's linux-headers-amd64; 7.x the backports headers
	# installed beside it
	RPCRDMAX_DIST=trixie
	. "$RPCRDMAX_TOP/scripts/lib/trixie-root.sh"
	cache_ready "$(trixie_root_dir)" || die "no trixie build root yet (scripts/setup trixie-root)"
	rpcrdmax_abi_of=trixie_abi rpcrdmax_kver_of=trixie_kver rpcrdmax_which=
	[ "$RPCRDMAX_SUITE" = trixie ] || rpcrdmax_abi_of=bpo_abi rpcrdmax_kver_of=bpo_kver rpcrdmax_which="trixie-backports "
	: "${RPCRDMAX_ABI:=$($rpcrdmax_abi_of "$(trixie_root_dir)")}"
	[ -n "$RPCRDMAX_ABI" ] || die "no ${rpcrdmax_which}kernel headers in the trixie build root (scripts/setup trixie-root)"
	: "${RPCRDMAX_KVER:=$($rpcrdmax_kver_of "$(trixie_root_dir)" "$RPCRDMAX_ABI")}"
	;;
*) die "RPCRDMAX_SUITE='$RPCRDMAX_SUITE': bookworm, trixie or trixie-backports" ;;
esac

# Packages the guest root filesystem is bootstrapped with.
GUEST_PACKAGES="kmod,iproute2,rdma-core,ibverbs-utils,ibverbs-providers,rdmacm-utils,perftest,nfs-kernel-server,nfs-common,krb5-kdc,krb5-admin-server,fio,procps,util-linux,coreutils"
# scripts/bench --perf: the same guests with perf (linux-perf, which
# brings perl and python), in root filesystems of their own (the cache
# keys hash the list); make check never builds them.
[ -z "${RPCRDMAX_GUEST_PERF:-}" ] || GUEST_PACKAGES="$GUEST_PACKAGES,linux-perf"
# arm64 guests: the root holds their busybox (the initramfs's too),
# where amd64's comes from the host.
[ "$RPCRDMAX_GUEST_ARCH" = amd64 ] || GUEST_PACKAGES="$GUEST_PACKAGES,busybox-static"

guest_kernel_dir() { echo "$RPCRDMAX_CACHE/guest-kernel/$RPCRDMAX_ABI-$RPCRDMAX_KVER"; }

rootfs_base_dir() {
	local arch=
	[ "$RPCRDMAX_GUEST_ARCH" = amd64 ] || arch=-$RPCRDMAX_GUEST_ARCH
	echo "$RPCRDMAX_CACHE/rootfs-base/$RPCRDMAX_DIST$arch-$(printf '%s' "$GUEST_PACKAGES" | sha256sum | cut -c1-12)"
}

# rootfs_key: the guest images' key: kernel, packages, how they are made.
rootfs_key() {
	echo "$RPCRDMAX_ABI-$RPCRDMAX_KVER-$(printf '%s' "$GUEST_PACKAGES" |
		cat - "$RPCRDMAX_TOP/scripts/lib/rootfs.sh" "$RPCRDMAX_TOP/scripts/guest/init" |
		sha256sum | cut -c1-12)"
}

rootfs_image_dir() { echo "$RPCRDMAX_CACHE/rootfs/$(rootfs_key)"; }

# The KUnit and debug kernels are built from Debian 12's linux-source-6.1,
# whose version RPCRDMAX_KVER is only with RPCRDMAX_SUITE=bookworm.
kunit_kernel_dir() {
	[ "$RPCRDMAX_SUITE" = bookworm ] || die "the KUnit kernels are Debian 12's: not with RPCRDMAX_SUITE=$RPCRDMAX_SUITE"
	echo "$RPCRDMAX_CACHE/kunit-kernel/$RPCRDMAX_KVER-$(hash_of "$RPCRDMAX_TOP/kunit/kunit.config" "$RPCRDMAX_TOP/scripts/lib/kunit-kernel.sh")"
}

# The debug kernel: the KUnit kernel's config plus kunit/debug.config.
debug_kernel_dir() {
	[ "$RPCRDMAX_SUITE" = bookworm ] || die "the KUnit kernels are Debian 12's: not with RPCRDMAX_SUITE=$RPCRDMAX_SUITE"
	echo "$RPCRDMAX_CACHE/debug-kernel/$RPCRDMAX_KVER-$(hash_of "$RPCRDMAX_TOP/kunit/kunit.config" "$RPCRDMAX_TOP/kunit/debug.config" "$RPCRDMAX_TOP/scripts/lib/kunit-kernel.sh")"
}

# The package root (rootfs.sh: build_pkgroot), keyed like the image.
pkgroot_dir() { echo "$RPCRDMAX_CACHE/pkgroot/$(rootfs_key)"; }

# siw.ko (soft-iWARP), which Debian does not build: built out of tree
# from the guest kernel's own source (scripts/setup siw), keyed like the
# guest kernel and by how it is built.
siw_dir() {
	echo "$RPCRDMAX_CACHE/siw/$RPCRDMAX_ABI-$RPCRDMAX_KVER-$(hash_of "$RPCRDMAX_TOP/scripts/setup")"
}
