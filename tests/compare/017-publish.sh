#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the report is a pure function of its folder: compare/run --report DIR --publish DOCS rebuilds the committed fixture's results.md byte for byte with every plot it links, and results.json and results.csv (a row per cell and figure) beside it, to which results.md points instead of report.md's per-workload tables; --readme writes the headline between README's markers (refused, exit 2, without them) and --seeds the run's seed verdicts and reproduce commands between seeds.md's; report.html holds the same sections with its plots embedded; the summary (report.md's first screen, printed at the end) gives the path table, the knob table and every seed's verdict, measured in the run or not ("not decidable", with why and what decides it, where it cannot decide); docs/results.md links only tracked plots; bad --publish use is refused
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

fixture=$TOP/tests/compare/fixtures/exact-small
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r "$fixture" "$dir/run"  # the folder's own name is in results.md
mv "$dir/run" "$dir/exact-small"
ln -s exact-small "$dir/run"
mkdir "$dir/docs"
"$TOP/compare/run" --report "$dir/run" --publish "$dir/docs" > "$dir/out.txt" 2>&1 ||
	{ cat "$dir/out.txt"; fail "compare/run --report --publish failed"; }
# README's headline: report.py --readme (compare/publish) replaces what is between the markers
begin="<!-- headline: compare/publish writes this table from the published run -->"
printf '# top\n%s\nan old table\n<!-- headline end -->\nbelow\n' "$begin" > "$dir/README.md"
# shellcheck source=compare/lib/report-python.sh
. "$TOP/compare/lib/report-python.sh"
py=$(report_python)
"$py" "$TOP/compare/report.py" "$dir/run" --quiet --readme "$dir/README.md" || fail "report.py --readme failed"
expect_eq "README's line before the headline" "# top" "$(head -n 1 "$dir/README.md")"
expect_eq "README's line after it" "below" "$(tail -n 1 "$dir/README.md")"
grep -qF "| ramlld mq | 17,595 | 9,972 | −7,624 | +1,572 | 1.19x (2.09x) |" "$dir/README.md" ||
	fail "README's headline lacks the mq row: $(cat "$dir/README.md")"
! grep -q "an old table" "$dir/README.md" || fail "README's old headline is still there"
echo "ok: --readme wrote the headline between the markers, the lines around them kept"
# docs/seeds.md's section on the run: report.py --seeds, the summary's seed rows and a
# reproduce command a seed with the run's setup
printf 'top\n%s\nold\n%s\nend\n' "<!-- verdicts: compare/publish writes this section from the published run -->" \
	"<!-- verdicts end -->" > "$dir/seeds.md"
"$py" "$TOP/compare/report.py" "$dir/run" --quiet --seeds "$dir/seeds.md" || fail "report.py --seeds failed"
expect_eq "seeds.md's reproduce commands with the run's setup (--cpus 1 --repeats 2 --runtime 1)" 5 \
	"$(grep -c '^- seed 00[0-4]: `compare/run --clock icount --cpus 1 --repeats 2 --runtime 1 --ramp 0 ' "$dir/seeds.md")"
expect_eq "seeds.md's verdict rows" 6 "$(grep -c '^| 00[0-4]: .* | \*\*not decidable\*\*' "$dir/seeds.md")"
! grep -q "^old$" "$dir/seeds.md" || fail "seeds.md's old section is still there"
printf 'no markers\n' > "$dir/README2.md"
rc=0
msg=$("$py" "$TOP/compare/report.py" "$dir/run" --quiet --readme "$dir/README2.md" 2>&1) || rc=$?
expect_eq "--readme on a file without the markers: exit status" 2 "$rc"
grep -qF "needs the lines" <<< "$msg" || fail "--readme without markers: $msg"
expect_eq "that file" "no markers" "$(cat "$dir/README2.md")"
cmp "$fixture.md" "$dir/docs/results.md" ||
	{ diff "$fixture.md" "$dir/docs/results.md" | head -40; fail "results.md differs from tests/compare/fixtures/exact-small.md"; }
echo "ok: results.md rebuilt byte for byte ($(wc -l < "$dir/docs/results.md") lines)"
# the published page points to the rows every cell's figures are in; the run's report keeps its tables
expect_eq "report.md's per-workload tables" 3 "$(grep -c '^### \(lat-qd1\|qd32\|seed-001\)$' "$dir/run/report.md")"
expect_eq "results.md's per-workload tables" 0 "$(grep -c '^### \(lat-qd1\|qd32\|seed-001\)$' "$dir/docs/results.md")"
grep -qF "(8 cells over 3 workloads" "$dir/docs/results.md" || fail "results.md does not point to the cells' rows"
expect_eq "results.csv's instructions-per-I/O rows (a row per cell)" 8 "$(grep -c ',instr_per_io,' "$dir/docs/results.csv")"
cp "$dir/run/report.md" "$dir/first.md"
"$TOP/compare/run" --report "$dir/run" > /dev/null 2>&1 || fail "the second --report failed"
cmp "$dir/first.md" "$dir/run/report.md" || fail "report.md of the same folder differs between two runs"
echo "ok: report.md of the same folder twice: the same bytes"

