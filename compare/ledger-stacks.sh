# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
# compare/ledger-stacks.sh: the ledger's rows of the storage stacks (--stacks), sourced by
# compare/ledger-guest after the reference rows (its variables and functions: cell, absent,
# any_row, row_line, LEDGER, rows_rx, prog; ramlld_base of compare/ledger-ramlld.sh; ng_* of
# compare/ledger-paths.sh), copied into the harness snapshot beside it.
# stack_rows STACK: ramlld mode=mq as the base loads it, filled, STACK up on /dev/ramlldmq0 and
# the io_uring rows on the disk it made; then STACK down and ramlld out. Each stack's rows are
# written whatever happens to it (absent, failed), and the next stack goes on.
stack_failed() { # STACK REASON: the stack's selected rows, failed
	local e
	for e in ${LEDGER[$1]}; do
		[[ ! $1/$e =~ $rows_rx ]] || row_line "$1/$e" "$1" - mode=mq "$e" "$1" "" failed "$2"
	done
	ng_failed "$1" "$2"
	lio_mark failed "$1" "$2"
}
stack_rows() {
	local s=$1 e ng_why
	for e in ${LEDGER[$s]} $(ng_ids "$s") $(lio_ids "$s"); do any_row "$s/$e" "$e" && break; done || return 0
	if ! dev_stack_available "$s"; then
		for e in ${LEDGER[$s]}; do
			absent "$s/$e" "$s" "$s" mode=mq "$e" "$s" "$DEV_ERR"
		done
		ng_absent "$s" "$DEV_ERR"
		lio_mark absent "$s" "$DEV_ERR"
		return 0
	fi
	ng_why=$(ng_unmet)
	[ -z "$ng_why" ] || ng_absent "$s" "$ng_why"
	if ! ramlld_base mq; then
		stack_failed "$s" "$DEV_ERR"
		return 0
	fi
	if ! dev_stack_up "$s" /dev/ramlldmq0 2> /tmp/ledger-stack.err; then
		stack_failed "$s" "$DEV_ERR: $(grep -v '^ *$' /tmp/ledger-stack.err | tail -n 2 | tr '\n\t' '  ')"
		dev_ramlld_unload || true
		return 0
	fi
	for e in ${LEDGER[$s]}; do
		cell "$s/$e" "$s" "${STACK_DEVS[0]}" mode=mq "$e" "$s"
	done
	[ -n "$ng_why" ] || ng_rows "$s" "${STACK_DEVS[0]}"
	lio_type_rows "$s" "${STACK_DEVS[0]}"
	dev_stack_down "$s" 2> /tmp/ledger-stack.err ||
		echo "$prog: $DEV_ERR: $(tail -n 2 /tmp/ledger-stack.err | tr '\n' ' ')" >&2
	dev_ramlld_unload || echo "$prog: $s: ramlld did not unload after down: $DEV_ERR" >&2
}
