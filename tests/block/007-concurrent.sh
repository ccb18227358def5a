#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: 4 concurrent verifying fio jobs per disk (bio and mq at once, same store, disjoint regions)
# where: guest
# requires: fio
# timeout: 240
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=32
# bio jobs own the first half of the store, mq jobs the second half
fio --direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite --bs=4k --verify=crc32c \
	--verify_fatal=1 --numjobs=4 --size=4M --output-format=json \
	--name=bio --filename=/dev/ramlld0 --offset=0 --offset_increment=4M \
	--name=mq --filename=/dev/ramlldmq0 --offset=16M --offset_increment=4M \
	--output=/tmp/fio.json || fail "concurrent verify failed: $(tail -20 /tmp/fio.json)"
python3 - /tmp/fio.json <<'PY' || fail "fio reported errors"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])  # fio may print notes before the JSON
errs = sum(j["error"] for j in d["jobs"])
n = len(d["jobs"])
print(f"ok: {n} jobs, total errors {errs}")
sys.exit(1 if errs or n != 8 else 0)
PY
ramlld_unload
