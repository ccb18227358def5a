# SPDX-License-Identifier: GPL-2.0
"""The report's sections, one a file: each has TITLE, ORDER (its place in the report; seed
sections share one and follow their names) and render(run, out) -> markdown lines, run a
lib.results.Run (a results folder read once), out a lib.fmt.Plots (where its PNGs go). A file
of several sections lists them as SECTIONS, (order, name, render) each. A seed section,
seedNNN.py, also has CLAIM (the post's claim in a line, what its ratio is of: the summary's
row) and REPRODUCE (compare/run's selection of it: docs/seeds.md's reproduce line)."""

import importlib
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def _modules(pattern):
    return [importlib.import_module(f"sections.{f[:-3]}") for f in sorted(os.listdir(HERE))
            if re.fullmatch(pattern, f)]


def seeds():
    """The seed sections' modules, sections/seedNNN.py, in number order."""
    return _modules(r"seed\d{3}\.py")


def report():
    """The report, section by section, in order: (name, render) of every file's sections."""
    entries = []
    for mod in _modules(r"[a-z]\w*\.py"):
        if hasattr(mod, "SECTIONS"):
            entries += mod.SECTIONS
        elif hasattr(mod, "ORDER"):
            entries.append((mod.ORDER, mod.__name__.split(".")[1], mod.render))
    return [(name, render) for _, name, render in sorted(entries, key=lambda e: e[:2])]
