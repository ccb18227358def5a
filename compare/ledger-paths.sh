# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/ledger-paths.sh: the ledger's rows around the block layer (docs/ledger.md, "Around the
# block layer"), sourced by compare/ledger-guest after its engines, cell and absent are defined:
# - ramlld-sg: fio's sg engine on the SCSI generic node (/dev/sgN) of ramlld's sd LUN, next
#   to ramlld-sd on the same LUN;
# - nvme-tcp-ng, nvme-loop-ng: fio's io_uring_cmd engine (NVMe passthrough) on the NVMe
#   generic character device (/dev/ngXnY) of the namespace the stack exports, next to the
#   stack's rows on its block device (/dev/nvmeXnY);
# - lio-iblock, iscsi with LIO's submit_type and complete_type device attributes (where the
#   kernel's LIO has them), next to the stack's row with the fabric's default;
# - ublk-null, ublk-loop: kublk's null target and its loop target over ramlld's bio disk, next
#   to ramlld-bio.
# What each needs (module, fio engine, kernel feature) is checked before anything loads; a row
# that cannot run is written "absent" with the reason.

# fio's sg engine on a character device: sync=1 makes every I/O a write() of its sg_io_hdr and
# a blocking read() of the answer (depth 1 whatever iodepth says; direct=1 would too, but the sg
# node refuses O_DIRECT at open: EINVAL); without it (and direct=0) it queues up to iodepth
# commands with write() and reaps them with poll() and read(). The sg
# driver takes at most SG_MAX_QUEUE (16) commands per open file and fails the 17th write()
# with EDOM: one fio job cannot reach depth 32, so the queued row runs at 16, as does the sd
# row beside it (ramlld-sd/io_uring-qd16).
ENGINE[sg-qd1]="ioengine=sg direct=0 sync=1 iodepth=1 iodepth_batch_submit=1 iodepth_batch_complete_max=1"
ENGINE[sg-qd16]="ioengine=sg direct=0 iodepth=16"
ENGINE[io_uring-qd16]="ioengine=io_uring iodepth=16"
# io_uring_cmd on /dev/ngXnY: the character device refuses O_DIRECT (EINVAL), and passthrough
# I/O goes around the page cache anyway
ENGINE[io_uring_cmd]="ioengine=io_uring_cmd cmd_type=nvme direct=0"
ENGINE[io_uring_cmd-qd1]="ioengine=io_uring_cmd cmd_type=nvme direct=0 iodepth=1 iodepth_batch_submit=1 iodepth_batch_complete_max=1"
SG_ENGINES="sg-qd1 sg-qd16"
NG_ENGINES="io_uring_cmd io_uring_cmd-qd1"
# the stacks whose disk is an NVMe namespace (a generic character device beside it)
NG_STACKS="nvme-tcp nvme-loop"

# queue_disk NAME: the block disk whose request queue a device's I/O takes (its queue
# settings are the row's): an sg node's SCSI disk, an ng node's namespace disk, else NAME
queue_disk() {
	local b
	case $1 in
	sg[0-9]*)
		for b in "/sys/class/scsi_generic/$1/device/block/"*; do
			[ ! -e "$b" ] || { echo "${b##*/}"; return 0; }
		done
		;;
	ng[0-9]*) echo "nvme${1#ng}"; return 0 ;;
	esac
	echo "$1"
}

# sg_unmet: why the sg rows cannot run here (empty: they can); checked before ramlld loads
sg_unmet() {
	if ! fio --enghelp=sg > /dev/null 2>&1; then
		echo "fio $(fio --version) has no sg engine"
	elif ! modinfo sg > /dev/null 2>&1 && [ ! -d /sys/module/sg ]; then
		echo "kernel $(uname -r) has no module sg (CONFIG_CHR_DEV_SG)"
	fi
}
SG_WHY=$(sg_unmet)

