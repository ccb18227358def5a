# SPDX-License-Identifier: GPL-2.0
"""Which benches, ladder rungs, summary paths and A/B cells a target joins: the header lines of
its own file, compare/targets/<name>.sh (docs/usage.md, "Adding a target"), read here and
nowhere else.

  # bench: mq scsi          the benches (compare/run --bench NAME) that run it
  # bench-ratio: mq, over nullb-mq; randread-4k-qd32 1.2, randwrite-4k-qd32 1.2; LABEL
                            a ratio the bench reports, this target over another of the bench,
                            with a goal per qd32 section (- for none) and its label
  # ladder: RUNG[, over TARGET | , its own store]
                            a rung of the cost ladder, built on TARGET's rung (none: the bottom
                            one); the rungs on ramlld's store come first, in the targets' order,
                            then those on a store of their own
  # summary: PATH[, polled] a row of the summary's path table (polled: its polled
                            configuration)
  # ab: ENGINE...           its ledger rows among compare/ab's default cells

As a program (compare/run and compare/ab read the tree's target files through it):
  targets.py bench-names | bench NAME | ladder LEVEL | stack-ladder | ab-rows
prints the bench names, a bench's targets or the ladder's targets on ramlld's store that LEVEL
runs, each comma-separated, tools/stack-ladder's rungs, a line each with the rung below it
(- for none), or compare/ab's default cells as a regular expression over ledger row ids; a bad
header exits 2 naming the file and the line."""

import glob
import os
import re
import sys

TREE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "targets")


def header_keys():
    """{"required": [...], "optional": [...]}: the header keys compare/lib/target-keys defines."""
    keys = {}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "target-keys"),
              encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if w and w[0] in ("required", "optional"):
                keys[w[0]] = w[1:]
    return keys


# the keys every target file gives, in the columns of guest-run --list-targets and targets.tsv
TARGET_KEYS = header_keys()["required"]
# the keys a file may give more than once
REPEATED = {"bench-ratio"}


class BadHeader(ValueError):
    pass


def read_header(path):
    """key -> value of a target file's '# key: value' lines (a list for REPEATED keys)."""
    h = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            mo = re.match(r"# ([a-z-]+): *(.*?)\s*$", line)
            if not mo:
                continue
            k, v = mo.groups()
            if k in REPEATED:
                h.setdefault(k, []).append(v)
            else:
                h[k] = v
    return h


MEMBERSHIP = ("bench", "bench-ratio", "ladder", "summary")


def read_all(d=TREE):
    """name -> header of every target file in d."""
    return {os.path.basename(p)[:-3]: read_header(p)
            for p in sorted(glob.glob(os.path.join(d, "*.sh")))}


def read_run(root):
    """The headers of a results folder's targets: those of the snapshot compare/run keeps of
    what ran (root/harness/targets) when its files say what they join, else the tree's (a
    folder guest-run wrote alone, a fixture, a run from before these keys)."""
    snap = os.path.join(root, "harness", "targets")
    h = read_all(snap) if os.path.isdir(snap) else {}
    if any(k in v for v in h.values() for k in MEMBERSHIP):
        return h
    return read_all()


def _order(headers):
    def key(t):
        o = headers[t].get("order", "")
        return (int(o) if o.isdigit() else 10 ** 9, t)
    return sorted(headers, key=key)


def _bad(name, key, value, why):
    raise BadHeader(f"compare/targets/{name}.sh: '# {key}: {value}': {why} "
                    "(see docs/usage.md, \"Adding a target\")")


