# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154
# compare/ledger-refs.sh: the ledger's reference rows (null_blk, brd, scsi_debug), sourced by
# compare/ledger-guest after ramlld's rows (its variables and functions: cell, absent, any_row,
# row_line, fill, LEDGER), copied into the harness snapshot beside it.
# null_blk through configfs: mq, one submission queue, memory_backed 1 and 0, poll_queues 1
# and 0 where the kernel has them (its configfs features list)
nullb() { # MB POLLQ "ENGINE...": the rows of target nullb-mq[-nodata][-poll]
	local mb=$1 pq=$2 engines=$3 e t=nullb-mq attrs
	[ -n "$engines" ] || return 0
	[ "$mb" = 1 ] || t+=-nodata
	[ "$pq" = 0 ] || t+=-poll
	for e in $engines; do any_row "$t/$e" && break; done || return 0
	attrs=(size=16 queue_mode=2 memory_backed="$mb" irqmode=0 submit_queues=1)
	[ "$pq" = 0 ] || attrs+=(poll_queues="$pq")
	if ! dev_null_blk_add ledger "${attrs[@]}" hw_queue_depth=64; then
		row_line "$t" "$t" - "memory_backed=$mb poll_queues=$pq" - - "" failed "$DEV_ERR"
		return 0
	fi
	[ "$mb" = 0 ] || fill "$NULL_BLK_DEV"
	for e in $engines; do
		cell "$t/$e" "$t" "$NULL_BLK_DEV" "memory_backed=$mb poll_queues=$pq" "$e" "$([ "$pq" = 1 ] && echo poll_queues=1 || echo poll_queues=0)"
	done
	dev_null_blk_remove ledger
}
if dev_null_blk_has poll_queues; then
	nullb 1 1 "${LEDGER[nullb-mq-poll]:-}"
	nullb 0 1 "${LEDGER[nullb-mq-nodata-poll]:-}"
elif [ -d "$NULL_BLK_CONFIG" ]; then
	absent "nullb-mq-poll/hipri-all" nullb-mq-poll nullb "memory_backed=1 poll_queues=1" hipri-all poll_queues=1 \
		"kernel $kv: null_blk has no poll_queues (5.13)"
fi
if [ -d "$NULL_BLK_CONFIG" ]; then
	nullb 1 0 "${LEDGER[nullb-mq]:-}"
	nullb 0 0 "${LEDGER[nullb-mq-nodata]:-}"
else
	row_line nullb nullb - - - - "" failed "$DEV_ERR"
fi

# brd: the bio-based reference
ids=()
for e in ${LEDGER[brd]:-}; do ids+=("brd/$e"); done
if [ ${#ids[@]} = 0 ] || ! any_row "${ids[@]}"; then
	:
elif dev_brd_load 1 16; then
	fill /dev/ram0
	for e in ${LEDGER[brd]}; do cell "brd/$e" brd /dev/ram0 rd_size=16384 "$e" "$e"; done
	dev_brd_unload || echo "$prog: $DEV_ERR" >&2
else
	row_line brd brd - rd_size=16384 - - "" failed "$DEV_ERR"
fi

# scsi_debug with poll queues (5.13 on): one submission queue more than poll queues
ids=()
for e in ${LEDGER[sdebug-poll]:-}; do ids+=("sdebug-poll/$e"); done
if [ ${#ids[@]} = 0 ] || ! any_row "${ids[@]}"; then
	:
elif modinfo -F parm scsi_debug 2> /dev/null | grep -q '^poll_queues:'; then
	sdebug_args=(dev_size_mb=16 delay=0 submit_queues=2 poll_queues=1)
	! modinfo -F parm scsi_debug | grep -q '^no_rwlock:' || sdebug_args+=(no_rwlock=1)
	if dev_scsi_debug_load "${sdebug_args[@]}"; then
		sd=${SCSI_DEBUG_DISKS[0]}
		fill "$sd"
		for e in ${LEDGER[sdebug-poll]}; do
			# the feature of its polled row: its poll queue
			cell "sdebug-poll/$e" sdebug-poll "$sd" "${sdebug_args[*]:1}" "$e" "$([ "$e" = hipri-all ] && echo poll_queues=1 || echo "$e")"
		done
		dev_scsi_debug_unload || echo "$prog: $DEV_ERR" >&2
	else
		row_line sdebug-poll sdebug-poll - - - - "" failed "$DEV_ERR"
	fi
else
	absent "sdebug-poll/hipri-all" sdebug-poll sd "poll_queues=1" hipri-all poll_queues=1 \
		"kernel $kv: scsi_debug has no poll_queues (5.13)"
fi
