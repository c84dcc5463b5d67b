# SPDX-License-Identifier: GPL-2.0
# The guest root filesystem, in two cached layers:
#  - base: `debootstrap --variant=minbase` of the guests' Debian release
#    (RPCRDMAX_DIST: bookworm, or trixie for 6.12 and 7.x) with the guest packages
#    (slow; keyed by the release and the package list);
#  - image: base + the guest kernel's modules (depmod'ed) + our init, as an
#    ext4 image, plus a small busybox initramfs that loads the storage
#    modules the Debian kernel needs to mount it (fast; keyed by kernel
#    version and the content of this file and scripts/guest/init).
# Both are made in a temporary folder and renamed into place when complete.
# A third, the package root, is for e2e's package case: the
# guest tree plus what DKMS needs to build rpcrdmax for the guest kernel.

build_rootfs_base() {
	local dir=$1 tmp
	cache_ready "$dir" && return 0
	need_space "$RPCRDMAX_CACHE" 4
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.rootfs-base.XXXXXX")
	debootstrap_tree "$RPCRDMAX_DIST" "$GUEST_PACKAGES" "$tmp"
	# The guests never fetch packages; keep the image small.
	rm -rf "$tmp"/tree/var/cache/apt/archives/*.deb "$tmp"/tree/var/lib/apt/lists/*
	cache_mark "$tmp"
	mkdir -p "${dir%/*}"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

# Modules the Debian kernel needs before it can mount the root image.
ROOTFS_EARLY_MODULES="virtio_pci virtio_blk ext4"

# rootfs_guest_tree TREE GK: make a bootstrapped TREE a guest's root: the
# guest kernel's modules (depmod'ed), our init, busybox.
rootfs_guest_tree() {
	local tree=$1 gk=$2 abi=$RPCRDMAX_ABI
	mkdir -p "$tree/lib/modules"
	cp -a "$gk/lib/modules/$abi" "$tree/lib/modules/"
	# Debian 13's modules are xz-compressed.  Under TCG a guest's depmod
	# (scripts/install runs it) and modprobe spent most of a case
	# decompressing them (6.12 modload: 64 s against 6.1's 38), so the
	# guests get them plain.
	find "$tree/lib/modules/$abi" -name '*.ko.xz' -print0 |
		xargs -0 -r -n 100 -P "$(nproc)" xz -d
	depmod -b "$tree" "$abi"
	install -m 0755 "$RPCRDMAX_TOP/scripts/guest/init" "$tree/sbin/rpcrdmax-init"
	# amd64: the host's; another CPU's root has its own (paths.sh)
	[ "$RPCRDMAX_GUEST_ARCH" != amd64 ] || install -m 0755 /bin/busybox "$tree/bin/busybox"
	echo rpcrdmax-guest >"$tree/etc/hostname"
	: >"$tree/etc/fstab"
	# NFS exports and server options used by the tests live on the 9p
	# share; the image only needs somewhere to export from.
	mkdir -p "$tree/export" "$tree/share"
}

# rootfs_mkimage TREE IMG: an ext4 image of TREE with 1 GiB to spare.
rootfs_mkimage() {
	local kb
	kb=$(du -sk "$1" | cut -f1)
	mke2fs -q -t ext4 -L rpcrdmax-root -d "$1" "$2" "$(( kb * 13 / 10 + 1024 * 1024 ))k"
}

build_rootfs_image() {
	local dir=$1 base=$2 gk=$3 tmp m k abi=$RPCRDMAX_ABI
	cache_ready "$dir" && return 0
	cache_ready "$base" || die "rootfs base missing: $base"
	cache_ready "$gk" || die "guest kernel missing: $gk"
	need_space "$RPCRDMAX_CACHE" 4
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.rootfs.XXXXXX")
	say "assembling the guest image ($abi)"
	cp -a "$base/tree" "$tmp/tree"
	rootfs_guest_tree "$tmp/tree" "$gk"
	rootfs_mkimage "$tmp/tree" "$tmp/rootfs.img" || { rm -rf "$tmp"; die "mke2fs failed"; }

	# initramfs: busybox + the early modules in dependency order.
	mkdir -p "$tmp/initrd/bin" "$tmp/initrd/lib/modules" "$tmp/initrd/dev" \
		"$tmp/initrd/proc" "$tmp/initrd/sys" "$tmp/initrd/newroot"
	if [ "$RPCRDMAX_GUEST_ARCH" = amd64 ]; then
		cp /bin/busybox "$tmp/initrd/bin/busybox"
	else
		cp "$base/tree/bin/busybox" "$tmp/initrd/bin/busybox"
	fi
	: >"$tmp/initrd/modules.list"
	# One modprobe call per module: further words would be module options.
	for m in $(for e in $ROOTFS_EARLY_MODULES; do
			modprobe -d "$gk" -S "$abi" --show-depends "$e"
		done | awk '$1 == "insmod" {print $2}'); do
		# Debian 13's modules are xz-compressed: busybox gets plain ones
		k=${m##*/} k=${k%.xz}
		grep -qx "$k" "$tmp/initrd/modules.list" && continue
		case $m in
		*.xz) xz -dc "$m" >"$tmp/initrd/lib/modules/$k" ;;
		*) cp "$m" "$tmp/initrd/lib/modules/" ;;
		esac
		echo "$k" >>"$tmp/initrd/modules.list"
	done
	cat >"$tmp/initrd/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
