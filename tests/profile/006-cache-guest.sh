#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the plugin's cache model in a profiled guest (ramlld's mq disk, 4k randread QD32, QEMU 7.2, 1 vCPU, exact clock, a 1 s window, --cache default): its parameters named in the table (L1d 32768 B 8-way, L2 1048576 B 16-way, 64 B lines); copy_page's misses per I/O those of a 4 KiB copy out of a 16 MiB store (64 lines read and 64 written: 128 L1d misses; 64 x 15/16 = 60 of the reads miss a 1 MiB L2, within 1.5); the CPU's L1d and L2 misses equal to its functions' sums; loads and stores above L1d misses, above L2 misses; the instruction count still within 0.01 % of the clock with the model on; a bad --cache refused before a guest boots
# where: host
# requires: qemu-system-x86_64 python3 fio gcc
# timeout: 1500
# suite: profile
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/profile-lib.bash
. "$TOP/tests/profile-lib.bash"

[ -f "$RAMLLD_KO" ] || skip "no module $RAMLLD_KO (make)"
plugin_or_skip system

rc=0
"$TOP/tools/iprofile/run" --out "$RESULTS/x" --cache 32768:8:1048576:16 -- --target ramlld-mq \
	> /dev/null 2> "$RESULTS/bad.err" < /dev/null || rc=$?
cat "$RESULTS/bad.err"
{ [ "$rc" = 2 ] && grep -q "allowed: default, or L1DSIZE:L1DASSOC:L2SIZE:L2ASSOC:LINE" "$RESULTS/bad.err"; } ||
	fail "a --cache of four numbers not refused with exit 2 naming the form (exit $rc)"
[ ! -e "$RESULTS/x/profile.txt" ] || fail "the refused run wrote a profile"

out=$RESULTS/cell
"$TOP/tools/iprofile/run" --out "$out" --cache default -- --target ramlld-mq --runtime 1 --ko "$RAMLLD_KO" < /dev/null ||
	fail "tools/iprofile/run --cache default failed"
"$TOP/tools/iprofile/table" "$out" --top 10 --json "$RESULTS/cell.json" || fail "tools/iprofile/table failed"
cat "$out/wall.env"

{
	checks_py
	cat << 'EOF'
j = json.load(open(sys.argv[1]))
c = j["cache"] or {}
model = c.get("model", "")
check("the model's parameters named", model.startswith(
    "per CPU L1d 32768 B 8-way, L2 1048576 B 16-way, line 64 B, LRU"), model)
check("one CPU's counters", list(c.get("cpus", {})) == ["0"], list(c.get("cpus", {})))
acc, m1, m2 = c["cpus"]["0"]
check("loads+stores > L1d misses > L2 misses > 0 per I/O", acc > m1 > m2 > 0,
      f"{acc:.2f} > {m1:.2f} > {m2:.2f}")
f1 = sum(v.get("0", [0, 0])[0] for v in c["functions"].values())
f2 = sum(v.get("0", [0, 0])[1] for v in c["functions"].values())
check("the functions' L1d misses sum to the CPU's", abs(f1 - m1) < 1e-6 * m1, f"{f1:.4f} vs {m1:.4f}")
check("the functions' L2 misses sum to the CPU's", abs(f2 - m2) < 1e-6 * m2, f"{f2:.4f} vs {m2:.4f}")
cp1, cp2 = c["functions"].get("copy_page", {}).get("0", [0, 0])
check("copy_page: 128 L1d misses per I/O (64 lines read, 64 written)", abs(cp1 - 128) < 1, f"{cp1:.2f}")
check("copy_page: 60 L2 misses per I/O (64 x 15/16, a 16 MiB store through a 1 MiB L2)",
      abs(cp2 - 60) < 1.5, f"{cp2:.2f}")
total, clock = j["total"], j["window_clock"]
check("instructions per I/O within 0.01 % of the clock over the window, the model on",
      abs(total / clock - 1) < 1e-4, f"{total:.2f} vs {clock:.2f} ({100 * (total / clock - 1):+.4f} %)")
check("I/Os in the window", j["n"] > 10000, j["n"])
done()
EOF
} | python3 - "$RESULTS/cell.json" || fail "the cache model's values are wrong"
