# SPDX-License-Identifier: GPL-2.0
#
# tap.sh - the one TAP helper of the project's shell tests (TAP version 13,
# as prove(1) reads it).  Source it, then:
#
#   tap_start               print the TAP version line
#   tap_ok STATUS TEXT      "ok N - TEXT" when STATUS is 0, else "not ok N - TEXT",
#                           followed by the last 15 lines of $TAP_DIAG_FILE (when
#                           set and not empty) as "#" diagnostics
#   tap_skip TEXT REASON    "ok N - TEXT # SKIP REASON"
#   tap_diag TEXT...        a "# TEXT" diagnostic line
#   tap_done NAME           print the plan "1..N" and "NAME: P passed, F failed";
#                           its status is 0 when none failed
#
# TAP_DIAG_FILE is the caller's: typically the output of the command a test
# just ran.

tap_n=0
tap_failed=0

tap_start()
{
	echo "TAP version 13"
}

tap_ok()
{
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
		return 0
	fi
	echo "not ok $tap_n - $2"
	tap_failed=$((tap_failed + 1))
	if [ -n "${TAP_DIAG_FILE:-}" ] && [ -s "$TAP_DIAG_FILE" ]; then
		tail -n 15 "$TAP_DIAG_FILE" | sed 's/^/#   /'
	fi
	return 1
}

tap_skip()
{
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

tap_diag()
{
	echo "# $*"
}

tap_done()
{
	echo "1..$tap_n"
	echo "$1: $((tap_n - tap_failed)) passed, $tap_failed failed"
	[ $tap_failed = 0 ]
}
