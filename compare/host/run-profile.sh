# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-profile.sh: compare/run --exact-profile, the exact profile's step (docs/profile.md):
# the per-CPU knob profile with the cache model on ramlld's mq and sd disks (OUT/percpu, the knob
# section's) and each ramlld path's cache misses (OUT/iprofile/PATH, the cache section's), after
# the level's guests; sourced by compare/run. Also compare/run --ledger --ledger-profile's step
# (ledger_profile).

# What the step runs (--plan prints it; compare/estimate.py counts it as "exact-profile" lines)
xp_paths=(ramlld-bio ramlld-mq ramlld-sd)
xp_runtime=1
# the paths' cells run one-core-peak's queue settings (scheduler none) and percore.fio's plugged
# batches of 8 (tools/iprofile/guest-cell's defaults); these are profiled again as the ladder's
# rows run, the default profile (the kernel's own: mq-deadline on mq and sd) and qd32.fio's job
# (one I/O a submission: unplugged, mq-deadline's queue runs from kblockd), into
# OUT/iprofile/default/PATH, without the cache model
xp_default_paths=(ramlld-bio ramlld-mq ramlld-sd)
xp_percpu_settings=mq:rq_affinity=0,mq:rq_affinity=1,mq:rq_affinity=2,sd:rq_affinity=0,sd:rq_affinity=1,sd:rq_affinity=2
# the per-CPU windows' R (and 2R): a setting's two windows differ by 0.2 s of fio's steady I/O,
# ~16,000-20,000 I/Os; its cost is mostly the cache model's, per instruction
xp_percpu_runtime=0.2
xp_cache=default

# exact_profile_plan: the step's lines of the plan
exact_profile_plan() {
	local IFS=,
	echo "exact-profile paths ${xp_paths[*]}"
	echo "exact-profile paths-runtime $xp_runtime"
	echo "exact-profile paths-guest QEMU 7.2 (system), 1 vCPU, cache $xp_cache"
	echo "exact-profile default-paths ${xp_default_paths[*]}"
	echo "exact-profile percpu-settings $xp_percpu_settings"
	echo "exact-profile percpu-runtime $xp_percpu_runtime"
	echo "exact-profile percpu-guest QEMU 10 (trixie), 2 vCPUs, cache $xp_cache"
}

# xp_fail WHAT STATUS LOG: a failed part of the step, in the report's notes
xp_fail() {
	printf 'fail\t%s\tthe exact profile'\''s %s failed (status %s): %s\n' "exact-profile" "$1" "$2" "$3" >> "$out/notes.tsv"
	echo "$prog: the exact profile's $1 failed (status $2): $out/$3" >&2
}

# iprofile_cell DIR ARGS...: one profiled cell (tools/iprofile/run --out DIR ARGS... --ko $ko) and
# its table (DIR/table.json, table.txt), the output in DIR.log; the first failure's status
iprofile_cell() {
	local d=$1 r=0
	shift
	"$top/tools/iprofile/run" --out "$d" "$@" --ko "$ko" < /dev/null > "$d.log" 2>&1 || r=$?
	[ "$r" != 0 ] || "$top/tools/iprofile/table" "$d" --top 40 --json "$d/table.json" > "$d/table.txt" 2>> "$d.log" || r=$?
	return "$r"
}

# xp_cells: each path's profiled cell with the cache model (QEMU 7.2, 1 vCPU), then the default
# profile's cells, one after the other; the last failure's status
xp_cells() {
	local t r rc=0
	for t in "${xp_paths[@]}"; do
		echo "$prog: the exact profile: $t's cache misses (QEMU 7.2, 1 vCPU) into $out/iprofile/$t" >&2
		r=0
		iprofile_cell "$out/iprofile/$t" --cache "$xp_cache" -- --target "$t" --runtime "$xp_runtime" || r=$?
		[ "$r" = 0 ] || { xp_fail "$t cell" "$r" "iprofile/$t.log"; rc=$r; }
	done
	mkdir -p "$out/iprofile/default"
	for t in "${xp_default_paths[@]}"; do
		echo "$prog: the exact profile: $t under the default profile, qd32.fio's job (QEMU 7.2, 1 vCPU) into $out/iprofile/default/$t" >&2
		r=0
		iprofile_cell "$out/iprofile/default/$t" -- --target "$t" --runtime "$xp_runtime" --profile default --workload qd32 || r=$?
		[ "$r" = 0 ] || { xp_fail "$t cell (default profile)" "$r" "iprofile/default/$t.log"; rc=$r; }
	done
	return "$rc"
}

