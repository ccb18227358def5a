# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# compare/lib/report-python.sh: report_python prints the python3 that draws the report: the
# first of python3 and /usr/bin/python3 with matplotlib and SciPy (Debian's python3-matplotlib
# and python3-scipy live in /usr/bin's; a pyenv or venv python3 first in PATH may lack them),
# python3 when neither has them (the report is written without plots). It looks the packages
# up without importing them: in a TCG guest importing them takes 10-20 s, finding them 1 s.
report_python() {
	local p
	for p in python3 /usr/bin/python3; do
		if command -v "$p" > /dev/null &&
			"$p" -c 'import importlib.util as u, sys; sys.exit(not (u.find_spec("matplotlib") and u.find_spec("scipy")))' 2> /dev/null; then
			echo "$p"
			return
		fi
	done
	echo python3
}
