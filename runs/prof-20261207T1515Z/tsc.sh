#!/bin/bash
# A/B of the guests' clocksource (issue 24): four boots alternating the
# default (HPET: the kernel marks TCG's TSC unstable) and tsc=reliable,
# each running prof3.sh (runs/prof-20261207T1120Z) on /dev/mpb3 and NBD.
# Run from a clone with prof3.sh copied to selftests/bench/.
out=${1:?out dir}
for i in 1 2 3 4; do
	case $i in 1|3) v=hpet; app= ;; *) v=tsc; app="tsc=reliable" ;; esac
	VMRUN_IMAGE_DIR=/tmp/exp-tsc-images MKINITRAMFS_BENCH=1 scripts/vmrun --hosts 2 \
		--pool 256M --mem 2G --timeout 500 --out "$out/$i-$v" --quiet \
		${app:+--append "$app"} -- env PROF_T=8 /selftests/bench/prof3.sh
	grep -h "=== FIO\|clocksource: Switched" "$out/$i-$v"/host0/tap.log "$out/$i-$v"/host0/console.log | sed "s/^/$i-$v /"
done
