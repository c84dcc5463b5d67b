# SPDX-License-Identifier: GPL-2.0
# e2e battery, client side (Documentation/testing.rst).  One boot runs
# every mount variant and every case; the transport and the profile come
# from /share/battery.env:
#   BATTERY_CLIENT_MODULE   stock | rpcrdmax
#   BATTERY_PROFILE         full | check | quick (defaults for the knobs below;
#                           make check runs "check", make check-battery "full")
#   BATTERY_VARIANTS        mount variants to run, in order
#   BATTERY_SKIP_VARIANTS   variants left out of BATTERY_VARIANTS (scripts/e2e:
#                           those a case's own client script already ran)
#   BATTERY_BIG_VARIANTS    variants that also move the big file
#   BATTERY_BIG_SIZE        the big file's size in bytes (full: 64 MiB,
#                           check and quick: 16 MiB)
#   BATTERY_DIR_VARIANTS    variants that build the directory
#   BATTERY_DIR_ENTRIES     its entries, of 200-byte names (full: 2000,
#                           check and quick: 500)
#   BATTERY_FIO_SECS        fio verify run time bound per variant
#   BATTERY_FIO_SIZE        fio file size per job
#   BATTERY_STORM_SECS      length of the kill -9 storm (0: no storm)
# Every check prints a STEP line; "TIME <what> <seconds>" lines report
# durations (never checked).
. /share/lib.sh
set -u
SERVER=192.0.2.1
SERVER6=2001:db8::1
BATTERY_CLIENT_MODULE=stock
BATTERY_PROFILE=full
[ -r /share/battery.env ] && . /share/battery.env
case $BATTERY_PROFILE in
check)	# make check: every variant, the big file and the directory on some
	# (about 5 min a battery: make check's budget; the full profile moves
	# a 64 MiB file on every variant; inline1k's directory is NFSv3's)
	: "${BATTERY_VARIANTS:=v3 v4.0 v4.1 v4.2 rw1m nconnect4 ipv6 inline1k}"
	: "${BATTERY_BIG_VARIANTS:=v4.2}"
	: "${BATTERY_BIG_SIZE:=16777216}"
	: "${BATTERY_DIR_VARIANTS:=v4.2 inline1k}"
	: "${BATTERY_DIR_ENTRIES:=500}"
	: "${BATTERY_FIO_SECS:=4}"
	: "${BATTERY_FIO_SIZE:=8m}"
	: "${BATTERY_STORM_SECS:=12}"
	;;
quick)	# a look while working: the directory on v3 only, short runs
	: "${BATTERY_VARIANTS:=v3 v4.0 v4.1 v4.2 rw1m nconnect4 ipv6 inline1k}"
	: "${BATTERY_BIG_VARIANTS:=v4.2}"
	: "${BATTERY_DIR_VARIANTS:=v3}"
	: "${BATTERY_DIR_ENTRIES:=500}"
	: "${BATTERY_BIG_SIZE:=16777216}"
	: "${BATTERY_FIO_SECS:=4}"
	: "${BATTERY_FIO_SIZE:=8m}"
	: "${BATTERY_STORM_SECS:=8}"
	;;
*)
	: "${BATTERY_VARIANTS:=v3 v4.0 v4.1 v4.2 rw1m nconnect4 ipv6 inline1k}"
	: "${BATTERY_BIG_VARIANTS:=$BATTERY_VARIANTS}"
	: "${BATTERY_DIR_VARIANTS:=$BATTERY_VARIANTS}"
	: "${BATTERY_BIG_SIZE:=67108864}"
	: "${BATTERY_DIR_ENTRIES:=2000}"
	: "${BATTERY_FIO_SECS:=20}"
	: "${BATTERY_FIO_SIZE:=16m}"
	: "${BATTERY_STORM_SECS:=30}"
	;;
