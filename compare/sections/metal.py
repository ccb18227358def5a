# SPDX-License-Identifier: GPL-2.0
"""Bare metal (compare/bare-metal): the host's clock facts and the hardware counters per I/O
(compare/metal.py reads them); nothing for a run in a guest."""

import metal  # (compare/metal.py)

TITLE = "Bare metal"
ORDER = 50


def render(run, plots):
    return metal.markdown(run.root)
