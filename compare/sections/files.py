# SPDX-License-Identifier: GPL-2.0
"""Files: what a results folder holds."""

TITLE = "Files"
ORDER = 160


def render(run, plots):
    return ["## Files", "",
            "raw/<target>/<profile>/<workload>/<section>/r<N>.json (fio), .cpu (/proc/stat "
            "before/after), .queue (sysfs read back after the run); breakdown/<target>/ "
            "(btt.txt, perf.txt, fio JSON of the traced runs); knobs/knobs.jsonl; iprofile/PATH/ and "
            "percpu/ (`--exact-profile`: tools/iprofile's profiles); results.csv, "
            "results.json; report.md and report.html (this report, rebuilt by `compare/run "
            "--report DIR`); guest-run.log.", ""]
