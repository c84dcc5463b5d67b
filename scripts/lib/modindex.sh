# SPDX-License-Identifier: GPL-2.0
# The guests' module index (modules.dep and the rest of depmod's output)
# with rpcrdmax.ko installed in extra/, made on the host at native speed.
# Under TCG a guest's own depmod -a takes about 20 s (it reads every one
# of the kernel's ~4000 modules); scripts/e2e makes the index once a run
# and lib.sh's install_rpcrdmax copies it instead.  Source after
# common.sh and paths.sh.

# modindex_build KO OUT [MODROOT]: depmod's files for the guests' kernel
# with KO as extra/rpcrdmax.ko, into OUT (with OUT/abi, the kernel's
# release).  The modules are those of the guests' root image (Debian's
# kernel) or, with MODROOT, of that modules_install tree (the debug
# kernel, whose guests copy it in at boot).  Fails, leaving no OUT (not
# even an earlier one), when it cannot be made; the guests then run
# depmod themselves.
modindex_build() {
	local scratch rc
	rm -rf "$2"
	scratch=$(mktemp -d) || return 1
	modindex_make "$1" "$2" "${3:-}" "$scratch"
	rc=$?
	rm -rf "$scratch"
	[ $rc -eq 0 ] || rm -rf "$2"
	return $rc
}

# modindex_make KO OUT MODROOT SCRATCH: modindex_build's work, in SCRATCH.
modindex_make() {
	local ko=$1 out=$2 modroot=$3 scratch=$4 abi
	mkdir -p "$scratch/lib/modules" || return 1
	if [ -n "$modroot" ]; then
		abi=$(ls "$modroot/lib/modules" 2>/dev/null | head -n1)
		[ -n "$abi" ] && cp -a "$modroot/lib/modules/$abi" "$scratch/lib/modules/" || return 1
	else
		abi=$RPCRDMAX_ABI
		debugfs -R "rdump /lib/modules/$abi $scratch/lib/modules" \
			"$(rootfs_image_dir)/rootfs.img" >/dev/null 2>&1 &&
			[ -s "$scratch/lib/modules/$abi/modules.dep" ] || return 1
	fi
	mkdir -p "$scratch/lib/modules/$abi/extra" "$out" &&
		cp "$ko" "$scratch/lib/modules/$abi/extra/rpcrdmax.ko" &&
		depmod -b "$scratch" "$abi" &&
		grep -q '^extra/rpcrdmax\.ko:' "$scratch/lib/modules/$abi/modules.dep" &&
		cp "$scratch/lib/modules/$abi"/modules.* "$out/" &&
		echo "$abi" >"$out/abi"
}
