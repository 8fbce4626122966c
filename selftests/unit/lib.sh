# SPDX-License-Identifier: GPL-2.0
# What the host unit scripts share (test_mpctl_cli, test_mpctl_key,
# test_mpctl_config_cli, test_mpctl_json, test_mpctl_dvm,
# test_libmp_names): a scratch directory, TAP points, mpctl run and
# checked. Installed beside them in build/unit; each sources it first as
#   . "$(dirname "$0")/lib.sh"
# and ends with tap_end. Sets $here (build/unit), $MPCTL (the built
# mpctl) and $tmp (removed at exit).

here=$(cd "$(dirname "$0")" && pwd)
MPCTL=$here/../mpctl/mpctl
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0").XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
out= err= rc=
FAKE=

# fake_pool: mpctl runs against the fake cmm_mp family (fake_cmm_mp.so,
# LD_PRELOADed; its state in $tmp/pool) and an empty fake sysfs.
fake_pool() {
	FAKE=$here/fake_cmm_mp.so
	export MP_SYSFS_ROOT="$tmp/sys"
	export FAKE_CMM_MP_STATE="$tmp/pool"
	mkdir -p "$MP_SYSFS_ROOT"
}

# run ARGS...: run mpctl (with the fake after fake_pool), keep stdout,
# stderr and status. MPCTL_WRAP (e.g. "valgrind -q --error-exitcode=9")
# goes in front.
run() {
	env ${FAKE:+"LD_PRELOAD=$FAKE"} $MPCTL_WRAP "$MPCTL" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# ok STATUS DESC: a test point; a failure shows the last run's status and
# output, if any
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "$rc$out$err" ] && echo "#   rc=$rc"
		[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/#   out: /'
		[ -n "$err" ] && printf '%s\n' "$err" | sed 's/^/#   err: /'
		fails=$((fails + 1))
	fi
}

# expect_fail DESC RC LINE ARGS...: mpctl ARGS exits RC, with exactly
# LINE on stderr and nothing else
expect_fail() {
	desc=$1 want_rc=$2 line=$3
	shift 3
	run "$@"
	[ "$rc" = "$want_rc" ] && [ "$err" = "$line" ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ]
	ok $? "$desc"
}

# tap_end: the plan goes last (TAP allows it) so that adding a case needs
# no counting; the script's status is whether every point passed
tap_end() {
	echo "1..$n"
	[ "$fails" = 0 ]
}
