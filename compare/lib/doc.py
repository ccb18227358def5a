# SPDX-License-Identifier: GPL-2.0
"""The one writer of every report's files (the comparison's report.md and report.html,
results.md, ab.md, kernels.md, ledger.md, ledger-kernels.md, knobs.md, ladder.md): a report is
a list of markdown lines (tables from lib/fmt.py's table()), written here."""

import json
import os

from .html import convert


def text(lines):
    """The markdown text of a report's lines: one line each, a newline after the last."""
    return "\n".join(lines) + "\n"


def write(path, lines, html_title=None, data=None):
    """Writes text(lines) to path (a .md file); with html_title, the same report as a
    self-contained .html beside it (its plots, PNGs in path's folder, embedded); with data, the
    report's figures as a .json beside it (indented by 1, a value JSON lacks as its text).
    Returns the text."""
    md = text(lines)
    with open(path, "w", encoding="utf-8") as f:
        f.write(md)
    if html_title:
        with open(path[:-len(".md")] + ".html", "w", encoding="utf-8") as f:
            f.write(convert(md, os.path.dirname(path) or ".", html_title))
    if data is not None:
        with open(path[:-len(".md")] + ".json", "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, default=str)
    return md
