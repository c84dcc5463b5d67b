# SPDX-License-Identifier: GPL-2.0
# The guest root filesystem, in two cached layers:
#  - base: `debootstrap --variant=minbase bookworm` with the guest packages
#    (slow; keyed by the package list);
#  - image: base + the guest kernel's modules (depmod'ed) + our init, as an
#    ext4 image, plus a small busybox initramfs that loads the storage
#    modules the Debian kernel needs to mount it (fast; keyed by kernel
#    version and the content of this file and scripts/guest/init).
# Both are made in a temporary folder and renamed into place when complete.

build_rootfs_base() {
	local dir=$1 tmp mirror
	cache_ready "$dir" && return 0
	need_space "$RPCRDMAX_CACHE" 4
	mirror=$(apt_mirror)
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.rootfs-base.XXXXXX")
	say "debootstrap bookworm (minbase + $GUEST_PACKAGES)"
	if ! debootstrap --variant=minbase --include="$GUEST_PACKAGES" bookworm "$tmp/tree" \
		"$mirror" >"$tmp/debootstrap.log" 2>&1; then
		tail -n 20 "$tmp/debootstrap.log" >&2
		rm -rf "$tmp"
		die "debootstrap failed"
	fi
	# The guests never fetch packages; keep the image small.
	rm -rf "$tmp"/tree/var/cache/apt/archives/*.deb "$tmp"/tree/var/lib/apt/lists/*
	cache_mark "$tmp"
	mkdir -p "${dir%/*}"
	rm -rf "$dir"
	mv "$tmp" "$dir"
}

# Modules the Debian kernel needs before it can mount the root image.
ROOTFS_EARLY_MODULES="virtio_pci virtio_blk ext4"

build_rootfs_image() {
	local dir=$1 base=$2 gk=$3 tmp m abi=$RPCRDMAX_ABI
	cache_ready "$dir" && return 0
	cache_ready "$base" || die "rootfs base missing: $base"
	cache_ready "$gk" || die "guest kernel missing: $gk"
	need_space "$RPCRDMAX_CACHE" 4
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.rootfs.XXXXXX")
	say "assembling the guest image ($abi)"
	cp -a "$base/tree" "$tmp/tree"
	mkdir -p "$tmp/tree/lib/modules"
	cp -a "$gk/lib/modules/$abi" "$tmp/tree/lib/modules/"
	depmod -b "$tmp/tree" "$abi"
	install -m 0755 "$RPCRDMAX_TOP/scripts/guest/init" "$tmp/tree/sbin/rpcrdmax-init"
	install -m 0755 /bin/busybox "$tmp/tree/bin/busybox"
	echo rpcrdmax-guest >"$tmp/tree/etc/hostname"
	: >"$tmp/tree/etc/fstab"
	# NFS exports and server options used by the tests live on the 9p
	# share; the image only needs somewhere to export from.
	mkdir -p "$tmp/tree/export" "$tmp/tree/share"
	local kb
	kb=$(du -sk "$tmp/tree" | cut -f1)
	mke2fs -q -t ext4 -L rpcrdmax-root -d "$tmp/tree" "$tmp/rootfs.img" "$(( kb * 13 / 10 + 1024 * 1024 ))k" ||
		{ rm -rf "$tmp"; die "mke2fs failed"; }

	# initramfs: busybox + the early modules in dependency order.
	mkdir -p "$tmp/initrd/bin" "$tmp/initrd/lib/modules" "$tmp/initrd/dev" \
		"$tmp/initrd/proc" "$tmp/initrd/sys" "$tmp/initrd/newroot"
	cp /bin/busybox "$tmp/initrd/bin/busybox"
	: >"$tmp/initrd/modules.list"
	# One modprobe call per module: further words would be module options.
	for m in $(for e in $ROOTFS_EARLY_MODULES; do
			modprobe -d "$gk" -S "$abi" --show-depends "$e"
		done | awk '$1 == "insmod" {print $2}'); do
		grep -qx "${m##*/}" "$tmp/initrd/modules.list" && continue
		cp "$m" "$tmp/initrd/lib/modules/"
		echo "${m##*/}" >>"$tmp/initrd/modules.list"
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
