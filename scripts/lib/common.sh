# SPDX-License-Identifier: GPL-2.0
# Shared helpers for rpcrdmax's scripts.  Source it; it defines functions
# and a few variables and changes nothing by itself.

RPCRDMAX_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RPCRDMAX_CACHE=${RPCRDMAX_CACHE:-${HOME:-/root}/.cache/rpcrdmax}

die() { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

need_root() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (apt, debootstrap, loop mounts, network namespaces)"
}

# need_space DIR GIB: fail early instead of half-way through a download.
need_space() {
	local dir=$1 gib=$2 avail
	mkdir -p "$dir"
	avail=$(df -Pk "$dir" | awk 'NR==2 {print int($4 / 1048576)}')
	[ "$avail" -ge "$gib" ] || die "need ${gib} GiB free under $dir, only ${avail} GiB available"
}

# The Debian ABI that linux-image-amd64 points at today, e.g. 6.1.0-56-amd64.
resolve_abi() {
	local dep
	dep=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ {sub("linux-image-", "", $2); print $2; exit}')
	[ -n "$dep" ] || die "cannot resolve linux-image-amd64's kernel ABI (run 'apt-get update' first?)"
	printf '%s\n' "$dep"
}

# The Debian package version of that ABI's image, e.g. 6.1.192-2.
resolve_kver() {
	local abi=$1 v
	v=$(apt-cache show "linux-image-$abi-unsigned" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
	[ -n "$v" ] || die "no package linux-image-$abi-unsigned in the apt lists"
	printf '%s\n' "$v"
}

# kernel_source_tarball KVER: where scripts/setup keeps the tarball of
# linux-source-6.1=KVER (the KUnit and debug kernels' source).
kernel_source_tarball() {
	echo "$RPCRDMAX_CACHE/source/linux-source-6.1-$1.tar.xz"
}

# hash_of FILE...: a short content hash used in cache keys.
hash_of() {
	cat "$@" | sha256sum | cut -c1-16
}

# Cache entries are complete only when their stamp exists; anything else
# under the cache is a leftover from an interrupted run and is discarded.
# copy_changed SRC DST FILE...: copy each FILE (a path under SRC) to the
# same path under DST where DST's copy is missing or differs, stamped
# with the time of the copy; a copy equal to the source is left alone, its
# time with it.  A make run in DST then rebuilds what changed, whatever
# the source's own time: a worktree checked out earlier than DST's last
# build, or a second tree built into the same DST, has sources older
# than DST's objects.
copy_changed() {
	local src=$1 dst=$2 f
	shift 2
	for f; do
		cmp -s "$src/$f" "$dst/$f" && continue
		mkdir -p "$dst/$(dirname "$f")" && cp "$src/$f" "$dst/$f" && touch "$dst/$f" || return 1
	done
}

# shim_upcalls [FILE...]: the C shim functions through which C calls C++
# by a function pointer (a completion's, a work item's, a CM event's):
# those whose body calls ->fn(.  FILEs default to shim/kernel/*.c.
# scripts/bench --cost --perf counts each call of one as a crossing.
shim_upcalls() {
	[ $# -gt 0 ] || set -- "$RPCRDMAX_TOP"/shim/kernel/*.c
	awk '/^[a-z].*[ *]rpcrdmax_[a-z0-9_]+\(/ { match($0, /rpcrdmax_[a-z0-9_]+\(/); f = substr($0, RSTART, RLENGTH - 1) }
		/^}/ { f = "" }
		/->fn\(/ && f != "" { print f }' "$@" | sort -u
}

cache_ready() { [ -e "$1/.complete" ]; }
cache_mark() { touch "$1/.complete"; }

# QEMU's plugin header (scripts/setup qemu-plugin), keyed by the installed
# qemu-system-x86's version (':' and '~' made '_').
qemu_plugin_dir() {
	local v
	v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) || die "qemu-system-x86 is not installed"
	echo "$RPCRDMAX_CACHE/qemu-plugin/${v//[:~]/_}"
}

# The guests' QEMU: at least this major version (scripts/setup installs it
# from bookworm-backports).
QEMU_MIN_MAJOR=10

# qemu_current: true when the installed qemu-system-x86 is at least
# QEMU_MIN_MAJOR.
qemu_current() {
	local v
	v=$(dpkg-query -W -f='${Status} ${Version}' qemu-system-x86 2>/dev/null) || return 1
	case $v in "install ok installed "*) ;; *) return 1 ;; esac
	v=${v##* } v=${v#*:} v=${v%%.*}
	case $v in '' | *[!0-9]*) return 1 ;; esac
	[ "$v" -ge "$QEMU_MIN_MAJOR" ]
}

