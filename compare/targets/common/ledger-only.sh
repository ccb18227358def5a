# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/ledger-only.sh: what the targets around the block layer share (sg, NVMe
# passthrough): their device is a character device that only one fio engine drives, so their
# rows are the ledger's (compare/ledger-paths.sh) and the matrix's block workloads skip them.

# ledger_only_devices NODE ENGINE ROWS: no devices for the matrix; the skip says where the
# target's rows are (ROWS: the compare/run options that select them)
ledger_only_devices() {
	DEVS=()
	note skip "$TARGET" "$1 takes fio's $2 engine only, not the matrix's block workloads: its rows are the ledger's (compare/run --ledger $3)"
	return 1
}
