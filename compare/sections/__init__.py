# SPDX-License-Identifier: GPL-2.0
"""The report's sections, one a file: each has TITLE and render(run, out) -> markdown lines,
run a lib.results.Run (a results folder read once), out a lib.fmt.Plots (where its PNGs go)."""
