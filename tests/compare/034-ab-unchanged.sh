#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ab in guests, modules only (--kernel): a patch that changes brd's load and nothing its rows run (compare/ab-patches/brd-load-message.patch) gives a changed kernel whose brd.ko carries the patch, and "unchanged" on each of brd's rows (4k randread io_uring QD32, hipri-all, QD1), with both kernels' runs agreeing
# where: host
# requires: qemu-system-x86_64 python3 patch
# timeout: 2400
. "$TOP/tests/lib.sh"

out_dir=$RESULTS/ab
rc=0
"$TOP/compare/ab" --ab-patch "$TOP/compare/ab-patches/brd-load-message.patch" --kernel bookworm \
	--targets brd --no-perf --out "$out_dir" <&- > "$RESULTS/ab.log" 2>&1 || rc=$?
tail -n 20 "$RESULTS/ab.log"
expect_eq "compare/ab exit status" 0 "$rc"

# The changed kernel is a copy of Debian's with brd.ko rebuilt from the patched source.
key=$(sed -n 's/^- changed: .*key \(ab-mod-[0-9a-f]*\),.*/\1/p' "$out_dir/ab.md")
[ -n "$key" ] || fail "ab.md names no changed kernel (- changed: ... key ab-mod-...)"
cache=${RAMLLD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ramlld}
ko=$(find "$cache/kernels/$key/lib/modules" -name 'brd.ko*' | head -n 1)
[ -n "$ko" ] || fail "no brd.ko in the changed kernel $cache/kernels/$key"
case $ko in
*.xz) text=$(xz -dc "$ko" | strings) ;;
*) text=$(strings "$ko") ;;
esac
grep -q 'brd: %d devices of %lu KiB' <<< "$text" || fail "$ko does not carry the patch's message"
echo "ok: the changed kernel's $(basename "$ko") carries the patch"

# Every row: unchanged, and neither kernel's runs disagree.
python3 - "$out_dir/ab.csv" "$out_dir/ab.md" << 'EOF' || fail "a row is not unchanged"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
md = open(sys.argv[2]).read()
want = {"io_uring", "hipri-all", "io_uring-qd1"}
got = {r["workload"] for r in rows if r["target"] == "brd"}
assert got == want, f"brd's rows {sorted(got)}, expected {sorted(want)}"
bad = 0
for r in rows:
    base, changed, bound = (float(r[k]) for k in ("base", "changed", "bound"))
    m = re.search(rf"^\| {re.escape(r['target'])} \| {re.escape(r['workload'])} \|.*\*\*([a-z ]+)\*\* \|$", md, re.M)
    verdict = m.group(1) if m else "missing"
    print(f"{r['target']}/{r['workload']}: {base:.1f} -> {changed:.1f} ({changed - base:+.1f}, bound {bound:.1f}): {verdict}")
    bad += verdict != "unchanged" or abs(changed - base) > bound
sys.exit(bad > 0)
EOF
echo "ok: every row unchanged"
