#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ab's report takes its function table from exact counts when both kernels were profiled (DIR/SIDE/profile/TARGET/functions.tsv of tools/iprofile/table): a summary line per target (profile totals, the row's Δ, the two functions that moved most), then each function base -> changed with two decimals and no ± column, CPUs summed, one that moved by 1.00 listed, those under 0.5 summed, the work paid per unit of time (where table.json gives the windows' I/Os) split off the profile's Δ as its per-I/O part, the summary's column and a function's measure, a function known to move between boots (sbitmap_get) named as such; compare/ab prints the summary, not the details; without profiles the perf section stands; compare/host/ab-measure.sh's profile_side profiles one cell per tools/iprofile/guest-cell target that has a selected row (run and table faked), with the kernel and ramlld.ko of the side
# where: host
# requires: python3
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

d=$RESULTS/ab
tsv() { printf 'function\tlayer\tcpu\tinstr_per_io\n'; printf '%s\n' "$@"; }
for side in base changed; do
	mkdir -p "$d/$side/run1" "$d/$side/profile/ramlld-sd" "$d/$side/profile/brd" "$d/$side/profile/ramlld-mq"
	printf 'target\tworkload\tinstr\tstatus\nramlld-sd\tio_uring\t%s\tok\nbrd\tio_uring\t5636.0\tok\n' \
		"$([ "$side" = base ] && echo 9570.0 || echo 10571.0)" > "$d/$side/run1/cells.tsv"
done
# ramlld-sd: scsi_queue_rq +1,001 (in changed on two CPUs: summed), copy_page +1, sbitmap_get
# +0.30, kfree unchanged, tick +0.04 (the same count over the window); brd: only copy_page +0.20
tsv 'scsi_queue_rq [scsi_mod]	SCSI midlayer	0	197.1250' 'sbitmap_get	block	0	91.6200' \
	'copy_page	copy	0	516.0000' 'kfree	memory	0	10.0000' 'tick	other kernel	0	0.3600' \
	> "$d/base/profile/ramlld-sd/functions.tsv"
tsv 'scsi_queue_rq [scsi_mod]	SCSI midlayer	0	1000.1250' 'scsi_queue_rq [scsi_mod]	SCSI midlayer	1	198.0000' \
	'sbitmap_get	block	0	91.9200' 'copy_page	copy	0	517.0000' 'kfree	memory	0	10.0000' 'tick	other kernel	0	0.4000' \
	> "$d/changed/profile/ramlld-sd/functions.tsv"
# the windows' I/Os: 1,000 and 900, so tick's count (360 in both) is paid per time, sbitmap_get's not
echo '{"n": 1000}' > "$d/base/profile/ramlld-sd/table.json"
echo '{"n": 900}' > "$d/changed/profile/ramlld-sd/table.json"
# ramlld-mq: sbitmap_get +8.00 (a boot's tag-bitmap hint: named as such), kfree -1.00
tsv 'sbitmap_get	block	0	91.6200' 'kfree	memory	0	10.0000' > "$d/base/profile/ramlld-mq/functions.tsv"
tsv 'sbitmap_get	block	0	99.6200' 'kfree	memory	0	9.0000' > "$d/changed/profile/ramlld-mq/functions.tsv"
tsv 'brd_do_bvec [brd]	driver	0	609.0000' 'copy_page	copy	0	516.0000' > "$d/base/profile/brd/functions.tsv"
tsv 'brd_do_bvec [brd]	driver	0	609.0000' 'copy_page	copy	0	516.2000' > "$d/changed/profile/brd/functions.tsv"

PYTHONDONTWRITEBYTECODE=1 python3 "$TOP/compare/ab-report.py" "$d" > "$d.out" || fail "compare/ab-report.py failed"
cat "$d/ab.md"
grep -q "^## Functions that moved (exact counts" "$d/ab.md" || fail "no exact-count section"
! grep -q "perf on the exact clock\|±" "$d/ab.md" || fail "a perf section or a ± column beside exact counts"
grep -qF "| ramlld-sd | 815.11 | 1,817.45 | +1,002.34 | +1,002.30 | +1,001.00 | scsi_queue_rq [scsi_mod] | +1,001.00 | copy_page | +1.00 |" "$d/ab.md" ||
	fail "ramlld-sd's summary is not 815.11 -> 1,817.45 (+1,002.34, +1,002.30 less tick's +0.04 per time; row +1,001.00), scsi_queue_rq +1,001.00, then copy_page +1.00"
grep -qF "| brd | 1,125.00 | 1,125.20 | +0.20 | +0.20 | +0.00 | copy_page | +0.20 | brd_do_bvec [brd] | +0.00 |" "$d/ab.md" ||
	fail "brd's summary is not 1,125.00 -> 1,125.20 (no table.json: all of it per I/O), copy_page +0.20, brd_do_bvec +0.00"
grep -qF "| scsi_queue_rq [scsi_mod] | 197.12 | 1,198.12 | +1,001.00 |" "$d/ab.md" ||
	fail "scsi_queue_rq is not 197.12 -> 1,198.12 (+1,001.00, its two CPUs summed)"
grep -qF "| copy_page | 516.00 | 517.00 | +1.00 |" "$d/ab.md" || fail "a function that moved by 1.00 is not listed"
grep -qF "The functions that moved by less than 0.5, together: +0.34. Paid per unit of guest time (functions whose count over the window moved by 1 % or less" "$d/ab.md" ||
	fail "sbitmap_get's +0.30 and tick's +0.04 are not summed under 0.5, then the work paid per time"
