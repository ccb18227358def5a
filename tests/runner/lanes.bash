# SPDX-License-Identifier: GPL-2.0
# tests/runner/lanes.bash: the host tests' lane and the guests' lanes of tests/run -j.
# Sourced by tests/run (its globals: TOP, prog, out, in_vm, stretch, timeout_scale...).
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are tests/run's

host_lane() {
	local id
	for id in "${host_tests[@]+"${host_tests[@]}"}"; do
		host_stretch
		run_one "$id" "${file_of[$id]}" "$out"
	done
}

# guest_run VMOPTS TAG ID...: run these guest tests in guests booted one after the other, each
# taking the tests no guest has taken yet, until none is left; a guest that dies fails the test
# it was running (taken by it, no result), or the next one when it died before taking any, and
# the rest go on in a fresh guest.
guest_run() {
	local vmopts=$1 tag=$2 n=0 budget id plan rc todo ran
	shift 2
	while :; do
		todo=()
		for id in "$@"; do
			[ -d "$claims/${id//\//-}" ] || todo+=("$id")
		done
		[ ${#todo[@]} -gt 0 ] || break
		n=$((n + 1))
		plan=$out/.plan.$tag.$n
		host_stretch
		# boot and the closing kmemleak scan: a minute each on a debug kernel under TCG
		budget=$(((60 * timeout_scale + 60) * stretch))
		: > "$plan"
		for id in "${todo[@]}"; do
			echo "$id ${file_of[$id]}" >> "$plan"
			read_header "${file_of[$id]}"
			budget=$((budget + h_timeout + 15))
		done
		rc=0
		rm -f "$plan.report" "$plan.dirty"
		# Kernel reports go to a file: those the tests caught are in their logs already.
		# shellcheck disable=SC2086
		RAMLLD_TIMEOUT_SCALE=$((timeout_scale * stretch)) \
			"$TOP/tools/vm/run" --timeout "$budget" --share "$out" --report "$plan.report" ${kernel:+--kernel "$kernel"} \
			$vm_args $vmopts -- "$TOP/tests/run" --in-vm --batch "$plan" "$out" 2>&1 |
			tee "$plan.log" || rc=${PIPESTATUS[0]}
		ran=$(awk '{ print $2 }' "$plan.results" 2> /dev/null || true)
		local blame=()
		for id in "${todo[@]}"; do
			[ "$(claimed_by "$id")" = "$plan" ] || continue
			grep -qxF "$id" <<< "$ran" || blame+=("$id")
		done
		# a guest that ended before taking any test (no boot): fail the next, so that it ends
		if [ ${#blame[@]} -eq 0 ] && [ -z "$ran" ] && [ "$rc" -ne 0 ] && [ ! -f "$plan.dirty" ]; then
			for id in "${todo[@]}"; do
				claim "$id" "$plan" && blame=("$id") && break
			done
		fi
		for id in "${blame[@]+"${blame[@]}"}"; do
			# the guest may have died before the test's group folder was made
			mkdir -p "$out/${id%/*}"
			{
				echo "the guest ended (tools/vm/run exit $rc) while this test ran; guest output:"
				tail -n 60 "$plan.log"
				cat "$plan.report" 2> /dev/null || true
			} >> "$out/$id.log"
			results_file=$plan.results result "$id" 1 0 "guest died (tools/vm/run exit $rc)" "$out"
		done
	done
}

# guest_lane N: the tests of the common guests, then those that need a guest of their own.
guest_lane() {
	local lane=$1 id
	[ ${#guest_tests[@]} -eq 0 ] || guest_run "" "$lane" "${guest_tests[@]}"
	for id in "${own_vm_tests[@]+"${own_vm_tests[@]}"}"; do
		mkdir "$out/.vm-claims/${id//\//-}" 2> /dev/null || continue
		read_header "${file_of[$id]}"
		guest_run "$h_vm" "$lane-${id//\//-}" "$id"
	done
}