esac
MOD=$BATTERY_CLIENT_MODULE
KMOD=$(transport_kmod "$MOD") || KMOD=$MOD
SIZES="0 1 1023 1024 1025 4095 4096 4097 65535 65536 65537 1048577"
in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }
case $BATTERY_BIG_SIZE in '' | *[!0-9]*) step_fail "battery: BATTERY_BIG_SIZE '$BATTERY_BIG_SIZE' is not a byte count"; exit 1 ;; esac
case $BATTERY_DIR_ENTRIES in '' | 0 | *[!0-9]*) step_fail "battery: BATTERY_DIR_ENTRIES '$BATTERY_DIR_ENTRIES' is not a count of entries"; exit 1 ;; esac
BIG=$BATTERY_BIG_SIZE
# the variants a case's own client script already ran
keep=
for x in $BATTERY_VARIANTS; do in_list "$x" "${BATTERY_SKIP_VARIANTS:-}" || keep="$keep${keep:+ }$x"; done
BATTERY_VARIANTS=$keep
NDIR=$BATTERY_DIR_ENTRIES
M=/mnt/nfs
echo "battery: client=$MOD profile=$BATTERY_PROFILE variants='$BATTERY_VARIANTS'${BATTERY_SKIP_VARIANTS:+ (not '$BATTERY_SKIP_VARIANTS')} big='$BATTERY_BIG_VARIANTS' ($BIG bytes) dir='$BATTERY_DIR_VARIANTS' ($NDIR entries) fio=${BATTERY_FIO_SECS}s/$BATTERY_FIO_SIZE storm=${BATTERY_STORM_SECS}s"

now() { date +%s; }
T_ALL=$(now)

step "client: rxe up" rxe_up
if ! out=$(transport_load client "$MOD" 2>&1); then
	step_fail "client: load transport $MOD: $out"
	step "client: kernel log clean" kernel_log_clean
	exit 1
fi
step_ok "client: load transport $MOD"
end=$(deadline 300)
while [ ! -e /share/server.ready ] && [ ! -e /share/server.failed ] && before $end; do sleep 0.1; done
if [ ! -e /share/server.ready ]; then
	step_fail "client: server never became ready (see server.log)"
	exit 1
fi

# ---- source data -----------------------------------------------------------
mkdir -p $M /tmp/src /tmp/exp
for s in $SIZES $BIG; do head -c "$s" /dev/urandom >"/tmp/src/f$s"; done
(cd /tmp/src && sha256sum f*) >/tmp/exp/all.sha256
grep -v " f$BIG\$" /tmp/exp/all.sha256 >/tmp/exp/small.sha256
# NDIR names of 200 bytes, in C collation order
pad=$(printf '%0193d' 0 | tr 0 x)
i=0
while [ $i -lt $NDIR ]; do printf 'e%05d-%s\n' $i "$pad"; i=$((i + 1)); done | LC_ALL=C sort >/tmp/exp/names
LINK_TARGET=$(printf '%04000d' 0 | tr 0 t | sed 's/tttttttttt$/tttttttt.t/')
# a POSIX ACL (xattr format v2) with 150 named users: as NFSACL SETACL
# arguments it is ~1.8 KB, above a 1 KiB inline threshold
ACL_PY='
import os, struct, sys
def acl():
    e = [(1, 7, 0xffffffff)] + [(2, 4, 1000 + i) for i in range(150)] + [(4, 5, 0xffffffff), (0x10, 7, 0xffffffff), (0x20, 4, 0xffffffff)]
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, p, i) for t, p, i in e)
if sys.argv[1] == "set":
    os.setxattr(sys.argv[2], "system.posix_acl_access", acl())
else:
    got = os.getxattr(sys.argv[2], "system.posix_acl_access")
    if got != acl():
        sys.exit("ACL differs: %d bytes back, %d set" % (len(got), len(acl())))
'

# ---- variants --------------------------------------------------------------
# variant_setup NAME: OPTS, ADDR and PROTO for NAME.
variant_setup() {
	ADDR=$SERVER PROTO=rdma
	case $1 in
	v3) OPTS="rdma,port=20049,vers=3,nolock" ;;
	v4.0) OPTS="rdma,port=20049,vers=4.0" ;;
	v4.1) OPTS="rdma,port=20049,vers=4.1" ;;
	v4.2) OPTS="rdma,port=20049,vers=4.2" ;;
	rw1m) OPTS="rdma,port=20049,vers=4.2,rsize=1048576,wsize=1048576" ;;
	# 6.1's NFSv4 client ignores nconnect on anything but TCP; v3 honours it
	nconnect4) OPTS="rdma,port=20049,vers=3,nolock,nconnect=4" ;;
	ipv6) OPTS="proto=rdma6,port=20049,vers=4.1" ADDR="[$SERVER6]" PROTO=rdma6 ;;
	# v3 so that SETACL (not a WRITE, no DDP) becomes a Long Call
	inline1k) OPTS="rdma,port=20049,vers=3,nolock" ;;
	*) return 1 ;;
	esac
}