grep -qF "divided among 1,000 I/Os in base's window and 900 in changed's: +0.04; the per-I/O part of the profile's Δ: +1,002.30." "$d/ab.md" ||
	fail "the windows' I/Os, tick's +0.04 per time or the per-I/O part +1,002.30 are not named"
grep -qF "a function's Δ per I/O is held against the per-I/O part" "$d/ab.md" || fail "the section does not say what a function's Δ is held against"
[ "$(grep -c "Paid per unit of guest time" "$d/ab.md")" = 1 ] || fail "a target without table.json (or with equal I/Os) splits off work paid per time"
! sed -n '/^### ramlld-sd/,$p' "$d/ab.md" | grep -q "^| sbitmap_get\|^| kfree" || fail "a function that moved by less than 0.5 (or not at all) is listed"
grep -qF "No function moved by 0.5 instructions per I/O or more (all together: +0.20)." "$d/ab.md" ||
	fail "brd does not say that no function moved by 0.5 or more"
grep -qF "| ramlld-mq | 101.62 | 108.62 | +7.00 | +7.00 | - | sbitmap_get | +8.00 | kfree | -1.00 |" "$d/ab.md" ||
	fail "ramlld-mq's summary is not 101.62 -> 108.62, sbitmap_get +8.00, kfree -1.00 (no row: '-')"
grep -qF "| kfree | 10.00 | 9.00 | -1.00 |" "$d/ab.md" || fail "a function that fell by 1.00 is not listed"
grep -qF -- "- sbitmap_get (+8.00) also moves between two boots of one kernel:" "$d/ab.md" ||
	fail "sbitmap_get's move is not named as one that also moves between boots"
[ "$(grep -c "also moves between two boots" "$d/ab.md")" = 1 ] || fail "a function other than mq's sbitmap_get is named as moving between boots"
grep -qF "| ramlld-sd | 815.11 |" "$d.out" || fail "the printed report has no summary of the exact table"
! grep -q "^###\|^| copy_page" "$d.out" || fail "the printed report has the per-target details"
echo "ok: exact table: ramlld-sd scsi_queue_rq +1,001.00, copy_page +1.00, +0.34 under 0.5 (+0.04 per time); brd +0.20, none listed; ramlld-mq sbitmap_get +8.00 named as moving between boots"

rm -rf "$d/base/profile" "$d/changed/profile"
PYTHONDONTWRITEBYTECODE=1 python3 "$TOP/compare/ab-report.py" --quiet "$d" || fail "compare/ab-report.py failed without profiles"
grep -q "^## Functions that moved (perf on the exact clock" "$d/ab.md" || fail "without profiles the perf section is gone"
echo "ok: without profiles the perf section stands"

# the shell side: which targets profile_side profiles, with what arguments (tools/iprofile faked)
fake=$RESULTS/fake
mkdir -p "$fake/tools/iprofile"
# shellcheck disable=SC2016 # expanded by the fakes
printf '#!/bin/bash\necho "run $*" >> %q\n' "$RESULTS/calls" > "$fake/tools/iprofile/run"
printf '#!/bin/bash\necho "table $*" >> %q\n' "$RESULTS/calls" > "$fake/tools/iprofile/table"
chmod +x "$fake/tools/iprofile/run" "$fake/tools/iprofile/table"
(
	top=$fake out=$RESULTS/ps kernel_dir=/k/base ko_dir=/ko/base
	targets_all="ramlld-bio ramlld-mq ramlld-sd brd nullb-mq nullb-mq-poll sdebug-poll nvme-loop-ng"
	rows='^(ramlld-sd/(io_uring|io_uring-qd1)|nullb-mq-poll/hipri-all|brd/io_uring-qd1|nvme-loop-ng/io_uring)$'
	log() { :; }
	# shellcheck source=compare/host/ab-measure.sh
	. "$TOP/compare/host/ab-measure.sh"
	profile_side base
) || fail "profile_side failed"
cat "$RESULTS/calls"
expect="run --kernel /k/base --out $RESULTS/ps/base/profile/ramlld-sd -- --target ramlld-sd --engine io_uring --ko /ko/base/ramlld.ko
table $RESULTS/ps/base/profile/ramlld-sd --top 0 --tsv $RESULTS/ps/base/profile/ramlld-sd/functions.tsv --json $RESULTS/ps/base/profile/ramlld-sd/table.json
run --kernel /k/base --out $RESULTS/ps/base/profile/brd -- --target brd --engine io_uring --ko /ko/base/ramlld.ko
table $RESULTS/ps/base/profile/brd --top 0 --tsv $RESULTS/ps/base/profile/brd/functions.tsv --json $RESULTS/ps/base/profile/brd/table.json
run --kernel /k/base --out $RESULTS/ps/base/profile/nullb-mq-poll -- --target nullb --engine io_uring --ko /ko/base/ramlld.ko
table $RESULTS/ps/base/profile/nullb-mq-poll --top 0 --tsv $RESULTS/ps/base/profile/nullb-mq-poll/functions.tsv --json $RESULTS/ps/base/profile/nullb-mq-poll/table.json"
[ "$(cat "$RESULTS/calls")" = "$expect" ] || fail "profile_side's calls are not ramlld-sd, brd and nullb-mq-poll (as nullb), each run then table"
echo "ok: profile_side: ramlld-sd, brd, nullb-mq-poll (guest-cell's nullb) profiled; ramlld-bio, nvme-loop-ng not"
