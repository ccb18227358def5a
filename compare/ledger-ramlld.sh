# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/ledger-ramlld.sh: the ledger's ramlld rows (bio, mq and sd, throw-away, then one module
# setting at a time), sourced by compare/ledger-guest before the reference rows (its variables
# and functions: cell, absent, any_row, row_line, fill, at_least, ENGINES_ALL, LEDGER, ko, kv;
# the device library's dev_ramlld_*; sg_ids and sg_rows of compare/ledger-paths.sh), copied
# into the harness snapshot beside it.
# base: one submission queue and one poll queue on the mq disk and on the SCSI host,
# queue_rqs=1 complete_batch=1 irqmode=0 (the defaults); each row below changes one thing.
RAMLLD_SD='' RAMLLD_KO=$ko
ramlld_base() { # MODE PARAM=VALUE...: the base with this mode and these on top
	local mode=$1 err
	shift
	dev_ramlld_load mode="$mode" capacity_mb=16 nr_hw_queues=1 submit_queues=1 poll_queues=1 can_queue=64 "$@" ||
		return 1
	RAMLLD_SD=''
	if [[ $mode == *scsi* ]] || [ "$mode" = all ]; then
		if ! dev_ramlld_sd_disks 1; then
			err=$DEV_ERR
			dev_ramlld_unload || true
			DEV_ERR=$err
			return 1
		fi
		RAMLLD_SD=${RAMLLD_SD_DISKS[0]#/dev/}
		fill "/dev/$RAMLLD_SD"
	elif [ -b /dev/ramlldmq0 ]; then
		fill /dev/ramlldmq0
	else
		fill /dev/ramlld0
	fi
}
tar() { # 0|1: throw_away_reads and _writes
	echo "$1" > /sys/module/ramlld/parameters/throw_away_reads
	echo "$1" > /sys/module/ramlld/parameters/throw_away_writes
}

# base_rows MODE PARAM=VALUE...: every engine on the front ends of MODE, then throw-away
base_rows() {
	local mode=$1 fronts=() f e
	shift
	[[ $mode != all && $mode != *bio* ]] || fronts+=(bio:/dev/ramlld0)
	[[ $mode != all && $mode != *mq* ]] || fronts+=(mq:/dev/ramlldmq0)
	local ids=() t
	for t in ramlld-{bio,mq,sd}{,-tar}; do
		for e in ${LEDGER[$t]:-}; do ids+=("$t/$e"); done
	done
	[[ $mode != all && $mode != *scsi* ]] || mapfile -t -O ${#ids[@]} ids < <(sg_ids)
	any_row "${ids[@]}" || return 0
	if ! ramlld_base "$mode" "$@"; then
		row_line "ramlld-$mode" ramlld - "mode=$mode $*" - - "" failed "$DEV_ERR"
		return 0
	fi
	[ -z "$RAMLLD_SD" ] || fronts+=("sd:/dev/$RAMLLD_SD")
	for e in $ENGINES_ALL; do
		for f in "${fronts[@]}"; do
			t=ramlld-${f%%:*}
			[[ " ${LEDGER[$t]:-} " != *" $e "* ]] || cell "$t/$e" "$t" "${f#*:}" base "$e" "$e"
		done
	done
	[ -z "$RAMLLD_SD" ] || sg_rows "$RAMLLD_SD"
	tar 1
	for f in "${fronts[@]}"; do
		t=ramlld-${f%%:*}-tar
		for e in ${LEDGER[$t]:-}; do cell "$t/$e" "$t" "${f#*:}" "base throw_away" "$e" throw_away; done
	done
	tar 0
	dev_ramlld_unload
}

if [ -n "$ko" ] && [ -f "$ko" ]; then
	if at_least 5 13; then
		base_rows all
	else
		# before 5.13 the SCSI host cannot poll: bio and mq with their poll queue, sd without
		base_rows bio,mq
		base_rows scsi poll_queues=0
	fi
	# no poll queues: hipri I/O takes the submission queue and completes inline
	if at_least 5 13; then
		pq_mode=all
	else
		pq_mode=mq
		absent "ramlld-sd/hipri-all/poll_queues=1" ramlld-sd sd base hipri-all poll_queues=1 \
			"kernel $kv: SCSI ->mq_poll and shost->nr_maps came in 5.13; ramlld's SCSI host refuses poll_queues there"
	fi
	if any_row ramlld-{mq,sd}/hipri-all/poll_queues=0 && ramlld_base "$pq_mode" poll_queues=0; then
		cell "ramlld-mq/hipri-all/poll_queues=0" ramlld-mq /dev/ramlldmq0 poll_queues=0 hipri-all poll_queues=0
		[ -z "$RAMLLD_SD" ] ||
			cell "ramlld-sd/hipri-all/poll_queues=0" ramlld-sd "/dev/$RAMLLD_SD" poll_queues=0 hipri-all poll_queues=0
		dev_ramlld_unload
	fi
	# queue_rqs and complete_batch: ramlld's mq front end only (the SCSI midlayer has neither
	# ->queue_rqs nor an io_comp_batch in ->mq_poll)
	for p in queue_rqs:5:17 complete_batch:5:16; do
		IFS=: read -r name maj min <<< "$p"
		if at_least "$maj" "$min"; then
			if any_row "ramlld-mq/io_uring/$name=0" "ramlld-mq/hipri-all/$name=0" && ramlld_base mq "$name=0"; then
				cell "ramlld-mq/io_uring/$name=0" ramlld-mq /dev/ramlldmq0 "$name=0" io_uring "$name=0"
				cell "ramlld-mq/hipri-all/$name=0" ramlld-mq /dev/ramlldmq0 "$name=0" hipri-all "$name=0"
				dev_ramlld_unload
			fi
		else
			absent "ramlld-mq/hipri-all/$name=0" ramlld-mq mq "$name=0" hipri-all "$name=0" \
				"kernel $kv: $([ "$name" = queue_rqs ] && echo "blk_mq_ops.queue_rqs came in 5.17" || echo "io_comp_batch and blk_mq_end_request_batch came in 5.16"); ramlld ignores $name=1 there"
		fi
	done
else
	row_line ramlld ramlld - - - - "" failed "no module '$ko'"
fi
