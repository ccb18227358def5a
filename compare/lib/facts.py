# SPDX-License-Identifier: GPL-2.0
"""The one reader of facts.txt: what compare/host/metal-lib.sh's facts wrote about a host
(compare/bare-metal's, before and after its run; each host's of compare/two-host, at its start).
A record is a "# WHEN (time)" line and the "KEY VALUE..." lines below it."""


def read(path):
    """[(heading, lines)] of a facts.txt, a record each, in the file's order; lines before the
    first heading are left out. None when the file cannot be read."""
    records = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("# "):
                    records.append((line, []))
                elif records:
                    records[-1][1].append(line)
    except OSError:
        return None
    return records


def lines_of(records, when):
    """The lines of the records whose heading is "# WHEN..." (all records: when="")."""
    return [line for heading, lines in records if heading.startswith("# " + when) for line in lines]


def value(lines, key, default="-"):
    """The VALUE of the first "KEY VALUE" line, or default."""
    for line in lines:
        if line.startswith(key + " "):
            return line[len(key) + 1:]
    return default
