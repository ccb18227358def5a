# SPDX-License-Identifier: GPL-2.0
"""Bare metal (compare/bare-metal): the host's clock facts and the hardware counters per I/O
(compare/metal.py reads them); nothing for a run in a guest."""

import os
import sys

TITLE = "Bare metal"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import metal  # noqa: E402  (compare/metal.py)


def render(run, plots):
    return metal.markdown(run.root)
