# SPDX-License-Identifier: GPL-2.0
"""The report's shared core: one reader of a results folder (results), one statistics module
(stats), one perf-report parser with one symbol-to-layer table (perf), one number and table
format (fmt)."""
