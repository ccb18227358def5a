#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: docs/seeds.md and docs/results.md give each seed claim the same verdict, in compare/lib/verdict.py's four words (results.md's summary and its seed sections agree too); seeds.md states verdict.py's rule word for word; each reproduce command in seeds.md plans (compare/run --plan) the published run's clock, vCPUs, runs and runtime and the default level's cells of that seed
# where: host
# requires: python3
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

in_compare python3 - "$TOP" << 'EOF' || fail "the seed verdicts of docs/seeds.md and docs/results.md"
import re, shlex, subprocess, sys
top = sys.argv[1]
from lib import fmt as F
from lib import verdict as V
seeds = open(top + "/docs/seeds.md", encoding="utf-8").read()
results = open(top + "/docs/results.md", encoding="utf-8").read()
WORDS = "|".join(sorted(V.VOCABULARY, key=len, reverse=True))


def rows(text, what):
    """[(seed, verdict)] of the claim table's rows '| NNN: claim | measured | verdict |'."""
    got = []
    for ln in text.splitlines():
        mo = re.match(r"\| (00\d): .* \| \*\*(.*?)\*\*", ln)
        if mo:
            assert mo.group(2) in V.VOCABULARY, f"{what}: '{mo.group(2)}' is not a verdict word: {ln[:120]}"
            got.append((mo.group(1), mo.group(2)))
    assert got, f"{what}: no seed verdict rows"
    return got


s, r = rows(seeds, "docs/seeds.md"), rows(results, "docs/results.md")
assert s == r, f"docs/seeds.md's verdicts {s} differ from docs/results.md's {r}"
print(f"ok: {len(s)} seed claims, the same verdict in both: {s}")
# results.md's seed sections: one verdict line each, the summary's first row of that seed
first = dict(reversed(r))
for sid, word in re.findall(r"^## Seed (00\d).*?^\*\*Verdict: (" + WORDS + r")\*\*", results, re.M | re.S):
    assert word == first[sid], f"docs/results.md: seed {sid}'s section says {word}, its summary {first[sid]}"
    print(f"ok: seed {sid}: section and summary say {word}")
for rule in V.RULES:
    assert rule in seeds, f"docs/seeds.md lacks verdict.py's rule: {rule[:80]}"
print(f"ok: docs/seeds.md states verdict.py's {len(V.RULES)} rule paragraphs word for word")

# the published run's setup, as docs/results.md's environment table gives it
env = dict(re.findall(r"^\| (\w[\w ]*?) \| (.*) \|$", results, re.M))
mo = re.search(r"(\d+) repeats of (.+?) \(\+(\d+) s ramp\)", env["level"])
want = {"clock": "icount" if env["clock"].startswith("icount") else "host",
        "cpus": env["CPUs"].split()[0], "repeats": mo.group(1), "runtime": mo.group(2),
        "ramp": mo.group(3)}


def plan(args):
    p = subprocess.run([top + "/compare/run", "--plan"] + args, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=200)
    assert p.returncode == 0, f"compare/run --plan {' '.join(args)}: exit {p.returncode}: {p.stderr}"
    out = p.stdout.splitlines()
    keys = {ln.split()[0]: ln.split()[1] for ln in out if len(ln.split()) > 1}
    cells = {tuple(ln.split()[1:6]) for ln in out if ln.startswith("cell ")}
    return keys, cells


_, default_cells = plan([])
cmds = re.findall(r"^- seed (00\d): `compare/run (.*?)`$", seeds, re.M)
assert sorted(c[0] for c in cmds) == ["000", "001", "002", "003", "004"], f"reproduce commands: {cmds}"
for sid, args in cmds:
    keys, cells = plan(shlex.split(args))
    setup = {k: keys.get(k) for k in want}
    setup["runtime"] = F.runtime(setup["runtime"])  # as the environment table words it
    assert setup == want, f"seed {sid}: `compare/run {args}` plans {setup}, the published run {want}"
    w = f"seed-{sid}"
    mine = {c for c in cells if c[2] == w}
    pub = {c for c in default_cells if c[2] == w}
    assert mine == pub, (f"seed {sid}: its command's cells differ from the default level's: "
                         f"only in it {sorted(mine - pub)[:3]}, only in the level {sorted(pub - mine)[:3]}")
    print(f"ok: seed {sid}: its command plans {setup} and the default level's {len(pub)} cells")
EOF
