#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpctl dvm and libmp-dvm.so on the build host, whose kernel has no DVM:
# the command line and its one-line errors, that nothing runs when the
# mode cannot be turned on, and the library's statistics file, read by
# `mpctl dvm stat`, and exit summary (every chunk "mode_off" here).  The
# identity-mapped side is tested in guests (selftests/dvm_heap).  Prints
# TAP.  Installed as build/unit/test_mpctl_dvm: mpctl is ../mpctl/mpctl.

. "$(dirname "$0")/lib.sh"
LIB=$here/../libmp-dvm/libmp-dvm.so
export MP_DVM_STATS_DIR=$tmp/stats

# expect RC ERR-LINE DESC: exit status and exact stderr
expect() {
	[ "$rc" = "$1" ] && [ "$err" = "$2" ]
	ok $? "$3"
}

run dvm
expect 2 "mpctl: dvm: missing subcommand (run, stat) (see 'mpctl dvm --help')" \
	"no subcommand"
run dvm frob
expect 2 "mpctl: dvm: unknown subcommand 'frob' (see 'mpctl dvm --help')" \
	"unknown subcommand"
run dvm run
expect 2 "mpctl: dvm: run: missing command (see 'mpctl dvm --help')" \
	"run without a command"
run dvm run --min-size 12 -- true
expect 2 "mpctl: dvm: invalid --min-size '12' (at least 4096 bytes) (see 'mpctl dvm --help')" \
	"--min-size below a page"
run dvm run --min-size 2Q -- true
expect 2 "mpctl: dvm: invalid --min-size '2Q' (at least 4096 bytes) (see 'mpctl dvm --help')" \
	"--min-size with a bad suffix"
run dvm run --bogus -- true
expect 2 "mpctl: dvm: unknown option '--bogus' (see 'mpctl dvm --help')" \
	"unknown option"
run dvm run --lib "$tmp/none.so" -- touch "$tmp/ran"
[ "$rc" = 1 ] && [ ! -e "$tmp/ran" ] &&
	[ "$err" = "mpctl: dvm: libmp-dvm.so: not found (--lib or MP_DVM_LIB): No such file or directory" ]
ok $? "missing library: error, command not run"
if [ -e /proc/sys/vm/dvm_min_bytes ]; then
	echo "ok $((n += 1)) - # SKIP this kernel has DVM"
else
	run dvm run -- touch "$tmp/ran"
	[ "$rc" = 1 ] && [ ! -e "$tmp/ran" ] &&
		[ "$err" = "mpctl: dvm: DVM mode: the kernel has no DVM (not the patched kernel?): Invalid argument" ]
	ok $? "kernel without DVM: error, command not run"
fi
run dvm --help
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^usage: mpctl dvm run'
ok $? "--help"

run dvm stat 0
expect 2 "mpctl: dvm: stat: invalid PID '0' (see 'mpctl dvm --help')" "stat: PID 0"
run dvm stat 12 13
expect 2 "mpctl: dvm: stat: unexpected argument '13' (see 'mpctl dvm --help')" \
	"stat: two PIDs"
run dvm stat 2147483000
expect 1 "mpctl: dvm: stat: no process 2147483000: No such process" \
	"stat: no such process"
run dvm stat $$
[ "$rc" = 0 ] && ! printf '%s\n' "$out" | grep -q '"heap"' &&
	printf '%s\n' "$out" | grep -q '"anonymous_bytes":[1-9]'
ok $? "stat of a process not started by the launcher: smaps only"

# The library in a process of this host: mode off, chunks counted.
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
LD_PRELOAD="$LIB:libjemalloc.so.2" MALLOC_CONF=retain:true,oversize_threshold:0,narenas:2 \
	MP_DVM_STAT=1 cat "$tmp/fifo" > /dev/null 2> "$tmp/cat.err" &
