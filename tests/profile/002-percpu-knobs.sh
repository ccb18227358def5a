#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the per-CPU knob table (tools/iprofile/percpu) from one profiled boot of Debian 13's QEMU 10 with 2 vCPUs on the exact clock, ramlld's mq disk with its completions raised on CPU 0 and fio on CPU 1: under rq_affinity=0 the completion functions (ramlld_mq_complete, __blk_mq_end_request, aio_complete...) run on CPU 0, under rq_affinity=2 on CPU 1; each CPU's share of the interrupt handler's and of ramlld_mq_complete's instructions equals its share of the driver's own debugfs counters (irq_mq, done_mq), which count one per I/O; rq_affinity=2 adds IPI instructions on the submitter (llist_reverse_order there); the busiest CPU bounds the model's IOPS; bad arguments are refused
# where: host
# requires: python3 fio gcc
# timeout: 1500
# suite: profile
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/profile-lib.bash
. "$TOP/tests/profile-lib.bash"

[ -f "$RAMLLD_KO" ] || skip "no module $RAMLLD_KO (make)"
plugin_or_skip trixie

# bad arguments: refused before a guest boots, naming what is allowed
rc=0
"$TOP/tools/iprofile/percpu" --cpus 1 "$RESULTS/x" > /dev/null 2> "$RESULTS/bad.err" </dev/null || rc=$?
cat "$RESULTS/bad.err"
{ [ "$rc" = 2 ] && grep -q "allowed: 2 or more" "$RESULTS/bad.err"; } || fail "--cpus 1 not refused (exit $rc)"
rc=0
"$TOP/tools/iprofile/percpu-guest" --out "$RESULTS/x" --settings mq:rq_affinity=3 2> "$RESULTS/bad.err" </dev/null || rc=$?
cat "$RESULTS/bad.err"
{ [ "$rc" = 2 ] && grep -q "bad setting 'mq:rq_affinity=3'" "$RESULTS/bad.err"; } || fail "a bad setting not refused (exit $rc)"

out=$RESULTS/percpu
rc=0
"$TOP/tools/iprofile/percpu" --run "$out" --ko "$RAMLLD_KO" --settings mq:rq_affinity=0,mq:rq_affinity=2 \
	</dev/null || rc=$?
# exit 1: the table printed, the counters disagree (the checks below say where)
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "tools/iprofile/percpu failed (exit $rc)"
[ -s "$out/percpu.json" ] || fail "no $out/percpu.json"

(cd "$TOP/compare" && python3 - "$out/percpu.json") << 'EOF' || fail "the per-CPU table's values are wrong"
import json
import sys

sys.dont_write_bytecode = True
from lib import percpu

tab = percpu.table(json.load(open(sys.argv[1])))
rows = {s["rq_affinity"]: s for s in tab["settings"]}
bad = 0


def check(what, ok, value):
    global bad
    print(("ok: " if ok else "FAIL: ") + f"{what}: {value}")
    bad += not ok


check("two settings measured", sorted(rows) == ["0", "2"], sorted(rows))
for rqa, cpu in (("0", "0"), ("2", "1")):
    s = rows[rqa]
    check(f"rq_affinity={rqa}: I/Os between the windows", s["ios"] > 10000, s["ios"])
    check(f"rq_affinity={rqa}: the completion functions on CPU {cpu}", s["completion_on"] == f"CPU {cpu}",
          f"{s['completion_on']} ({ {c: round(v, 1) for c, v in s['completion'].items()} })")
    mq = s["functions"].get("ramlld_mq_complete [ramlld]", {})
    check(f"rq_affinity={rqa}: ramlld_mq_complete on CPU {cpu} only", set(mq) == {cpu}, mq)
    cnt = s["counters"]
    check(f"rq_affinity={rqa}: debugfs done_mq one per I/O on CPU {cpu}",
          abs(cnt[cpu]["done_mq"] - 1) < 0.01 and all(abs(cnt[c]["done_mq"]) < 0.01 for c in cnt if c != cpu),
          {c: round(v["done_mq"], 4) for c, v in cnt.items()})
    check(f"rq_affinity={rqa}: debugfs irq_mq one per I/O on CPU 0",
          abs(cnt["0"]["irq_mq"] - 1) < 0.01, {c: round(v["irq_mq"], 4) for c, v in cnt.items()})
    check(f"rq_affinity={rqa}: the functions' CPU shares equal the counters'", s["check"]["ok"],
          s["check"]["what"])
    check(f"rq_affinity={rqa}: the CPUs sum to the plugin's window total",
          abs(s["total"] - s["plugin_total"]) < 1e-6 * s["total"], f"{s['total']:.3f} vs {s['plugin_total']:.3f}")
    check(f"rq_affinity={rqa}: plugin total within 2 % of the clock's 10^9/IOPS",
          abs(s["total"] / s["clock"] - 1) < 0.02, f"{s['total']:.1f} vs {s['clock']:.1f}")
    b = s["busiest"]
    check(f"rq_affinity={rqa}: the model's IOPS is 10^9 over the busiest CPU's count",
          abs(s["model_iops"] * s["by_cpu"][b] - 1e9) < 1 and s["by_cpu"][b] == max(s["by_cpu"].values()),
          f"CPU {b}: {s['by_cpu'][b]:.1f} -> {s['model_iops']:.0f}")
# the completion's IPI lands on the submitter (CPU 1): its IPI layer grows (measured +9 to +10
# per I/O) and the call-function queue's list reversal appears there (+6.5); CPU 0, which
# already takes ramlld's own interrupt IPIs under both settings, changes little
ipi = rows["2"]["lay"]["IPI"]["1"] - rows["0"]["lay"]["IPI"]["1"]
rev = rows["2"]["added"].get("llist_reverse_order", {}).get("1", 0)
check("rq_affinity=2 adds IPI instructions on the submitter, CPU 1 (the completion sent there)",
      ipi > 5 and rev > 3, f"IPI layer {ipi:+.1f} per I/O, llist_reverse_order {rev:+.1f}; functions: "
      f"{sorted(f for f in rows['2']['added'] if rows['2']['layers'].get(f) == 'IPI')[:6]}")
sys.exit(1 if bad else 0)
EOF
