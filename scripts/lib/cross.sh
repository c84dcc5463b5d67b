# SPDX-License-Identifier: GPL-2.0
# Cross builds of rpcrdmax.ko for Debian 12's other CPUs: arm64, and s390x
# (big-endian).  Their kernel headers come from Debian's archive through a
# private apt state (the host's sources, that architecture's lists), so
# the host's own dpkg never takes a foreign architecture.  The headers
# trees are Debian's, with two things made to point where they are now:
# the flavour's Makefile includes its -common tree by an absolute path,
# and both trees reach kbuild's programs (fixdep, modpost) through
# symlinks to linux-kbuild-6.1, which the host has for its own headers
# and whose programs run here.  Source after common.sh.

# CROSS_ARCHES: the architectures make check builds for.
CROSS_ARCHES=(arm64 s390x)

# cross_triplet ARCH: the GNU triplet of Debian's cross compilers.
cross_triplet() {
	case $1 in
	arm64) echo aarch64-linux-gnu ;;
	s390x) echo s390x-linux-gnu ;;
	*) die "no cross build for '$1' (${CROSS_ARCHES[*]})" ;;
	esac
}

# cross_apt_state ARCH: the private apt state of ARCH's package lists.
cross_apt_state() { echo "$RPCRDMAX_CACHE/cross-apt/$1"; }

# cross_apt_opts ARCH: apt's options for that state (sources: the host's,
# not the rpcrdmax-* ones scripts/setup added).
cross_apt_opts() {
	local s
	s=$(cross_apt_state "$1")
	printf '%s\n' -o "APT::Architecture=$1" -o "APT::Architectures::=$1" \
		-o "Dir::Etc::SourceList=$s/sources.list" -o "Dir::Etc::SourceParts=$s/sources.list.d" \
		-o "Dir::State::Lists=$s/lists" -o "Dir::Cache=$s/cache" -o "Dir::State::status=$s/status"
}

# cross_apt_update ARCH: ARCH's package lists, fetched at most once a day.
cross_apt_update() {
	local s f opts
	s=$(cross_apt_state "$1")
	[ -n "$(find "$s/updated" -mmin -1440 2>/dev/null)" ] && return 0
	rm -rf "$s"
	mkdir -p "$s/sources.list.d" "$s/lists/partial" "$s/cache/archives/partial"
	: >"$s/status"
	cp /etc/apt/sources.list "$s/sources.list" 2>/dev/null || : >"$s/sources.list"
	for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		case ${f##*/} in rpcrdmax-*) continue ;; esac
		[ -f "$f" ] && cp "$f" "$s/sources.list.d/"
	done
	mapfile -t opts < <(cross_apt_opts "$1")
	apt-get "${opts[@]}" update >"$s/update.log" 2>&1 ||
		{ tail -n 5 "$s/update.log" >&2; die "cannot fetch Debian's $1 package lists"; }
	touch "$s/updated"
}

# cross_abi ARCH: the ABI linux-headers-ARCH points at (e.g. 6.1.0-57-arm64).
cross_abi() {
	local opts dep
	mapfile -t opts < <(cross_apt_opts "$1")
	dep=$(apt-cache "${opts[@]}" depends "linux-headers-$1" 2>/dev/null |
		awk '/Depends: linux-headers-[0-9]/ {sub("linux-headers-", "", $2); print $2; exit}')
	[ -n "$dep" ] || die "cannot resolve linux-headers-$1's kernel ABI (scripts/setup cross-headers)"
	echo "$dep"
}

# cross_kver ARCH ABI: the package version of ARCH's kernel image ABI.
cross_kver() {
	local opts v
	mapfile -t opts < <(cross_apt_opts "$1")
	v=$(apt-cache "${opts[@]}" show "linux-image-$2-unsigned" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
	[ -n "$v" ] || die "no package linux-image-$2-unsigned in Debian's $1 lists"
	echo "$v"
}

# cross_headers_dir ARCH: the cached headers of ARCH's current kernel,
# keyed by its ABI and package version.
cross_headers_dir() {
	local opts abi v
	mapfile -t opts < <(cross_apt_opts "$1")
	abi=$(cross_abi "$1")
	v=$(apt-cache "${opts[@]}" show "linux-headers-$abi" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
	[ -n "$v" ] || die "no package linux-headers-$abi in Debian's $1 lists"
	echo "$RPCRDMAX_CACHE/cross-headers/$abi-$v"
}

# cross_kdir ARCH: the kernel tree to build against, once made.
cross_kdir() {
	local d
	d=$(cross_headers_dir "$1")
	cache_ready "$d" || die "no $1 kernel headers yet (scripts/setup cross-headers)"
	echo "$d/usr/src/linux-headers-$(cross_abi "$1")"
}

# build_cross_headers ARCH: fetch and unpack ARCH's headers and their
# -common tree into the cache, pointed at where they are.
build_cross_headers() {
	local arch=$1 dir abi common tmp opts l t f
	cross_apt_update "$arch"
	dir=$(cross_headers_dir "$arch")
	cache_ready "$dir" && return 0
	abi=$(cross_abi "$arch")
	common=linux-headers-${abi%-"$arch"}-common
	mapfile -t opts < <(cross_apt_opts "$arch")
	need_space "$RPCRDMAX_CACHE" 1
	tmp=$(mktemp -d "$RPCRDMAX_CACHE/.cross-headers.XXXXXX")
	mkdir -p "$tmp/get" "$tmp/out"
	say "fetching linux-headers-$abi and $common ($arch)"
	(cd "$tmp/get" && apt-get "${opts[@]}" download "linux-headers-$abi" "$common" >"$tmp/apt.log" 2>&1) ||
		{ tail -n 5 "$tmp/apt.log" >&2; rm -rf "$tmp"; die "cannot download linux-headers-$abi ($arch)"; }
	for f in "$tmp"/get/*.deb; do
		dpkg-deb -x "$f" "$tmp/out" || { rm -rf "$tmp"; die "cannot unpack ${f##*/}"; }
	done
	[ -f "$tmp/out/usr/src/linux-headers-$abi/Makefile" ] && [ -f "$tmp/out/usr/src/$common/Makefile" ] ||
		{ rm -rf "$tmp"; die "linux-headers-$abi: no Makefile in its tree or in $common's"; }
	# the Makefile's include, and the symlinks to linux-kbuild-*
	echo "include $dir/usr/src/$common/Makefile" >"$tmp/out/usr/src/linux-headers-$abi/Makefile"
	while read -r l; do
		t=$(readlink "$l")
		t=/usr/lib/linux-kbuild-${t#*/lib/linux-kbuild-}
		[ -e "$t" ] || { rm -rf "$tmp"; die "$t is missing (linux-kbuild, installed with the host's kernel headers)"; }
		ln -sfn "$t" "$l"
	done < <(find "$tmp/out/usr/src" -maxdepth 2 -type l -lname '*lib/linux-kbuild-*')
	cache_mark "$tmp/out"
	mkdir -p "${dir%/*}"
	rm -rf "$dir"
	mv "$tmp/out" "$dir"
	rm -rf "$tmp"
}
