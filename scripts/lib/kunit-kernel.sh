# SPDX-License-Identifier: GPL-2.0
# Build the KUnit kernel: linux-source-6.1 of the guest kernel's version,
# `ARCH=x86_64 tinyconfig` plus kunit/kunit.config, compiled with ccache;
# and the debug kernel: the same plus kunit/debug.config, with the
# modules KUnit loads (its others by build_debug_modules).
# The tree stays in place (modules are built against it with KDIR=), so
# "atomic" here means: a directory without its .complete stamp is wiped
# and rebuilt, never used.

# build_kunit_kernel DIR [FRAGMENT]: the KUnit kernel in DIR, with
# FRAGMENT merged after kunit.config (the debug kernel).
build_kunit_kernel() {
	local dir=$1 frags=("$RPCRDMAX_TOP/kunit/kunit.config") tarball what=KUnit
	[ -z "${2:-}" ] || { frags+=("$2"); what=debug; }
	cache_ready "$dir" && return 0
	tarball=$(kernel_source_tarball "$RPCRDMAX_KVER")
	[ -r "$tarball" ] || die "$tarball missing (scripts/setup headers fetches it)"
	need_space "$RPCRDMAX_CACHE" 6
	rm -rf "$dir"
	mkdir -p "$dir"
	say "unpacking linux-source $RPCRDMAX_KVER"
	tar -C "$dir" -xJf "$tarball"
	mv "$dir"/linux-source-6.1 "$dir/src"
	mkdir -p "$dir/build"
	local mk=(make -s -C "$dir/src" O="$dir/build" ARCH=x86_64)
	"${mk[@]}" tinyconfig >/dev/null
	"$dir/src/scripts/kconfig/merge_config.sh" -m -O "$dir/build" \
		"$dir/build/.config" "${frags[@]}" >/dev/null
	"${mk[@]}" olddefconfig >/dev/null
	# Every symbol the fragments ask for (the last one's word for it)
	# must have survived olddefconfig.
	local line missing=()
	while read -r line; do
		grep -qx -- "$line" "$dir/build/.config" || missing+=("$line")
	done < <(cat "${frags[@]}" | grep '^CONFIG_.*=' | tac | sort -t= -k1,1 -u)
	[ ${#missing[@]} -eq 0 ] || die "$what config lost: ${missing[*]} (unmet dependencies in ${frags[*]#$RPCRDMAX_TOP/})"
	say "building the $what kernel (ccache in $RPCRDMAX_CACHE/ccache)"
	if [ "$what" = KUnit ]; then
		kernel_make "$dir" bzImage modules
	else
		# the debug kernel, and of its modules those KUnit loads
		kernel_make "$dir" bzImage
		kernel_make "$dir" "${KUNIT_DEBUG_MODULES[@]}"
		printf '%s\n' "${KUNIT_DEBUG_MODULES[@]}" >"$dir/build/modules.order"
		debug_modules_install "$dir"
	fi
	cache_mark "$dir"
}

# What KUnit loads of the debug kernel's modules (scripts/guest/kunit.sh:
# soft-RoCE, with what it needs, and sunrpc, which rpcrdmax_kunit.ko
# needs), built with the kernel.  The others (NFS, nfsd, bonding...),
# which only the e2e guests on this kernel load, are left to
# build_debug_modules: make check runs KUnit alone on it, and they took
# about 90 s of the two cores (Documentation/testing.rst, "Measured
# durations"), on set-up's critical path.
KUNIT_DEBUG_MODULES=(net/sunrpc/sunrpc.ko drivers/infiniband/sw/rxe/rdma_rxe.ko
	net/ipv4/udp_tunnel.ko net/ipv6/ip6_udp_tunnel.ko crypto/crc32_generic.ko)

# kernel_make DIR TARGET...: make in DIR's tree, with ccache, its output
# in DIR/build.log.
kernel_make() {
	local dir=$1
	shift
	# ccache's depend mode: a miss compiles once, where its default mode
	# runs the preprocessor first, to hash its output; that made a build
	# with an empty cache about a quarter slower (Documentation/testing.rst,
	# "Measured durations").
	CCACHE_DIR=$RPCRDMAX_CACHE/ccache CCACHE_BASEDIR=$dir CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1 \
		make -s -C "$dir/src" O="$dir/build" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" "$@" \
		>>"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "kernel build ($*) failed (log: $dir/build.log)"; }
}

# debug_modules_install DIR: the modules of DIR's modules.order into
# DIR/modroot, as the e2e and KUnit guests install them
# (scripts/guest/lib.sh), and the packed copy scripts/vm shares made
# again.
debug_modules_install() {
	local dir=$1
	rm -rf "$dir/modroot" "$dir/modshare"
	make -s -C "$dir/src" O="$dir/build" ARCH=x86_64 INSTALL_MOD_PATH="$dir/modroot" \
		INSTALL_MOD_STRIP=1 modules_install >>"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "debug kernel modules_install failed (log: $dir/build.log)"; }
}

# build_debug_modules DIR: every module of the debug kernel in DIR (built
# by build_kunit_kernel), for the e2e guests on it (scripts/e2e --debug).
build_debug_modules() {
	local dir=$1
	cache_ready "$dir" || die "no debug kernel in $dir yet (scripts/setup debug-kernel)"
	[ -e "$dir/.modules" ] && return 0
	say "building the debug kernel's modules (ccache in $RPCRDMAX_CACHE/ccache)"
	kernel_make "$dir" modules
	debug_modules_install "$dir"
	touch "$dir/.modules"
}