acl_set() { touch "$1" && python3 -c "$ACL_PY" set "$1"; }

is_v3() { case $OPTS in *vers=3*) return 0 ;; esac; return 1; }

# rdma_idle SECONDS: wait until no MR and no RC QP is left from earlier
# mounts (transports are destroyed asynchronously after umount).
rdma_idle() {
	local end=$(deadline $1)
	while before $end; do
		[ "$(rdma_res_count mr)" -eq "$MR0" ] && [ "$(rdma res show qp 2>/dev/null | grep -c 'type RC')" -eq 0 ] && return 0
		sleep 0.5
	done
	return 1
}

# xprt_stat FIELD: sum of one field of the "xprt: rdma" lines of $M in
# /proc/self/mountstats (1-based after "rdma"; 11 read chunks, 13 reply
# chunks, 21 RDMA_NOMSG calls: the layout of xprt_rdma_print_stats()).
xprt_stat() {
	awk -v f="$1" -v m=" $M " '
		/^device / { on = index($0, m) > 0 }
		on && $1 == "xprt:" && $2 ~ /^rdma/ { n += $(f + 2) }
		END { print n + 0 }' /proc/self/mountstats
}

do_mount() { mount -t nfs -o "$OPTS" "$ADDR:/export" $M; }

write_files() {
	local d=$1 mode=$2 f
	mkdir -p "$d" || return 1
	for f in $FILES; do
		if [ "$mode" = direct ]; then
			dd if="/tmp/src/$f" of="$d/$f" bs=1M oflag=direct status=none || return 1
		else
			cp "/tmp/src/$f" "$d/$f" || return 1
		fi
	done
	sync
}

# check_files DIR MODE SUMS: sha256 of every file read buffered or O_DIRECT
check_files() {
	local d=$1 mode=$2 sums=$3 f want got bad=
	for f in $FILES; do
		want=$(awk -v f="$f" '$2 == f { print $1 }' "$sums")
		if [ "$mode" = direct ]; then
			got=$(dd if="$d/$f" bs=1M iflag=direct status=none | sha256sum | cut -d' ' -f1)
		else
			got=$(sha256sum <"$d/$f" | cut -d' ' -f1)
		fi
		[ "$got" = "$want" ] || bad="$bad $f"
	done
	[ -z "$bad" ] || { echo "sha256 differs:$bad"; return 1; }
}

make_dir() {
	mkdir -p "$1" && cd "$1" && xargs touch </tmp/exp/names && cd /
}

check_dir() {
	local got
	got=$(cd "$1" && ls -f -1 | grep -vx '\.' | grep -vx '\.\.' | LC_ALL=C sort | sha256sum) || return 1
	[ "$got" = "$(sha256sum </tmp/exp/names)" ] || {
		echo "listing differs: $(ls -f -1 "$1" | wc -l) entries (want $NDIR + 2)"
		return 1
	}
}

