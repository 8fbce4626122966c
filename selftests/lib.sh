#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the guest-side TAP scenarios (busybox ash).  Source it:
#   . /selftests/lib.sh
# busybox's ip/tc applets would shadow the real iproute2 tools: use these.
ip() { /usr/bin/ip "$@"; }
tc() { /usr/bin/tc "$@"; }

_tap_n=0
tap_plan() { echo "1..$1"; }
# ok DESC: a passing test point
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
# fail DESC: a failing test point
fail() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $*"; }
# check DESC CMD [ARG...]: runs CMD; its output goes to the console log and,
# when it fails, its last lines also become TAP comments, so that a failure
# in a CI summary (which shows only the TAP stream) says why.
# check DESC 'SHELL CODE': one string is eval'ed in this shell, so the
# helpers here can be used in it.
check() {
	_d=$1; shift
	_out=/tmp/check.$$.out
	if [ $# = 1 ]; then
		eval "$1" >"$_out" 2>&1
	else
		"$@" >"$_out" 2>&1
	fi
	_rc=$?
	cat "$_out" >&2
	if [ $_rc = 0 ]; then
		ok "$_d"
	else
		fail "$_d"
		tail -n 8 "$_out" | sed 's/^/#   /'
		check_diag 2>&1 | sed 's/^/#   /'
	fi
	rm -f "$_out"
	return 0
}
# tap_run TAG N CMD [ARG...]: runs CMD, a program that prints TAP (plain
# "ok 3 - what" or kselftest_harness's "ok 3 what"), with its points
# renumbered into ours and its plan dropped, then adds one point of our
# own: CMD exited 0 and printed all N of its points, so that a crash or an
# early exit cannot pass.  Its exit status and count stay in /tmp/TAG.*.
tap_run() {
	_tr_tag=$1 _tr_n=$2
	shift 2
	{ "$@" 2>&1; echo $? > "/tmp/$_tr_tag.rc"; } |
		awk -v n="$_tap_n" -v n0="$_tap_n" -v out="/tmp/$_tr_tag.points" '
		/^TAP version/ || /^1\.\./ { next }
		/^ok / { n++; sub(/^ok [0-9]+( -)?/, "ok " n " -") }
		/^not ok / { n++; sub(/^not ok [0-9]+( -)?/, "not ok " n " -") }
		{ print; fflush() }
		END { print n - n0 > out }'
	_tap_n=$((_tap_n + $(cat "/tmp/$_tr_tag.points")))
	check "$*: exit status $(cat "/tmp/$_tr_tag.rc"), $(cat "/tmp/$_tr_tag.points") of its $_tr_n points printed" \
		"test \"\$(cat /tmp/$_tr_tag.rc)\" = 0 && test \"\$(cat /tmp/$_tr_tag.points)\" = $_tr_n"
}
# check_diag: state a suite adds to every failure (mpe_lib.sh: the transport)
check_diag() { :; }
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - # SKIP $*"; }
diag() { echo "# $*"; }

# seg_sysfs_same DIR JSON: the segment device DIR (/sys/bus/cmm_mp/devices/
# mp0.N or mp0:<chip>.<index>) reads what JSON, netlink's object of the same
# segment (mpctl list, without spaces or newlines), says: state, mode,
# device node, owner, mirror and redundancy (an owner or mirror netlink
# leaves out reads -1 in sysfs). Prints both views; an empty state fails.
seg_sysfs_same() {
	_jstr() { echo "$2" | grep -o "\"$1\":\"[^\"]*\"" | cut -d'"' -f4; }
	_jnum() {
		_v=$(echo "$2" | grep -o "\"$1\":[0-9]*" | cut -d: -f2)
		echo "${_v:--1}"
	}
	_ss="$(cat "$1/state") $(cat "$1/mode") '$(cat "$1/devnode")'"
	_ss="$_ss $(cat "$1/owner") $(cat "$1/mirror") '$(cat "$1/redundancy")'"
	_ns="$(_jstr state "$2") $(_jstr mode "$2") '$(_jstr devnode "$2")'"
	_ns="$_ns $(_jnum owner "$2") $(_jnum mirror "$2") '$(_jstr redundancy "$2")'"
	echo "# ${1##*/} sysfs: $_ss; netlink: $_ns" >&2
	[ -n "$(cat "$1/state")" ] && [ -n "$(_jstr state "$2")" ] &&
		[ "$_ss" = "$_ns" ]
}

# wait_until SECONDS CODE: poll CODE (eval'ed) every 0.2 s until it succeeds;
# fails once SECONDS (SLOW x SECONDS on the debug kernel, below) have
# passed on the clock.  A count of rounds would wait longer than it says,
# by what a round of CODE costs: many times SECONDS on the debug kernel.
wait_until() {
	read -r _wu _ < /proc/uptime
	_wend=$((${_wu%.*} + $1 * SLOW)); shift
	while ! eval "$*" >/dev/null 2>&1; do
		read -r _wu _ < /proc/uptime
		[ "${_wu%.*}" -lt $_wend ] || return 1
		sleep 0.2
	done
}

# kernel_log_bad: the first lines of the kernel log that guest-init's final
# check fails a guest on (warnings, oopses, KASAN/UBSAN/lockdep reports; a
# user program's "traps: ... general protection fault" is not one); for
# scenarios that check before the end or never reach it
kernel_log_bad() {
	dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN' |
		grep -Ev '\] traps: .*\[[0-9]+\] general protection fault ip:' | head -n 5
}

# klog_allow_oom: for a scenario that makes the OOM killer report on
# purpose: /tmp/mp-klog-filter (which guest-init's final check applies
# too) removes only the "Call Trace:" lines inside OOM reports; the log is
# kept whole, so anything else in it, before or after, still fails the guest
klog_allow_oom() {
	cat > /tmp/mp-klog-filter <<'EOF_FILTER'
#!/bin/sh
# the OOM killer's reports a scenario asked for: their "Call Trace:" lines go
exec awk '/invoked oom-killer/ { oom = 1 }
	!(oom && /Call Trace:/) { print }
	/Killed process/ { oom = 0 }'
EOF_FILTER
	chmod +x /tmp/mp-klog-filter
}

memtotal_kb() { awk '/^MemTotal:/ {print $2}' /proc/meminfo; }
node_memtotal_kb() { awk '/MemTotal:/ {print $4}' "/sys/devices/system/node/node$1/meminfo" 2>/dev/null || echo 0; }
# iomem_has PATTERN: /proc/iomem has a line matching PATTERN
iomem_has() { grep -q "$1" /proc/iomem; }
# MP_OPEN_SEGS: the segments every member may use unheld (cmm_mp's
# open_segs): segment 0 holds mpe_test's barrier slots and the transport
# tests' regions; a scenario that proves the default sets it to 0
MP_OPEN_SEGS=${MP_OPEN_SEGS-1}
load_cmm_mp() {
	insmod /lib/modules/cmm-mp/cmm_mp.ko mem="$MP_POOL_MEM" \
		${MP_OPEN_SEGS:+open_segs=$MP_OPEN_SEGS} "$@"
}
# On the debug kernel (make check-debug: KASAN, lockdep, TCG) a frame
# takes many times longer to handle, and mp_eth's default timers took
# that for loss (half of all frames retransmitted, requests timing out):
# there its timers are stretched 4x.  load_mp_eth [PARAM=V...]: mp_eth with
# MP_ETH_PARAMS first, so a scenario's own values win.
[ "${MP_KERNEL:-}" != debug ] ||
	MP_ETH_PARAMS=${MP_ETH_PARAMS-"rto_initial_us=200000 rto_max_us=3200000 hb_timeout_ms=12000"}
# SLOW: how many times longer the other hosts take for anything on the
# debug kernel; waits for them (barrier, await_token, signal_token,
# hostile_lib.sh's sig) stretch by it
SLOW=1
[ "${MP_KERNEL:-}" != debug ] || SLOW=4
# barrier TOKEN SECS: mpe_test's barrier with every other device (see
# mpe_test.c), waiting up to SLOW x SECS: on the debug kernel the other
# hosts reach it that much later
barrier() { mpe_test barrier "$1" $(($2 * SLOW)); }
# await_token SLOT TOKEN SECS / signal_token DST SLOT TOKEN SECS: mpe_test's
# rendezvous with one other host, waiting up to SLOW x SECS, as barrier
await_token() { mpe_test await "$1" "$2" $(($3 * SLOW)); }
signal_token() { mpe_test signal "$1" "$2" "$3" $(($4 * SLOW)); }
# shellcheck disable=SC2086 # MP_ETH_PARAMS: words
load_mp_eth() { insmod /lib/modules/cmm-mp/mp_eth.ko ${MP_ETH_PARAMS:-} "$@"; }
