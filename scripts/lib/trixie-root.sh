# SPDX-License-Identifier: GPL-2.0
# The Debian 13 (trixie) build root: a minbase chroot
# with Debian 13's current kernel headers and the compiler that kernel was
# built with (gcc-14, g++-14), in which rpcrdmax is built for 6.12
# (scripts/build-module --trixie; perl for W=1's kernel-doc).  The same
# root holds the headers of trixie-backports' newest kernel (7.x: issue
# 42; scripts/build-module --backports), installed by name beside 6.12's
# (backports' linux-headers-amd64 would replace trixie's).  Cached under
# the cache's trixie-root/; its headers are brought to both current
# kernels at most once a day (apt-get update and install in the root),
# so "current" stays current without a new root.  Source after
# common.sh.

TRIXIE_PACKAGES="gcc-14,g++-14,make,perl,linux-headers-amd64"

trixie_root_dir() {
	echo "$RPCRDMAX_CACHE/trixie-root/$(printf '%s' "$TRIXIE_PACKAGES" | sha256sum | cut -c1-12)"
}

# trixie_sources MIRROR: trixie, trixie-updates, trixie-backports (apt
# takes nothing from it unless asked by name or -t) and, when this box's
# apt names a security archive, trixie-security from it (kernel updates
# often arrive there first).
trixie_sources() {
	local sec
	echo "deb $1 trixie main"
	echo "deb $1 trixie-updates main"
	echo "deb $1 trixie-backports main"
	sec=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		grep -E '^(URIs:|deb )' | grep -oE 'https?://[^ ]+' | grep -E 'security' | head -n1 || true)
	[ -z "$sec" ] || echo "deb ${sec%/} trixie-security main"
}

# build_trixie_root DIR: make it if missing; bring its headers up to date
# once a day.
build_trixie_root() {
	local dir=$1 tmp stamp
	if ! cache_ready "$dir"; then
		need_space "$RPCRDMAX_CACHE" 3
		tmp=$(mktemp -d "$RPCRDMAX_CACHE/.trixie-root.XXXXXX")
		debootstrap_tree trixie "$TRIXIE_PACKAGES" "$tmp"
		trixie_sources "$(apt_mirror)" >"$tmp/tree/etc/apt/sources.list"
		cache_mark "$tmp"
		mkdir -p "${dir%/*}"
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	stamp=$dir/.headers-checked
	[ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ] && [ -n "$(bpo_abi "$dir")" ] && return 0
	cp /etc/resolv.conf "$dir/tree/etc/resolv.conf"
	trixie_sources "$(apt_mirror)" >"$dir/tree/etc/apt/sources.list"
	local bpo
	if in_chroot "$dir/tree" /bin/sh -c 'apt-get update &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-headers-amd64 &&
		apt-get clean' >"$dir/apt.log" 2>&1 &&
		bpo=$(bpo_resolve "$dir") &&
		in_chroot "$dir/tree" /bin/sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			-t trixie-backports linux-headers-$bpo && apt-get clean" >>"$dir/apt.log" 2>&1; then
		touch "$stamp"
	else
		tail -n 5 "$dir/apt.log" >&2
		[ -n "$(bpo_abi "$dir")" ] || die "cannot install trixie-backports' kernel headers in the trixie build root (log: $dir/apt.log)"
		say "could not refresh the trixie headers; building against the ones in the root"
	fi
}

# bpo_resolve DIR: the ABI of trixie-backports' linux-headers-amd64 in
# the root's apt lists (its newest kernel, e.g. 7.3.4+deb13-amd64).
bpo_resolve() {
	local v abi
	v=$(in_chroot "$1/tree" apt-cache madison linux-headers-amd64 2>/dev/null |
		awk -F' *[|] *' '$3 ~ /trixie-backports/ {print $2; exit}')
	[ -n "$v" ] || { echo "no linux-headers-amd64 in trixie-backports" >&2; return 1; }
	abi=$(in_chroot "$1/tree" apt-cache show "linux-headers-amd64=$v" 2>/dev/null |
		sed -n 's/^Depends: //p' | grep -oE 'linux-headers-[0-9][^ ,]*-amd64' | head -n1 | sed 's/^linux-headers-//')
	[ -n "$abi" ] || { echo "linux-headers-amd64=$v names no kernel headers" >&2; return 1; }
	printf '%s\n' "$abi"
}