# meta DIR: rename, link, unlink, mkdir/rmdir tree, truncate, chmod; the
# expected attributes go to /tmp/exp/meta.$V for the check after remount.
meta() {
	local d=$1 x
	mkdir -p "$d" && cd "$d" || return 1
	cp /tmp/src/f65537 a || return 1
	ln a b || return 1
	[ "$(stat -c %h a)" = 2 ] || { echo "nlink after link: $(stat -c %h a)"; return 1; }
	mv b c || return 1
	[ ! -e b ] && [ -e c ] || { echo "rename b -> c not visible"; return 1; }
	cmp -s a c || { echo "link differs from its target"; return 1; }
	rm c || return 1
	[ ! -e c ] && [ "$(stat -c %h a)" = 1 ] || { echo "unlink: c exists or nlink $(stat -c %h a)"; return 1; }
	mkdir -p t/1/2/3/4 t/1/b/c t/x/y && touch t/1/2/3/4/f t/x/y/g || return 1
	mv t/x t/1/2/x || return 1
	[ "$(find t | wc -l)" = 11 ] || { echo "tree has $(find t | wc -l) entries"; return 1; }
	rm t/1/2/3/4/f t/1/2/x/y/g && rmdir t/1/2/3/4 t/1/2/3 t/1/2/x/y t/1/2/x t/1/2 t/1/b/c t/1/b t/1 t || return 1
	[ ! -e t ] || { echo "tree still there"; return 1; }
	# truncate: grow across a block, shrink to odd sizes, compare content
	for x in 1048577 4097 0 5000; do
		truncate -s $x a || return 1
	done
	head -c 5000 /tmp/src/f65537 >/tmp/trunc.ref
	cp /tmp/src/f65537 e && truncate -s 5000 e && cmp -s e /tmp/trunc.ref || { echo "truncated file content differs"; return 1; }
	for x in 0600 0755 0640 4711 0000 0444; do
		chmod $x a && [ "$(stat -c %a a | sed 's/^/000/; s/.*\(....\)$/\1/')" = "$x" ] || { echo "chmod $x: stat says $(stat -c %a a)"; return 1; }
	done
	chmod 0644 a
	stat -c '%n %s %a %h %u %g %F' a e >"/tmp/exp/meta.$V"
	cd /
}

check_meta() {
	local got
	got=$(cd "$1" && stat -c '%n %s %a %h %u %g %F' a e) || return 1
	[ "$got" = "$(cat "/tmp/exp/meta.$V")" ] || { echo "stat now: $got; was: $(cat "/tmp/exp/meta.$V")"; return 1; }
	# a grew to 5000 bytes from 0: must read back as zeros
	[ "$(head -c 5000 /dev/zero | sha256sum)" = "$(sha256sum <"$1/a")" ] || { echo "a is not 5000 zero bytes"; return 1; }
	cmp -s "$1/e" /tmp/trunc.ref || { echo "e differs after remount"; return 1; }
}

check_link() {
	local got
	got=$(readlink "$1") || return 1
	[ "$got" = "$LINK_TARGET" ] || { echo "readlink gave ${#got} bytes, not the 4000-byte target"; return 1; }
}

run_fio() {
	local d=$1 out rc=0
	mkdir -p "$d" || return 1
	out=$(timeout -k 10 $((BATTERY_FIO_SECS + 240)) fio --name=battery --directory="$d" \
		--numjobs=4 --rw=randrw --bsrange=4k-1m --size="$BATTERY_FIO_SIZE" \
		--runtime="$BATTERY_FIO_SECS" --direct=1 --ioengine=psync \
		--verify=crc32c --verify_backlog=8 --verify_fatal=1 --verify_state_save=0 \
		--group_reporting 2>&1) || rc=$?
	printf '%s\n' "$out" | grep -E 'err=|READ:|WRITE:|verify' | sed 's/^/  fio: /' >/tmp/fio.summary
	[ $rc -eq 0 ] || { echo "fio exited $rc: $(printf '%s' "$out" | grep -iE 'verify|err' | tail -n 3)"; return 1; }
	printf '%s\n' "$out" | grep -q 'err= 0' || { echo "no 'err= 0' in fio's report"; return 1; }
	rm -rf "$d"
}

