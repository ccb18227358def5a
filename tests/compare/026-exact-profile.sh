#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --exact-profile: --plan prints its lines and counts it (estimate-profile over 3 min of host CPU, the reason it is an option and in no level; 0 without it; alone or after a level), --help says so, pairs that cannot go together refused with exit 2; its step (compare/host/run-profile.sh, tools/iprofile faked) runs each ramlld path's cell with the cache model, mq's and sd's again under the default profile (OUT/iprofile/default/PATH), and the per-CPU profile with it (side by side with -j 2: calls, notes and status the same, the plan's wall counting the longer), into OUT/iprofile/PATH and OUT/percpu, and a failed part is a note and the step's status; the report of a folder holding only the step's output has the per-path cache table (bio, mq, sd: misses per I/O, copy_page's, the rest, the model's parameters named, the step's host CPU) and the knob section's per-CPU and cache tables naming the option
# where: host
# requires: python3
# timeout: 120
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

export RAMLLD_HOST_LOAD=0
run_rc 0 "$TOP/compare/run" --help
expect_in "--help" "--exact-profile    after the level's guests"
expect_in "--help" "an option of its own, in no level"

run_rc 0 "$TOP/compare/run" --exact-profile --plan
printf '%s\n' "$out"
expect_in "--plan alone" "exact-profile paths ramlld-bio,ramlld-mq,ramlld-sd"
expect_in "--plan alone" "exact-profile default-paths ramlld-bio,ramlld-mq,ramlld-sd"
expect_in "--plan alone" "exact-profile percpu-settings mq:rq_affinity=0,mq:rq_affinity=1,mq:rq_affinity=2,sd:rq_affinity=0,sd:rq_affinity=1,sd:rq_affinity=2"
expect_in "--plan alone" "exact-profile percpu-runtime 0.2"
xp=$(sed -n 's/^estimate-profile //p' <<< "$out")
matrix=$(sed -n 's/^estimate-matrix //p' <<< "$out")
expect_eq "--plan alone: no matrix" 0 "$matrix"
# 3 + 3 cells of R = 1 (80 + 60 s each), a boot (60) and 6 settings of 3 x 0.2 s (35 + 50 x 0.6 each)
expect_eq "--plan alone: the step's estimate (s)" 1290 "$xp"
[ "$xp" -gt 180 ] || fail "the step is estimated at $xp s: under the 3 min that keeps it out of the default level"

run_rc 0 "$TOP/compare/run" --quick --exact-profile --plan -j 1
expect_in "--quick --exact-profile --plan -j 1" "then the exact profile's guests one at a time"
w1=$(sed -n 's/^wall \([0-9]*\) s .*/\1/p' <<< "$out")
run_rc 0 "$TOP/compare/run" --quick --exact-profile --plan -j 2
expect_in "--quick --exact-profile --plan -j 2" "then the exact profile's two guests side by side"
w2=$(sed -n 's/^wall \([0-9]*\) s .*/\1/p' <<< "$out")
# the step's wall: one guest after the other with -j 1 (6 x 140 + 450 s), the paths' cells
# (840 s) beside the per-CPU boot (450 s) with -j 2
run_rc 0 "$TOP/compare/run" --quick --plan -j 1
expect_eq "-j 1: the step's wall (s)" 1290 "$((w1 - $(sed -n 's/^wall \([0-9]*\) s .*/\1/p' <<< "$out")))"
run_rc 0 "$TOP/compare/run" --quick --plan -j 2
expect_eq "-j 2: the step's wall (s)" 840 "$((w2 - $(sed -n 's/^wall \([0-9]*\) s .*/\1/p' <<< "$out")))"
run_rc 0 "$TOP/compare/run" --quick --exact-profile --plan
expect_in "--quick --exact-profile --plan" "exact-profile paths ramlld-bio,ramlld-mq,ramlld-sd"
expect_eq "--quick --exact-profile --plan: the step counted" 1290 "$(sed -n 's/^estimate-profile //p' <<< "$out")"
with=$(sed -n 's/^estimate \([0-9]*\) .*/\1/p' <<< "$out")
run_rc 0 "$TOP/compare/run" --quick --plan
! grep -q "^exact-profile" <<< "$out" || fail "--quick --plan has exact-profile lines without the option"
expect_eq "--quick --plan: no step" 0 "$(sed -n 's/^estimate-profile //p' <<< "$out")"
without=$(sed -n 's/^estimate \([0-9]*\) .*/\1/p' <<< "$out")
expect_eq "the whole estimate grows by the step's" 1290 "$((with - without))"

