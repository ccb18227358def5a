#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""compare/two-node-report.py DIR: each side's instructions per I/O of a compare/two-node
results folder (its counted runs DIR/run-N, each side's mean and spread over them) and, when
DIR/profile holds the perf pass, each side's split by layer and its largest functions
(compare/lib/twonode.py reads the files)."""

import sys

from lib.twonode import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