run_variant() {
	V=$1
	local t0 d opts_ok=1 oldr oldw chunks nomsg
	t0=$(now)
	variant_setup "$V" || { step_fail "$V: unknown variant"; return; }
	rdma_idle 30 || step_fail "$V: RDMA resources of earlier mounts still there after 30 s: $(rdma res show)"
	if [ "$V" = inline1k ]; then
		oldr=$(cat /proc/sys/sunrpc/rdma_max_inline_read 2>/dev/null)
		oldw=$(cat /proc/sys/sunrpc/rdma_max_inline_write 2>/dev/null)
		step "$V: inline thresholds 1024" sh -c 'echo 1024 >/proc/sys/sunrpc/rdma_max_inline_read &&
			echo 1024 >/proc/sys/sunrpc/rdma_max_inline_write &&
			[ "$(cat /proc/sys/sunrpc/rdma_max_inline_read)" = 1024 ] &&
			[ "$(cat /proc/sys/sunrpc/rdma_max_inline_write)" = 1024 ]'
	fi
	if ! out=$(do_mount 2>&1); then
		step_fail "$V: mount -o $OPTS $ADDR:/export: $out"
		return
	fi
	step_ok "$V: mount -o $OPTS"
	grep -q " $M nfs.*proto=$PROTO," /proc/mounts &&
		step_ok "$V: /proc/mounts says proto=$PROTO" ||
		step_fail "$V: not proto=$PROTO: $(grep " $M " /proc/mounts)"
	case $V in
	rw1m)
		grep " $M " /proc/mounts | grep -q 'rsize=1048576,wsize=1048576' &&
			step_ok "$V: rsize and wsize are 1 MiB" ||
			step_fail "$V: rsize/wsize not 1 MiB: $(grep " $M " /proc/mounts)" ;;
	nconnect4)
		x=$(grep -l '^netid: *rdma' /sys/kernel/debug/sunrpc/rpc_xprt/*/info 2>/dev/null | wc -l)
		[ "$x" -eq 4 ] && step_ok "$V: 4 rdma transports" || step_fail "$V: $x rdma transports in debugfs, not 4" ;;
	esac
	d=$M/$V
	if in_list "$V" "$BATTERY_BIG_VARIANTS"; then FILES=$(cd /tmp/src && ls); SUMS=/tmp/exp/all.sha256
	else FILES=$(cd /tmp/src && ls | grep -vx "f$BIG"); SUMS=/tmp/exp/small.sha256; fi
	step "$V: write files buffered" write_files "$d/buffered" buffered
	step "$V: write files O_DIRECT" write_files "$d/direct" direct
	in_list "$V" "$BATTERY_DIR_VARIANTS" && step "$V: create $NDIR entries with 200-byte names" make_dir "$d/dir"
	step "$V: 4000-byte symlink" ln -s "$LINK_TARGET" "$d/link"
	step "$V: rename, link, unlink, mkdir/rmdir tree, truncate, chmod" meta "$d/meta"
	if is_v3; then
		step "$V: POSIX ACL with 150 entries set" acl_set "$d/acl"
	fi
	rm -f /tmp/fio.summary
	step "$V: fio verify (4 jobs, randrw 4k-1m, ${BATTERY_FIO_SECS}s)" run_fio "$d/fio"
	cat /tmp/fio.summary 2>/dev/null
	if [ "$V" = nconnect4 ]; then
		x=$(rdma res show qp 2>/dev/null | grep -c 'type RC')
		[ "$x" -eq 4 ] && step_ok "$V: 4 RC QPs connected after I/O" || step_fail "$V: $x RC QPs after I/O, not 4"
	fi
	chunks=$(xprt_stat 13) nomsg=$(xprt_stat 21)
	step "$V: umount" umount $M
	if ! out=$(do_mount 2>&1); then
		step_fail "$V: remount: $out"
		return
	fi
	step_ok "$V: remount"
	step "$V: sha256 after remount, buffered read of buffered writes" check_files "$d/buffered" buffered "$SUMS"
	step "$V: sha256 after remount, O_DIRECT read of O_DIRECT writes" check_files "$d/direct" direct "$SUMS"
	step "$V: sha256 after remount, O_DIRECT read of buffered writes" check_files "$d/buffered" direct "$SUMS"
	in_list "$V" "$BATTERY_DIR_VARIANTS" && step "$V: directory listing after remount" check_dir "$d/dir"
	step "$V: symlink target after remount" check_link "$d/link"
	step "$V: stat and content after remount" check_meta "$d/meta"
	if is_v3; then
		step "$V: POSIX ACL after remount" python3 -c "$ACL_PY" get "$d/acl"
	fi
	if [ "$V" = inline1k ]; then
		chunks=$((chunks + $(xprt_stat 13))) nomsg=$((nomsg + $(xprt_stat 21)))
		[ "$nomsg" -gt 0 ] && step_ok "$V: Long Calls sent (RDMA_NOMSG: $nomsg)" ||
			step_fail "$V: no Long Call (RDMA_NOMSG count 0 in mountstats)"
		[ "$chunks" -gt 0 ] && step_ok "$V: Reply chunks used ($chunks)" ||
			step_fail "$V: no Reply chunk in mountstats"
	fi
	# free the server's tmpfs; the directories stay (empty files)
	step "$V: remove data files" rm -rf "$d/buffered" "$d/direct"
	step "$V: final umount" umount $M
	if [ "$V" = inline1k ]; then
		[ -n "$oldr" ] && echo "$oldr" >/proc/sys/sunrpc/rdma_max_inline_read
		[ -n "$oldw" ] && echo "$oldw" >/proc/sys/sunrpc/rdma_max_inline_write
	fi
	echo "TIME variant $V $(($(now) - t0))"
}

# ---- kill -9 storm -----------------------------------------------------------
# Four readers and four writers (O_DIRECT and buffered, 1 MiB blocks) loop
# over their own 8 MiB files; every half second two random ones are killed
# with SIGKILL (and restarted).  Writers rewrite the file's own content in
# place (conv=notrunc), so any byte that differs afterwards is corruption.
# MRs are counted idle after a warm-up with the same workers (no kills) and
# idle after the storm, and must match; after umount they must return to
# the count from before the mount.
worker() {
	local k=$1 kind=$2
	while [ ! -e /tmp/storm.stop ]; do
		case $kind in
		rd) dd if=$M/storm/r$k of=/dev/null bs=1M iflag=direct status=none ;;
		rb) cat $M/storm/r$k >/dev/null ;;
		wd) dd if=/tmp/storm/w$k of=$M/storm/w$k bs=1M oflag=direct conv=notrunc status=none ;;
		wb) dd if=/tmp/storm/w$k of=$M/storm/w$k bs=1M conv=notrunc,fsync status=none ;;
		esac
	done
}

KINDS="0:rd 1:rb 2:rd 3:rb 0:wd 1:wb 2:wd 3:wb"
start_workers() {
	local kk
	for kk in $KINDS; do
		worker "${kk%:*}" "${kk#*:}" 2>/dev/null &
		echo $! >"/tmp/storm/pid.${kk%:*}${kk#*:}"
	done
}

# alive PID: PID exists and is not a zombie (our own exited children stay
# zombies until waited for)
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }

# stop_workers SIGNAL: signal every worker and its dd/cat; wait up to 120 s.
# Runs in the main shell (not under step), which owns the workers.
stop_workers() {
	local sig=$1 p end=$(deadline 120) q
	touch /tmp/storm.stop
	for p in /tmp/storm/pid.*; do
		pkill -"$sig" -P "$(cat "$p")" 2>/dev/null
		kill -"$sig" "$(cat "$p")" 2>/dev/null
	done
	while before $end; do
		busy=
		for p in /tmp/storm/pid.*; do alive "$(cat "$p")" && busy=1; done
		for q in $(pgrep -x dd) $(pgrep -x cat); do alive "$q" && busy=1; done
		[ -z "$busy" ] && break
		sleep 0.5
	done
	[ -z "$busy" ] && wait 2>/dev/null
	[ -z "$busy" ]
}

storm_check() {
	local k bad=
	for k in 0 1 2 3; do
		[ "$(dd if=$M/storm/r$k bs=1M iflag=direct status=none | sha256sum)" = "$(sha256sum </tmp/storm/r$k)" ] || bad="$bad r$k"
		[ "$(dd if=$M/storm/w$k bs=1M iflag=direct status=none | sha256sum)" = "$(sha256sum </tmp/storm/w$k)" ] || bad="$bad w$k"
	done
	[ -z "$bad" ] || { echo "content differs:$bad"; return 1; }
}

storm() {
	local t0 secs=$BATTERY_STORM_SECS mr_idle mr_after kills=0 end victim kk p
	t0=$(now)
	V=storm
	variant_setup v4.2
	rdma_idle 30 || step_fail "storm: RDMA resources of earlier mounts still there after 30 s"
	mkdir -p /tmp/storm
	rm -f /tmp/storm/pid.* /tmp/storm.stop
	for k in 0 1 2 3; do
		head -c 8388608 /dev/urandom >/tmp/storm/r$k
		head -c 8388608 /dev/urandom >/tmp/storm/w$k
	done
	if ! out=$(do_mount 2>&1); then step_fail "storm: mount -o $OPTS: $out"; return; fi
	step_ok "storm: mount -o $OPTS"
	step "storm: write the workers' files" sh -c "mkdir -p $M/storm && for k in 0 1 2 3; do
		dd if=/tmp/storm/r\$k of=$M/storm/r\$k bs=1M oflag=direct status=none &&
		dd if=/tmp/storm/w\$k of=$M/storm/w\$k bs=1M oflag=direct status=none || exit 1; done"
	# warm-up: the same eight workers, no kills, then idle
	start_workers
	sleep "$secs"
	stop_workers TERM && step_ok "storm: warm-up workers stop" || step_fail "storm: warm-up workers still running after 120 s"
	rm -f /tmp/storm/pid.* /tmp/storm.stop
	sync; sleep 3
	mr_idle=$(rdma_res_count mr)
	# the storm
	start_workers
	end=$(($(now) + secs))
	while [ "$(now)" -lt $end ]; do
		sleep 0.5
		# two workers a tick: the dd/cat in flight, and every third
		# time the loop itself (restarted)
		for kk in $(echo $KINDS | tr ' ' '\n' | shuf -n 2); do
			p=/tmp/storm/pid.${kk%:*}${kk#*:}
			victim=$(cat "$p")
			pkill -KILL -P "$victim" 2>/dev/null && kills=$((kills + 1))
			if [ $((kills % 3)) -eq 0 ]; then
				kill -KILL "$victim" 2>/dev/null
				worker "${kk%:*}" "${kk#*:}" 2>/dev/null &
				echo $! >"$p"
			fi
		done
	done
	echo "storm: $kills processes killed with SIGKILL" >&2
	[ $kills -gt 0 ] && step_ok "storm: $kills I/O processes killed in flight" || step_fail "storm: nothing was killed"
	stop_workers KILL && step_ok "storm: every worker gone after SIGKILL" ||
		step_fail "storm: workers still there 120 s after SIGKILL: $(ps -o pid,stat,wchan:20,args -C dd,cat | tr '\n' ';')"
	sync; sleep 3
	mr_after=$(rdma_res_count mr)
	echo "storm: MRs idle after warm-up $mr_idle, idle after storm $mr_after, before mount $MR0" >&2
	if [ "$MOD" = rpcrdmax ]; then
		# rpcrdmax's MR pool has a fixed size per connection.
		[ "$mr_after" -eq "$mr_idle" ] && step_ok "storm: MRs idle after the storm = after the warm-up ($mr_idle)" ||
			step_fail "storm: $mr_after MRs idle after the storm, $mr_idle after the warm-up"
	else
		# The stock client grows its MR pool on demand and never shrinks
		# it, so more MRs after the storm is growth, not a leak; the
		# return to the pre-mount count after umount (below) is its
		# leak check.
		[ "$mr_after" -ge "$mr_idle" ] && step_ok "storm: MRs idle after the storm $mr_after, warm-up $mr_idle (stock pool grows on demand)" ||
			step_fail "storm: $mr_after MRs idle after the storm, fewer than $mr_idle after the warm-up"
	fi
	step "storm: no corruption (O_DIRECT read)" storm_check
	step "storm: umount" umount $M
	if ! out=$(do_mount 2>&1); then step_fail "storm: remount: $out"; return; fi
	step "storm: no corruption after remount" storm_check
	step "storm: remove files" rm -rf $M/storm
	step "storm: final umount" umount $M
	rdma_idle 30 && step_ok "storm: MRs back to $MR0 after umount" ||
		step_fail "storm: $(rdma_res_count mr) MRs 30 s after umount, $MR0 before the mount"
	echo "TIME storm $(($(now) - t0))"
}

# ---- callbacks under load, and after a reconnect ---------------------------
# NFSv4.1 with I/O running: a delegation recalled over the backchannel
# (lib.sh's rounds; battery-server.sh runs the server's side), then the
# rxe device removed and re-added under the mount: I/O must recover on
# the new connection, and so must callbacks (a second recall: the client
# binds its session to the new connection and nfsd's callback client
# follows it there).
cb_load() {
	while [ ! -e /tmp/cb.stop ]; do
		if ! { dd if=/tmp/cb.src of=$M/cb/load bs=1M oflag=direct status=none &&
			[ "$(dd if=$M/cb/load bs=1M iflag=direct status=none | sha256sum)" = "$(sha256sum </tmp/cb.src)" ]; }; then
			echo "pass $(cat /tmp/cb.passes 2>/dev/null)" >>/tmp/cb.err
			sleep 1
		fi
		echo $(($(cat /tmp/cb.passes 2>/dev/null || echo 0) + 1)) >/tmp/cb.passes
	done
}

callbacks() {
	local t0 loadpid p0 c0 c1
	t0=$(now)
	V=callbacks
	variant_setup v4.1
	rm -f /tmp/cb.stop /tmp/cb.err /tmp/cb.passes
	head -c 4194304 /dev/urandom >/tmp/cb.src
	if ! out=$(do_mount 2>&1); then step_fail "callbacks: mount -o $OPTS: $out"; return; fi
	step_ok "callbacks: mount -o $OPTS"
	step "callbacks: write the files" sh -c "mkdir -p $M/cb && echo before >$M/cb/f1 && echo before >$M/cb/f2"
	cb_load &
	loadpid=$!
	deleg_client_round cb1 $M/cb/f1
	c0=$(xprt_stat 3)
	step "callbacks: rdma link delete rxe0" rdma link delete rxe0
	sleep 3
	step "callbacks: rdma link add rxe0" rxe_readd
	p0=$(cat /tmp/cb.passes 2>/dev/null || echo 0)
	step "callbacks: I/O after the device returns" timeout 600 sh -c \
		"while [ \"\$(cat /tmp/cb.passes 2>/dev/null || echo 0)\" -le $p0 ]; do sleep 1; done"
	# mountstats' connect_count: the transport really made a new connection.
	c1=$(xprt_stat 3)
	[ "$c1" -gt "$c0" ] 2>/dev/null && step_ok "callbacks: the client reconnected (connect_count $c0 -> $c1)" ||
		step_fail "callbacks: connect_count '$c0' -> '$c1' across the device's removal"
	deleg_client_round cb2 $M/cb/f2
	touch /tmp/cb.stop
	wait $loadpid
	[ ! -s /tmp/cb.err ] && step_ok "callbacks: $(cat /tmp/cb.passes) load passes, no error" ||
		step_fail "callbacks: load errors: $(tr '\n' ' ' </tmp/cb.err)"
	step "callbacks: remove files" rm -rf $M/cb
	step "callbacks: umount" timeout 120 umount $M
	echo "TIME callbacks $(($(now) - t0))"
}

# ---- run ---------------------------------------------------------------------
MR0=$(rdma_res_count mr)
for v in $BATTERY_VARIANTS; do run_variant "$v"; done
[ "$BATTERY_STORM_SECS" -gt 0 ] && storm
callbacks
# RPC-over-RDMA Version Two (Documentation/v2.rst): rpcrdmax's client
# settles every connection on it with rpcrdmax's server, and falls back to
# Version One on each with the stock server (ERR_VERS), every step above
# passing either way.
if [ "$MOD" = rpcrdmax ]; then
	p=/sys/module/rpcrdmax/parameters
	v1c=$(cat $p/client_vers1_conns) v2c=$(cat $p/client_vers2_conns)
	if [ "${BATTERY_SERVER_MODULE:-stock}" = rpcrdmax ]; then
		[ "$v2c" -gt 0 ] 2>/dev/null && [ "$v1c" = 0 ] &&
			step_ok "v2: every connection settled on Version Two ($v2c)" ||
			step_fail "v2: client_vers2_conns '$v2c', client_vers1_conns '$v1c'"
		# the server's count of our RDMA2_CONNPROPs (rpcrdmax-server.sh):
		# these connections' besides the first script's
		echo $(($(cat /share/v2-conns 2>/dev/null || echo 0) + v2c)) >/share/v2-conns
	else
		[ "$v1c" -gt 0 ] 2>/dev/null && [ "$v2c" = 0 ] &&
			step_ok "v2: the stock server answered ERR_VERS; all $v1c connections went on in Version One" ||
			step_fail "v2: client_vers1_conns '$v1c', client_vers2_conns '$v2c'"
	fi
fi
step "client: $KMOD unloads after umount" transport_unload "$MOD"
step "client: kernel log clean" kernel_log_clean
echo "TIME client-total $(($(now) - T_ALL))"
exit $STEP_FAILS
