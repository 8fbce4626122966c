# SPDX-License-Identifier: GPL-2.0
# Shared by the mpctl end-to-end unit scripts (test_mpctl_cli,
# test_mpctl_config_cli): run mpctl against the fake cmm_mp family and
# report TAP. Needs $MPCTL, $FAKE and $tmp set; installed beside them in
# build/unit.

n=0
fails=0
out= err= rc=

# run ARGS...: run mpctl with the fake, keep stdout, stderr and status.
# MPCTL_WRAP (e.g. "valgrind -q --error-exitcode=9") goes in front.
run() {
	LD_PRELOAD=$FAKE $MPCTL_WRAP "$MPCTL" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# ok STATUS DESC: a test point; a failure shows mpctl's status and output
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		echo "#   rc=$rc"
		printf '%s\n' "$out" | sed 's/^/#   out: /'
		printf '%s\n' "$err" | sed 's/^/#   err: /'
		fails=$((fails + 1))
	fi
}