# The mirror the host's own apt uses (no host name is written in the tree).
apt_mirror() {
	local m
	m=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		grep -v -- '-security' | grep -oE 'https?://[^ ]+' | grep -E '/debian/?$' | head -n1)
	[ -n "$m" ] || die "cannot find a Debian mirror in the host's apt sources"
	printf '%s\n' "${m%/}"
}

# debootstrap_tree SUITE PACKAGES TMP: debootstrap a minbase SUITE with
# PACKAGES into TMP/tree from this box's mirror (log in TMP); on failure,
# the log's tail, TMP removed, and die.
debootstrap_tree() {
	local suite=$1 pkgs=$2 tmp=$3 arch=()
	if [ "${RPCRDMAX_GUEST_ARCH:-amd64}" != amd64 ]; then
		arch=(--arch "$RPCRDMAX_GUEST_ARCH")
		foreign_binfmt "$RPCRDMAX_GUEST_ARCH"
	fi
	say "debootstrap $suite${arch[*]:+ ${arch[*]}} (minbase + $pkgs)"
	if ! debootstrap ${arch[@]+"${arch[@]}"} --variant=minbase --include="$pkgs" "$suite" "$tmp/tree" \
		"$(apt_mirror)" >"$tmp/debootstrap.log" 2>&1; then
		tail -n 20 "$tmp/debootstrap.log" >&2
		rm -rf "$tmp"
		die "debootstrap $suite failed"
	fi
}

# cpu_name ARCH: Debian architecture ARCH's name for the kernel and QEMU
# (uname -m): x86_64, aarch64.
cpu_name() {
	case $1 in
	amd64) echo x86_64 ;;
	arm64) echo aarch64 ;;
	*) die "no CPU name for '$1'" ;;
	esac
}

# foreign_binfmt ARCH: the kernel runs ARCH's programs through qemu-user
# (qemu-user-binfmt's entry, with the F flag: in a chroot too), as
# debootstrap's second stage and a chroot of that root need.  Mounts
# binfmt_misc and registers the entry where no systemd did.
foreign_binfmt() {
	local q
	q=$(cpu_name "$1")
	[ -e "/proc/sys/fs/binfmt_misc/qemu-$q" ] && return 0
	mountpoint -q /proc/sys/fs/binfmt_misc ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
		die "cannot mount binfmt_misc (for $1's programs)"
	[ -f "/usr/lib/binfmt.d/qemu-$q.conf" ] || die "no /usr/lib/binfmt.d/qemu-$q.conf (scripts/setup arm64-guests installs qemu-user-binfmt)"
	/usr/lib/systemd/systemd-binfmt "/usr/lib/binfmt.d/qemu-$q.conf" &&
		[ -e "/proc/sys/fs/binfmt_misc/qemu-$q" ] || die "cannot register qemu-$q with binfmt_misc"
}

# copy_apt_config ROOT: this box's apt sources (with updates and security,
# which debootstrap leaves out) and how it reaches them (Acquire::
# settings: proxies), into a Debian root made by debootstrap.  Not the
# sources scripts/setup added (rpcrdmax-*: bookworm-backports), which a
# new Debian 12 box has not.
copy_apt_config() {
	local root=$1 f
	rm -f "$root/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		case ${f##*/} in rpcrdmax-*) continue ;; esac
		[ -f "$f" ] && cp "$f" "$root$f"
	done
	for f in /etc/apt/apt.conf.d/*; do
		grep -q '^[[:space:]]*Acquire::' "$f" 2>/dev/null && cp "$f" "$root$f"
	done
	return 0
}

# in_chroot ROOT CMD...: run CMD in ROOT with /proc, /sys and /dev
# mounted, in a mount namespace of its own (the mounts end with it).
in_chroot() {
	unshare -m --propagation private /bin/sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sys "$r/sys" &&
			mount --rbind /dev "$r/dev" || exit 99
		exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
	' in_chroot "$@"
}
