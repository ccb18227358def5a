#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/metal.py's hardware-counter table of a bare-metal run from made-up perf stat counts: instructions and cycles per I/O (user, kernel) over fio's reads + writes, "-" for a count perf could not make and for the IPC then, the 95 % bounds of the IOPS over the rounds; a run not on bare metal gets no section
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 4,000,000 instructions (3 M kernel) over 1,000 I/Os a run; IOPS 900 and 1,100 over two rounds
in_compare python3 - "$TOP/compare" "$dir/pmu" << 'EOF' || fail "metal.py's per-I/O table"
import json, os, sys
import metal
root = sys.argv[2]
d = os.path.join(root, "raw/brd/default/qd32/randread-4k-qd32")
os.makedirs(d, exist_ok=True)
open(os.path.join(root, "meta.env"), "w").write("bare_metal=1\npmu=yes\n")
for r, iops in ((1, 900.0), (2, 1100.0)):
    json.dump({"jobs": [{"read": {"total_ios": 600, "iops": iops * 0.6},
                         "write": {"total_ios": 400, "iops": iops * 0.4}}]},
              open(f"{d}/r{r}.json", "w"))
    open(f"{d}/r{r}.pmu", "w").write("# started on x\n\n1000000,,instructions:u,1,100.00,,\n"
                                     "3000000,,instructions:k,1,100.00,,\n"
                                     "2000000,,cycles:u,1,100.00,,\n<not counted>,,cycles:k,0,0,,\n")
text = "\n".join(metal.markdown(root))
want = "| brd | default | qd32/randread-4k-qd32 | 2 | 1,000 | -271..2,271 | 1,000 | 3,000 | 2,000 | - | - |"
assert want in text, text
print("ok: " + want)
open(os.path.join(root, "meta.env"), "w").write("pmu=yes\n")
assert metal.markdown(root) == [], "a section for a run not on bare metal"
print("ok: no section without bare_metal=1")
EOF
echo "ok: the hardware-counter table"
