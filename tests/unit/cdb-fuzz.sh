#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: libFuzzer on drivers/scsi_cdb.c (any 6-32 byte CDB, any buffer lengths): no crash, no OOB, deterministic
# where: host
# requires: clang-14
# timeout: 120
#
# RAMLLD_FUZZ_SECONDS (default 45) bounds the run; the corpus is kept in build/unit/cdb-corpus.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$top/build/unit
seconds=${RAMLLD_FUZZ_SECONDS:-45}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "RAMLLD_FUZZ_SECONDS=$seconds is invalid: a number of seconds"; exit 1; }
mkdir -p "$out/cdb-corpus" "$out/cdb-seeds" "$out/cdb-crashes"
clang-14 -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$top/drivers" "$top/tests/fuzz/scsi_cdb_fuzz.c" "$top/drivers/scsi_cdb.c" \
	-o "$out/scsi_cdb_fuzz" || { echo "scsi_cdb_fuzz: build failed (is libclang-rt-14-dev installed?)"; exit 1; }

# Seeds: one valid command each (header: unit, CDB length index, din_cap, dout limit).
seed() { printf '%b' "$2" > "$out/cdb-seeds/$1"; }
seed inquiry      '\x00\x00\x10\x00\xff\x12\x00\x00\x00\x60\x00'
seed vpd83        '\x01\x00\x10\x00\xff\x12\x01\x83\x01\x00\x00'
seed rc16         '\x02\x03\x10\x00\xff\x9e\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x20\x00\x00'
seed read16       '\x04\x03\x00\x00\xff\x88\x08\x00\x00\x00\x00\x00\x00\x07\xf0\x00\x00\x00\x10\x00\x00'
seed write10      '\x05\x01\x00\x00\xff\x2a\x08\x00\x00\x07\xff\x00\x00\x01\x00'
seed modesense10  '\x06\x01\x10\x00\xff\x5a\x10\x3f\xff\x00\x00\x00\x10\x00\x00'
seed modeselect6  '\x07\x00\x00\x00\xff\x15\x10\x00\x00\x18\x00\x00\x00\x10\x00\x08\x12\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
seed modeselect10 '\x27\x01\x00\x00\xff\x55\x10\x00\x00\x00\x00\x00\x00\x14\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x0a\x06\x10\x00\x00\x00\x00\x00\x00\x00\x00'
seed unmap        '\x04\x01\x00\x00\xff\x42\x00\x00\x00\x00\x00\x00\x00\x18\x00\x00\x16\x00\x10\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x08\x00\x00\x00\x00'
seed writesame16  '\x04\x03\x00\x00\xff\x93\x08\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x08\x00\x00'
seed opcodes      '\x08\x02\x10\x00\xff\xa3\x0c\x82\x9e\x00\x10\x00\x00\x10\x00\x00\x00'
seed reportluns   '\x09\x02\x10\x00\xff\xa0\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00'
seed reqsense     '\x89\x00\x10\x00\xff\x03\x01\x00\x00\xff\x00'

echo "fuzzing drivers/scsi_cdb.c for ${seconds}s"
cd "$out/cdb-crashes"
"$out/scsi_cdb_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	"$out/cdb-corpus" "$out/cdb-seeds" 2>"$out/cdb-fuzz.log" || {
	tail -40 "$out/cdb-fuzz.log"
	echo "scsi_cdb_fuzz: failure, reproducer in $out/cdb-crashes"
	exit 1
}
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$out/cdb-fuzz.log" || true
echo "ok: no crash, no sanitizer report, deterministic results"
