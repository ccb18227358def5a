# SPDX-License-Identifier: GPL-2.0
# tests/scsi/scsi-lib.bash: helpers of the SCSI front-end tests, sourced after tests/lib.sh (not a test: no .sh).
# shellcheck shell=bash

# scsi_load ARGS...: load sd_mod and sg, then ramlld with ARGS (add mode=scsi yourself), and
# wait for its disks: SD[i] / SG[i] are the sd disk and sg node of store i (nr_devices= in ARGS,
# default 1; target-major order, as stores map onto targets and LUNs).
scsi_load() {
	local a n=1
	need_modules sd_mod sg
	for a in "$@"; do
		case $a in nr_devices=*) n=${a#nr_devices=} ;; esac
	done
	ramlld_load "$@"
	scsi_find_disks "$n"
}

# _scsi_disks N: SD, SG and HCTL of the RAMLLD LUNs that have their nodes; true once N have.
_scsi_disks() {
	local h blk sgn v
	SD=() SG=() HCTL=()
	# H:C:T:L names in numeric order (the glob sorts them as text: 0:0:0:10 before 0:0:0:2)
	for h in $(printf '%s\n' /sys/class/scsi_device/*:* | sed 's|.*/||' |
		sort -t: -k1,1n -k2,2n -k3,3n -k4,4n); do
		v=$(tr -d ' ' < "/sys/class/scsi_device/$h/device/vendor" 2> /dev/null || true)
		[ "$v" = RAMLLD ] || continue
		blk=$(first_entry "/sys/class/scsi_device/$h/device/block")
		sgn=$(first_entry "/sys/class/scsi_device/$h/device/scsi_generic")
		if [ -z "$blk" ] || [ -z "$sgn" ] || [ ! -b "/dev/$blk" ] || [ ! -c "/dev/$sgn" ]; then
			continue
		fi
		SD+=("$blk") SG+=("$sgn") HCTL+=("$h")
	done
	# shellcheck disable=SC2034 # wait_for prints it
	wait_seen="${#SD[@]} of them: ${SD[*]:-none}"
	[ "${#SD[@]}" -ge "$1" ]
}

# first_entry DIR: the name of DIR's first entry, empty when it has none or is not there.
first_entry() {
	local e
	for e in "$1"/*; do
		[ -e "$e" ] && echo "${e##*/}"
		return 0
	done
}

# scsi_find_disks N: fill SD and SG with the N RAMLLD LUNs, once sd and sg have their nodes.
scsi_find_disks() {
	wait_for "$1 RAMLLD disks with sd and sg nodes" _scsi_disks "$1"
	[ "${#SD[@]}" -eq "$1" ] || fail "expected $1 RAMLLD disks with sd and sg nodes, found ${#SD[@]}: ${SD[*]}"
	local want=$1
	echo "disks: ${#SD[@]} (${SD[0]}/${SG[0]} at ${HCTL[0]} .. ${SD[$((want - 1))]}/${SG[$((want - 1))]} at ${HCTL[$((want - 1))]})"
}

# _scsi_raw_sense: read `sg_raw -v` output on stdin; set the array SENSE_BYTES to the bytes of
# its "Raw sense data" dump (empty when there is none).
_scsi_raw_sense() {
	local line f=0
	SENSE_BYTES=()
	while IFS= read -r line; do
		if [[ $line == *"Raw sense data"* ]]; then
			f=1
			continue
		fi
		if [ "$f" = 1 ]; then
			if [[ $line =~ ^[[:space:]]+([0-9a-f]{2}[[:space:]]*)+$ ]]; then
				# shellcheck disable=SC2206
				SENSE_BYTES+=($line)
			else
				f=0
			fi
		fi
	done
}

# scsi_sense: read `sg_raw -v` output on stdin, print KEY/ASC/ASCQ (hex, e.g. 5/24/00) of its
# sense data, followed by " sks=XXXXXX" when it carries a sense-key specific field; "none" if
# there is no sense.
scsi_sense() {
	local k a q s=''
	local -a b
	_scsi_raw_sense
	b=("${SENSE_BYTES[@]}")
	if [ "${#b[@]}" -eq 0 ]; then
		echo none
		return
	fi
	# fixed format: 70h/71h, f0h/f1h with VALID (INFORMATION holds an LBA)
	if [[ ${b[0]} == [7f][01] ]]; then
		k=$((0x${b[2]} & 15)) a=${b[12]} q=${b[13]}
		if [ "${#b[@]}" -ge 18 ] && ((0x${b[15]} & 0x80)); then s=" sks=${b[15]}${b[16]}${b[17]}"; fi
	else
		k=$((0x${b[1]} & 15)) a=${b[2]} q=${b[3]}
		if [ "${#b[@]}" -ge 16 ] && [ "${b[8]}" = 02 ]; then s=" sks=${b[12]}${b[13]}${b[14]}"; fi
	fi
	echo "$k/$a/$q$s"
}

# scsi_sense_info: read `sg_raw -v` output on stdin, print the INFORMATION field of its sense data
# in decimal (fixed format with VALID set, or a descriptor-format information descriptor with
# VALID), or "none".
scsi_sense_info() {
	local i
	local -a b
	_scsi_raw_sense
	b=("${SENSE_BYTES[@]}")
	if [ "${#b[@]}" -ge 7 ] && [[ ${b[0]} == f[01] ]]; then
		echo $((0x${b[3]}${b[4]}${b[5]}${b[6]}))
		return
	fi
	if [ "${#b[@]}" -ge 20 ] && [[ ${b[0]} == 7[23] ]] && [ "${b[8]}" = 00 ] && ((0x${b[10]} & 0x80)); then
		i=$(printf %s "${b[@]:12:8}")
		echo $((0x$i))
		return
	fi
	echo none
}

# expect_sense WHAT WANT SG_RAW_ARGS...: run sg_raw -v with the arguments; its sense must be WANT
# (as scsi_sense prints it).
expect_sense() {
	local what=$1 want=$2 out
	shift 2
	out=$(sg_raw --cmdset=1 -v "$@" 2>&1 || true)
	expect_eq "$what: sense" "$want" "$(scsi_sense <<< "$out")"
}

# scsi_din DEV LEN CDB...: the data-in bytes of a command, in hex, one space between bytes.
scsi_din() {
	local dev=$1 len=$2 f=/tmp/din.$$
	shift 2
	rm -f "$f"
	sg_raw --cmdset=1 -r "$len" -o "$f" "$dev" "$@" > /dev/null 2>&1 || fail "sg_raw $dev $* failed"
	od -An -tx1 -v "$f" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
	rm -f "$f"
}

# bytes HEX FROM COUNT: COUNT bytes from offset FROM of a scsi_din string.
bytes() {
	local -a b
	read -r -a b <<< "$1"
	echo "${b[@]:$2:$3}"
}

# tool_field TEXT: the value after "TEXT" on the first line of stdin that has it, trimmed.
tool_field() {
	local t=$1
	awk -v t="$t" 'i = index($0, t) { v = substr($0, i + length(t)); sub(/^[ :=]+/, "", v);
		sub(/[ ]+$/, "", v); print v; exit }'
}
