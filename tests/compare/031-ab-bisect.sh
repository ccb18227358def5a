#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ab --bisect and --git on a tiny git history with a fake build and measurement: git bisect run finds the commit that moved the path by more than the threshold, its A/B against its parent, the user's tree untouched
# where: host
# requires: python3 git
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the measurement: the cells of the kernel's cost file that the rows' regex selects
cat > "$dir/fake-measure" << 'END'
#!/bin/bash
set -euo pipefail
printf 'target\tworkload\tinstr\tstatus\n' > "$3/cells.tsv"
while read -r t w n; do
	[[ $t/$w =~ $5 ]] && printf '%s\t%s\t%s\tok\n' "$t" "$w" "$n" >> "$3/cells.tsv"
done < "$1/cost"
echo "$3" >> "$RAMLLD_CACHE/measures"
END
chmod +x "$dir/fake-measure"
export RAMLLD_CACHE=$dir/cache
export RAMLLD_AB_BUILD=$TOP/tests/compare/ab-fake-build RAMLLD_AB_MEASURE=$dir/fake-measure

# six commits: c3 adds 1,000 instructions on sd, c5 adds 40 (under the threshold) on sd,
# the others touch no path
repo=$dir/repo
mkdir -p "$repo"
git -C "$repo" init -q
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
commit() { # MESSAGE SD MQ
	echo 'all:' > "$repo/Makefile"
	printf 'ramlld-sd io_uring %s\nramlld-mq io_uring %s\n' "$2" "$3" > "$repo/cost"
	echo "$1" >> "$repo/log"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "$1"
	git -C "$repo" rev-parse HEAD
}
c1=$(commit "c1 base" 10000 7000)
commit "c2 docs" 10000 7000 > /dev/null
c3=$(commit "c3 scsi: a loop in scsi_queue_rq" 11000 7000)
commit "c4 docs" 11000 7000 > /dev/null
commit "c5 sd: 40 more" 11040 7000 > /dev/null
c6=$(commit "c6 docs" 11040 7000)
git -C "$repo" checkout -q -b work "$c1"
echo scratch > "$repo/untracked"

out=$dir/out
"$TOP/compare/ab" --bisect "$c1" "$c6" --git "$repo" --path ramlld-sd/io_uring --threshold 100 --rows '^ramlld-' \
	--out "$out" > "$dir/log" 2>&1 || fail "compare/ab --bisect failed: $(tail -n 8 "$dir/log")"
expect_eq "first bad commit" "$c3" "$(cat "$out/first-bad")"
grep -qF "first changed commit: ${c3:0:7} c3 scsi: a loop in scsi_queue_rq" "$dir/log" || fail "no first changed commit line: $(cat "$dir/log")"
# its A/B against its parent c2 (the table of the report)
grep -qF '| ramlld-sd | io_uring | 10,000 | 11,000 | +1,000 | +10.00 % |' "$out/ab.md" || fail "the A/B of c3: $(cat "$out/ab.md")"
grep -qF '| ramlld-mq | io_uring | 7,000 | 7,000 | +0 | +0.00 % |' "$out/ab.md" || fail "mq in the A/B of c3: $(cat "$out/ab.md")"
grep -q "^source=.*c3 scsi" "$out/changed/kernel.env" || fail "changed is not c3: $(cat "$out/changed/kernel.env")"
# each commit measured once: good, then the bisect's steps (log2 of 5 commits: 2 or 3)
steps=$(wc -l < "$out/bisect.tsv")
{ [ "$steps" -ge 3 ] && [ "$steps" -le 4 ]; } || fail "bisect.tsv has $steps lines: $(cat "$out/bisect.tsv")"
awk -v c3="$c3" '$1 == c3 && $3 != "bad" { exit 1 }' "$out/bisect.tsv" || fail "c3 not judged bad"
# the user's tree: same branch, same commit, nothing bisecting, the untracked file kept
expect_eq "user's branch" work "$(git -C "$repo" rev-parse --abbrev-ref HEAD)"
expect_eq "user's HEAD" "$c1" "$(git -C "$repo" rev-parse HEAD)"
[ ! -e "$repo/.git/BISECT_LOG" ] || fail "the user's tree is left bisecting"
[ -f "$repo/untracked" ] || fail "the untracked file is gone"

# --git --base --changed: the A/B of two revisions
"$TOP/compare/ab" --git "$repo" --base "$c1" --changed "$c6" --rows '^ramlld-sd' --runs 1 --out "$dir/ab2" > "$dir/log2" 2>&1 ||
	fail "compare/ab --git failed: $(tail -n 5 "$dir/log2")"
grep -qF '| ramlld-sd | io_uring | 10,000 | 11,040 | +1,040 | +10.40 % |' "$dir/ab2/ab.md" || fail "the --git A/B: $(cat "$dir/ab2/ab.md")"

# refusals
rc=0
"$TOP/compare/ab" --bisect "$c6" "$c1" --git "$repo" --path ramlld-sd/io_uring --threshold 100 > "$dir/err" 2>&1 || rc=$?
expect_eq "exit status of a reversed bisect" 2 "$rc"
grep -qF "is not an ancestor of" "$dir/err" || fail "reversed bisect: $(cat "$dir/err")"
rc=0
"$TOP/compare/ab" --bisect "$c1" "$c6" --git "$repo" --path ramlld-sd/io_uring --threshold lots > "$dir/err" 2>&1 || rc=$?
expect_eq "exit status of a bad threshold" 2 "$rc"
grep -qF -- "--threshold: bad value 'lots'" "$dir/err" || fail "bad threshold: $(cat "$dir/err")"
rc=0
"$TOP/compare/ab" --git "$repo" --base "$c1" --changed nosuchrev > "$dir/err" 2>&1 || rc=$?
expect_eq "exit status of an unknown revision" 2 "$rc"
grep -qF -- "--git: no revision 'nosuchrev'" "$dir/err" || fail "unknown revision: $(cat "$dir/err")"
echo "ok: compare/ab --bisect found ${c3:0:12} in $steps measurements; --git A/B; refusals"
