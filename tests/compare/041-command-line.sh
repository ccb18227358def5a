#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/lib/command-line.sh, the command= line of compare/run, compare/ab, compare/bare-metal and compare/two-host: plain arguments as typed, any other in single quotes, so that a shell reads the line back into the same arguments
# where: host
# timeout: 30
. "$TOP/tests/lib.sh"

# shellcheck source=compare/lib/command-line.sh
. "$TOP/compare/lib/command-line.sh"
# shellcheck disable=SC2016 # '$HOME' is an argument as typed, not expanded
args=(--quick --targets "ramlld-sd,brd" --runtime 0.5 --ledger-rows '^(ramlld-bio|brd)/io_uring$'
	--two-node-args "--runs 2" "it's" '$HOME' '')
command_line "${args[@]}"
# the line as compare/run writes it, quotes and all
want=$(cat << 'END'
--quick --targets ramlld-sd,brd --runtime 0.5 --ledger-rows '^(ramlld-bio|brd)/io_uring$' --two-node-args '--runs 2' 'it'\''s' '$HOME' ''
END
)
expect_eq "the line" "$want" "$args_line"
back=()
eval "back=($args_line)"
expect_eq "the arguments read back" "$(printf '<%s>' "${args[@]}")" "$(printf '<%s>' "${back[@]}")"
command_line
expect_eq "no arguments" "" "$args_line"
