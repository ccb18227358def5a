# SPDX-License-Identifier: GPL-2.0
"""compare/ab's function table from exact counts: each profiled target's functions (tools/iprofile's
plugin, DIR/SIDE/profile/TARGET/functions.tsv written by tools/iprofile/table), base -> changed,
instructions per I/O; no sampling, so no error column: a function that moved by one instruction
per I/O shows as such."""

import csv
import os

from .fmt import table
from .iprofile import read_table

HEADER = "## Functions that moved (exact counts: tools/iprofile's plugin, instructions per I/O)"
SHOWN = 0.5  # |Δ| from which a function is listed (half an instruction per I/O)
TOP = 12
SAME_COUNT = 0.01  # a function whose count over the window moved by at most 1 % is paid per time
# functions whose count per I/O moves between two boots of one kernel (each reason names its
# doc): each kernel is profiled in a boot of its own, so their Δ may be the boot's, not the change's
PER_SWITCH = ("work per context switch, whose count follows fio's waits, not the I/Os "
              "(docs/profile.md)")
BOOT_DEPENDENT = {
    "sbitmap_get": "the tag bitmap's word where the allocation hint settles at fio's start, "
                   "kept for the run (docs/profile.md)",
    "[user]": "fio's own code in user space, measured moving by up to 1.04 per I/O between "
              "boots on paths a change does not touch (docs/ab.md)",
    "__schedule": PER_SWITCH,
    "__update_load_avg_se": PER_SWITCH,
    "psi_group_change": PER_SWITCH,
}


def read_functions(path):
    """{function: instructions per I/O, CPUs summed} of a functions.tsv."""
    funcs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            funcs[row["function"]] = funcs.get(row["function"], 0.0) + float(row["instr_per_io"])
    return funcs


def window_ios(d):
    """The I/Os of a profile's window (DIR/table.json of tools/iprofile/table), or None."""
    j = read_table(d)
    return None if j is None else j["n"]


def per_time(fns, nb, nc):
    """The part of the Δ per I/O of fns in functions whose count over the window (per I/O times
    the window's I/Os) did not move by more than SAME_COUNT: work paid per unit of guest time
    (timer ticks, the scheduler), which the window's two sides divide among nb and nc I/Os.
    0 where the windows' I/Os differ too little to tell such a count from one per I/O."""
    if not nb or not nc or abs(nc - nb) <= 2 * SAME_COUNT * max(nb, nc):
        return 0.0
    return sum(y - x for _, x, y in fns
               if y != x and abs(y * nc - x * nb) <= SAME_COUNT * max(y * nc, x * nb))


def profiled(out):
    """The targets profiled on both sides, sorted."""
    sides = [os.path.join(out, s, "profile") for s in ("base", "changed")]
    if not all(os.path.isdir(d) for d in sides):
        return []
    both = set(os.listdir(sides[0])) & set(os.listdir(sides[1]))
    return sorted(t for t in both
                  if all(os.path.isfile(os.path.join(d, t, "functions.tsv")) for d in sides))


def moved(b, c):
    """(function, base, changed) of every function, the largest |Δ| first."""
    return sorted(((fn, b.get(fn, 0.0), c.get(fn, 0.0)) for fn in set(b) | set(c)),
                  key=lambda x: (-abs(x[2] - x[1]), x[0]))


def num(x):
    return f"{x:,.2f}"


def delta(x):
    return f"{x:+,.2f}"


def section(out, result):
    """The report's lines for the profiled targets (empty when none was profiled): a summary
    table (one line a target: the profile's totals, the function that moved most and the next),
    then each target's functions that moved by SHOWN or more."""
    targets = profiled(out)
    if not targets:
        return []
    row_delta = {r["key"][0]: r["delta"] for r in result
                 if "missing" not in r and r["key"][1] == "io_uring"}
    lines = [HEADER, "",
             "Per profiled target: its 4k randread QD32 io_uring cell as tools/iprofile/guest-cell "
             "sets it up, in one boot per kernel, a 2 s window inside fio's steady I/O "
             "(docs/profile.md). The profile's Δ is its own total's; its per-I/O part is that Δ "
             "less the work paid per unit of guest time (timer ticks, the scheduler: functions "
             "whose count over the window stayed within 1 %), which the window, fixed in time, "
             "divides among fewer I/Os on a slower kernel: a function's Δ per I/O is held against "
             "the per-I/O part. The row's Δ is the ledger row's above (another boot and QEMU, "
             "whose cells differ by up to 0.2 % across boots).", ""]
    summary, detail = [], []
    for t in targets:
        b = read_functions(os.path.join(out, "base", "profile", t, "functions.tsv"))
        c = read_functions(os.path.join(out, "changed", "profile", t, "functions.tsv"))
        bt, ct = sum(b.values()), sum(c.values())
        fns = moved(b, c)
        nb, nc = (window_ios(os.path.join(out, s, "profile", t)) for s in ("base", "changed"))
        timed = per_time(fns, nb, nc)
        first, second = (fns + [("-", 0.0, 0.0)] * 2)[:2]
        summary.append([t, num(bt), num(ct), delta(ct - bt), delta(ct - bt - timed),
                        delta(row_delta[t]) if t in row_delta else "-",
                        first[0], delta(first[2] - first[1]), second[0],
                        delta(second[2] - second[1])])
        shown = [m for m in fns if abs(m[2] - m[1]) >= SHOWN]
        rest = sum(y - x for _, x, y in fns) - sum(y - x for _, x, y in shown)
        why = ""
        if timed:
            why = (f" Paid per unit of guest time (functions whose count over the window moved by "
                   f"{100 * SAME_COUNT:g} % or less: timer ticks, the scheduler), divided among "
                   f"{nb:,} I/Os in base's window and {nc:,} in changed's: {delta(timed)}; the "
                   f"per-I/O part of the profile's Δ: {delta(ct - bt - timed)}.")
        detail += [f"### {t} io_uring (profile {num(bt)} -> {num(ct)}, Δ {delta(ct - bt)})", ""]
        if not shown:
            detail += [f"No function moved by {SHOWN} instructions per I/O or more "
                       f"(all together: {delta(rest)}).{why}", ""]
            continue
        detail += [table(["function", "base", "changed", "Δ"],
                         [[fn, num(x), num(y), delta(y - x)] for fn, x, y in shown[:TOP]],
                         "lrrr"), ""]
        detail += [f"- {fn} ({delta(y - x)}) also moves between two boots of one kernel: "
                   f"{BOOT_DEPENDENT[fn]}." for fn, x, y in shown[:TOP]
                   if fn in BOOT_DEPENDENT]
        if detail[-1] != "":
            detail.append("")
        more = (f"{len(shown) - TOP} more moved by {SHOWN} or more "
                f"({delta(sum(y - x for _, x, y in shown[TOP:]))}); " if len(shown) > TOP else "")
        text = f"{more}the functions that moved by less than {SHOWN}, together: {delta(rest)}.{why}"
        detail += [text[0].upper() + text[1:], ""]
    lines += [table(["target", "profile base", "changed", "Δ", "Δ per I/O (less per time)",
                     "the row's Δ", "moved most", "Δ", "next", "Δ"], summary, "lrrrrrlrlr"), ""]
    return lines + detail
