# SPDX-License-Identifier: GPL-2.0
# Build the KUnit kernel: linux-source-6.1 of the guest kernel's version,
# `ARCH=x86_64 tinyconfig` plus kunit/kunit.config, compiled with ccache.
# The tree stays in place (modules are built against it with KDIR=), so
# "atomic" here means: a directory without its .complete stamp is wiped
# and rebuilt, never used.

build_kunit_kernel() {
	local dir=$1 frag=$RPCRDMAX_TOP/kunit/kunit.config tarball
	cache_ready "$dir" && return 0
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -r "$tarball" ] || die "$tarball missing (package linux-source-6.1=$RPCRDMAX_KVER)"
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
		"$dir/build/.config" "$frag" >/dev/null
	"${mk[@]}" olddefconfig >/dev/null
	# Every symbol the fragment asks for must have survived olddefconfig.
	local line sym missing=()
	while read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		grep -qx -- "$line" "$dir/build/.config" || missing+=("$line")
	done <"$frag"
	[ ${#missing[@]} -eq 0 ] || die "KUnit config lost: ${missing[*]} (unmet dependencies in kunit/kunit.config)"
	say "building the KUnit kernel (ccache in $RPCRDMAX_CACHE/ccache)"
	export CCACHE_DIR=$RPCRDMAX_CACHE/ccache CCACHE_BASEDIR=$dir CCACHE_NOHASHDIR=1
	"${mk[@]}" CC="ccache gcc" -j"$(nproc)" bzImage modules >"$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "KUnit kernel build failed (log: $dir/build.log)"; }
	cache_mark "$dir"
}
