# SPDX-License-Identifier: GPL-2.0
# tests/runner/run-one.bash: run one test, record its result; a guest's batch of tests.
# Sourced by tests/run (its globals: TOP, prog, out, in_vm, stretch, timeout_scale...).
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are tests/run's

# run_one ID FILE OUTDIR: run one test where we are; print its line; append it to the results.
run_one() {
	local id=$1 file=$2 outdir=$3 missing='' c start rc reason=''
	local log=$outdir/$id.log res=$outdir/$id
	read_header "$file"
	mkdir -p "$res"
	: > "$log"
	for c in $h_requires; do
		command -v "$c" > /dev/null 2>&1 || missing="$missing $c"
	done
	start=$EPOCHSECONDS
	if [ -n "$missing" ]; then
		rc=77
		echo "SKIP: missing command(s):$missing" > "$log"
		result "$id" "$rc" 0 "" "$outdir"
		return
	fi
	local before='' state_before='' mark="ramlld-test: start $id $$.$start"
	if [ "$h_where" = guest ]; then
		echo "$mark" > /dev/kmsg 2> /dev/null || true
		local mods
		mapfile -t mods < <(loaded_modules)
		before=" ${mods[*]} "
		state_before=$(guest_state)
	fi
	# In a guest, a test that outlives its timeout by 30 s cannot be killed (stuck in the
	# kernel): record it, and reboot the guest so that the host goes on in a fresh one.
	local watchdog=''
	if [ -n "$in_vm" ]; then
		(
			read -r -t $((h_timeout + 30)) -u "$never_fd" || true
			echo "the test did not end 30 s after its timeout (stuck in the kernel?); rebooting the guest" >> "$log"
			result "$id" 1 $((EPOCHSECONDS - start)) "hung past its timeout of $h_timeout s" "$outdir"
			sync
			echo b > /proc/sysrq-trigger
		) &
		watchdog=$!
	fi
	rc=0
	(cd "$TOP" && RESULTS=$res TEST_NAME=$id TEST_TIMEOUT=$h_timeout TEST_DEADLINE=$((EPOCHSECONDS + h_timeout)) \
		exec timeout -k 10 "$h_timeout" bash "$file" < /dev/null > "$log" 2>&1) || rc=$?
	if [ -n "$watchdog" ]; then
		kill "$watchdog" 2> /dev/null || true
		wait "$watchdog" 2> /dev/null || true
	fi
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || reason="timed out after $h_timeout s"
	if [ "$h_where" = guest ]; then
		local klog reports m left=''
		klog=$(dmesg 2> /dev/null | awk -v m="$mark" 'found { print } index($0, m) { found = 1 }')
		reports=$(grep -E -f <(grep -v '^#' "$report_patterns") <<< "$klog" || true)
		# kmemleak's line after a scan, when the test's own kmemleak check found known kernel
		# leaks only (tools/vm/kmemleak-known): not a report (a program start only then)
		if [[ $reports == *"new suspected memory leaks"* ]]; then
			reports=$("$TOP/tools/vm/kmemleak-known" --log <<< "$klog" |
				grep -E -f <(grep -v '^#' "$report_patterns") || true)
		fi
		if [ -n "$reports" ]; then
			{
				echo "---- kernel log since the test started ----"
				tail -n 80 <<< "$klog"
			} >> "$log"
			reports=${reports%%$'\n'*}
			rc=1 reason="${reason:+$reason; }kernel report: ${reports#\[*\] }"
		fi
		# A regular file in /dev (fio or dd on a device node that had gone) would hide the
		# node of the next test's device: remove it, fail the test that made it.
		local f strays=''
		for f in /dev/*; do
			[ -f "$f" ] && [ ! -L "$f" ] && strays="$strays $f" && rm -f "$f"
		done
		if [ -n "$strays" ]; then
			rc=1 reason="${reason:+$reason; }left regular file(s) in /dev (written after the device went?):$strays"
		fi
		for m in $(loaded_modules); do
			[[ $before == *" $m "* ]] && continue
			[[ $m =~ $device_modules ]] && left="$left $m"
		done
		# the state first, in a subshell of this shell (left out of the processes it lists)
		local items state_after
		state_after=$(guest_state)
		items=$(left_behind "$state_before" "$state_after")
		if [ -n "$left" ] || [ -n "$items" ]; then
			[ -z "$left" ] || rc=1 reason="${reason:+$reason; }left module(s) loaded:$left"
			if [ -n "$items" ]; then
				rc=1 reason="${reason:+$reason; }left behind: $(wc -l <<< "$items") item(s) (listed in its log)"
			fi
			{
				echo "---- left behind by $id:"
				for m in $left; do echo "module $m"; done
				[ -z "$items" ] || echo "$items"
			} >> "$log"
			if [ -n "$in_vm" ]; then
				restore_guest "$log" "$items" "$left"
			else
				# not in a guest of our own: unload the test modules, touch nothing else
				for m in $left; do
					rmmod "$m" >> "$log" 2>&1 || echo "rmmod $m failed" >> "$log"
				done
			fi
			local still='' mods_now
			mods_now=" $(loaded_modules | tr '\n' ' ') "
			for m in $left; do
				[[ $mods_now != *" $m "* ]] || still="$still module $m;"
			done
			if [ -n "$in_vm" ]; then
				state_after=$(guest_state)
				still="$still$(left_behind "$state_before" "$state_after" | tr '\n' ';')"
			fi
			if [ -n "$still" ]; then
				echo "---- not undone:$still" >> "$log"
				if [ -n "$in_vm" ]; then
					guest_dirty="after $id: ${still%;}"
				fi
			elif [ -n "$in_vm" ]; then
				echo "---- undone: the guest is as before $id" >> "$log"
			fi
		fi
	fi
	result "$id" "$rc" $((EPOCHSECONDS - start)) "$reason" "$outdir"
}

# result ID RC SECS REASON OUTDIR: print the test's line (and a failed test's output), record it.
result() {
	local id=$1 rc=$2 secs=$3 reason=$4 outdir=$5 verdict
	case $rc in
	0) verdict=PASS ;;
	77) verdict=SKIP ;;
	*) verdict=FAIL ;;
	esac
	if [ $verdict = SKIP ]; then
		reason=$(grep -m1 '^SKIP' "$outdir/$id.log" 2> /dev/null | sed 's/^SKIP:* *//' || true)
		echo "SKIP $id ($secs s)${reason:+: $reason}"
	else
		echo "$verdict $id ($secs s)"
	fi
	if [ $verdict = FAIL ]; then
		echo "---- $id: ${reason:-exit status $rc}; output ($outdir/$id.log):"
		tail -n 150 "$outdir/$id.log" 2> /dev/null | sed 's/^/    /'
		echo "----"
	fi
	echo "$verdict $id $secs" >> "${results_file:-$outdir/results.txt}"
}

