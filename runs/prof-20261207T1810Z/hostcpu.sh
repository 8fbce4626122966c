#!/bin/sh
while :; do
	echo "=== $(date +%s)"
	head -1 /proc/stat
	for p in $(pgrep -f qemu-system); do
		for t in /proc/$p/task/*; do
			[ -r $t/stat ] || continue
			awk -v p=$p '{ print "T", p, $1, $14, $15 }' $t/stat
		done
	done
	sleep 1
done