while read m; do /bin/busybox insmod /lib/modules/$m || echo "initrd: insmod $m failed"; done </modules.list
i=0
while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do /bin/busybox sleep 0.1; i=$((i + 1)); done
/bin/busybox mount -t ext4 /dev/vda /newroot || { echo "initrd: cannot mount /dev/vda"; /bin/busybox poweroff -f; }
/bin/busybox umount /proc /sys
/bin/busybox mount --move /dev /newroot/dev
exec /bin/busybox switch_root /newroot /sbin/rpcrdmax-init
INIT
	chmod +x "$tmp/initrd/init"
	(cd "$tmp/initrd" && find . | cpio -o -H newc --quiet | gzip -1 >"$tmp/initrd.img")
	rm -rf "$tmp/tree" "$tmp/initrd"
	cache_mark "$tmp"
	mkdir -p "${dir%/*}"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

# What DKMS needs to build rpcrdmax in the package root: dkms, the guest
# kernel's own headers (its exact package version) and the release's
# default C++ compiler, which is the one Debian built that kernel with
# (the package depends on g++ for that reason).
pkgroot_packages() {
	echo "dkms linux-headers-$RPCRDMAX_ABI=$RPCRDMAX_KVER g++ make"
}

# build_pkgroot DIR BASE GK: the package root, cached as a tree: the guest
# tree (rootfs_guest_tree) plus pkgroot_packages, installed with this
# box's apt sources in a chroot.  No rpcrdmax in it: e2e's package case
# installs the .deb into a copy (pkgroot_install).
build_pkgroot() {
	local dir=$1 base=$2 gk=$3 tmp
	cache_ready "$dir" && return 0
	cache_ready "$base" || die "rootfs base missing: $base"
	cache_ready "$gk" || die "guest kernel missing: $gk"
	need_space "$RPCRDMAX_CACHE" 4
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.pkgroot.XXXXXX")
	say "assembling the package root: the guest tree + $(pkgroot_packages)"
	[ "$RPCRDMAX_GUEST_ARCH" = amd64 ] || foreign_binfmt "$RPCRDMAX_GUEST_ARCH"
	cp -a "$base/tree" "$tmp/tree"
	rootfs_guest_tree "$tmp/tree" "$gk"
	copy_apt_config "$tmp/tree"
	cp /etc/resolv.conf "$tmp/tree/etc/resolv.conf"
	if ! in_chroot "$tmp/tree" /bin/sh -c "apt-get update &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(pkgroot_packages)" \
		>"$tmp/apt.log" 2>&1; then
		tail -n 20 "$tmp/apt.log" >&2
		rm -rf "$tmp"
		die "cannot install $(pkgroot_packages) in the package root"
	fi
	# (the tree's build link is absolute: look where it points in the tree)
	[ -e "$tmp/tree/usr/src/linux-headers-$RPCRDMAX_ABI/Makefile" ] ||
		{ rm -rf "$tmp"; die "the package root has no headers for $RPCRDMAX_ABI"; }
	rm -rf "$tmp"/tree/var/cache/apt/archives/*.deb "$tmp"/tree/var/lib/apt/lists/*
	cache_mark "$tmp"
	mkdir -p "${dir%/*}"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

# pkgroot_install PKGROOT DEB OUT: install DEB into a copy of the package
# root as an administrator would (dpkg -i: its postinst has DKMS build and
# install the module for the guest kernel's headers), check the result
# from the host, and make the copy the ext4 image OUT/client-rootfs.img.
# Prints STEP lines (scripts/e2e counts them); returns 1 when there is no
# image to boot.
pkgroot_install() {
	local pkgroot=$1 deb=$2 out=$3 tree abi=$RPCRDMAX_ABI ko st vm rc=0 cpu
	tree=$out/tree
	cpu=$(cpu_name "$RPCRDMAX_GUEST_ARCH")
	# another CPU's chroot programs (DKMS's compiler) run under qemu-user
	[ "$RPCRDMAX_GUEST_ARCH" = amd64 ] || foreign_binfmt "$RPCRDMAX_GUEST_ARCH"
	rm -rf "$tree"
	cp -a "$pkgroot/tree" "$tree"
	cp "$deb" "$tree/tmp/"
	if in_chroot "$tree" dpkg -i "/tmp/${deb##*/}" >"$out/dpkg-install.log" 2>&1; then
		echo "STEP ok package: dpkg -i ${deb##*/} in a Debian 12 root with dkms and the $abi headers"
	else
		echo "STEP FAIL package: dpkg -i ${deb##*/}: $(tail -n 3 "$out/dpkg-install.log" | tr '\n' ' ')"
		rc=1
	fi
	st=$(in_chroot "$tree" dkms status rpcrdmax 2>&1)
	case $st in
	*", $abi, $cpu: installed"*) echo "STEP ok package: dkms status: $st" ;;
	*) echo "STEP FAIL package: dkms status says '$st', not installed for $abi"; rc=1 ;;
	esac
	ko=$tree/lib/modules/$abi/updates/dkms/rpcrdmax.ko
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	[ "$vm" = "$abi" ] &&
		echo "STEP ok package: DKMS built updates/dkms/rpcrdmax.ko for the headers installed ($vm)" ||
		{ echo "STEP FAIL package: no module for $abi at updates/dkms (vermagic '$vm')"; rc=1; }
	grep -q '^install rpcrdma .*rpcrdmax' "$tree/lib/modprobe.d/rpcrdmax.conf" 2>/dev/null &&
		echo "STEP ok package: /lib/modprobe.d/rpcrdmax.conf redirects rpcrdma" ||
		{ echo "STEP FAIL package: no redirect in /lib/modprobe.d/rpcrdmax.conf"; rc=1; }
	rm -f "$tree/tmp/${deb##*/}"
	if [ $rc -eq 0 ]; then
		rootfs_mkimage "$tree" "$out/client-rootfs.img" ||
			{ echo "STEP FAIL package: mke2fs of the package root"; rc=1; }
	fi
	rm -rf "$tree"
	return $rc
}