pid=$!
i=0
while [ ! -s "$MP_DVM_STATS_DIR/$pid" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
run dvm stat $pid
"$MPCTL" dvm stat -u $pid > "$tmp/human" 2>&1
exec 3> "$tmp/fifo"
exec 3>&-
wait $pid
printf '%s\n' "$out" | tr -d ' ' > "$tmp/stat"
[ "$rc" = 0 ] && grep -q '"dvm_mode":false' "$tmp/stat" &&
	grep -q '"jemalloc":true' "$tmp/stat" && grep -q '"jemalloc_conf_ok":true' "$tmp/stat" &&
	grep -q '"arenas":2' "$tmp/stat" && grep -q '"identity_bytes":0,' "$tmp/stat" &&
	grep -q '"mode_off":{' "$tmp/stat" && grep -q '"identity_share":0.0' "$tmp/stat"
ok $? "stat of a preloaded process: heap from its statistics file, all mode_off"
[ ! -e "$MP_DVM_STATS_DIR/$pid" ]
ok $? "the statistics file is removed at exit"
grep -q '"fallback_bytes":"[0-9.]* MiB ([0-9.]* MB)"' "$tmp/human" &&
	grep -q '"min_bytes":"[0-9.]* [KM]iB ([0-9.]* [kM]B)"' "$tmp/human"
rc=$? out=$(cat "$tmp/human") err=
ok $rc "stat -u: sizes for people"
grep -q "^mp-dvm: pid $pid: heap [0-9.]* MiB in [1-9][0-9]* chunks, identity 0.0 MiB (0.0 %), fallback [1-9][0-9.]* MiB (mode_off " "$tmp/cat.err" &&
	grep -q '^mp-dvm: not in DVM mode' "$tmp/cat.err"
rc=$? err=$(cat "$tmp/cat.err") out=
ok $rc "exit summary and the warning on stderr"

# Threads: a joinable thread without a stack of its own runs on one from
# the heap, given back at the join; detached threads and threads with a
# stack of their own keep theirs (the library's counters, per thread).
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
: > "$tmp/threads"
LD_PRELOAD="$LIB:libjemalloc.so.2" MALLOC_CONF=retain:true,oversize_threshold:0,narenas:2 \
	"$here/dvm_threads" < "$tmp/fifo" > "$tmp/threads" 2> /dev/null &
pid=$!
exec 3> "$tmp/fifo"
i=0
while [ "$(wc -l < "$tmp/threads")" -lt 4 ] && kill -0 $pid 2> /dev/null &&
	[ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
run dvm stat $pid
(echo >&3) 2> /dev/null	# a subshell takes the SIGPIPE when it is gone
exec 3>&-
wait $pid
trc=$?
printf '%s\n' "$out" | tr -d ' ' > "$tmp/stat"
[ $trc = 0 ] && [ "$(tr '\n' ' ' < "$tmp/threads")" = "default 1 1 sized 1 1 detached 0 0 own 0 0 " ]
rc=$? out=$(cat "$tmp/threads") err=
ok $rc "threads: joinable ones on heap stacks, detached and own stacks left alone"
grep -q '"thread_stacks":2,' "$tmp/stat" && grep -q '"thread_stacks_freed":2,' "$tmp/stat" &&
	grep -q '"thread_stack_bytes":[1-9]' "$tmp/stat" && grep -q '"thread_stack_bytes_kept":0' "$tmp/stat"
rc=$? out=$(cat "$tmp/stat") err=
ok $rc "threads: mpctl dvm stat counts two heap stacks, both given back"
LD_PRELOAD="$LIB:libjemalloc.so.2" MALLOC_CONF=retain:true,oversize_threshold:0,narenas:2 \
	MP_DVM_THREAD_STACKS=0 "$here/dvm_threads" < /dev/null > "$tmp/threads" 2> /dev/null
[ "$(tr '\n' ' ' < "$tmp/threads")" = "default 0 0 sized 0 0 detached 0 0 own 0 0 " ]
rc=$? out=$(cat "$tmp/threads") err=
ok $rc "threads: MP_DVM_THREAD_STACKS=0 leaves every stack to glibc"

tap_end