# xp_percpu: the per-CPU boot (QEMU 10, 2 vCPUs), each setting of xp_percpu_settings in it
xp_percpu() {
	local r=0
	echo "$prog: the exact profile: per CPU, ${xp_percpu_settings//,/ } (QEMU 10, 2 vCPUs) into $out/percpu" >&2
	"$top/tools/iprofile/percpu" "$out/percpu" --run --cache "$xp_cache" --runtime "$xp_percpu_runtime" \
		--settings "$xp_percpu_settings" --ko "$ko" < /dev/null > "$out/percpu/table.md" 2> "$out/percpu.log" || r=$?
	# 1: the table written, a setting's figures disagreeing with the driver's counters (the
	# knob section says which)
	[ "$r" = 0 ] || xp_fail "per-CPU profile" "$r" "percpu.log"
	return "$r"
}

# run_exact_profile: the step into $out with $ko; sets profile_rc (a failure's status). With
# -j 2 or more the paths' cells run beside the per-CPU boot: two guests, each of one host thread
# (their counts are exact whatever runs beside them).
run_exact_profile() {
	local s0 pid='' r=0
	profile_rc=0
	s0=$(date +%s)
	mkdir -p "$out/iprofile" "$out/percpu"
	if [ "${jobs:-1}" -gt 1 ]; then
		xp_cells &
		pid=$!
	else
		xp_cells || profile_rc=$?
	fi
	xp_percpu || profile_rc=$?
	[ -z "$pid" ] || wait "$pid" || r=$?
	[ "$r" = 0 ] || profile_rc=$r
	echo "exact_profile_wall_s=$(($(date +%s) - s0))" >> "$out/meta.env"
}

# run_exact_profile_only: --exact-profile without a level: the module built, the step, the report
# of the folder
run_exact_profile_only() {
	if [ "$plan_only" = 1 ]; then
		plan_text="name exact-profile
clock icount (the plugin's guests: always the exact clock)
$(exact_profile_plan)"
		est_text=$(python3 "$here/estimate.py" --clock icount --host-load "${RAMLLD_HOST_LOAD:-$(cut -d' ' -f1 /proc/loadavg)}" \
			--host-cpus "$(nproc)" --targets-tsv /dev/null <<< "$plan_text") || die "compare/estimate.py failed on the plan"
		printf '%s\n' "$plan_text" "$est_text"
		exit 0
	fi
	alone_start exact-profile
	run_exact_profile
	alone_end "$profile_rc"
}

# ledger_profile: compare/run --ledger --ledger-profile's step, after the ledger's guest: each row
# of the ladder's pairs (compare/ledger.py --profile-rows: ramlld's mq and sd disks, sg and an
# NVMe stack's generic device, each with its twin's row) profiled in a boot of its own (QEMU 7.2,
# 1 vCPU, the ledger's kernel and module) into $out/iprofile/ID (ID: the row's id, '/' as '_'),
# one after the other; ledger.md's ladder and stages read them. Returns the last failure's status.
lp_runtime=1
ledger_profile() {
	local id d r rc=0 ids s0
	local -a kopt=()
	[ -z "$kernel" ] || kopt=(--kernel "$kernel")
	s0=$(date +%s)
	ids=$("$py" "$here/ledger.py" --profile-rows "$out") || return $?
	mkdir -p "$out/iprofile"
	[ -n "$ids" ] || echo "$prog: ledger profile: no pair of rows to profile (mq, sd, sg or an NVMe generic device beside its twin, both measured)" >&2
	for id in $ids; do
		d=$out/iprofile/${id//\//_}
		rm -rf "$d" "$d.log"
		echo "$prog: ledger profile: $id (QEMU 7.2, 1 vCPU, exact clock) into $d" >&2
		r=0
		iprofile_cell "$d" "${kopt[@]}" -- --target "${id%%/*}" --engine "${id#*/}" --runtime "$lp_runtime" || r=$?
		if [ "$r" != 0 ]; then
			rm -f "$d/table.json"
			echo "$prog: ledger profile: $id failed (status $r): $d.log" >&2
			rc=$r
		fi
	done
	echo "ledger_profile_wall_s=$(($(date +%s) - s0))" >> "$out/meta.env"
	return "$rc"
}
