#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: drivers/scsi_cdb.c host unit tests: page bytes, sense, allocation lengths, LBA ranges, MODE SELECT
# where: host
# requires: cc
# timeout: 120
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$top/build/unit
mkdir -p "$out"
cc -std=gnu11 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	-I"$top/drivers" "$top/tests/unit/scsi_cdb_test.c" "$top/drivers/scsi_cdb.c" \
	-o "$out/scsi_cdb_test" || { echo "scsi_cdb_test: build failed"; exit 1; }
"$out/scsi_cdb_test"
