# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/cells.sh: the cell runner, sourced by compare/guest-run: the guest's
# environment, queue profiles, the set-up and teardown of targets, one fio run (or one
# one-run workload's sections) with its CPU and queue read-backs, and the ramlld load check.
# Variables: compare/guest-run's.

# ---------------------------------------------------------------- environment of the guest
setup_guest() {
	[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd 2> /dev/null || true
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2> /dev/null || true
	modprobe configfs 2> /dev/null || true
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config 2> /dev/null || true
	modprobe -a scsi_mod sd_mod sg 2> /dev/null || true
	echo 0 > /proc/sys/kernel/kptr_restrict 2> /dev/null || true
	echo -1 > /proc/sys/kernel/perf_event_paranoid 2> /dev/null || true
	export HOME=/tmp
}

# ---------------------------------------------------------------- queue settings
QATTRS="scheduler rq_affinity add_random nomerges iostats max_sectors_kb read_ahead_kb nr_requests logical_block_size"
disk_of() { # /dev/X -> X (the disk's sysfs name)
	local r
	r=$(readlink -f "$1")
	echo "${r##*/}"
}
qattr_read() { # VAR DISK ATTR: VAR = the queue attribute's value, the active scheduler's name
	# alone, or "-" when unreadable (builtins only: exec is slow in TCG)
	local -n out=$1
	out=-
	[ -r "/sys/block/$2/queue/$3" ] && read -r out < "/sys/block/$2/queue/$3"
	[[ $3 != scheduler || ! $out =~ \[([^]]*)\] ]] || out=${BASH_REMATCH[1]}
	return 0
}
queue_state() { # DEV: key=value lines read back from sysfs (builtins only: exec is slow in TCG)
	local d a v hw=0 depth=- hq
	d=$(disk_of "$1")
	echo "dev=$d"
	for a in $QATTRS; do
		qattr_read v "$d" "$a"
		echo "$a=$v"
	done
	if [ -d "/sys/block/$d/mq" ]; then
		hq=("/sys/block/$d/mq"/*/)
		hw=${#hq[@]}
		[ -r "/sys/block/$d/mq/0/nr_tags" ] && read -r depth < "/sys/block/$d/mq/0/nr_tags"
	fi
	echo "hw_queues=$hw"
	echo "hw_depth=$depth"
	v=-
	[ -r "/sys/block/$d/device/queue_depth" ] && read -r v < "/sys/block/$d/device/queue_depth"
	echo "scsi_queue_depth=$v"
}
queue_disks() { # DISK: QUEUE_DISKS = DISK and, for an NVMe multipath head, its path disks
	# (tools/devices/queue.sh), whose queues a profile sets too
	dev_queue_disks "$1" || QUEUE_DISKS=("$1")
}
save_queue() { # TARGET DEV...: remember the driver's own settings (the "default" profile)
	local t=$1 dev d a v
	shift
	for dev in "$@"; do
		queue_disks "$(disk_of "$dev")"
		for d in "${QUEUE_DISKS[@]}"; do
			: > "/tmp/compare-q.$d"
			for a in $QATTRS; do
				[ -w "/sys/block/$d/queue/$a" ] || continue
				qattr_read v "$d" "$a"
				echo "$a=$v" >> "/tmp/compare-q.$d"
			done
		done
	done
}
write_attrs() { # DEV FILE: apply key=value lines through tools/queue-tune, else
	# tools/devices/queue.sh; both set an NVMe multipath head's path disks too
	local dev=$1 file=$2 d k v args=() kvs=()
	d=$(disk_of "$dev")
	while IFS='=' read -r k v; do
		case $k in '' | '#'*) continue ;; esac
		args+=("--${k//_/-}" "$v")
		kvs+=("$k=$v")
	done < "$file"
	[ ${#args[@]} -gt 0 ] || return 0
	if [ -x "$top/tools/queue-tune" ]; then
		# prints "DISK: attr old -> new" for each change, on the head's path disks too
		"$top/tools/queue-tune" "$d" "${args[@]}" 2>&1 | sed 's/^/    /' || return 1
	else
		dev_queue_set "$d" "${kvs[@]}" || { echo "    $DEV_ERR"; return 1; }
		echo "    ${QUEUE_DISKS[*]}: ${kvs[*]}"
	fi
}
restore_queue() { # DEV: back to the driver's own settings (its path disks' too), straight
	# through sysfs, quietly
	local d k v cur
	local -A saved
	queue_disks "$(disk_of "$1")"
	for d in "${QUEUE_DISKS[@]}"; do
		[ -f "/tmp/compare-q.$d" ] || continue
		# builtins only (a profile switch ran 20 execs a device): read the saved values once
		saved=()
		while IFS='=' read -r k v; do saved[$k]=$v; done < "/tmp/compare-q.$d"
		# the scheduler first (switching it resets nr_requests), nr_requests last
		for k in $QATTRS; do
			v=${saved[$k]:-}
			[ -n "$v" ] || continue
			qattr_read cur "$d" "$k"
			[ "$cur" = "$v" ] && continue
			echo "$v" > "/sys/block/$d/queue/$k" 2> /dev/null || true
		done
	done
}
apply_profile() { # TARGET PROFILE DEV...
	local t=$1 p=$2 dev d rc=0
	shift 2
	for dev in "$@"; do
		d=$(disk_of "$dev")
		[ -b "$dev" ] || continue # a file named with --host-devs has no queue
		restore_queue "$dev"
		[ "$p" != default ] || continue
		echo "profile $p on $t:" >> "$LOG"
		if ! write_attrs "$dev" "$here/profiles/$p" >> "$LOG" 2>&1; then
			note warn "$t" "profile $p: a setting was refused on $d (see guest-run.log); ran with the driver's settings"
			restore_queue "$dev"
			rc=1
		fi
	done
	return $rc
}

# ---------------------------------------------------------------- targets
# The target files' functions (compare/targets/<name>.sh) run with these: target_setup
# loads what the target's load needs, target_devices sets DEVS (array) or returns 1 after a
# note, target_teardown undoes the load. TARGET is the target whose file was sourced last.
DEVS=()
LOADED= # the load set up now; the functions sourced are those of a target of that load
# shellcheck disable=SC2034 # read by the target files
TARGET=
LOADED_SHAPE='' # the shape (LUNs x MiB) of that load
# the device library (tools/devices): ramlld for the load check, dev_scsi_disks for lio.sh
# shellcheck source=tools/devices/ramlld.sh
. "$top/tools/devices/ramlld.sh"
# shellcheck source=tools/devices/queue.sh
. "$top/tools/devices/queue.sh"

setup_target() { # TARGET: its load when another is up, then its devices
	local t=$1
	# set up again for another shape (a workload's "; shape:"): nluns x capacity_mb
	if [ "${T_LOAD[$t]}" != "$LOADED" ] || [ "$nluns $capacity_mb" != "$LOADED_SHAPE" ]; then
		teardown_target
		use_target "$t"
		LOADED=${T_LOAD[$t]} LOADED_SHAPE="$nluns $capacity_mb"
		if ! target_setup; then
			# undo what the failed set-up did, so the next target starts clean
			teardown_target > /dev/null 2>&1 || true
			return 1
		fi
		PRECONDITIONED=
	else
		# the same load: its set-up and teardown are the same, its devices may differ
		use_target "$t"
	fi
	target_devices || return 1
	save_queue "$t" "${DEVS[@]}"
	# Reads of never-written blocks cost less on lazily allocating stores (brd, ramlld):
	# fill every device once so that each store is measured full.
	if [ -z "$PRECONDITIONED" ] && [ "${T_PRECONDITION[$t]}" = yes ]; then
		local colon
		colon=$(IFS=:; echo "${DEVS[*]}")
		fio --name=fill --filename="$colon" --rw=write --bs=4m --direct=1 --ioengine=libaio \
			--iodepth=8 --output-format=terse > /dev/null 2>> "$LOG" ||
			note warn "$t" "preconditioning write failed"
		PRECONDITIONED=1
	fi
}
teardown_target() {
	[ -n "$LOADED" ] || return 0
	LOADED=
	target_teardown
}

# ---------------------------------------------------------------- running cells
cpu_line() {
	local l
	read -r l < /proc/stat
	echo "$l"
}
clk_tck=$(getconf CLK_TCK)
fio_env() { # export what the job files read
	export DEV=${DEVS[0]} RUNTIME=$runtime RAMP=$ramp NUMJOBS=$ncpu CPUS=$cpus_list
	export PROCS=$((procs_per_cpu * ncpu))
	DEVS_COLON=$(IFS=:; echo "${DEVS[*]}")
	export DEVS_COLON
	# LUNSn: the first n LUNs (seed-000's LUN sweep; a section asking more is skipped)
	local n
	for n in 1 4 10 32; do
		export "LUNS$n=$(IFS=:; echo "${DEVS[*]:0:n}")"
	done
}
# pmu_cmd FILE: pmu_wrap = the perf stat that counts --pmu-events on every CPU around a cell's
# command into FILE (empty without --pmu-events)
pmu_cmd() {
	pmu_wrap=()
	# shellcheck disable=SC2054 # -x, is perf's field separator, not a list
	[ -z "$pmu_events" ] || pmu_wrap=(perf stat -a -x, -e "$pmu_events" -o "$1" --)
}
run_cell() { # TARGET PROFILE WORKLOAD SECTION REP: one fio run, its CPU and queue read-back
	local t=$1 p=$2 w=$3 s=$4 r=$5 dir rc=0
	if [ -n "${W_ONERUN[$w]}" ]; then
		run_sections "$t" "$p" "$w" "$s" "$r"
		return 0
	fi
	dir=$out/raw/$t/$p/$w/$s
	mkdir -p "$dir"
	local d dstat pmu_wrap=()
	d=$(disk_of "$DEV")
	pmu_cmd "$dir/r$r.pmu"
	{
		echo "before $(cpu_line)"
		echo "clk_tck $clk_tck"
		# the first device's I/O counters (block/stat.rst): requests, merges, sectors, ticks
		if [ -r "/sys/block/$d/stat" ] && read -r dstat < "/sys/block/$d/stat"; then echo "disk_before $dstat"; fi
	} > "$dir/r$r.cpu"
	if [ "$s" = dd ]; then
		# every dd over the whole device, as seed 001's do-dds (its shape keeps the device small)
		# --startup-run: the same dd with count=0 first, so the report can take the start-up out
		# of the elapsed time exactly on the exact clock (compare/sections/seed001.py)
		"${pmu_wrap[@]}" "$top/tools/percpu-load" "$DEV" --json --procs-per-cpu "$procs_per_cpu" \
			--cpus "$cpus_list" --startup-run > "$dir/r$r.dd.json" 2>> "$LOG" || rc=$?
	else
		# the target's or else the workload's own length where --runtime gives one (runtime_of)
		RUNTIME=${runtime_of[$t]:-${runtime_of[$w]:-$runtime}} DEVS=$DEVS_COLON "${pmu_wrap[@]}" fio --section="$s" --output-format=json \
			--output="$dir/r$r.json" "$here/workloads/$w.fio" >> "$LOG" 2>&1 || rc=$?
	fi
	{
		echo "after $(cpu_line)"
		if [ -r "/sys/block/$d/stat" ] && read -r dstat < "/sys/block/$d/stat"; then echo "disk_after $dstat"; fi
	} >> "$dir/r$r.cpu"
	queue_state "$DEV" > "$dir/r$r.queue"
	if [ $rc -ne 0 ]; then
		note fail "$t" "$p $w/$s r$r: exit $rc (see guest-run.log)"
		rm -f "$dir/r$r.json" "$dir/r$r.dd.json"
	fi
	return 0
}
# run_sections TARGET PROFILE WORKLOAD S1,S2,... REP: the sections in one fio run; fio's
# exec_prerun/exec_postrun hooks (compare/cell-stat, named in the job file) write each section's
# .cpu file around its own I/O; the JSON is split into one rN.json per section (its job).
run_sections() {
	local t=$1 p=$2 w=$3 r=$5 s rc=0 wdir=$out/raw/$1/$2/$3 args=() dirs=() secs
	IFS=, read -r -a secs <<< "$4"
	for s in "${secs[@]}"; do
		args+=("--section=$s")
		dirs+=("$wdir/$s")
	done
	mkdir -p "${dirs[@]}"
	rm -f "${dirs[@]/%//r$r.cpu}"
	local pmu_wrap=()
	pmu_cmd "$wdir/sections.r$r.pmu"
	# fio saves each hook's output as JOB.prerun.txt in its working directory: /tmp
	(cd /tmp && RAWDIR=$wdir REP=$r DISK=$(disk_of "$DEV") CLK_TCK=$clk_tck STATHOOK=$here/cell-stat \
		DEVS=$DEVS_COLON "${pmu_wrap[@]}" fio "${args[@]}" --output-format=json --output="$wdir/all.r$r.json" \
		"$here/workloads/$w.fio") >> "$LOG" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		python3 "$here/lib/fio.py" split "$wdir/all.r$r.json" "$wdir" "$r" >> "$LOG" 2>&1 || rc=$?
	fi
	for s in "${secs[@]}"; do
		queue_state "$DEV" > "$wdir/$s/r$r.queue"
		[ -s "$wdir/$s/r$r.cpu" ] || note warn "$t" "$p $w/$s r$r: no .cpu file from its fio hooks"
	done
	if [ $rc -ne 0 ]; then
		note fail "$t" "$p $w/${4//,/+} r$r: exit $rc (see guest-run.log)"
		rm -f "$wdir/all.r$r.json" "${dirs[@]/%//r$r.json}"
	fi
}
cell_iops() { # FILE: "12345 IOPS" for the progress line (read + write of the first job)
	[ -s "$1" ] || { echo "failed"; return; }
	awk '/"total" ?: \{/ { t = 1 } t && /"iops" ?:/ { gsub(/[,:]/, " "); printf "%.0f IOPS", $2; f = 1; exit }
		/"iops" :/ { gsub(/,/, ""); s += $3; if (++n == 2) exit }
		END { if (!f) printf "%.0f IOPS", s }' "$1"
}
fmt_s() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# ramlld_preflight: ramlld (its SCSI front end too) loads in this kernel, and unloads: a module
# that does not load stops the run at once with insmod's reason (status 3), instead of every
# target over it being skipped one after the other for the length of a run
ramlld_preflight() {
	RAMLLD_KO=$ko
	if ! dev_ramlld_load mode=all nr_devices=1 capacity_mb=16; then
		note fail ramlld "$ko does not load in $(uname -r): $DEV_ERR"
		return 1
	fi
	# the SCSI scan may hold the module a moment
	DEV_WAIT=30 dev_ramlld_unload || note warn ramlld "after the load check: $DEV_ERR"
	log "ramlld: $ko (its SCSI front end too) loads in $(uname -r)"
}
