#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libmp's two sets of names (LIBMP_1.6): every function is exported as
# cmmmp_NAME in LIBMP_1.6, and every mp_NAME of LIBMP_1 .. LIBMP_1.5 stays
# exported in its node as an alias of it (same address); libmp.h maps each
# old name to its new one. Prints TAP. Installed as build/unit/
# test_libmp_names with the source and build paths filled in.

top=@TOP@
lib=@B@/libmp/libmp.so.1
sym=$top/libmp/libmp.sym
hdr=$top/libmp/libmp.h
. "$(dirname "$0")/lib.sh"

sed -n 's/^\tmp_\([a-z0-9_]*\);$/\1/p' "$sym" | sort > "$tmp/old"
# the renamed ones: LIBMP_1.6's; later nodes bring cmmmp_ names only
sed -n '/^LIBMP_1.6 {/,/^}/s/^\tcmmmp_\([a-z0-9_]*\);$/\1/p' "$sym" |
	sort > "$tmp/new"
sed -n 's/^#define mp_\([a-z0-9_]*\) *cmmmp_\([a-z0-9_]*\)$/\1 \2/p' "$hdr" |
	awk '$1 == $2 { print $1 }' | grep -v foreach | sort > "$tmp/macros"

[ -s "$tmp/old" ] && cmp -s "$tmp/old" "$tmp/new"
ok $? "libmp.sym: LIBMP_1.6 has a cmmmp_ name for each of the $(wc -l < "$tmp/old") mp_ names"
cmp -s "$tmp/old" "$tmp/macros"
ok $? "libmp.h: each old name is a macro for its cmmmp_ name"

# NAME VERSION ADDRESS of every dynamic symbol of the library
objdump -T "$lib" | awk '$NF ~ /^(mp|cmmmp)_/ { print $NF, $(NF - 1), $1 }' |
	sort > "$tmp/dyn"
bad=0
while read -r name; do
	old=$(awk -v s="mp_$name" '$1 == s { print $3, $2 }' "$tmp/dyn")
	new=$(awk -v s="cmmmp_$name" '$1 == s { print $3, $2 }' "$tmp/dyn")
	node=$(awk -v s="mp_$name;" '/^LIBMP_[0-9.]* {/ { v = $1 } $1 == s { print v }' "$sym")
	if [ -z "$old" ] || [ "${old% *}" != "${new% *}" ] ||
	   [ "${old#* }" != "$node" ] || [ "${new#* }" != LIBMP_1.6 ]; then
		echo "# mp_$name: '$old', cmmmp_$name: '$new', node $node"
		bad=1
	fi
done < "$tmp/old"
ok $bad "libmp.so.1: every mp_ name is in its old node, at its cmmmp_ function's address"

! awk '$1 ~ /^mp_/ && $2 == "LIBMP_1.6"' "$tmp/dyn" | grep -q .
ok $? "libmp.so.1: LIBMP_1.6 brings no mp_ name"

tap_end
