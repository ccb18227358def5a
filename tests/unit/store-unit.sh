#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: drivers/store.c host unit tests: every verb's ranges, a hole's page failing to come, the gfp per context, discard, throw-away, compare-and-write, threads racing writes, discards, fills and compare-and-write on the slots' locks
# where: host
# requires: cc
# timeout: 120
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$top/build/unit
mkdir -p "$out"
cc -std=gnu11 -g -O1 -pthread -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	-I"$top/tests/unit/shim" -I"$top/drivers" "$top/tests/unit/store_test.c" "$top/drivers/store.c" \
	-o "$out/store_test" || { echo "store_test: build failed"; exit 1; }
"$out/store_test"