# Each writer of results has a file of its own (a guest appending over 9p beside another would
# lose lines): the host's tests .results.host, each guest PLAN.results; results.txt joins them.
# all_results OUTDIR: every result recorded so far.
all_results() {
	cat "$1"/.results.host "$1"/.plan.*.results 2> /dev/null || true
}

# A guest test is taken by whoever runs it first (mkdir is atomic, across 9p too): CLAIMS/<id>,
# holding the plan of the guest that took it. claim ID BY: 0 when BY took it.
claim() {
	local d=$claims/${1//\//-}
	mkdir "$d" 2> /dev/null || return 1
	echo "$2" > "$d/by"
}
claimed_by() {
	cat "$claims/${1//\//-}/by" 2> /dev/null || true
}

# batch PLAN OUTDIR: run the guest tests listed in PLAN (id and file a line) that no other guest
# has taken, one after the other.
batch() {
	local plan=$1 outdir=$2 id file
	results_file=$plan.results claims=$outdir/.claims
	mkdir -p "$claims"
	[ "$(id -u)" -eq 0 ] || die "guest tests need root"
	echo on > /proc/sys/kernel/printk_devkmsg 2> /dev/null || true
	if [ -n "$in_vm" ]; then
		# A pipe nobody writes to: the watchdog's sleep, with bash's read -t.
		mkfifo /tmp/ramlld-never
		exec {never_fd}<> /tmp/ramlld-never
	fi
	local kml=/sys/kernel/debug/kmemleak first='' last=''
	# A kernel with kmemleak (tools/vm/debug-kernel): forget what boot left, so that the scan
	# after the tests reports only what they leaked.
	if [ -n "$in_vm" ] && [ -w "$kml" ]; then
		{ echo scan > "$kml" && echo clear > "$kml"; } || die "cannot scan and clear $kml"
	fi
	guest_dirty=''
	# shellcheck disable=SC2094 # claim writes under .claims/, not to the plan
	while read -r id file; do
		claim "$id" "$plan" || continue
		run_one "$id" "$file" "$outdir"
		first=${first:-$id} last=$id
		if [ -n "$guest_dirty" ]; then
			# tests/run on the host starts a fresh guest for the tests not run
			echo "$guest_dirty" > "$plan.dirty"
			echo "$prog: the guest could not be made clean again ($guest_dirty); the rest go on in a fresh guest"
			break
		fi
	done < "$plan"
	if [ -n "$in_vm" ] && [ -w "$kml" ] && [ -n "$first" ]; then
		kmemleak_check "kmemleak/${first//\//-}" "$first" "$last" "$outdir"
	fi
}

# kmemleak_check ID FIRST LAST OUTDIR: a kmemleak scan after the tests FIRST..LAST of this guest,
# recorded as test ID: it fails when kmemleak reports an unreferenced object (printed) that
# tools/vm/kmemleak-known does not name a known leak of the kernel itself.
kmemleak_check() {
	local id=$1 kml=/sys/kernel/debug/kmemleak start=$EPOCHSECONDS rc=0 report
	local log=$4/$id.log
	mkdir -p "${log%/*}"
	# Objects younger than 5 s are not reported, and an object is reported after it has
	# been seen unreferenced, unchanged, in two scans.
	sleep 5
	echo scan > "$kml"
	echo scan > "$kml"
	report=$(cat "$kml")
	{
		echo "kmemleak scan after the tests $2 .. $3 of this guest"
		if [ -n "$report" ]; then
			"$TOP/tools/vm/kmemleak-known" <<< "$report" || rc=$?
		else
			echo "ok: no unreferenced object"
		fi
	} > "$log"
	echo clear > "$kml"
	result "$id" "$rc" $((EPOCHSECONDS - start)) "kmemleak reported leaks not known as the kernel's own" "$4"
}
