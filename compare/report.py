#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/report.py: the comparison's report, a pure function of a results folder: the list of
# its sections (compare/sections/, one a file) over the one reader of the folder (compare/lib/).
"""The comparison's report of a results folder.

DIR is a folder written by compare/guest-run (through compare/run). Nothing but DIR is read
(a folder without targets.tsv: the target files beside this script say what each target is);
DIR/results.csv, DIR/results.json, DIR/report.md, DIR/report.html (the same, self-contained:
its plots embedded) and DIR/*.png are (re)written, and the summary (report.md's first
screen) is printed. --publish OUT also writes OUT/results.md and its plots, OUT/results/*.png,
and OUT/results.json, OUT/results.csv (a row per cell and figure); --readme FILE the headline
into FILE; --seeds FILE the run's seed verdicts and reproduce commands into FILE
(compare/publish does all three for docs/, README.md and docs/seeds.md).
"""

import argparse
import csv
import json
import os
import sys

sys.dont_write_bytecode = True
from lib.perf import breakdown, perf_parents  # noqa: E402  (after dont_write_bytecode)
from lib.results import METRICS, QUEUE_KEYS, load, load_targets, public  # noqa: E402


def sections():
    """The report, section by section, in order: (name, render(run, plots) -> lines)."""
    import sections as report_sections
    return report_sections.report()


def markdown(run, plots, title="# ramlld comparison report", intro=()):
    """The report's lines, section by section (no blank line at the end)."""
    L = [title, ""] + list(intro)
    for name, render in sections():
        lines = render(run, plots)
        # every section names the clock of its figures, right under its heading (the summary
        # and a knob table measured in the knob guest name theirs)
        if lines and name != "summary" and not (name == "knobs" and run.meta.get("knob_guest")):
            lines = lines[:1] + [f"*clock: {run.clock}*"] + lines[1:]
        L += lines
    while L and L[-1] == "":
        L.pop()
    return L


def write_csv(path, run):
    cols = ["target", "profile", "workload", "section", "n"]
    for m in METRICS:
        cols += [m, m + "_std"]
    cols += ["ratio_to_bio", "ratio_to_bio_std"] + ["q_" + k for k in QUEUE_KEYS]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for c in run.cells:
            row = []
            for k in cols:
                v = c["queue"].get(k[2:]) if k.startswith("q_") else c.get(k)
                row.append("" if v is None else (f"{v:.6g}" if isinstance(v, float) else v))
            w.writerow(row)


def write(root, publish=None, readme=None, seeds=None):
    """The report of root in root; with publish, also publish/results.md, its plots,
    publish/results.json and results.csv (lib/report_publish.py); with readme, that file's
    headline (sections/headline.py); with seeds, that file's section on the run's verdicts.
    Returns the run (its summary printed by the caller)."""
    from lib import doc, report_publish
    from lib.fmt import Plots
    from sections import headline
    run = load(root)
    plots = Plots(root)
    doc.write(os.path.join(root, "report.md"), markdown(run, plots),
              html_title="ramlld comparison report")
    write_csv(os.path.join(root, "results.csv"), run)
    with open(os.path.join(root, "results.json"), "w") as f:
        json.dump({"meta": run.meta, "notes": run.notes, "targets": run.targets,
                   "target_meta": run.target_meta, "profiles": run.profiles,
                   "exact": run.exact, "clock": run.clock, "cells": public(run.cells),
                   "breakdown": breakdown(run)}, f, indent=1,
                  default=str)
    if publish:
        pdir = os.path.join(publish, "results")
        os.makedirs(pdir, exist_ok=True)
        for old in os.listdir(pdir):
            if old.endswith(".png"):
                os.remove(os.path.join(pdir, old))
        prun = load(root)
        prun.published = True
        pplots = Plots(pdir, "results/")
        intro = [f"Generated from one results folder (`{os.path.basename(os.path.realpath(root))}`) "
                 "by `compare/run --report DIR --publish docs/`; its plots are in "
                 "docs/results/. The same report, self-contained, is DIR/report.html.", ""]
        if not prun.meta.get("host_ended"):
            intro += ["**The run was stopped before its end** (its meta.env has no end): every "
                      "section shows the cells it measured, and only those.", ""]
        level = prun.meta.get("level_name") or prun.meta.get("level") or "a run"
        doc.write(os.path.join(publish, "results.md"),
                  markdown(prun, pplots, f"# Results: {level.split(' (')[0]}", intro))
        report_publish.write(prun, publish, headline.figures(prun))
    if readme:
        report_publish.readme(readme, headline.readme_block(run), headline.BEGIN, headline.END)
    if seeds:
        from lib.fmt import table
        from sections import summary
        block = report_publish.seeds_block(run, summary.seed_rows(run), table,
                                           [(m.__name__[-3:], m.REPRODUCE) for m in summary.SEEDS])
        report_publish.readme(seeds, block, report_publish.SEEDS_BEGIN, report_publish.SEEDS_END)
    return run


