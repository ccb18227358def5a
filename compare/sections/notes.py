# SPDX-License-Identifier: GPL-2.0
"""Notes: skipped targets, warnings and failures compare/guest-run recorded."""

TITLE = "Notes"
ORDER = 40


def render(run, plots):
    if not run.notes:
        return []
    return (["## Notes (skipped targets, warnings)", ""]
            + [f"- **{n['kind']}** {n['target']}: {n['text']}" for n in run.notes] + [""])