# bpo_abi DIR: the newest trixie-backports kernel whose headers are
# installed in the root (a version with ~bpo), e.g. 7.3.4+deb13-amd64;
# nothing when there is none.
bpo_abi() {
	in_chroot "$1/tree" dpkg-query -W -f '${Package} ${Version} ${Status}\n' 'linux-headers-*-amd64' 2>/dev/null |
		awk '$2 ~ /~bpo/ && / installed$/ {print $2, $1}' | sort -V | tail -n1 |
		sed -E 's/^[^ ]+ linux-headers-//'
}

# bpo_kver DIR ABI: the package version of ABI's installed headers (the
# version of its image packages too), e.g. 7.3.4-1~bpo13+1.
bpo_kver() {
	local v
	v=$(in_chroot "$1/tree" dpkg-query -W -f '${Version}' "linux-headers-$2" 2>/dev/null)
	[ -n "$v" ] || die "no linux-headers-$2 in the trixie build root"
	printf '%s\n' "$v"
}

# trixie_abi DIR: the kernel ABI whose headers linux-headers-amd64 brings
# in the root, e.g. 6.12.117+deb13-amd64.
trixie_abi() {
	in_chroot "$1/tree" dpkg-query -W -f '${Depends}' linux-headers-amd64 2>/dev/null |
		grep -oE 'linux-headers-[0-9][^ ,]*-amd64' | head -n1 | sed 's/^linux-headers-//'
}

# trixie_kver DIR ABI: the package version of ABI's unsigned image in the
# root's apt lists, e.g. 6.12.118-1.
trixie_kver() {
	local v
	v=$(in_chroot "$1/tree" apt-cache show "linux-image-$2-unsigned" 2>/dev/null |
		awk '/^Version:/ {print $2; exit}')
	[ -n "$v" ] || die "no package linux-image-$2-unsigned in the trixie build root's apt lists"
	printf '%s\n' "$v"
}

# trixie_package_check DEB: install DEB (the rpcrdmax-dkms package) with
# apt into a copy of the trixie build root, as a Debian 13 administrator
# would: apt brings in its dependencies (dkms, the release's g++) and
# DKMS builds the module for the kernel headers there, Debian 13's 6.12
# and trixie-backports' 7.x among them.  Prints those two kernels' ABIs
# and returns 0 when DKMS installed a module of each one's vermagic;
# else prints what failed.
trixie_package_check() {
	local deb=$1 root tmp abi abis st vm rc=0
	root=$(trixie_root_dir)
	cache_ready "$root" || { echo "no trixie build root (scripts/setup trixie-root)"; return 1; }
	abis="$(trixie_abi "$root") $(bpo_abi "$root")"
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.trixie-pkg.XXXXXX")
	cp -a "$root/tree" "$tmp/tree"
	cp "$deb" "$tmp/tree/tmp/"
	cp /etc/resolv.conf "$tmp/tree/etc/resolv.conf"
	if ! in_chroot "$tmp/tree" /bin/sh -c "apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/${deb##*/}" \
		>"$tmp/apt.log" 2>&1; then
		echo "apt-get install ${deb##*/} failed:"
		tail -n 8 "$tmp/apt.log"
		tail -n 8 "$tmp"/tree/var/lib/dkms/rpcrdmax/*/build/make.log 2>/dev/null
		rc=1
	fi
	st=$(in_chroot "$tmp/tree" dkms status rpcrdmax 2>&1)
	for abi in $abis; do
		case $st in
		*", $abi, x86_64: installed"*) ;;
		*) echo "dkms status: '$st', not installed for $abi"; rc=1 ;;
		esac
		vm=$(modinfo -F vermagic "$tmp/tree/lib/modules/$abi/updates/dkms/"rpcrdmax.ko* 2>/dev/null |
			cut -d' ' -f1)
		[ "$vm" = "$abi" ] || { echo "no rpcrdmax.ko for $abi under updates/dkms (vermagic '$vm')"; rc=1; }
	done
	rm -rf "$tmp"
	[ $rc -ne 0 ] || echo "$abis"
	return $rc
}
