# SPDX-License-Identifier: GPL-2.0
#
# chromium.sh - the reporter's pages as headless Chromium renders them, for
# run-tests.sh and compare-tests.sh.  Source it with $work (the test's
# scratch directory) set; it sets $chromium (CHROMIUM, default
# /usr/bin/chromium).  Then:
#
#   chromium_skip           why the browser checks cannot run (SKIP_BROWSER set,
#                           no browser) on stdout; status 1 when they can
#   chromium_dom PAGE LOG   PAGE's DOM once its scripts ran, on stdout; the
#                           browser's log in LOG (console messages: ":CONSOLE")

chromium=${CHROMIUM:-/usr/bin/chromium}

chromium_skip()
{
	if [ -n "${SKIP_BROWSER:-}" ]; then
		echo "SKIP_BROWSER is set"
	elif [ ! -x "$chromium" ]; then
		echo "$chromium: not available"
	else
		return 1
	fi
}

chromium_dom()
{
	timeout 90 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--enable-logging=stderr --v=0 --user-data-dir="$work/chromium" \
		--dump-dom "file://$1" 2>"$2"
}