def benches(headers):
    """bench -> {"targets": [...], "ratios": [(a, b, label, {section: goal})]}: the targets in
    their order; the ratios with goals first, then the others, each by a's order."""
    out = {}
    order = _order(headers)
    for t in order:
        for b in headers[t].get("bench", "").split():
            out.setdefault(b, {"targets": [], "ratios": []})["targets"].append(t)
    ratios = []
    for t in order:
        for v in headers[t].get("bench-ratio", []):
            mo = re.fullmatch(r"([a-z0-9-]+), over ([a-z0-9-]+); ([^;]+); ([^;]+)", v)
            if not mo:
                _bad(t, "bench-ratio", v, "allowed: BENCH, over TARGET; GOALS; LABEL")
            b, other, goals_txt, label = mo.groups()
            for who in (t, other):
                if who not in headers:
                    _bad(t, "bench-ratio", v, f"no target '{who}'")
                if b not in headers[who].get("bench", "").split():
                    _bad(t, "bench-ratio", v, f"{who}'s '# bench:' does not name {b}")
            goals = {}
            if goals_txt != "-":
                for g in goals_txt.split(","):
                    w = g.split()
                    if len(w) != 2 or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", w[1]):
                        _bad(t, "bench-ratio", v, f"bad goal '{g.strip()}' (allowed: SECTION "
                             "RATIO, comma-separated, or -)")
                    goals[w[0]] = float(w[1])
            ratios.append((not goals, b, (t, other, label, goals)))
    for _, b, r in sorted(ratios, key=lambda x: x[0]):
        out[b]["ratios"].append(r)
    return out


def _matches(headers, key, rx, allowed):
    """(target, its key's value, the match of rx) of every target giving key, in their order."""
    for t in _order(headers):
        v = headers[t].get(key)
        if v is not None:
            mo = re.fullmatch(rx, v)
            if not mo:
                _bad(t, key, v, f"allowed: {allowed}")
            yield t, v, mo


def ladder(headers):
    """[(rung, target, the target of the rung below or None, own store)]: the rungs on
    ramlld's store in the targets' order, then those on a store of their own."""
    rungs = []
    for t, v, mo in _matches(headers, "ladder", r"([^,]+?)(?:, over ([a-z0-9-]+)|, (its own store))?",
                             "RUNG, RUNG, over TARGET or RUNG, its own store"):
        rung, below, own = mo.groups()
        if below and headers.get(below, {}).get("ladder") is None:
            _bad(t, "ladder", v, f"{below} is no rung of the ladder")
        rungs.append((rung, t, below, bool(own)))
    return sorted(rungs, key=lambda r: r[3])


# tools/stack-ladder's names of the rungs whose target has another name (tools/stack's for the
# stacks; its folder: RUNG-SECTION.json)
STACK_LADDER = {"bio": "ramlld-bio", "mq": "ramlld-mq", "sd": "ramlld-sd", "lio-rd": "lio"}


def stack_ladder_rungs(headers):
    """[(tools/stack-ladder's rung name, that of the rung below or None)] of the ladder."""
    name = {t: r for r, t in STACK_LADDER.items()}
    return [(name.get(t, t), name.get(b, b) if b else None) for _, t, b, _ in ladder(headers)]


def summary_paths(headers):
    """[(path, target, its polled target or None)] of the summary's path table."""
    paths, polled = [], {}
    for t, _, mo in _matches(headers, "summary", r"([a-z0-9]+)(, polled)?", "PATH or PATH, polled"):
        if mo.group(2):
            polled[mo.group(1)] = t
        else:
            paths.append((mo.group(1), t))
    return [(p, t, polled.get(p)) for p, t in paths]


def ab_rows(headers):
    """compare/ab's default cells: each target's "# ab:" rows as one regular expression over
    ledger row ids (TARGET/ENGINE), the targets in their files' names' order."""
    rows = [f"{t}/({'|'.join(headers[t]['ab'].split())})" for t in sorted(headers)
            if headers[t].get("ab", "").strip()]
    return f"^({'|'.join(rows)})$"


def main(argv):
    try:
        h = read_all()
        if argv == ["bench-names"]:
            print(" ".join(sorted(benches(h))))
        elif len(argv) == 2 and argv[0] == "bench":
            print(",".join(benches(h).get(argv[1], {}).get("targets", [])))
        elif argv == ["stack-ladder"]:
            print("\n".join(f"{r} {b or '-'}" for r, b in stack_ladder_rungs(h)))
        elif len(argv) == 2 and argv[0] == "ladder":
            print(",".join(t for _, t, _, own in ladder(h)
                           if not own and argv[1] in h[t].get("levels", "").split()))
        elif argv == ["summary-polled"]:
            print(",".join(pt for _, _, pt in summary_paths(h) if pt))
        elif argv == ["ab-rows"]:
            print(ab_rows(h))
        else:
            print("usage: targets.py bench-names | bench NAME | ladder LEVEL | stack-ladder"
                  " | summary-polled | ab-rows",
                  file=sys.stderr)
            return 2
    except BadHeader as e:
        print(f"targets.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