for bad in "--host /dev/null|--host and --exact-profile exclude each other" \
	"--kernel trixie|--kernel and --exact-profile exclude each other" \
	"--ledger|--ledger and --exact-profile exclude each other" \
	"--two-node iscsi|--two-node and --exact-profile without a level each run alone"; do
	# shellcheck disable=SC2086 # the options' words
	run_rc 2 "$TOP/compare/run" --exact-profile ${bad%%|*}
	expect_in "--exact-profile ${bad%%|*}" "${bad#*|}"
done

# the step, with tools/iprofile faked: the calls, in order, and a failed cell as a note
fake=$RESULTS/fake
mkdir -p "$fake/tools/iprofile"
cat > "$fake/tools/iprofile/run" << EOF
#!/bin/bash
echo "run \$*" >> "$RESULTS/calls"
mkdir -p "\$2"
[[ " \$* " != *" --target ramlld-mq "* ]] || exit \${FAKE_MQ_RC:-0}
EOF
printf '#!/bin/bash\necho "table $*" >> %q\n' "$RESULTS/calls" > "$fake/tools/iprofile/table"
# shellcheck disable=SC2016 # expanded by the fake
printf '#!/bin/bash\necho "percpu $*" >> %q\nexit "${FAKE_PERCPU_RC:-0}"\n' "$RESULTS/calls" > "$fake/tools/iprofile/percpu"
chmod +x "$fake/tools/iprofile/"*
step() {
	(
		top=$fake out=$1 ko=/k/ramlld.ko prog=compare/run
		mkdir -p "$out"
		# shellcheck source=compare/host/run-profile.sh
		. "$TOP/compare/host/run-profile.sh"
		run_exact_profile 2> /dev/null
		echo "profile_rc=$profile_rc"
	)
}
rm -f "$RESULTS/calls"
expect_eq "the step's status" "profile_rc=0" "$(step "$RESULTS/s1")"
cat "$RESULTS/calls"
o=$RESULTS/s1
expect="run --out $o/iprofile/ramlld-bio --cache default -- --target ramlld-bio --runtime 1 --ko /k/ramlld.ko
table $o/iprofile/ramlld-bio --top 40 --json $o/iprofile/ramlld-bio/table.json
run --out $o/iprofile/ramlld-mq --cache default -- --target ramlld-mq --runtime 1 --ko /k/ramlld.ko
table $o/iprofile/ramlld-mq --top 40 --json $o/iprofile/ramlld-mq/table.json
run --out $o/iprofile/ramlld-sd --cache default -- --target ramlld-sd --runtime 1 --ko /k/ramlld.ko
table $o/iprofile/ramlld-sd --top 40 --json $o/iprofile/ramlld-sd/table.json
run --out $o/iprofile/default/ramlld-bio -- --target ramlld-bio --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-bio --top 40 --json $o/iprofile/default/ramlld-bio/table.json
run --out $o/iprofile/default/ramlld-mq -- --target ramlld-mq --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-mq --top 40 --json $o/iprofile/default/ramlld-mq/table.json
run --out $o/iprofile/default/ramlld-sd -- --target ramlld-sd --runtime 1 --profile default --workload qd32 --ko /k/ramlld.ko
table $o/iprofile/default/ramlld-sd --top 40 --json $o/iprofile/default/ramlld-sd/table.json
percpu $o/percpu --run --cache default --runtime 0.2 --settings mq:rq_affinity=0,mq:rq_affinity=1,mq:rq_affinity=2,sd:rq_affinity=0,sd:rq_affinity=1,sd:rq_affinity=2 --ko /k/ramlld.ko"
expect_eq "the step's calls" "$expect" "$(cat "$RESULTS/calls")"
grep -q "^exact_profile_wall_s=[0-9]" "$o/meta.env" || fail "no exact_profile_wall_s in meta.env"
[ ! -e "$o/notes.tsv" ] || fail "a note on a step that did not fail: $(cat "$o/notes.tsv")"
rm -f "$RESULTS/calls"
expect_eq "the step's status, mq's cell failing (3) and the counters disagreeing (1)" "profile_rc=1" \
	"$(FAKE_MQ_RC=3 FAKE_PERCPU_RC=1 step "$RESULTS/s2")"
