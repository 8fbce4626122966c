#!/bin/sh
# every 20 s: host /proc/stat cpu line and each qemu thread's utime+stime (ticks)
while :; do
	echo "=== $(date +%s)"
	head -1 /proc/stat
	for p in $(pgrep -f qemu-system); do
		for t in /proc/$p/task/*; do
			[ -r $t/stat ] || continue
			n=$(cat $t/comm 2>/dev/null)
			set -- $(sed 's/.*) //' $t/stat)
			echo "T $p $(basename $t) \"$n\" ${12} ${13}"
		done
	done
	sleep 20
done
