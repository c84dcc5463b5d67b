#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of modindex_build (scripts/lib/modindex.sh), the guests'
# module index that scripts/e2e makes on the host: from a modules_install
# tree and from an ext4 root image, it holds rpcrdmax.ko in extra/ with
# the dependencies depmod found, and the kernel's release; the source is
# left as it was; a missing module or image leaves no index at all (the
# guests then run depmod themselves).  The modules are stand-ins that
# depmod reads as modules: ELF objects with a .modinfo section.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
. "$(dirname "$0")/../../scripts/lib/modindex.sh"
PATH=$PATH:/usr/sbin:/sbin
K=9.9.9-test

# two stand-in modules: fakedep exports fakedep_fn (depmod reads the
# names in __ksymtab_strings), rpcrdmax uses it
cat >"$tmp/dep.c" <<'EOF'
int fakedep_fn(void) { return 1; }
__attribute__((section("__ksymtab_strings"), used)) static const char k[] = "fakedep_fn";
__attribute__((section(".modinfo"), used, aligned(1))) static const char n[] = "name=fakedep";
__attribute__((section(".modinfo"), used, aligned(1))) static const char d[] = "depends=";
EOF
cat >"$tmp/rx.c" <<'EOF'
extern int fakedep_fn(void);
int rx(void) { return fakedep_fn(); }
__attribute__((section(".modinfo"), used, aligned(1))) static const char n[] = "name=rpcrdmax";
__attribute__((section(".modinfo"), used, aligned(1))) static const char d[] = "depends=fakedep";
__attribute__((section(".modinfo"), used, aligned(1))) static const char a[] = "alias=xprtrdma";
EOF
cc -c "$tmp/dep.c" -o "$tmp/dep.o" && cc -c "$tmp/rx.c" -o "$tmp/rpcrdmax.ko"
check "the stand-in modules build" $?
tree=$tmp/modroot
mkdir -p "$tree/lib/modules/$K/kernel"
cp "$tmp/dep.o" "$tree/lib/modules/$K/kernel/fakedep.ko"
: >"$tree/lib/modules/$K/modules.order"
: >"$tree/lib/modules/$K/modules.builtin"
: >"$tree/lib/modules/$K/modules.builtin.modinfo"
depmod -b "$tree" "$K" 2>/dev/null
before=$(cd "$tree" && find . -type f | sort | xargs sha256sum)

# index_ok OUT WHAT: OUT is an index of rpcrdmax.ko over the stand-ins
index_ok() {
	grep -qx 'extra/rpcrdmax.ko: kernel/fakedep.ko' "$1/modules.dep"
	check "$2: modules.dep has extra/rpcrdmax.ko and its dependency" $?
	grep -qx 'alias xprtrdma rpcrdmax' "$1/modules.alias"
	check "$2: modules.alias has its alias" $?
	[ -s "$1/modules.dep.bin" ] && [ -s "$1/modules.alias.bin" ]
	check "$2: the binary indexes modprobe reads are there" $?
	[ "$(cat "$1/abi")" = "$K" ]
	check "$2: abi names the kernel's release" $?
	[ ! -e "$1/rpcrdmax.ko" ] && [ ! -e "$1/kernel" ]
	check "$2: only depmod's files (no modules)" $?
}

modindex_build "$tmp/rpcrdmax.ko" "$tmp/out1" "$tree" 2>/dev/null
check "modules_install tree: made" $?
index_ok "$tmp/out1" "modules_install tree"
[ "$(cd "$tree" && find . -type f | sort | xargs sha256sum)" = "$before" ]
check "modules_install tree: the tree itself is unchanged" $?

# the root image (as scripts/setup makes it, with mke2fs -d)
mkdir -p "$tmp/img/root/lib/modules"
cp -a "$tree/lib/modules/$K" "$tmp/img/root/lib/modules/"
mke2fs -q -t ext4 -d "$tmp/img/root" "$tmp/img/rootfs.img" 16M >/dev/null 2>&1
check "the stand-in root image is made" $?
rootfs_image_dir() { echo "$tmp/img"; }
RPCRDMAX_ABI=$K
modindex_build "$tmp/rpcrdmax.ko" "$tmp/out2" 2>/dev/null
check "root image: made" $?
index_ok "$tmp/out2" "root image"

# failures leave no index, not even an earlier one
modindex_build "$tmp/missing.ko" "$tmp/out1" "$tree" 2>/dev/null
[ $? -ne 0 ] && [ ! -e "$tmp/out1" ]
check "a missing module fails and leaves no index (the earlier one removed)" $?
RPCRDMAX_ABI=0.0.0-other
modindex_build "$tmp/rpcrdmax.ko" "$tmp/out2" 2>/dev/null
[ $? -ne 0 ] && [ ! -e "$tmp/out2" ]
check "an image without the kernel's modules fails and leaves no index" $?
modindex_build "$tmp/rpcrdmax.ko" "$tmp/out3" "$tmp/nowhere" 2>/dev/null
[ $? -ne 0 ] && [ ! -e "$tmp/out3" ]
check "a modules_install tree that is not there fails and leaves no index" $?
finish
