# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/breakdown.sh: the breakdown, sourced by compare/guest-run: the traced 4k
# randread cell (blktrace + btt, perf record and report) and --perf-cell's runs under perf.
# Variables: compare/guest-run's.

# the breakdown's perf sample period on the exact clock, in guest ns (= instructions at shift 0)
PERF_PERIOD=${COMPARE_PERF_PERIOD:-199999}

# without_module_walk CMD...: CMD with an empty tmpfs over the running kernel's module tree, in
# a mount namespace of its own. perf record and report walk /lib/modules/RELEASE/kernel at
# start-up (some 4,000 files, over virtio-9p here); on the exact clock each wait for the host
# moves the guest's clock to its next timer, so the walk alone outlasted a 300 s timeout
# (docs/results.md). Module symbols still come from /proc/kallsyms.
without_module_walk() {
	local kdir
	kdir=/lib/modules/$(uname -r)/kernel
	if [ -d "$kdir" ] && command -v unshare > /dev/null; then
		# shellcheck disable=SC2016 # "$1" and "$@" are the inner sh's
		unshare -m -- sh -c 'mount -t tmpfs -o size=64k,mode=0555 none "$1" && shift && exec "$@"' \
			- "$kdir" "$@"
	else
		"$@"
	fi
}

# fio_io_window JSON MARGIN: "start,end" (CLOCK_REALTIME seconds) inside the I/O phase of a
# fio run: fio stamps its JSON (timestamp_ms) just after its I/O ends, and each direction's
# "runtime" (ms; the largest is the I/O phase's length; job_runtime sums the jobs) before that;
# MARGIN seconds off each end cover the stamp's lag (fio's stats and output, well under 1 s).
fio_io_window() {
	awk -v m="$2" '/"timestamp_ms"/ { gsub(/[^0-9]/, ""); t = $0 / 1000 }
		/"runtime" : [0-9]/ { gsub(/[^0-9]/, ""); if ($0 / 1000 > r) r = $0 / 1000 }
		END { if (t && r > 2 * m) printf "%.3f,%.3f\n", t - r + m, t - m }' "$1"
}

# The 4k randread cell again, traced: blktrace + btt, then perf (not counted in the matrix).
breakdown_target() { # TARGET PROFILE
	local t=$1 bd=$out/breakdown/$1 tmp=/tmp/compare-bd s=randread-4k-qd32 rt=$((runtime_s < 2 ? 2 : runtime_s)) d
	mkdir -p "$bd"
	echo "profile=$2" > "$bd/profile.env"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	d=$(disk_of "$DEV")
	queue_state "$DEV" > "$bd/queue.txt"
	if command -v blktrace > /dev/null && [ -d /sys/kernel/debug/block ]; then
		blktrace -d "$DEV" -o bt -D "$tmp" > "$tmp/blktrace.out" 2>&1 &
		local btpid=$!
		sleep 1
		RUNTIME=$rt RAMP=0 DEVS=$DEVS_COLON fio --section=$s --output-format=json \
			--output="$bd/fio-blktrace.json" "$here/workloads/qd32.fio" >> "$LOG" 2>&1 || true
		kill -INT "$btpid" 2> /dev/null || true
		wait "$btpid" 2> /dev/null || true
		if blkparse -i bt -D "$tmp" -d "$tmp/bt.bin" -O > /dev/null 2>> "$LOG" &&
			btt -i "$tmp/bt.bin" > "$bd/btt.txt" 2>> "$LOG"; then
			:
		else
			note warn "$t" "blkparse/btt failed on $d"
		fi
		rm -f "$tmp"/bt.*
	else
		note warn "$t" "no blktrace or debugfs: no btt breakdown"
	fi
	if [ "$perf" = 1 ] && command -v perf > /dev/null; then
		# perf over the I/O phase only: under TCG fio's start-up (loading, file set-up) can
		# outlast its I/O. perf samples the whole fio run on the wall clock (-k realtime),
		# fio runs 4 s longer than the cell, and perf report keeps the span that fio's JSON
		# puts inside its I/O, less 1.5 s at each end (fio_io_window).
		# On the exact clock cpu-clock's period is in guest ns = instructions: a sample every
		# PERF_PERIOD instructions (a prime, so no I/O loop beats with it): 5,000 a guest
		# second. A sample with its callchain costs the guest ~7,000 instructions (3.5 % here);
		# at 50,000 the sampled run did not end within its timeout.
		local freq=(-F 499)
		[ "${RAMLLD_CLOCK:-host}" != icount ] || freq=(-c "$PERF_PERIOD")
		without_module_walk timeout -k 10 -s INT $((rt + 300)) perf record -k CLOCK_REALTIME -N -B -q -e cpu-clock \
			"${freq[@]}" -a -g -o "$tmp/perf.data" -- env RUNTIME=$((rt + 4)) RAMP=0 DEVS="$DEVS_COLON" \
			fio --section=$s --output-format=json --output="$bd/fio-perf.json" \
			"$here/workloads/qd32.fio" >> "$LOG" 2>&1 || note warn "$t" "perf record failed or timed out"
		if [ -s "$tmp/perf.data" ]; then
			local window
			window=$(fio_io_window "$bd/fio-perf.json" 1.5)
			[ -n "$window" ] || note warn "$t" "perf: no I/O window in fio's JSON; profile of the whole run"
			without_module_walk timeout -k 10 300 perf report -i "$tmp/perf.data" --stdio \
				--no-children --sort symbol -g none \
				${window:+--time "$window"} --percent-limit 0.01 > "$bd/perf.txt" 2>> "$LOG" ||
				note warn "$t" "perf report failed"
			echo "# I/O window (CLOCK_REALTIME, s): ${window:-whole run}" >> "$bd/perf.txt"
			# The driver's own share, Amdahl's bound on what any driver could gain here:
			# samples by the nearest driver, hand-back or interrupt function (report.py)
			local parents
			if parents=$(python3 "$here/report.py" --perf-parents "$out" 2>> "$LOG") && [ -n "$parents" ]; then
				without_module_walk timeout -k 10 300 perf report -i "$tmp/perf.data" --stdio \
					--no-children --sort parent \
					-p "$parents" -g none ${window:+--time "$window"} > "$bd/perf-driver.txt" \
					2>> "$LOG" || note warn "$t" "perf report --sort parent failed"
				# on the exact clock, the same by parent and sampled function: the copies
				# made under the driver's own functions, which the report's instructions
				# per I/O by function (an exact-clock table) takes from the driver's share
				[ "${RAMLLD_CLOCK:-host}" != icount ] ||
					without_module_walk timeout -k 10 300 perf report -i "$tmp/perf.data" \
						--stdio --no-children --sort parent,symbol -p "$parents" -g none \
						${window:+--time "$window"} > "$bd/perf-driver-symbols.txt" \
						2>> "$LOG" || note warn "$t" "perf report --sort parent,symbol failed"
			else
				note warn "$t" "report.py --perf-parents failed: no driver share"
			fi
		fi
	fi
	rm -rf "$tmp"
}