def main(argv):
    ap = argparse.ArgumentParser(prog="report.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", metavar="DIR", nargs="?", help="the results folder")
    ap.add_argument("--quiet", action="store_true", help="print nothing but errors")
    ap.add_argument("--publish", metavar="OUT",
                    help="also write OUT/results.md and its plots, OUT/results/*.png (the "
                         "project's docs/results.md: compare/run --report DIR --publish docs/)")
    ap.add_argument("--stack-ladder", action="store_true",
                    help="DIR is a tools/stack-ladder folder: write its DIR/ladder.md and "
                         "DIR/ladder.json (the report's cost ladder section) and print it")
    ap.add_argument("--perf-parents", action="store_true",
                    help="print the regex compare/guest-run gives `perf report --parent` for the "
                         "drivers' own share (every target's own functions, from DIR's "
                         "targets.tsv or the target files), and nothing else")
    ap.add_argument("--readme", metavar="FILE",
                    help="also write the headline into FILE between its two marker lines "
                         "(README.md: compare/publish)")
    ap.add_argument("--seeds", metavar="FILE",
                    help="also write the run's seed verdicts and each one's reproduce command "
                         "into FILE between its two marker lines (docs/seeds.md: compare/publish)")
    a = ap.parse_args(argv)
    if a.perf_parents:
        if a.dir and not os.path.isdir(a.dir):
            ap.error(f"no results folder '{a.dir}'")
        print(perf_parents(load_targets(a.dir)))
        return 0
    if not a.dir:
        ap.error("give one results folder (DIR)")
    if not os.path.isdir(a.dir):
        ap.error(f"no results folder '{a.dir}'")
    if a.stack_ladder:
        from sections import ladder
        if not os.path.isfile(os.path.join(a.dir, "meta.json")):
            ap.error(f"--stack-ladder: '{a.dir}' has no meta.json (not a tools/stack-ladder folder)")
        ladder.stack_ladder_main(a.dir)
        return 0
    if a.publish and not os.path.isdir(a.publish):
        ap.error(f"--publish: no folder '{a.publish}' (give an existing folder, e.g. docs/)")
    # the runs of their own: --two-node's, --exact-profile's
    alone = ("two-node", "iprofile", "percpu")
    if not load(a.dir).cells and not any(os.path.isdir(os.path.join(a.dir, d)) for d in alone):
        print(f"report.py: '{a.dir}' has no cells: no raw/TARGET/PROFILE/WORKLOAD/SECTION/rN.json "
              "nor two-node/, iprofile/ or percpu/ in it (give a folder a compare/run run wrote)",
              file=sys.stderr)
        return 2
    from lib.report_publish import SEEDS_BEGIN, SEEDS_END
    from sections import headline
    for opt, path, begin, end in (("--readme", a.readme, headline.BEGIN, headline.END),
                                  ("--seeds", a.seeds, SEEDS_BEGIN, SEEDS_END)):
        if not path:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read().split("\n")
        except OSError as e:
            ap.error(f"{opt}: {e}")
        if text.count(begin) != 1 or text.count(end) != 1:
            ap.error(f"{opt}: '{path}' needs the lines '{begin}' and '{end}', once each")
    run = write(a.dir, a.publish, a.readme, a.seeds)
    if not a.quiet:
        from sections import summary
        print(f"report.py: {len(run.cells)} cells, {len(run.targets)} targets, "
              f"{len(run.profiles)} profiles -> {os.path.join(a.dir, 'report.md')}, report.html")
        print("\n".join(summary.text(run)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
