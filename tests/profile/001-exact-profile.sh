#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the profiling plugin (tools/iprofile) built against Debian 12's QEMU 7.2, one profiled cell (ramlld's mq disk, 4k randread QD32, 1 vCPU, exact clock, a 1 s window inside fio's steady I/O): its instructions per I/O within 0.01 % of the clock over the same window (measured within 0.001 %), no idle time in the window, the I/Os submitted and completed there within the queue depth, the plugin's own window total equal to the sum of its per-address counts, the functions and layers summing to the total, ramlld_mq_issue (its submit, once per request) on CPU 0 at a whole number of instructions per I/O, and bad plugin arguments refused
# where: host
# requires: qemu-system-x86_64 python3 fio gcc
# timeout: 1500
. "$TOP/tests/lib.sh"
# shellcheck source=tests/profile-lib.bash
. "$TOP/tests/profile-lib.bash"

[ -f "$RAMLLD_KO" ] || skip "no module $RAMLLD_KO (make)"
# The header comes from Debian's source package (network, once); without it there is no plugin.
plugin_or_skip system
so=$plugin_so
echo "ok: plugin built: $so"

# A bad argument stops QEMU before the guest boots, naming what is allowed.
rc=0
"$TOP/tools/vm/run" --clock icount --cpus 1 --qemu system --plugin "$so,out=$RESULTS/x,color=red" --timeout 60 -- true \
	> /dev/null 2> "$RESULTS/badarg.err" <&- || rc=$?
cat "$RESULTS/badarg.err"
[ "$rc" != 0 ] || fail "the plugin took an unknown argument"
grep -q "allowed: out=FILE mark=ADDR" "$RESULTS/badarg.err" || fail "the refusal does not name the allowed arguments"

out=$RESULTS/cell
"$TOP/tools/iprofile/run" --out "$out" -- --target ramlld-mq --runtime 1 --ko "$RAMLLD_KO" <&- ||
	fail "tools/iprofile/run failed"
"$TOP/tools/iprofile/table" "$out" --top 15 --json "$RESULTS/cell.json" || fail "tools/iprofile/table failed"

{
	checks_py
	cat << 'EOF'
j = json.load(open(sys.argv[1]))
total, clock = j["total"], j["window_clock"]
check("I/Os in the window", j["n"] > 10000, j["n"])
check("I/Os submitted and completed in the window within the depth (32)",
      abs(j["submitted"] - j["n"]) <= 32, f"{j['submitted']} and {j['n']}")
check("no idle time in the window", j["window_idle_s"] == 0, j["window_idle_s"])
check("plugin total vs the clock over the window (within 0.01 %)", abs(total / clock - 1) < 1e-4,
      f"{total:.3f} vs {clock:.3f} ({100 * (total / clock - 1):+.4f} %)")
check("the plugin's window totals equal its per-address counts",
      abs(j["plugin_total"] - total) < 1e-6 * total, f"{j['plugin_total']:.4f} vs {total:.4f}")
fsum = sum(v for cpus in j["functions"].values() for v in cpus.values())
check("functions sum to the total", abs(fsum - total) < 1e-6 * total, f"{fsum:.4f}")
lsum = sum(j["layers"].values())
check("layers sum to the total", abs(lsum - total) < 1e-6 * total, f"{lsum:.4f}")
q = j["functions"].get("ramlld_mq_issue [ramlld]", {})
check("ramlld_mq_issue on CPU 0 only", list(q) == ["0"], q)
v = q.get("0", 0)
# one call per I/O, the same path each time: a whole number of instructions per I/O
check("ramlld_mq_issue a whole number of instructions per I/O", v > 10 and abs(v - round(v)) < 0.01,
      f"{v:.3f}")
check("the driver layer is there", j["layers"].get("driver", 0) > 100, j["layers"].get("driver"))
done()
EOF
} | python3 - "$RESULTS/cell.json" || fail "the profile's values are wrong"