# perf_cell TARGET PROFILE WORKLOAD SECTION (--perf-cell): SECTION again, --perf-passes fio
# runs of it alone (each drops the page cache: invalidate=1), under perf record on every CPU,
# not counted in the matrix. Self samples only (no call chains: a chain costs the guest ~7,000
# instructions a sample); on the exact clock cpu-clock's period is guest ns = instructions, so
# samples x period is each function's instruction count, and the first device's stat deltas
# give the requests they served (compare/sections/seed002.py: instructions per request by
# function). The data is written to /tmp and moved after (a 9p write under perf would be
# sampled); compare/run reports it on the host with DIR/kallsyms and the modules' symbols as
# loaded now.
PERF_CELL_PERIOD=${COMPARE_PERF_CELL_PERIOD:-19997}
perf_cell() {
	local t=$1 p=$2 w=$3 s=$4 dir=$out/raw/$1/$2/$3/$4 d dstat freq=(-F 499) rc=0
	command -v perf > /dev/null || { note warn "$t" "--perf-cell: no perf in the guest"; return 0; }
	[ "${RAMLLD_CLOCK:-host}" != icount ] || freq=(-c "$PERF_CELL_PERIOD")
	[ -s "$out/kallsyms" ] || grep -v '\[' /proc/kallsyms > "$out/kallsyms"
	d=$(disk_of "$DEV")
	mkdir -p "$dir"
	{
		echo "passes $perf_passes"
		echo "sampling ${freq[*]}"
		echo "clock ${RAMLLD_CLOCK:-host}"
		if read -r dstat < "/sys/block/$d/stat"; then echo "disk_before $dstat"; fi
	} > "$dir/perf.stat"
	rm -f /tmp/compare-perf-cell.data
	# the job file's hooks (compare/cell-stat) write nothing here: STATHOOK=true
	# shellcheck disable=SC2016 # "$1"... are the inner sh's
	(cd /tmp && RAWDIR=/tmp REP=0 DISK=$d CLK_TCK=$clk_tck STATHOOK=true DEVS=$DEVS_COLON \
		without_module_walk timeout -k 10 -s INT 600 perf record -q -N -B -e cpu-clock "${freq[@]}" -a \
		-o /tmp/compare-perf-cell.data -- sh -c 'i=0; while [ "$i" -lt "$1" ]; do
			fio --section="$2" --output-format=json --output=/dev/null "$3" || exit; i=$((i + 1)); done' \
		- "$perf_passes" "$s" "$here/workloads/$w.fio") >> "$LOG" 2>&1 || rc=$?
	if read -r dstat < "/sys/block/$d/stat"; then echo "disk_after $dstat" >> "$dir/perf.stat"; fi
	if [ "$rc" != 0 ] || [ ! -s /tmp/compare-perf-cell.data ]; then
		note warn "$t" "--perf-cell $w/$s under $p: perf record or fio failed (status $rc)"
		rm -f /tmp/compare-perf-cell.data "$dir/perf.stat"
		return 0
	fi
	mv /tmp/compare-perf-cell.data "$dir/perf.data"
	grep '\[' /proc/kallsyms > "$dir/perf.modsyms" || true
}