# sg_ids: the ids of the sg rows and of the sd row at their depth
sg_ids() {
	local e
	echo ramlld-sd/io_uring-qd16
	for e in $SG_ENGINES; do echo "ramlld-sg/$e"; done
	echo "ramlld-sg/sg-qd16/scatter_elem_sz=4096"
}

# sg_rows SD: the sg rows on the sg node of sd disk SD (ramlld's LUN, loaded by base_rows),
# with ramlld-sd at the queued row's depth beside them; sg is unloaded after when it was
# loaded here (no udev in the guest loads it)
sg_rows() {
	local sd=$1 e sgn='' b loaded=0 sz
	# shellcheck disable=SC2046 # one id a word
	any_row $(sg_ids) || return 0
	cell "ramlld-sd/io_uring-qd16" ramlld-sd "/dev/$sd" base io_uring-qd16 io_uring-qd16
	if [ -n "$SG_WHY" ]; then
		for e in $SG_ENGINES; do absent "ramlld-sg/$e" ramlld-sg sg base "$e" "$e" "$SG_WHY"; done
		absent "ramlld-sg/sg-qd16/scatter_elem_sz=4096" ramlld-sg sg scatter_elem_sz=4096 sg-qd16 scatter_elem_sz=4096 "$SG_WHY"
		return 0
	fi
	if [ ! -d /sys/module/sg ]; then
		modprobe sg 2> /dev/null && loaded=1
	fi
	for b in "/sys/block/$sd/device/scsi_generic/"*; do
		[ ! -e "$b" ] || sgn=${b##*/}
	done
	if [ -z "$sgn" ] || [ ! -c "/dev/$sgn" ]; then
		for e in $SG_ENGINES; do
			row_line "ramlld-sg/$e" ramlld-sg - base "$e" "$e" "" failed "no sg node for $sd (modprobe sg, /sys/block/$sd/device/scsi_generic)"
		done
	else
		for e in $SG_ENGINES; do cell "ramlld-sg/$e" ramlld-sg "/dev/$sgn" base "$e" "$e"; done
		# a queued command that does not get the open file's reserve buffer gets a buffer of
		# its own, in blocks of scatter_elem_sz (32 KiB by default: one zeroed order-3 page
		# for a 4k read); the row with 4 KiB blocks says what that costs
		sz=$(cat /sys/module/sg/parameters/scatter_elem_sz)
		echo 4096 > /sys/module/sg/parameters/scatter_elem_sz
		cell "ramlld-sg/sg-qd16/scatter_elem_sz=4096" ramlld-sg "/dev/$sgn" scatter_elem_sz=4096 sg-qd16 scatter_elem_sz=4096
		echo "$sz" > /sys/module/sg/parameters/scatter_elem_sz
	fi
	[ "$loaded" = 0 ] || rmmod sg 2> /dev/null || echo "$prog: rmmod sg failed" >&2
}

# ng_unmet: why the ng rows cannot run here (empty: they can)
ng_unmet() {
	if ! at_least 5 19; then
		echo "kernel $kv: io_uring passthrough (IORING_OP_URING_CMD, the NVMe generic device's ->uring_cmd) came in 5.19"
	elif ! fio --enghelp=io_uring_cmd > /dev/null 2>&1; then
		echo "fio $(fio --version) has no io_uring_cmd engine (3.31 on)"
	fi
}

# ng_ids STACK: the ids of STACK's ng rows
ng_ids() {
	local e
	[[ " $NG_STACKS " == *" $1 "* ]] || return 0
	for e in $NG_ENGINES; do echo "$1-ng/$e"; done
}

# ng_absent STACK REASON: STACK's selected ng rows, absent for REASON
ng_absent() {
	local id
	for id in $(ng_ids "$1"); do absent "$id" "$1-ng" ng mode=mq "${id#*/}" "$1" "$2"; done
}

# ng_failed STACK REASON: STACK's selected ng rows, failed for REASON (its set-up failed)
ng_failed() {
	local id
	for id in $(ng_ids "$1"); do
		[[ ! $id =~ $rows_rx ]] || row_line "$id" "$1-ng" - mode=mq "${id#*/}" "$1" "" failed "$2"
	done
}

# ng_rows STACK DISK: the ng rows on the generic character device of DISK (/dev/nvmeXnY,
# which STACK made); their precondition was checked before STACK went up (stack_rows)
ng_rows() {
	local s=$1 disk=$2 ng id
	[ -n "$(ng_ids "$s")" ] || return 0
	ng=/dev/ng${disk#/dev/nvme}
	for id in $(ng_ids "$s"); do
		if [ -c "$ng" ]; then
			cell "$id" "$s-ng" "$ng" mode=mq "${id#*/}" "$s"
		elif [[ $id =~ $rows_rx ]]; then
			row_line "$id" "$s-ng" - mode=mq "${id#*/}" "$s" "" failed "no character device $ng beside $disk"
		fi
	done
}

# LIO's device attributes that choose where a backstore's command runs (configfs
# core/HBA/DEV/attrib): submit_type (6.7: 1 in the fabric's own context, 2 queued to LIO's
# submission workqueue; 0, the stack's row without the feature, is the fabric's default) and
# complete_type (the same for completion, 7.x). A fabric that cannot submit directly
# (tcm_loop: wwn/param/direct_submit_supported 0) runs 1 queued; iSCSI's default is direct.
LIO_STACKS="lio-iblock iscsi"
LIO_TYPES="submit_type=1 submit_type=2 complete_type=1 complete_type=2"

# lio_ids STACK: the ids of STACK's LIO attribute rows (STACK/ENGINE/ATTR=VALUE)
lio_ids() {
	local e t
	[[ " $LIO_STACKS " == *" $1 "* ]] || return 0
	for t in $LIO_TYPES; do
		for e in ${LEDGER[$1]}; do echo "$1/$e/$t"; done
	done
}

# lio_type_rows STACK DISK: STACK's rows with each attribute value on its backstore (tools/stack
# names it ramlld_STACK), the attribute set back to 0 after; an attribute the kernel's LIO
# does not have gives absent rows. What the fabric does with 0 and whether it takes 1 (its
# wwn/param, 6.7 on) goes to meta.env as lio_STACK (- as _).
lio_type_rows() {
	local s=$1 disk=$2 id e t a attrib='' p
	[ -n "$(lio_ids "$s")" ] || return 0
	for a in /sys/kernel/config/target/core/*/"ramlld_$s"/attrib; do
		[ ! -d "$a" ] || attrib=$a
	done
	for p in /sys/kernel/config/target/"$([ "$s" = iscsi ] && echo iscsi || echo loopback)"/*/param; do
		[ -f "$p/default_submit_type" ] || continue
		echo "lio_${s//-/_}=$(cd "$p" && for a in default_submit_type direct_submit_supported default_compl_type direct_compl_supported; do
			[ ! -f "$a" ] || printf '%s=%s,' "$a" "$(cat "$a")"
		done | sed 's/,$//')" >> "$out/meta.env"
		break
	done
	for id in $(lio_ids "$s"); do
		[[ $id =~ $rows_rx ]] || continue
		t=${id##*/} e=$(cut -d/ -f2 <<< "$id")
		if [ -z "$attrib" ]; then
			row_line "$id" "$s" - mode=mq "$e" "$t" "" failed "no backstore ramlld_$s under /sys/kernel/config/target/core"
		elif [ ! -f "$attrib/${t%%=*}" ]; then
			absent "$id" "$s" "$s" mode=mq "$e" "$t" \
				"kernel $kv: LIO has no device attribute ${t%%=*} ($([ "${t%%=*}" = submit_type ] && echo 'it came in 6.7' || echo '7.2 has it, 6.12 not'))"
		elif ! echo "${t#*=}" 2> /dev/null > "$attrib/${t%%=*}"; then
			row_line "$id" "$s" - mode=mq "$e" "$t" "" failed "$attrib/${t%%=*} refused ${t#*=}"
		else
			cell "$id" "$s" "$disk" mode=mq "$e" "$t"
			echo 0 > "$attrib/${t%%=*}"
		fi
	done
}

# lio_mark absent|failed STACK REASON: STACK's selected LIO attribute rows, absent or failed
lio_mark() {
	local id e
	for id in $(lio_ids "$2"); do
		[[ $id =~ $rows_rx ]] || continue
		e=$(cut -d/ -f2 <<< "$id")
		row_line "$id" "$2" - mode=mq "$e" "${id##*/}" "" "$1" "$3"
	done
}

# ublk: a user-space block device (ublk_drv, 6.0 on) served by kublk, the kernel selftests' ublk
# server (tools/ublk/build: 6.15 and later, statically linked), one queue, depth 128: its null
# target (no data), its loop target over ramlld's bio disk (O_DIRECT reads of /dev/ramlld0 from
# the server), and the loop target with zero copy (kublk -z: the request's pages lent to the
# server's io_uring, UBLK_F_SUPPORT_ZERO_COPY, 6.15 on), each beside ramlld-bio at its depth.
# The kublk built for this kernel, else the newest built (static: it runs on older kernels,
# where ublk_drv refuses or clears what it lacks).
KUBLK=${RAMLLD_KUBLK:-$HOME/.cache/ramlld/ublk/$(uname -r)/kublk}
if [ -z "${RAMLLD_KUBLK:-}" ] && [ ! -x "$KUBLK" ]; then
	for k in $(printf '%s\n' "$HOME"/.cache/ramlld/ublk/*/kublk | sort -V); do [ ! -x "$k" ] || KUBLK=$k; done
fi
UBLK_ENGINES="io_uring io_uring-qd1"

# ublk_ids: the ids of the ublk rows; the zero-copy ones only when --rows names zero_copy, as
# Debian's 7.2.13 logs a UBSAN report under kublk -z (io_buffer_register_bvec), which fails the
# guest's run (tools/vm/run)
ublk_ids() {
	local e
	for e in $UBLK_ENGINES; do
		echo "ublk-null/$e" "ublk-loop/$e"
		[[ $rows_rx != *zero_copy* ]] || echo "ublk-loop/$e/zero_copy"
	done | tr ' ' '\n'
}

# ublk_unmet: why the ublk rows cannot run here (empty: they can); checked before anything loads
ublk_unmet() {
	if ! modinfo ublk_drv > /dev/null 2>&1 && [ ! -d /sys/module/ublk_drv ]; then
		echo "kernel $(uname -r) has no module ublk_drv (CONFIG_BLK_DEV_UBLK)"
	elif [ ! -x "$KUBLK" ]; then
		echo "no kublk in $HOME/.cache/ramlld/ublk (tools/ublk/build: Debian's linux-source of 6.15 or later)"
	fi
}

# ublk_mark absent|failed REASON [REGEX]: the selected ublk rows (those matching REGEX too)
ublk_mark() {
	local id e f
	for id in $(ublk_ids); do
		[[ $id =~ $rows_rx && $id =~ ${3:-.} ]] || continue
		IFS=/ read -r _ e f <<< "$id"
		row_line "$id" "${id%%/*}" - "kublk ${id%%/*}" "$e" "${f:-$e}" "" "$1" "$2"
	done
}

# ublk_add ID TARGET KUBLK-ARG...: device ID of kublk TARGET, served in the background; sets
# UBLK_ERR when it fails
ublk_add() {
	local id=$1 t=$2
	shift 2
	if ! "$KUBLK" add -t "$t" -q 1 -n "$id" "$@" > /tmp/ledger-kublk.out 2>&1; then
		UBLK_ERR="kublk add -t $t $*: $(tail -n 2 /tmp/ledger-kublk.out | tr '\n\t' '  ')"
		return 1
	fi
	dev_wait test -b "/dev/ublkb$id" ||
		{ UBLK_ERR="no /dev/ublkb$id after kublk add"; "$KUBLK" del -n "$id" > /dev/null 2>&1; return 1; }
}

# ublk_rows: the ublk rows, ramlld's bio disk (the base's parameters, mode=bio) under the loop
# target; ublk_drv unloaded after when it was loaded here
# shellcheck disable=SC2046 # ids one a word
ublk_rows() {
	local why e loaded=0
	any_row $(ublk_ids) || return 0
	why=$(ublk_unmet)
	[ -z "$why" ] || { ublk_mark absent "$why"; return 0; }
	echo "kublk=$KUBLK" >> "$out/meta.env"
	if [ ! -d /sys/module/ublk_drv ]; then
		modprobe ublk_drv 2> /tmp/ledger-kublk.out || { ublk_mark failed "modprobe ublk_drv: $(tr '\n' ' ' < /tmp/ledger-kublk.out)"; return 0; }
		loaded=1
	fi
	if any_row ublk-null/io_uring ublk-null/io_uring-qd1; then
		if ublk_add 0 null; then
			for e in $UBLK_ENGINES; do cell "ublk-null/$e" ublk-null /dev/ublkb0 "kublk null" "$e" "$e"; done
			"$KUBLK" del -n 0 > /dev/null 2>&1 || echo "$prog: kublk del -n 0 failed" >&2
		else
			ublk_mark failed "$UBLK_ERR" '^ublk-null/'
		fi
	fi
	if any_row $(ublk_ids | grep '^ublk-loop/') && ramlld_base bio; then
		if ublk_add 1 loop /dev/ramlld0; then
			for e in $UBLK_ENGINES; do cell "ublk-loop/$e" ublk-loop /dev/ublkb1 "kublk loop" "$e" "$e"; done
			"$KUBLK" del -n 1 > /dev/null 2>&1 || echo "$prog: kublk del -n 1 failed" >&2
		else
			ublk_mark failed "$UBLK_ERR" '^ublk-loop/[^/]*$'
		fi
		if ! any_row $(ublk_ids | grep zero_copy); then
			true
		elif ublk_add 1 loop -z /dev/ramlld0; then
			# a ublk_drv without zero copy (before 6.15) clears the flag and serves copies
			if ! [[ $("$KUBLK" list -n 1 2>&1) =~ flags\ 0x([0-9a-f]+) ]]; then
				ublk_mark failed "kublk list -n 1 shows no device flags" zero_copy
			elif ((0x${BASH_REMATCH[1]} & 1)); then
				for e in $UBLK_ENGINES; do cell "ublk-loop/$e/zero_copy" ublk-loop /dev/ublkb1 "kublk loop -z" "$e" zero_copy; done
			else
				ublk_mark absent "kernel $kv: ublk_drv cleared UBLK_F_SUPPORT_ZERO_COPY on kublk add -z (flags 0x${BASH_REMATCH[1]}; zero copy came in 6.15)" zero_copy
			fi
			"$KUBLK" del -n 1 > /dev/null 2>&1 || echo "$prog: kublk del -n 1 failed" >&2
		else
			ublk_mark absent "$UBLK_ERR" zero_copy
		fi
		dev_ramlld_unload
	elif any_row $(ublk_ids | grep '^ublk-loop/'); then
		ublk_mark failed "ramlld mode=bio: ${DEV_ERR:-loaded, but /dev/ramlld0 not filled}" '^ublk-loop/'
		[ ! -d /sys/module/ramlld ] || dev_ramlld_unload || true
	fi
	[ "$loaded" = 0 ] || rmmod ublk_drv 2> /dev/null || echo "$prog: rmmod ublk_drv failed" >&2
}