"$py" - "$dir" "$TOP" << 'EOF' || fail "the published report"
import os, re, subprocess, sys
d, top = sys.argv[1], sys.argv[2]
md = open(os.path.join(d, "docs/results.md"), encoding="utf-8").read()
links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", md)
assert links, "results.md shows no plot"
for ln in links:
    f = os.path.join(d, "docs", ln)
    assert ln.startswith("results/") and os.path.isfile(f), f"{ln}: not a file in docs/results/"
    assert open(f, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{ln} is not a PNG"
print(f"ok: every plot results.md links is a PNG in docs/results/: {', '.join(links)}")
# results.json and results.csv beside it: the same rows, a row per cell and figure
import csv, json
js = json.load(open(os.path.join(d, "docs/results.json"), encoding="utf-8"))
rows = list(csv.reader(open(os.path.join(d, "docs/results.csv"), encoding="utf-8")))
assert rows[0] == js["columns"] == ["cell", "target", "profile", "workload", "figure", "value",
                                    "unit", "clock", "runs", "spread_pct"], rows[0]
assert len(rows) - 1 == len(js["rows"]) > 0, (len(rows), len(js["rows"]))
row = next(r for r in js["rows"] if r[0] == "ramlld-mq/default/qd32/randread-4k-qd32"
           and r[4] == "instr_per_io")
assert round(row[5]) == 17595 and row[6] == "instructions per I/O" and row[7] == "icount" \
    and row[8] == 2, row
assert round(js["headline"]["paths"]["mq"]["tuned"]) == 9972, js["headline"]
assert js["tree"].startswith("285e8b3") and js["run"] == "exact-small", (js["tree"], js["run"])
print(f"ok: results.json and results.csv: {len(js['rows'])} rows of {len(set(r[0] for r in js['rows']))} "
      f"cells, the headline's figures; {row}")
# the summary: the first screen, its four parts
rep = open(os.path.join(d, "run/report.md"), encoding="utf-8").read().splitlines()
head = rep[:60]
assert "## Summary" in head and "## Environment" not in head[:3], head[:5]
i = head.index("## Summary")
end = next((k for k, x in enumerate(rep) if x.startswith("## ") and k > i), len(rep))
assert end <= 60, f"the summary is {end} lines (60 at most)"
first30 = "\n".join(rep[:30])
for want in ("**Headline: what one 4k random read costs", "| ramlld bio | 8,399 | 8,400 |",
             "| ramlld mq | 17,595 | 9,972 | −7,624 | +1,572 | 1.19x (2.09x) |",
             "| knob | change |", "| rq_affinity | 1 → 2 |"):
    assert want in first30, f"the first 30 lines lack {want!r}"
summary = "\n".join(rep[i:end])
for want in ("seed 001's tuning: scheduler none, rq_affinity=2, add_random=0", "| the post's claim | measured here | verdict |",
             "**not decidable**: an interrupt CPU saturating needs CPUs running at once",
             "`compare/run --host DEV --only seed-001 --clock host`", "![ladder.png](ladder.png)"):
    assert want in summary, f"the summary lacks {want!r}"
seeds = [x for x in rep[i:end] if re.match(r"\| 00[0-4]: ", x)]
assert sorted({x[2:5] for x in seeds}) == ["000", "001", "002", "003", "004"], seeds
absent = {x[2:5]: x.split(" | ")[-1] for x in seeds if "| not in this run |" in x}
assert absent.get("000", "").startswith("**not decidable**: the post's gain from 10 to 32 LUNs"), absent
assert "`compare/run --host DEV --only seed-002 --clock host`, DEV an iSCSI disk" in absent.get("002", ""), absent
assert absent.get("003", "").startswith("**not decidable**: SCST is not in Debian"), absent
assert absent.get("004") == "**not decidable**: this run has no figures of it. Decides it: `compare/run --only seed-004`. |", absent
print(f"ok: the summary is lines {i + 1}-{end}: paths, knobs and bio vs sd in the first 30, a row "
      f"per seed ({len(seeds)} rows, {len(absent)} not in this run but given their verdict), the ladder")
out = open(os.path.join(d, "out.txt"), encoding="utf-8").read()
row = next(x for x in rep[i:end] if x.startswith("| ramlld mq | "))
assert row in out and "## Summary" in out, "compare/run did not print the summary"
print(f"ok: compare/run printed the summary ({row})")
# report.html: the same sections, every plot embedded
html = open(os.path.join(d, "run/report.html"), encoding="utf-8").read()
heads = [x[3:] for x in rep if x.startswith("## ")]
got = re.findall(r"<h2>(.*?)</h2>", html)
assert len(got) == len(heads), f"report.html has {len(got)} sections, report.md {len(heads)}"
srcs = re.findall(r'src="([^"]*)"', html)
assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs), "report.html links a file"
assert len(srcs) == len(re.findall(r"^!\[", "\n".join(rep), re.M)), "report.html lacks a plot"
print(f"ok: report.html: {len(got)} sections, {len(srcs)} plots embedded, nothing linked")
# the project's docs/results.md shows only plots tracked in git
doc = open(os.path.join(top, "docs/results.md"), encoding="utf-8").read()
tracked = set(subprocess.run(["git", "-C", top, "ls-files", "docs"], capture_output=True,
                             text=True, check=True).stdout.split())
missing = [ln for ln in re.findall(r"!\[[^]]*\]\(([^)]+)\)", doc) if "docs/" + ln not in tracked]
assert not missing, f"docs/results.md links plots not in git: {missing}"
print("ok: every plot docs/results.md links is tracked")
EOF

# bad --publish use: exit 2, the message naming what is wrong, nothing written
refused() { # WANT ARGS...
	local want=$1 msg rc=0
	shift
	msg=$("$TOP/compare/run" "$@" 2>&1) || rc=$?
	expect_eq "compare/run $*: exit status" 2 "$rc"
	grep -qF -- "$want" <<< "$msg" || fail "compare/run $*: message lacks '$want': $msg"
}
refused "--publish goes with --report DIR" --publish "$dir/docs2"
refused "--publish: no folder '$dir/nosuch'" --report "$dir/run" --publish "$dir/nosuch"
if [ -e "$dir/docs2" ] || [ -e "$dir/nosuch" ]; then
	fail "a refused --publish wrote a folder"
fi
echo "ok: --publish without --report and into a missing folder refused, nothing written"
