#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --timeout 900
#
# Real, unmodified programs under `mpctl dvm run`: coreutils sort on a
# file of 400000 lines and redis-server loaded with 25000 keys (strings,
# lists, hashes, sorted sets) through redis-cli --pipe, then
# redis-benchmark against it.  Output must be identical to a run without
# the launcher; the share of the heap identity mapped is printed (goal
# >= 95 %, checked), and so is the whole-process share: of all the
# program's anonymous memory, the part identity mapped (goal >= 95 %,
# checked for both; the heap's share counts only the chunks the hook
# served).  What of redis' anonymous memory is not identity mapped is
# listed area by area and summed by kind.  The run-time ratio
# with/without the launcher is measured side by side and printed (no
# threshold: TCG timing; checked only that both sides ran and took time).
# The "# raw:" lines name the phase the lines after them belong to and
# carry numbers for tools/dvm-eval/heap_tap.py (make dvm-eval runs this
# scenario in its guest boot: Documentation/dvm-heap.rst).
. /selftests/lib.sh
tap_plan 11

T=/tmp/dvm_programs
mkdir -p $T
now() { cut -d' ' -f1 /proc/uptime; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
# share of the heap in a summary line: "N chunks, identity X MiB (Y %)"
summary_share() {
	sed -n 's/.* chunks, identity [0-9.]* MiB (\([0-9.]*\) %).*/\1/p' "$1" | head -n 1
}
# share of all anonymous memory in it: "anonymous memory X MiB, identity Y MiB (Z %)"
summary_mem_share() {
	sed -n 's/.*; anonymous memory [0-9.]* MiB, identity [0-9.]* MiB (\([0-9.]*\) %).*/\1/p' "$1" | head -n 1
}
# nonid_areas PID: the anonymous memory of PID that is not identity
# mapped, area by area (16 KiB and more), then summed by kind as a raw
# line: thread stacks (an area holding a thread's stack pointer, from
# /proc/PID/task/*/syscall), files (the programs' and libraries' data
# written to), jemalloc's own chunks from before the hooks (MAP_NORESERVE:
# "nr" in VmFlags), other anonymous areas; in KiB
nonid_areas() {
	for t in /proc/$1/task/*; do
		awk '{ print $(NF - 1) }' $t/syscall 2>/dev/null
	done | sed -n 's/^0x//p' | awk '{ printf "%016s\n", $1 }' | tr ' ' 0 > $T/sps
	awk -v sps="$(tr '\n' ' ' < $T/sps)" '
	function pad(h) { h = sprintf("%16s", h); gsub(/ /, "0", h); return h }
	function flush() {
		if (hdr == "" || anon - id <= 0)
			return
		n = anon - id
		split(hdr, f, " "); split(f[1], r, "-")
		lo = pad(r[1]); hi = pad(r[2])
		kind = "other"
		if (f[6] ~ /^\//) kind = "file"
		else if (flags ~ / nr( |$)/) kind = "jemalloc0"
		for (i = 1; i <= nsp; i++)
			if (sp[i] >= lo && sp[i] < hi) kind = "stack"
		if (f[6] == "[stack]") kind = "stack"
		sum[kind] += n
		if (n >= 16) printf "# nonid %s %d KiB: %s\n", kind, n, hdr
	}
	BEGIN { nsp = split(sps, sp, " ") }
	/^[0-9a-f]+-[0-9a-f]+ / { flush(); hdr = $0; anon = 0; id = 0; flags = ""; next }
	/^Anonymous:/ { anon = $2 }
	/^DvmIdentity:/ { id = $2 }
	/^VmFlags:/ { flags = $0 }
	END {
		flush()
		printf "# raw: nonid_stack_kib=%d nonid_file_kib=%d nonid_jemalloc0_kib=%d nonid_other_kib=%d\n",
			sum["stack"], sum["file"], sum["jemalloc0"], sum["other"]
	}' /proc/$1/smaps
}
at_least() { awk -v s="$1" -v g="$2" 'BEGIN{exit !(s != "" && s >= g)}'; }
# measured A B: two run times, both numbers above 0 (a ratio is printed)
measured() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a > 0 && b > 0)}'; }

# ---- sort
diag "raw: phase=sort"
awk 'BEGIN { srand(7); for (i = 0; i < 400000; i++)
	printf "%08d %s-%d\n", int(rand() * 100000000), substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 26), i }' > $T/in.txt
diag "sort input: $(wc -c < $T/in.txt) bytes, $(wc -l < $T/in.txt) lines"
sort $T/in.txt > $T/sort.plain
mpctl dvm run --stat -- sort $T/in.txt > $T/sort.dvm 2> $T/sort.err
rc=$?
cat $T/sort.err >&2
check "sort runs under mpctl dvm run" '[ $rc = 0 ]'
check "sort: output identical with and without the launcher" 'cmp $T/sort.plain $T/sort.dvm'
share=$(summary_share $T/sort.err)
diag "$(grep '^mp-dvm:' $T/sort.err)"
diag "sort: heap identity share $share %"
diag "raw: heap_share=$share lines=$(wc -l < $T/in.txt) bytes=$(wc -c < $T/in.txt)"
check "sort: >= 95 % of the heap identity mapped ($share %)" 'at_least "$share" 95'
mem_share=$(summary_mem_share $T/sort.err)
check "sort: >= 95 % of all anonymous memory identity mapped ($mem_share %)" \
	'at_least "$mem_share" 95'

# side by side, in turns: plain (glibc malloc), jemalloc alone (the
# allocator's share of the difference), under the launcher
tp=0 tj=0 td=0
add() { awk -v t="$1" -v a="$2" -v b="$3" 'BEGIN{print t + b - a}'; }
for i in 1 2; do
	a=$(now); sort $T/in.txt > /dev/null; b=$(now)
	LD_PRELOAD=libjemalloc.so.2 sort $T/in.txt > /dev/null; c=$(now)
	mpctl dvm run -- sort $T/in.txt > /dev/null; d=$(now)
	tp=$(add "$tp" "$a" "$b") tj=$(add "$tj" "$b" "$c") td=$(add "$td" "$c" "$d")
done
diag "sort run time, 2 runs each: plain ${tp}s, jemalloc ${tj}s, dvm ${td}s"
diag "sort ratio dvm/plain $(ratio "$td" "$tp"), dvm/jemalloc $(ratio "$td" "$tj")"
diag "raw: runs=2 plain_s=$tp jemalloc_s=$tj dvm_s=$td"
check "sort: run-time ratio measured ($(ratio "$td" "$tp")): dvm ${td}s, plain ${tp}s" 'measured "$td" "$tp"'

# ---- redis
diag "raw: phase=redis"
SOCK=$T/redis.sock
awk 'BEGIN {
	v = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for (i = 0; i < 25000; i++) {
		val = ""
		for (j = 0; j < 6; j++) val = val substr(v, 1 + (i * 7 + j) % 62, 40)
		printf "SET key:%d %s\r\n", i, val
		if (i % 4 == 0) printf "RPUSH list:%d item-%d-a item-%d-b item-%d-c\r\n", i % 500, i, i, i
		if (i % 4 == 1) printf "HSET hash:%d f%d %s\r\n", i % 700, i, substr(val, 1, 60)
		if (i % 4 == 2) printf "ZADD zset:%d %d m%d\r\n", i % 300, i % 977, i
	}
}' > $T/load.txt
diag "redis load: $(wc -l < $T/load.txt) commands"

stop_redis() {
	redis-cli -s $SOCK shutdown nosave > /dev/null 2>&1
	wait "$RPID"
}
# run_redis NAME [LAUNCHER...]: start, load, query, benchmark, shut down;
# sets RPID and the elapsed time of load + benchmark in $T/NAME.time
run_redis() {
	name=$1; shift
	rm -f $SOCK
	"$@" redis-server --port 0 --unixsocket $SOCK --save '' --appendonly no \
		--enable-debug-command yes --daemonize no > $T/$name.log 2>&1 &
	RPID=$!
	wait_until 60 "redis-cli -s $SOCK ping | grep -q PONG" || return 1
	a=$(now)
	redis-cli -s $SOCK --pipe < $T/load.txt > $T/$name.pipe 2>&1
	redis-benchmark -s $SOCK -q -n 10000 -t set,get,lpush,lpop > $T/$name.bench 2>&1
	b=$(now)
	awk -v a="$a" -v b="$b" 'BEGIN{print b - a}' > $T/$name.time
	{
		redis-cli -s $SOCK del counter:__rand_int__ key:__rand_int__ mylist > /dev/null
		redis-cli -s $SOCK dbsize
		redis-cli -s $SOCK debug digest
		redis-cli -s $SOCK get key:12345
		redis-cli -s $SOCK lrange list:17 0 -1
		redis-cli -s $SOCK hgetall hash:33
		redis-cli -s $SOCK zrange zset:5 0 -1 withscores
	} > $T/$name.out 2>&1
}

# warm-up (TCG translates the programs' code once; no side to pay for it)
rm -f $SOCK
redis-server --port 0 --unixsocket $SOCK --save '' --appendonly no > $T/warm.log 2>&1 &
RPID=$!
wait_until 60 "redis-cli -s $SOCK ping | grep -q PONG"
head -n 5000 $T/load.txt | redis-cli -s $SOCK --pipe > /dev/null 2>&1
redis-benchmark -s $SOCK -q -n 2000 -t set,get,lpush,lpop > /dev/null 2>&1
stop_redis
run_redis plain
stop_redis
run_redis dvm mpctl dvm run --stat --
rc=$?
check "redis-server runs under mpctl dvm run" '[ $rc = 0 ]'
mpctl dvm stat "$RPID" > $T/redis.stat
nonid_areas "$RPID" > $T/redis.nonid
cat $T/redis.stat >&2
share=$(awk -F: '/"identity_share"/{gsub(/[ ,]/, "", $2); print $2; exit}' $T/redis.stat)
mem_share=$(awk -F: '/"memory"/{m=1} m && /"identity_share"/{gsub(/[ ,]/, "", $2); print $2; exit}' $T/redis.stat)
stop_redis
cat $T/dvm.log >&2
diag "$(grep '^mp-dvm:' $T/dvm.log)"
diag "redis: heap identity share $share % (chunks the hook served), whole-process anonymous identity share $mem_share % (mpctl dvm stat)"
check "redis: >= 95 % of the heap identity mapped ($share %)" 'at_least "$share" 95'
cat $T/redis.nonid
check "redis: >= 95 % of all anonymous memory identity mapped ($mem_share %)" \
	'at_least "$mem_share" 95'
check "redis: same data and answers with and without the launcher" \
	'[ -s $T/plain.out ] && cmp $T/plain.out $T/dvm.out'
check "redis: --stat summary at exit" 'grep -q "^mp-dvm: pid $RPID: heap" $T/dvm.log'
diag "redis dataset: $(head -n 2 $T/dvm.out | tr '\n' ' ')"
diag "raw: heap_share=$share mem_share=$mem_share dbsize=$(head -n 1 $T/dvm.out) commands=$(wc -l < $T/load.txt)"
diag "redis-benchmark without: $(tr '\r' '\n' < $T/plain.bench | grep 'requests per second' | tr '\n' ' ')"
diag "redis-benchmark with:    $(tr '\r' '\n' < $T/dvm.bench | grep 'requests per second' | tr '\n' ' ')"
tp=$(cat $T/plain.time) td=$(cat $T/dvm.time)
diag "redis load + benchmark: plain ${tp}s, dvm ${td}s, ratio dvm/plain $(ratio "$td" "$tp")"
diag "raw: plain_s=$tp dvm_s=$td"
check "redis: run-time ratio measured ($(ratio "$td" "$tp")): dvm ${td}s, plain ${tp}s" 'measured "$td" "$tp"'
