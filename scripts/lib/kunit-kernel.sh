# SPDX-License-Identifier: GPL-2.0
# Build the KUnit kernel: linux-source-6.1 of the guest kernel's version,
# `ARCH=x86_64 tinyconfig` plus kunit/kunit.config, compiled with ccache;
# and the debug kernel: the same plus kunit/debug.config.
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
	# ccache's depend mode: a miss compiles once, where its default mode
	# runs the preprocessor first, to hash its output; that made a build
	# with an empty cache about a quarter slower (Documentation/testing.rst,
	# "Measured durations").
	export CCACHE_DIR=$RPCRDMAX_CACHE/ccache CCACHE_BASEDIR=$dir CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
	"${mk[@]}" CC="ccache gcc" -j"$(nproc)" bzImage modules >"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "$what kernel build failed (log: $dir/build.log)"; }
	# The debug kernel's modules, as the e2e guests install them
	# (scripts/guest/lib.sh: debug_modules).
	if [ "$what" = debug ]; then
		"${mk[@]}" INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >>"$dir/build.log" 2>&1 ||
			{ tail -n 30 "$dir/build.log" >&2; die "debug kernel modules_install failed (log: $dir/build.log)"; }
	fi
	cache_mark "$dir"
}