expect_eq "the calls go on past a failed cell (mq's tables not made)" 11 "$(wc -l < "$RESULTS/calls")"
expect_eq "the notes" "fail	exact-profile	the exact profile's ramlld-mq cell failed (status 3): iprofile/ramlld-mq.log
fail	exact-profile	the exact profile's ramlld-mq cell (default profile) failed (status 3): iprofile/default/ramlld-mq.log
fail	exact-profile	the exact profile's per-CPU profile failed (status 1): percpu.log" "$(cat "$RESULTS/s2/notes.tsv")"

# -j 2: the paths' cells beside the per-CPU boot; the same calls, the same notes, a failure's status
rm -f "$RESULTS/calls"
expect_eq "-j 2: the step's status, mq's cell failing (3) and the counters disagreeing (1)" "profile_rc=3" \
	"$(jobs=2 FAKE_MQ_RC=3 FAKE_PERCPU_RC=1 step "$RESULTS/s3")"
expect3=${expect//$o\//$RESULTS/s3/}
expect_eq "-j 2: the step's calls (sorted)" "$(grep -v "table $RESULTS/s3/iprofile/\(default/\)\?ramlld-mq " <<< "$expect3" | sort)" \
	"$(sort "$RESULTS/calls")"
expect_eq "-j 2: the notes (sorted)" "fail	exact-profile	the exact profile's per-CPU profile failed (status 1): percpu.log
fail	exact-profile	the exact profile's ramlld-mq cell (default profile) failed (status 3): iprofile/default/ramlld-mq.log
fail	exact-profile	the exact profile's ramlld-mq cell failed (status 3): iprofile/ramlld-mq.log" "$(sort "$RESULTS/s3/notes.tsv")"

# the report of a folder holding only the step's output
d=$RESULTS/report
python3 - "$d" << 'EOF' || fail "the fixture was not written"
import json
import os
import sys

d = sys.argv[1]
model = ("per CPU L1d 32768 B 8-way, L2 1048576 B 16-way, line 64 B, LRU, write-allocate, "
         "write-invalidate, physical addresses, data only")
# path: (I/Os, plugin total, clock over the window, loads+stores, L1d, L2, copy_page L1d / L2)
paths = {"ramlld-bio": (150887, 6624.29, 6624.33, 3960.99, 166.76, 61.98, 127.96, 60.65),
         "ramlld-mq": (130144, 7679.12, 7679.16, 4482.19, 190.75, 62.18, 127.96, 60.79),
         "ramlld-sd": (104384, 9569.65, 9569.70, 5445.96, 200.81, 62.34, 127.97, 60.75)}
for t, (n, tot, clk, acc, m1, m2, c1, c2) in paths.items():
    os.makedirs(os.path.join(d, "iprofile", t))
    fns = {"copy_page": {"0": [c1, c2]}, "blk_mq_rq_ctx_init": {"0": [4.01, 2.0]},
           "kfree": {"0": [1.5, 0.25]}, "aio_complete": {"0": [2.0, 1.0]}}
    json.dump({"n": n, "total": tot, "plugin_total": tot, "window_clock": clk,
               "cache": {"model": model, "cpus": {"0": [acc, m1, m2]}, "functions": fns}},
              open(os.path.join(d, "iprofile", t, "table.json"), "w"))
    open(os.path.join(d, "iprofile", t, "meta.env"), "w").write(
        f"target={t}\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.19\nclock=icount\n")
    open(os.path.join(d, "iprofile", t, "wall.env"), "w").write(
        "wall_s=120.0\ncpu_s=100.5\nplugin=1\nqemu=system\ncache_model=32768:8:1048576:16:64\n")
# the per-CPU profile: mq, rq_affinity 0 (completions on CPU 0) and 2 (on CPU 1, the submitter)
fn0 = {"ramlld_mq_complete [ramlld]": {"0": 40.0}, "__blk_mq_end_request": {"0": 38.0},
       "ramlld_irq_handle [ramlld]": {"0": 50.0}, "aio_complete": {"0": 94.0},
       "copy_page": {"1": 516.0}, "__sysvec_call_function_single": {"0": 20.0}}
fn2 = {"ramlld_mq_complete [ramlld]": {"1": 40.0}, "__blk_mq_end_request": {"1": 38.0},
       "ramlld_irq_handle [ramlld]": {"0": 50.0}, "aio_complete": {"1": 94.0},
       "copy_page": {"1": 516.0}, "__sysvec_call_function_single": {"0": 20.0, "1": 30.0}}


def setting(rqa, fns, cache):
    cnt = {"0": {"irq_mq": 1.0, "done_mq": 1.0 if rqa == "0" else 0.0},
           "1": {"irq_mq": 0.0, "done_mq": 0.0 if rqa == "0" else 1.0}}
    layers = {f: "IPI" if "sysvec" in f else "driver" for f in fns}
    tot = sum(v for per in fns.values() for v in per.values())
    return {"label": f"mq-rq_affinity={rqa}", "disk": "mq", "device": "ramlld0",
            "rq_affinity": rqa, "scheduler": "none", "add_random": "0", "ios": 19000,
            "iops": 1e9 / tot, "clock": tot, "plugin_total": tot, "functions": fns,
            "layers": layers, "counters": cnt,
            "cache": {"model": model, "cpus": cache, "functions": {"copy_page": {"1": [128.0, 60.0]}}}}


os.makedirs(os.path.join(d, "percpu"))
json.dump({"meta": {"irq_cpu": "0", "fio_cpu": "1", "qemu": "10.0.13", "cpus": "2",
                    "kernel": "6.1.0-57-amd64"},
           "settings": [setting("0", fn0, {"0": [300.0, 18.7, 15.4], "1": [3000.0, 198.2, 75.6]}),
                        setting("2", fn2, {"0": [100.0, 5.9, 4.6], "1": [3200.0, 211.7, 64.2]})],
           "unfinished": [], "wall": {"wall_s": "400.0", "cpu_s": "344.1"}},
          open(os.path.join(d, "percpu", "percpu.json"), "w"))
open(os.path.join(d, "percpu", "wall.env"), "w").write("wall_s=400.0\ncpu_s=344.1\n")
open(os.path.join(d, "meta.env"), "w").write("command=compare/run --exact-profile\nclock=icount\n")
EOF
run_rc 0 "$TOP/compare/run" --report "$d"
r=$d/report.md
sed -n '/^## Cache misses per path/,/^## /p' "$r"
grep -qF "## Cache misses per path (modelled)" "$r" || fail "no per-path cache section"
grep -qF "the profiling plugin's cache model (tools/iprofile/cachemodel.h), per CPU L1d 32768 B 8-way, L2 1048576 B 16-way, line 64 B, LRU" "$r" ||
	fail "the model's parameters are not named"
grep -qF "(Debian 12's QEMU 7.2.19, 1 vCPU, guest kernel 6.1.0-57-amd64), in a 1 s window" "$r" || fail "the QEMU, vCPUs, kernel or window are not named"
grep -qF "Made by \`compare/run --exact-profile\`, an option of its own, not part of any level (646 s of host CPU in this run" "$r" ||
	fail "the step is not named as an option with its host CPU (3 x 100.5 + 344.1 = 646)"
grep -qF "| ramlld-bio | 150,887 | 6,624.29 / 6,624.33 | 3,960.99 | 166.76 | 61.98 | 127.96 / 60.65 | 38.80 | 1.33 |" "$r" ||
	fail "bio's row is not 166.76 / 61.98 misses, copy_page 127.96 / 60.65, 38.80 / 1.33 besides"
grep -qF "| ramlld-sd | 104,384 | 9,569.65 / 9,569.70 | 5,445.96 | 200.81 | 62.34 | 127.97 / 60.75 | 72.84 | 1.59 |" "$r" ||
	fail "sd's row is wrong"
[ "$(grep -c '^| ramlld-' "$r")" = 3 ] || fail "not three path rows"
grep -qF -- "- ramlld-bio: blk_mq_rq_ctx_init 4.01 / 2.00; aio_complete 2.00 / 1.00; kfree 1.50 / 0.25" "$r" ||
	fail "bio's functions with the most L1d misses besides copy_page are not listed, largest first"
grep -qF "The per-CPU profile is made by \`compare/run --exact-profile\`, an option of its own" "$r" ||
	fail "the knob section does not name the option"
grep -qF "**Cache, modelled** (a model, not a measurement: the plugin's cache model, per CPU L1d 32768 B" "$r" ||
	fail "the knob section has no per-rq_affinity cache table"
grep -qF "| mq | rq_affinity=2, none, add_random=0 | 5.9 / 4.6 | 211.7 / 64.2 | 217.6 / 68.8 | 3,300 |" "$r" ||
	fail "mq rq_affinity=2's cache row is not 5.9 / 4.6 and 211.7 / 64.2 (217.6 / 68.8 in all)"
echo "ok: the report of the step's folder: the per-path table (bio, mq, sd), the model named, the knob section's per-CPU cache table"
