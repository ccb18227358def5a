# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/knobs.sh: the knob step, sourced by compare/guest-run.
# Variables: compare/guest-run's.

# The knob table (docs/knobs.md): ramlld loaded on its own (compare/knobs.py loads and unloads it),
# with every target down. Status 1 when compare/knobs.py failed (noted).
knob_step() {
	if [ -n "$host_devs" ]; then
		note skip knobs "the knob table loads ramlld: not with --host-devs"
	elif [ ! -f "$ko" ]; then
		note skip knobs "no $ko"
	elif [ "$ncpu" -lt 2 ]; then
		note skip knobs "one CPU: completions on one CPU leave rq_affinity nothing to move"
	else
		log "knob table: compare/knobs.py ${kargs[*]} ($ncpu CPUs)"
		local rc=0
		python3 "$here/knobs.py" --out "$out/knobs" --top "$top" --ko "$ko" "${kargs[@]}" 2>> "$LOG" || rc=$?
		if [ "$rc" != 0 ]; then
			note fail knobs "compare/knobs.py ended with status $rc (see ${LOG##*/})"
			return 1
		fi
	fi
}
